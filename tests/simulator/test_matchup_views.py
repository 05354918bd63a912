"""The matchup preview through the test client: starting runs, bad requests, chunked progress,
who may see and continue a run, repeating a run, and one battle's log.

The numbers the page prints must be the engine's own: a run played a chunk per request ends
with exactly the tally of one ``simulate`` call over the same fleets, options and seed.
"""

from __future__ import annotations

import html
import io
import json
import re
import shlex
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import MAX_BATTLES, Matchup
from fleetbuilder.simulator.tasks import play_chunk
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet
from rules_core.sharecode import encode
from rules_core.sim import SimOptions, play_battle, simulate

pytestmark = pytest.mark.django_db


def pct1(p: float) -> str:
    return f"{p * 100:.1f}\u00a0%"


def stat(page: str, name: str) -> str | None:
    match = re.search(rf'id="stat-{name}">([^<]+)<', page)
    return match.group(1) if match else None


def one_shot(catalog, run: Matchup, battles: int | None = None) -> dict[str, Any]:
    """The summary of one simulate call over the run's inputs."""
    tally = simulate(
        catalog,
        run.core_fleet("a"),
        run.core_fleet("b"),
        battles=battles or run.battles,
        seed=run.seed,
        options=SimOptions.from_dict(run.options),
    )
    return tally.summary(seed=run.seed)


# --- the form -------------------------------------------------------------------------------


def test_form_offers_samples_and_shared_fleets_without_saved_fleets(
    client: Client, catalog
) -> None:
    page = client.get("/simulator/").content.decode()
    assert "You have no saved fleets in this browser yet" in page
    assert 'value="sample"' in page and 'value="shared"' in page
    assert 'value="fleet"' not in page
    for faction in catalog.factions:
        assert f'value="{faction.slug}"' in page
    side_a = page[page.index('id="side-a"') : page.index('id="side-b"')]
    side_b = page[page.index('id="side-b"') :]
    assert '<option value="imperial-navy" selected>' in side_a
    assert '<option value="archenemy" selected>' in side_b


def test_preview_from_a_fleet_puts_it_on_side_a_against_a_rival_sample_of_its_points(
    client: Client, own_fleet: Callable[..., Fleet]
) -> None:
    own_fleet("orks", "battle", name="Da Big Waaagh")
    fleet = own_fleet("imperial-navy", "skirmish", name="Gothic Patrol")
    builder = client.get(f"/fleets/{fleet.pk}/").content.decode()
    assert f'href="/simulator/?a={fleet.pk}"' in builder

    page = client.get(f"/simulator/?a={fleet.pk}").content.decode()
    side_a = page[page.index('id="side-a"') : page.index('id="side-b"')]
    side_b = page[page.index('id="side-b"') :]
    assert re.search(r'value="fleet"[^>]*checked', side_a)
    assert re.search(rf'<option value="{fleet.pk}" selected>Gothic Patrol', side_a)
    assert re.search(r'value="sample"[^>]*checked', side_b)
    assert re.search(r'<option value="archenemy" selected>', side_b)
    assert re.search(r'<option value="skirmish" selected>', side_b)
    assert re.search(rf'name="b_points" value="{fleet.points}"', side_b)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"battles": "0"}, "battles", "greater than or equal to 1"),
        ({"battles": str(MAX_BATTLES + 1)}, "battles", f"less than or equal to {MAX_BATTLES}"),
        ({"battles": "many"}, "battles", "Enter a whole number"),
        ({"seed": "-1"}, "seed", "greater than or equal to 0"),
        ({"max_rounds": "0"}, "max_rounds", "greater than or equal to 1"),
        ({"terrain": "lava"}, "terrain", "Select a valid choice"),
        ({"scoring": "house"}, "scoring", "Select a valid choice"),
        ({"a_faction": ""}, "a_faction", "Choose the faction of Fleet A"),
        (
            {"b_variant": "goff-klan", "b_faction": "imperial-navy"},
            "b_variant",
            "Imperial Navy has no such variant",
        ),
        ({"a_source": "fleet"}, "a_source", "Select a valid choice"),  # no saved fleets
        ({"b_source": "shared", "b_share": ""}, "b_share", "Paste the fleet's share link"),
        ({"b_source": "shared", "b_share": "v1.@@@"}, "b_share", "No shared fleet has that"),
    ],
)
def test_a_bad_request_is_refused_with_a_message_and_starts_nothing(
    start_run: Callable[..., Any], catalog, fields: dict[str, str], field: str, message: str
) -> None:
    response = start_run(**fields)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "The battles could not start" in page
    assert f'href="#id_{field}"' in page
    assert message in page
    assert Matchup.objects.count() == 0


