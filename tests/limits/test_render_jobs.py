"""R-155: PDFs made on the print workers (battle packs, big prints of cards) are bounded like
simulator runs. A pack of two 100-unit fleets takes a worker about 20 s, and every change of
paper, terrain, movement or fleet is a new pack: before the bound one browser could queue them
as fast as the rate limit let it (30 a minute). Now a requester has at most
MAX_ACTIVE_PER_OWNER unfinished jobs of a kind (429 saying why, nothing kept), asking again for
one of them still leads to it, and the queue as a whole holds at most RENDER_MAX_QUEUED
(503); another requester is still served."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from fleetbuilder.battlepack.models import BattlePack
from fleetbuilder.cards.models import PrintJob
from fleetbuilder.cards.printing import SYNC_MAX_CARDS
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.ownership import new_owner_token
from fleetbuilder.renderjobs import MAX_ACTIVE_PER_OWNER
from rules_core import fleet as rf

pytestmark = pytest.mark.django_db

PACK = {
    "a_source": "sample",
    "a_faction": "imperial-navy",
    "a_size": "patrol",
    "b_source": "sample",
    "b_faction": "orks",
    "b_size": "patrol",
    "movement": "standard",
}
# Distinct packs of the same two fleets: more than the bound.
OPTIONS = [
    {"paper": paper, "terrain": terrain}
    for terrain in ("none", "section13", "void")
    for paper in ("a4", "letter")
]


@pytest.fixture(autouse=True)
def _held(catalog, settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogue loaded (a transactional test may have flushed it), no rate limits; jobs
    are queued and never rendered here (they stay unfinished)."""
    from fleetbuilder.battlepack.tasks import render_pack
    from fleetbuilder.cards.tasks import render_print

    settings.RATE_LIMITS = {scope: 0 for scope in settings.RATE_LIMITS}
    for task in (render_pack, render_print):
        monkeypatch.setattr(task, "apply_async", lambda args, **kwargs: None)


def _pack(client: Client, options: dict[str, str]) -> Any:
    return client.post("/pack/", {**PACK, **options})


def test_a_browser_has_at_most_the_bound_of_unfinished_packs() -> None:
    player, other = Client(), Client()
    for options in OPTIONS[:MAX_ACTIVE_PER_OWNER]:
        assert _pack(player, options).status_code == 302
    refused = _pack(player, OPTIONS[MAX_ACTIVE_PER_OWNER])
    assert refused.status_code == 429
    assert (
        f"You already have {MAX_ACTIVE_PER_OWNER} battle packs being made"
        in refused.content.decode()
    )
    assert (
        BattlePack.objects.filter(session_key=player.session["fleet_owner_token"]).count()
        == MAX_ACTIVE_PER_OWNER
    )
    again = _pack(player, OPTIONS[0])  # one it has: still its page
    assert again.status_code == 302
    assert (
        again["Location"]
        == BattlePack.objects.get(
            paper="a4", terrain="none", session_key=player.session["fleet_owner_token"]
        ).get_absolute_url()
    )
    assert _pack(other, OPTIONS[MAX_ACTIVE_PER_OWNER]).status_code == 302


def test_a_finished_pack_makes_room() -> None:
    player = Client()
    for options in OPTIONS[:MAX_ACTIVE_PER_OWNER]:
        _pack(player, options)
    BattlePack.objects.filter(
        paper="a4", terrain="none", session_key=player.session["fleet_owner_token"]
    ).update(status="done")
    assert _pack(player, OPTIONS[MAX_ACTIVE_PER_OWNER]).status_code == 302


def test_the_matchup_pages_pack_button_is_bounded_too(catalog, held_chunks: list[Any]) -> None:
    from fleetbuilder.simulator.models import Matchup
    from rules_core.sample_fleets import sample_fleet
    from rules_core.sim import SimOptions

    runs = [
        Matchup.start(
            fleet_a=sample_fleet(catalog, "imperial-navy", "patrol"),
            fleet_b=sample_fleet(catalog, "orks", "patrol"),
            sources={},
            options=SimOptions(terrain=terrain),
            seed=1,
            battles=2,
            owner=None,
            owner_token=f"runner-{terrain}",
        )
        for terrain in ("none", "section13")
    ]
    player = Client()
    answers = [
        player.post(f"/pack/from-run/{run.public_id}/", {"paper": paper}).status_code
        for run in runs
        for paper in ("a4", "letter")
    ]
    assert answers == [302] * MAX_ACTIVE_PER_OWNER + [429] * (4 - MAX_ACTIVE_PER_OWNER)


def test_the_queue_as_a_whole_is_bounded(settings) -> None:
    waiting = BattlePack.objects.filter(status__in=BattlePack.ACTIVE).count()
    settings.RENDER_MAX_QUEUED = waiting + 2
    one, two, three = Client(), Client(), Client()
    assert _pack(one, OPTIONS[0]).status_code == 302
    assert _pack(two, OPTIONS[1]).status_code == 302
    busy = _pack(three, OPTIONS[2])
    assert busy.status_code == 503 and "busy" in busy.content.decode()
    assert BattlePack.objects.filter(status__in=BattlePack.ACTIVE).count() == waiting + 2


def test_big_prints_are_bounded_per_browser(catalog) -> None:
    faction = catalog.faction("imperial-navy")
    escort = min((s for s in faction.ships if s.is_escort), key=lambda s: s.points)
    units = tuple(
        rf.Squadron((rf.SquadronShip(escort.slug),) * 2, name=f"S{i}")
        for i in range(SYNC_MAX_CARDS + 1)
    )
    doc = rf.Fleet("imperial-navy", rf.GameSize.ARMADA, units, name="Big print")
    player = Client()
    session = player.session
    token = new_owner_token()
    session["fleet_owner_token"] = token
    session.save()
    fleet = Fleet.from_core(doc, catalog, owner_token=token)
    queries = [f"?layout={layout}&ink={ink}" for layout in ("poker", "a4") for ink in (0, 1)]
    answers = [player.get(f"/cards/fleet/{fleet.pk}/{q}") for q in queries]
    assert [a.status_code for a in answers] == [302] * MAX_ACTIVE_PER_OWNER + [429] * (
        len(queries) - MAX_ACTIVE_PER_OWNER
    )
    assert "being made" in answers[-1].content.decode()
    assert PrintJob.objects.filter(session_key=token).count() == MAX_ACTIVE_PER_OWNER


def test_a_finished_pack_made_again_is_within_the_bound_too() -> None:
    """A finished pack whose PDF the cache let go is made again when downloaded: that counts as
    a new job, so a requester cannot pile finished packs up and queue them all at once."""
    player = Client()
    _pack(player, OPTIONS[0])
    token = player.session["fleet_owner_token"]
    first = BattlePack.objects.get(session_key=token)
    BattlePack.objects.filter(pk=first.pk).update(status="done")  # its PDF is not cached
    for options in OPTIONS[1 : MAX_ACTIVE_PER_OWNER + 1]:
        assert _pack(player, options).status_code == 302
    refused = player.get(f"/pack/{first.public_id}/battle-pack.pdf")
    assert refused.status_code == 429 and "being made" in refused.content.decode()
    assert BattlePack.objects.get(pk=first.pk).status == "done"  # not queued again
    BattlePack.objects.filter(session_key=token).exclude(pk=first.pk).update(status="done")
    again = player.get(f"/pack/{first.public_id}/battle-pack.pdf")
    assert again.status_code == 302 and BattlePack.objects.get(pk=first.pk).status == "queued"
