"""R-153: a what-if analysis plays at most MAX_VARIANTS versions of a fleet. A fleet of many
unlike squadrons (within R-95's bounds) has hundreds of versions: before the bound, one form
post checked every one of them in the request (seconds), stored megabytes in the analysis's
row and queued most of the simulator's queue. Now the baseline and every removal come first,
then as many swaps as fit; the rest are listed as not played, saying why. An analysis stored
with more versions is refused when run again (a 400 saying the bound), not started."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.analysis.models import MAX_VARIANTS, Analysis, variant_records
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.ownership import new_owner_token
from rules_core import fleet as rf
from rules_core.limits import MAX_FLEET_POINTS, MAX_UNITS
from rules_core.sim import SimOptions
from rules_core.whatif import what_if_variants

pytestmark = pytest.mark.django_db

FACTION = "imperial-navy"
FORM = {
    "a_source": "fleet",
    "a_policy": "standard",
    "b_source": "sample",
    "b_faction": "orks",
    "b_size": "patrol",
    "b_variant": "",
    "b_policy": "standard",
    "battles": "1",
    "max_rounds": "10",
    "table": "",
    "scoring": "core",
    "terrain": "none",
    "seed": "5",
}


def many_unlike_squadrons(catalog: Any) -> rf.Fleet:
    """Squadrons of 2 to 4 escorts, each a different mix of the faction's escorts, as many as
    the points and unit bounds allow: every one is its own question (R-97)."""
    faction = catalog.faction(FACTION)
    escorts = sorted((s for s in faction.ships if s.is_escort), key=lambda s: s.points)
    units: list[rf.Unit] = []
    points = 0
    for size in (2, 3, 4):
        for mix in itertools.combinations_with_replacement(escorts, size):
            cost = sum(s.points for s in mix)
            if points + cost > MAX_FLEET_POINTS or len(units) >= MAX_UNITS:
                break
            units.append(rf.Squadron(tuple(rf.SquadronShip(s.slug) for s in mix)))
            points += cost
    return rf.Fleet(FACTION, rf.GameSize.ARMADA, tuple(units), name="Every mix")


@pytest.fixture
def browser(client: Client, settings, monkeypatch: pytest.MonkeyPatch) -> Client:
    """A browser, its analyses' chunks held (queued, never played here)."""
    from fleetbuilder.analysis.tasks import play_analysis_chunk

    settings.RATE_LIMITS = {scope: 0 for scope in settings.RATE_LIMITS}
    monkeypatch.setattr(play_analysis_chunk, "apply_async", lambda args, **kwargs: None)
    return client


def _save(client: Client, catalog: Any, doc: rf.Fleet) -> Fleet:
    session = client.session
    token = session.get("fleet_owner_token") or new_owner_token()
    session["fleet_owner_token"] = token
    session.save()
    return Fleet.from_core(doc, catalog, owner_token=token)


def test_a_fleet_of_hundreds_of_versions_plays_the_bound(browser: Client, catalog: Any) -> None:
    doc = many_unlike_squadrons(catalog)
    every, _ = what_if_variants(catalog, doc)
    assert len(every) > MAX_VARIANTS  # the attack: hundreds of versions from one click
    removals = sum(1 for v in every if v.kind == "remove")
    fleet = _save(browser, catalog, doc)
    response = browser.post("/analysis/", {**FORM, "a_fleet": str(fleet.pk)})
    assert response.status_code == 302, response.content.decode()[:500]
    analysis = Analysis.objects.get(session_key=browser.session["fleet_owner_token"])
    assert analysis.variant_count == MAX_VARIANTS
    kinds = [v["kind"] for v in analysis.variants]
    assert kinds[0] == "base" and kinds.count("remove") == min(removals, MAX_VARIANTS - 1)
    left_out = [s for s in analysis.skipped if "at most" in s["reason"]]
    assert len(left_out) == len(every) - MAX_VARIANTS
    page = browser.get(analysis.get_absolute_url()).content.decode()
    assert f"at most {MAX_VARIANTS} versions" in page


def test_an_analysis_stored_with_more_versions_is_not_run_again(
    browser: Client, catalog: Any
) -> None:
    doc = many_unlike_squadrons(catalog)
    every, _ = what_if_variants(catalog, doc)
    opponent = doc
    stored = Analysis.objects.create(
        public_id="old-analysis-with-every-version",
        session_key="someone",
        fleet=rf.fleet_to_dict(doc),
        opponent=rf.fleet_to_dict(opponent),
        variants=variant_records(every),
        variant_count=len(every),
        options=SimOptions().to_dict(),
        seed=1,
        battles=1,
    )
    before = Analysis.objects.count()
    response = browser.post(f"/analysis/a/{stored.public_id}/again/")
    assert response.status_code == 400
    assert f"at most {MAX_VARIANTS} versions" in response.content.decode()
    assert Analysis.objects.count() == before