def test_someone_elses_fleet_cannot_be_chosen(
    start_run: Callable[..., Any], own_fleet: Callable[..., Fleet], outsider: Client
) -> None:
    mine = own_fleet()
    theirs_response = outsider.post(
        "/fleets/new/", {"name": "Secret", "faction": "orks", "variant": "", "game_size": "patrol"}
    )
    theirs = int(theirs_response.headers["Location"].strip("/").split("/")[-1])
    response = start_run(a_source="fleet", a_fleet=str(theirs))
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert "Secret" not in response.content.decode()
    assert Matchup.objects.count() == 0
    assert start_run(a_source="fleet", a_fleet=str(mine.pk)).status_code == 302


def test_a_fleet_the_engine_cannot_play_is_refused_and_nothing_is_kept(
    client: Client, start_run: Callable[..., Any]
) -> None:
    response = client.post(
        "/fleets/new/", {"name": "Empty", "faction": "orks", "variant": "", "game_size": "patrol"}
    )
    empty = response.headers["Location"].strip("/").split("/")[-1]
    response = start_run(b_source="fleet", b_fleet=empty)
    assert response.status_code == 400
    assert "The battles could not start" in response.content.decode()
    assert Matchup.objects.count() == 0


# --- a run and its results -----------------------------------------------------------------


def test_a_small_run_finishes_at_once_and_shows_the_engines_numbers(
    client: Client, started: Callable[..., Matchup], catalog
) -> None:
    run = started(battles="24", seed="7")
    assert (run.done, run.battles, run.seed) == (24, 24, 7)
    assert run.finished is not None
    expected = one_shot(catalog, run)
    assert run.summary() == expected

    page = client.get(run.get_absolute_url()).content.decode()
    assert stat(page, "a-wins") == pct1(expected["a_win_rate"])
    assert stat(page, "b-wins") == pct1(expected["b_win_rate"])
    assert stat(page, "draws") == pct1(expected["draw_rate"])
    assert f"{expected['a_wins']} · 95" in page
    assert f"fleet A scores {pct1(expected['a_score_rate'])}" in page
    assert "hx-get" not in page.split('id="sim-run"')[1].split(">")[0]  # no more polling
    assert 'http-equiv="refresh"' not in page
    assert "Finished: 24 battles played." in page
    assert "Imperial Navy Patrol Fleet (sample)" in page
    assert "Orks Patrol Fleet (sample)" in page
    assert "<code data-seed>7</code>" in page
    assert page.count("<svg") >= 5  # outcome, two victory-point charts, rounds, fate bars


def merged_one_shot(catalog, run: Matchup, ranges: list[tuple[int, int]]) -> dict[str, Any]:
    """The summary of simulate calls over the given battle ranges of the run, merged."""
    options = SimOptions.from_dict(run.options)
    tallies = [
        simulate(
            catalog,
            run.core_fleet("a"),
            run.core_fleet("b"),
            battles=hi - lo,
            seed=run.seed,
            options=options,
            first_index=lo,
        )
        for lo, hi in ranges
    ]
    total = tallies[0]
    for t in tallies[1:]:
        total = total.merge(t)
    return total.summary(seed=run.seed)


def test_chunks_played_in_any_order_end_with_the_one_shot_tally(
    client: Client,
    started: Callable[..., Matchup],
    catalog,
    held_chunks,
    settings,
) -> None:
    settings.SIM_CHUNK_BATTLES = 2
    run = started(battles="9", seed="4242")
    assert (run.status, run.done, run.chunks) == ("queued", 0, 5)
    assert sorted(held_chunks) == [(run.pk, i) for i in range(5)]  # one task per chunk
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Played <strong data-done>0</strong> of 9 battles" in page
    assert "Waiting for a simulator worker" in page
    head = page.split('id="sim-run"')[1].split(">")[0]
    assert f'hx-get="/simulator/m/{run.public_id}/"' in head and "every 1s" in head

    played: list[tuple[int, int]] = []
    for index in (3, 0, 4, 1, 2):  # workers finish chunks in any order
        assert play_chunk(run.pk, index) == len(range(*run.chunk_bounds(index)))
        played.append(run.chunk_bounds(index))
        run.refresh_from_db()
        assert run.done == sum(hi - lo for lo, hi in played)
        assert run.summary() == merged_one_shot(catalog, run, played)
        fragment = client.get(
            run.get_absolute_url(), headers={"HX-Request": "true", "HX-Target": "sim-run"}
        )
        text = fragment.content.decode()
        assert text.lstrip().startswith('<section id="sim-run"')
        assert ("hx-get" in text.split(">")[0]) is (not run.is_done)
        if not run.is_done:
            assert f"Played <strong data-done>{run.done}</strong> of 9 battles" in text
            assert "Partial results over the first" in text
    assert (run.status, run.done) == ("done", 9)
    assert run.finished is not None
    assert run.summary() == one_shot(catalog, run)


def test_without_javascript_the_page_refreshes_itself_until_the_run_ends(
    client: Client, started: Callable[..., Matchup], held_chunks, settings
) -> None:
    settings.SIM_CHUNK_BATTLES = 4
    run = started(battles="8")
    page = client.get(run.get_absolute_url()).content.decode()
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page
    assert "Continue</button>" not in page
    for index in range(run.chunks):
        play_chunk(run.pk, index)
    page = client.get(run.get_absolute_url()).content.decode()
    assert 'http-equiv="refresh"' not in page
    assert "Finished: 8 battles played." in page


def test_a_chunk_delivered_twice_counts_once(
    started: Callable[..., Matchup], catalog, held_chunks, settings
) -> None:
    settings.SIM_CHUNK_BATTLES = 5
    run = started(battles="10")
    assert play_chunk(run.pk, 1) == 5
    assert play_chunk(run.pk, 1) == 0  # delivered again after it was written: nothing
    # a worker that played it before seeing the other's row (killed, retried) records nothing
    lo, hi = run.chunk_bounds(1)
    again = simulate(
        catalog,
        run.core_fleet("a"),
        run.core_fleet("b"),
        battles=hi - lo,
        seed=run.seed,
        options=run.sim_options,
        first_index=lo,
    )
    assert run.record_chunk(1, again, 0.1) is False
    run.refresh_from_db()
    assert (run.done, run.played_chunks.count()) == (5, 1)
    assert run.summary() == merged_one_shot(catalog, run, [(5, 10)])
    assert play_chunk(run.pk, 0) == 5
    run.refresh_from_db()
    assert run.summary() == one_shot(catalog, run)


def test_a_worker_whose_database_connection_went_records_on_a_new_one(
    transactional_db,
    catalog,  # loaded again if an earlier transactional test emptied the database
    started: Callable[..., Matchup],
    held_chunks,
    settings,
    monkeypatch,
    caplog,
) -> None:
    """A worker cut off from the database longer than the server waits for a silent client
    (DB_KEEPALIVE) finds its session ended when it comes back: its chunk is recorded on a new
    connection, not lost to an error, and counted once. (Outside a test's transaction, as a
    worker is: the connection really is closed and opened again.)"""
    from django.db import OperationalError

    from fleetbuilder.runs import ChunkedRun

    settings.SIM_CHUNK_BATTLES = 5
    run = started(battles="10")
    record = ChunkedRun.record
    cuts: list[int] = []

    def cut_once(self, *args, **kwargs):
        if not cuts:
            cuts.append(1)
            raise OperationalError("server closed the connection unexpectedly")
        return record(self, *args, **kwargs)

    monkeypatch.setattr(ChunkedRun, "record", cut_once)
    assert play_chunk(run.pk, 0) == 5
    assert cuts == [1]
    assert "the database connection was lost; recording on a new one" in caplog.text
    assert play_chunk(run.pk, 0) == 0  # delivered again: counted once
    run.refresh_from_db()
    assert (run.done, run.played_chunks.count()) == (5, 1)


def test_the_owner_cancels_a_run_and_nothing_more_is_played(
    client: Client, started: Callable[..., Matchup], outsider: Client, held_chunks, settings
) -> None:
    settings.SIM_CHUNK_BATTLES = 3
    run = started(battles="9")
    play_chunk(run.pk, 0)
    assert outsider.post(f"/simulator/m/{run.public_id}/cancel/").status_code == 403
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Cancel run</button>" in page
    response = client.post(
        f"/simulator/m/{run.public_id}/cancel/",
        headers={"HX-Request": "true", "HX-Target": "sim-run"},
    )
    assert response.status_code == 200
    fragment = response.content.decode()
    assert "Cancelled after 3 of 9 battles." in fragment
    assert "hx-get" not in fragment.split(">")[0]  # polling stops
    assert play_chunk(run.pk, 1) == 0  # queued chunks find the run cancelled
    run.refresh_from_db()
    assert (run.status, run.done) == ("cancelled", 3)
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Cancel run" not in page and 'http-equiv="refresh"' not in page
    assert stat(page, "a-wins") is not None  # the three battles played still show


def test_each_player_may_have_two_unfinished_runs(
    client: Client,
    start_run: Callable[..., Any],
    started: Callable[..., Matchup],
    outsider: Client,
    held_chunks,
) -> None:
    first, _second = started(), started()
    response = start_run()
    assert response.status_code == 429
    assert "You already have 2 previews running" in html.unescape(response.content.decode())
    assert Matchup.objects.count() == 2
    assert start_run(outsider).status_code == 302  # another player is not held back
    client.post(f"/simulator/m/{first.public_id}/cancel/")
    assert start_run().status_code == 302


def test_a_full_queue_refuses_new_runs_with_a_message(
    start_run: Callable[..., Any], outsider: Client, held_chunks, settings
) -> None:
    settings.SIM_MAX_QUEUED_BATTLES = 30
    settings.SIM_SMALL_SECONDS = 0  # small runs pass the cap, bounded by budgets
    assert start_run(battles="20").status_code == 302
    response = start_run(outsider, battles="20")
    assert response.status_code == 503
    text = html.unescape(response.content.decode())
    assert "The simulator is busy: 20 battles are waiting" in text
    assert Matchup.objects.count() == 1
    assert start_run(outsider, battles="10").status_code == 302  # what fits still goes


def test_a_failing_chunk_fails_the_run_with_a_message_and_a_logged_traceback(
    client: Client, started: Callable[..., Matchup], held_chunks, monkeypatch, caplog, settings
) -> None:
    settings.SIM_CHUNK_BATTLES = 4
    run = started(battles="8")
    play_chunk(run.pk, 0)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("engine fell over")

    monkeypatch.setattr("fleetbuilder.simulator.models.simulate", broken)
    with caplog.at_level("ERROR", logger="fleetbuilder.simulator"):
        assert play_chunk(run.pk, 1) == 0
    record = next(
        r for r in caplog.records if r.name == "fleetbuilder.simulator" and r.levelname == "ERROR"
    )
    assert record.exc_info and "engine fell over" in str(record.exc_info[1])
    assert run.public_id in record.getMessage()
    run.refresh_from_db()
    assert (run.status, run.done) == ("failed", 4)
    page = client.get(run.get_absolute_url()).content.decode()
    assert "The simulator stopped after 4 battles:" in page
    assert "The simulator failed on battles 5–8." in page
    assert 'http-equiv="refresh"' not in page


def test_an_unreachable_queue_is_a_clear_message_not_a_hang(
    client: Client, start_run: Callable[..., Any], monkeypatch
) -> None:
    from kombu.exceptions import OperationalError

    def away(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(play_chunk, "apply_async", away)
    response = start_run()
    assert response.status_code == 503
    assert "queue cannot be reached right now" in html.unescape(response.content.decode())
    run = Matchup.objects.get()
    assert run.status == "failed" and "could not be reached" in run.error


def test_the_largest_run_is_ten_thousand_battles(
    start_run: Callable[..., Any], held_chunks, settings
) -> None:
    assert MAX_BATTLES == 10_000
    settings.SIM_CHUNK_BATTLES = 50
    assert start_run(battles="10000").status_code == 302
    run = Matchup.objects.get()
    assert (run.battles, run.chunks, len(held_chunks)) == (10_000, 200, 200)


def test_purge_simulator_runs_deletes_runs_untouched_for_the_set_days(
    started: Callable[..., Matchup], held_chunks, settings
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    settings.SIM_RUN_DAYS = 30
    old, recent = started(battles="4"), started(battles="4")
    play_chunk(old.pk, 0)
    Matchup.objects.filter(pk=old.pk).update(updated=timezone.now() - timedelta(days=31))
    Matchup.objects.filter(pk=recent.pk).update(updated=timezone.now() - timedelta(days=29))
    out = io.StringIO()
    call_command("purge_simulator_runs", "--dry-run", stdout=out)
    assert "1 simulator run" in out.getvalue() and Matchup.objects.count() == 2
    call_command("purge_simulator_runs", stdout=out)
    assert list(Matchup.objects.values_list("pk", flat=True)) == [recent.pk]


def test_the_run_keeps_its_own_copy_of_the_fleets(
    client: Client, started: Callable[..., Matchup], own_fleet: Callable[..., Fleet], catalog
) -> None:
    fleet = own_fleet("imperial-navy", "patrol", name="Home Guard")
    run = started(a_source="fleet", a_fleet=str(fleet.pk))
    before = dict(run.fleet_a)
    assert before["name"] == "Home Guard"
    fleet.remove(catalog, 0)
    run.refresh_from_db()
    assert run.fleet_a == before
    assert run.summary() == one_shot(catalog, run)


def test_each_ship_row_is_named_as_in_its_fleet_list(
    client: Client, started: Callable[..., Matchup], own_fleet: Callable[..., Fleet], catalog
) -> None:
    # The Patrol sample (its ships follow the catalogue's prices): capital ships, then
    # squadrons. The second ship and the last squadron get names; an empty squadron goes first:
    # the engine skips it.
    fleet = own_fleet("imperial-navy", "patrol")
    sample = fleet.to_core().units
    assert isinstance(sample[1], rf.ShipUnit) and isinstance(sample[-1], rf.Squadron)
    assert any(isinstance(u, rf.Squadron) for u in sample[:-1])  # an unnamed squadron too
    fleet.rename_unit(catalog, 1, "Emperor's Wrath")
    fleet.rename_unit(catalog, len(sample) - 1, "Sword Squadron")
    fleet.new_squadron(catalog, "Nobody Yet")
    units = list(fleet.to_core().units)
    fleet.apply(catalog, [units[-1], *units[:-1]])
    run = started(a_source="fleet", a_fleet=str(fleet.pk), battles="2")

    page = html.unescape(client.get(run.get_absolute_url()).content.decode())
    table = page[page.index('id="ships-a"') : page.index('id="ships-b"')]
    rows = re.findall(r'<th scope="row">([^<]+)(?:<span class="sim-ship-class">([^<]+))?', table)
    navy = catalog.faction("imperial-navy")
    expected: list[tuple[str, str]] = []
    for i, unit in enumerate(sample):
        if isinstance(unit, rf.ShipUnit):  # a named ship shows its name, then its class
            name = navy.ship(unit.ship).name
            expected.append(("Emperor's Wrath", name) if i == 1 else (name, ""))
        else:  # a squadron: its escorts (all of one kind here) and its name, if it has one
            (kind,) = {s.ship for s in unit.ships}
            label = "Sword Squadron" if i == len(sample) - 1 else "squadron"
            expected.append((f"{navy.ship(kind).name} ×{len(unit.ships)}", f"{label}, per ship"))
    assert rows == expected


def test_a_shared_fleet_by_code_link_or_permalink(
    started: Callable[..., Matchup], start_run: Callable[..., Any], catalog, outsider: Client
) -> None:
    # naming the edition it was built under (one naming none is the first's, R-161)
    orks = replace(sample_fleet(catalog, "orks", "patrol"), edition=editions.current_number())
    code = encode(orks)
    by_code = started(b_source="shared", b_share=code, battles="3")
    assert by_code.core_fleet("b") == orks
    assert by_code.sources["b"]["kind"] == "shared"
    by_link = started(
        b_source="shared", b_share=f"http://testserver/fleets/code/{code}/", battles="3"
    )
    assert by_link.core_fleet("b") == orks

    response = outsider.post(
        "/fleets/new/",
        {"name": "Their Fleet", "faction": "orks", "variant": "", "game_size": "patrol"},
    )
    theirs = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
    theirs.store(replace(orks, name="Their Fleet"), catalog)
    theirs.save()
    theirs.share()
    permalink = f"http://testserver{theirs.share_url_path()}"
    assert permalink.endswith(f"/{theirs.share_id}/")
    shared = started(b_source="shared", b_share=permalink, battles="3")
    assert shared.core_fleet("b").units == orks.units
    assert shared.label("b") == "Their Fleet (shared)"

    theirs.unshare()  # no longer shared: refused
    response = start_run(b_source="shared", b_share=permalink, battles="3")
    assert response.status_code == 400
    assert "No shared fleet has that link or code" in response.content.decode()


# --- who may see and do what ---------------------------------------------------------------


def test_anyone_with_the_link_reads_the_results_but_only_the_owner_cancels(
    started: Callable[..., Matchup], outsider: Client, held_chunks
) -> None:
    run = started(battles="8")
    page = outsider.get(run.get_absolute_url())
    assert page.status_code == 200
    text = page.content.decode()
    head = text.split('id="sim-run"')[1].split(">")[0]
    assert "hx-get" in head and 'hx-trigger="every 1s"' in head  # follows, read-only
    assert "Cancel run</button>" not in text
    poll = outsider.get(
        run.get_absolute_url(), headers={"HX-Request": "true", "HX-Target": "sim-run"}
    )
    assert poll.content.decode().lstrip().startswith('<section id="sim-run"')
    assert 'id="battle-log"' not in poll.content.decode()

    response = outsider.post(f"/simulator/m/{run.public_id}/cancel/")
    assert response.status_code == 403
    run.refresh_from_db()
    assert run.status == "queued"


def test_the_form_lists_this_browsers_recent_runs_only(
    client: Client, started: Callable[..., Matchup], outsider: Client
) -> None:
    run = started(battles="2", seed="8080")
    page = client.get("/simulator/").content.decode()
    assert "Your recent runs" in page
    assert f'href="{run.get_absolute_url()}"' in page and "seed 8080" in page
    assert "Your recent runs" not in outsider.get("/simulator/").content.decode()


def test_a_signed_in_players_run_is_theirs_in_any_browser(
    client: Client,
    started: Callable[..., Matchup],
    django_user_model,
    outsider: Client,
    held_chunks,
) -> None:
    player = django_user_model.objects.create_user("admiral", password="long-enough-secret")
    client.force_login(player)
    run = started(battles="8")
    assert run.owner == player and run.session_key == ""
    elsewhere = Client()
    elsewhere.force_login(player)
    assert outsider.post(f"/simulator/m/{run.public_id}/cancel/").status_code == 403
    assert elsewhere.post(f"/simulator/m/{run.public_id}/cancel/").status_code == 302
    run.refresh_from_db()
    assert run.status == "cancelled"
    assert f'href="{run.get_absolute_url()}"' in elsewhere.get("/simulator/").content.decode()


def test_runs_started_before_logging_in_move_to_the_account(
    client: Client, started: Callable[..., Matchup], django_user_model, held_chunks
) -> None:
    run = started(battles="8")
    assert run.owner is None
    player = django_user_model.objects.create_user("captain", password="long-enough-secret")
    client.force_login(player)
    run.refresh_from_db()
    assert run.owner == player
    client.logout()  # the browser forgets its token; the account keeps the run
    elsewhere = Client()
    elsewhere.force_login(player)
    assert elsewhere.post(f"/simulator/m/{run.public_id}/cancel/").status_code == 302


def test_unknown_runs_are_404_and_wrong_methods_405(
    client: Client,
    started: Callable[..., Matchup],
) -> None:
    for path in ("/simulator/m/nope/", "/simulator/m/nope/cancel/", "/simulator/m/nope/again/"):
        response = client.post(path) if path.endswith(("cancel/", "again/")) else client.get(path)
        assert response.status_code == 404, path
    run = started(battles="2")
    assert client.get(f"/simulator/m/{run.public_id}/cancel/").status_code == 405
    assert client.get(f"/simulator/m/{run.public_id}/again/").status_code == 405
    assert client.post(run.get_absolute_url()).status_code == 405


def test_run_again_with_the_same_seed_gives_the_same_results(
    client: Client, started: Callable[..., Matchup], outsider: Client
) -> None:
    run = started(
        battles="10",
        seed="99",
        terrain="void",
        scoring="faq",
        max_rounds="6",
        b_policy="cautious",
        table="armada",
    )
    assert run.options == {
        "max_rounds": 6,
        "scoring": "faq",
        "terrain": "void",
        "table": "armada",
        "policy_a": "standard",
        "policy_b": "cautious",
    }
    page = client.get(run.get_absolute_url()).content.decode()
    assert "· played cautious" in page
    assert "at most 6 rounds · Armada table · Void elements" in page
    response = client.post(f"/simulator/m/{run.public_id}/again/")
    assert response.status_code == 302
    again = Matchup.objects.exclude(pk=run.pk).get()
    assert response.headers["Location"] == again.get_absolute_url()
    assert again.public_id != run.public_id
    assert (again.fleet_a, again.fleet_b, again.options, again.seed, again.battles) == (
        run.fleet_a,
        run.fleet_b,
        run.options,
        run.seed,
        run.battles,
    )
    assert again.summary() == run.summary()

    # Someone else holding the link may repeat it too: the copy is theirs, the original stays.
    response = outsider.post(f"/simulator/m/{run.public_id}/again/")
    theirs = Matchup.objects.exclude(pk__in=[run.pk, again.pk]).get()
    assert theirs.session_key and theirs.session_key != run.session_key
    assert theirs.summary() == run.summary()


def test_edit_and_run_again_fills_the_form_with_the_runs_inputs(
    client: Client,
    started: Callable[..., Matchup],
    own_fleet: Callable[..., Fleet],
    outsider: Client,
) -> None:
    fleet = own_fleet("orks", "patrol", name="Da Boyz")
    run = started(
        battles="3",
        seed="77",
        b_source="fleet",
        b_fleet=str(fleet.pk),
        a_faction="necrons",
        a_size="battle",
        a_policy="cautious",
        terrain="section13",
    )
    page = client.get(run.get_absolute_url()).content.decode()
    assert f'href="/simulator/?from={run.public_id}"' in page

    form = client.get(f"/simulator/?from={run.public_id}").content.decode()
    side_a = form[form.index('id="side-a"') : form.index('id="side-b"')]
    side_b = form[form.index('id="side-b"') : form.index("Battles and scenario")]
    assert re.search(r'value="sample"[^>]*checked', side_a)
    assert '<option value="necrons" selected>' in side_a
    assert '<option value="battle" selected>' in side_a
    assert '<option value="cautious" selected>' in side_a
    assert re.search(r'value="fleet"[^>]*checked', side_b)
    assert re.search(rf'<option value="{fleet.pk}" selected>Da Boyz', side_b)
    assert 'name="seed" value="77"' in form and 'name="battles" value="3"' in form
    assert '<option value="section13" selected>' in form

    # Someone else gets the fleet that fought as a share code, and the same results.
    theirs = outsider.get(f"/simulator/?from={run.public_id}").content.decode()
    side_b = theirs[theirs.index('id="side-b"') : theirs.index("Battles and scenario")]
    assert re.search(r'value="shared"[^>]*checked', side_b)
    code = re.search(r'name="b_share" value="(v\d+\.[^"]+)"', side_b).group(1)
    assert 'name="b_fleet"' not in theirs  # the owner's saved fleets are not offered
    fields = {
        "a_source": "sample",
        "a_faction": "necrons",
        "a_size": "battle",
        "a_policy": "cautious",
        "b_source": "shared",
        "b_share": code,
        "battles": "3",
        "seed": "77",
        "max_rounds": "10",
        "table": "",
        "scoring": "core",
        "terrain": "section13",
    }
    response = outsider.post("/simulator/", fields)
    assert response.status_code == 302
    copy = Matchup.objects.exclude(pk=run.pk).get()
    assert copy.fleet_b == run.fleet_b and copy.summary() == run.summary()


def test_the_files_and_command_on_the_page_replay_the_run(
    client: Client, started: Callable[..., Matchup], tmp_path
) -> None:
    run = started(
        battles="6", seed="123", terrain="void", scoring="faq", max_rounds="7", table="battle"
    )
    page = html.unescape(client.get(run.get_absolute_url()).content.decode())
    shown = re.search(r'<pre class="sim-cli__command"><code>(.*?)</code>', page).group(1)
    command = re.sub(r"<[^>]+>", "", shown)
    assert command == (
        "python manage.py simulate fleet-a.json fleet-b.json --battles 6 "
        "--seed 123 --rounds 7 --scoring faq --terrain void --table battle --json"
    )
    for side in ("a", "b"):
        response = client.get(f"/simulator/m/{run.public_id}/fleet-{side}.json")
        assert response.headers["Content-Disposition"].startswith("attachment;")
        (tmp_path / f"fleet-{side}.json").write_bytes(response.content)
    assert client.get(f"/simulator/m/{run.public_id}/fleet-c.json").status_code == 404

    out = io.StringIO()
    args = shlex.split(command)[3:]
    args[:2] = [str(tmp_path / "fleet-a.json"), str(tmp_path / "fleet-b.json")]
    call_command("simulate", *args, stdout=out)
    results = client.get(f"/simulator/m/{run.public_id}/results.json").json()
    assert results.pop("run")["battles_done"] == 6
    assert json.loads(out.getvalue()) == results


# --- one battle's log ------------------------------------------------------------------------


def test_one_battles_log_is_that_battle_replayed(
    client: Client, started: Callable[..., Matchup], catalog
) -> None:
    run = started(battles="5", seed="31")
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Battle 1:" in page

    response = client.get(
        f"{run.get_absolute_url()}?battle=3",
        headers={"HX-Request": "true", "HX-Target": "battle-log"},
    )
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<section id="battle-log"')
    assert 'id="sim-run"' not in fragment
    battle = play_battle(
        catalog,
        run.core_fleet("a"),
        run.core_fleet("b"),
        seed=31,
        index=2,
        options=SimOptions.from_dict(run.options),
        log=True,
    )
    outcome = re.search(r"data-battle-outcome>(.*?)</p>", fragment, re.S).group(1)
    assert "Battle 3:" in outcome
    assert f"{battle.vp['a']} to {battle.vp['b']} victory points" in outcome
    assert f"after {battle.rounds} round" in outcome
    won = {"a": "Fleet A won", "b": "Fleet B won", None: "a draw"}[battle.winner]
    assert won in outcome
    assert battle.log
    for entry in battle.log[:5]:
        assert entry.text in html.unescape(fragment)


@pytest.mark.parametrize("wanted", ["0", "6", "x", "-1"])
def test_a_battle_outside_the_run_gets_a_message(
    client: Client, started: Callable[..., Matchup], wanted: str
) -> None:
    run = started(battles="5")
    message = f"There is no battle {wanted}: this run has battles 1 to 5."
    response = client.get(f"{run.get_absolute_url()}?battle={wanted}")
    assert response.status_code == 400
    assert message in response.content.decode()
    # htmx swaps only successful answers: it gets the message in the log region with a 200
    response = client.get(
        f"{run.get_absolute_url()}?battle={wanted}",
        headers={"HX-Request": "true", "HX-Target": "battle-log"},
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert 'aria-invalid="true"' in response.content.decode()


def test_a_stalled_run_gets_its_missing_chunks_sent_again_once_a_period(
    client: Client, started: Callable[..., Matchup], held_chunks, settings
) -> None:
    """Lost messages (a Redis restarted empty) must not leave a run waiting forever."""
    from datetime import timedelta

    from django.utils import timezone

    settings.SIM_CHUNK_BATTLES, settings.SIM_STALL_SECONDS = 3, 120
    run = started(battles="9")
    play_chunk(run.pk, 1)
    held_chunks.clear()  # the queue lost them
    client.get(run.get_absolute_url())
    assert held_chunks == []  # it moved a moment ago: nothing to do
    Matchup.objects.filter(pk=run.pk).update(updated=timezone.now() - timedelta(minutes=3))
    client.get(run.get_absolute_url(), headers={"HX-Request": "true", "HX-Target": "sim-run"})
    assert sorted(held_chunks) == [(run.pk, 0), (run.pk, 2)]  # only the missing ones
    client.get(run.get_absolute_url())
    assert len(held_chunks) == 2  # once a period, however many pages poll
    for _, index in held_chunks:
        play_chunk(run.pk, index)
    run.refresh_from_db()
    assert (run.status, run.done) == ("done", 9)
