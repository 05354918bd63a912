"""R-154: a battle's replay is played in the request when it is not in the cache (seconds of CPU
for two 150-ship fleets), and anyone holding a run's link may ask for any of its up to 10,000
battles. So each replay played counts against the client's replay limit (R-96's machinery);
one answered from the cache is free. Past the limit: 429 with Retry-After and a message, the
page and its replay.json alike; another client is still served."""

from __future__ import annotations

import pytest
from django.test import Client

from fleetbuilder import ratelimit
from fleetbuilder.simulator.models import Matchup
from rules_core.sample_fleets import sample_fleet
from rules_core.sim import SimOptions

pytestmark = pytest.mark.django_db

LIMIT = 2


@pytest.fixture
def small_limit(settings, monkeypatch) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "replay": LIMIT}
    settings.RATE_LIMIT_WINDOW = 60
    monkeypatch.setattr(ratelimit, "_now", lambda: 60.0 * 16_667 + 20)


@pytest.fixture
def run(catalog, held_chunks: list[tuple[int, int]]) -> Matchup:
    """A queued 100-battle run of two Patrol samples (its battles are never played here)."""
    a = sample_fleet(catalog, "imperial-navy", "patrol")
    b = sample_fleet(catalog, "orks", "patrol")
    return Matchup.start(
        fleet_a=a,
        fleet_b=b,
        sources={},
        options=SimOptions(),
        seed=3,
        battles=100,
        owner=None,
        owner_token="someone",
    )


def _page(run: Matchup, n: int) -> str:
    return f"/simulator/m/{run.public_id}/battles/{n}/"


def test_replays_played_count_and_cached_ones_do_not(run: Matchup, small_limit: None) -> None:
    player = Client(REMOTE_ADDR="203.0.113.7")
    other = Client(REMOTE_ADDR="203.0.113.8")
    for n in range(1, LIMIT + 1):
        assert player.get(_page(run, n)).status_code == 200
    assert player.get(_page(run, 1)).status_code == 200  # from the cache: not counted
    assert player.get(_page(run, 1) + "replay.json").status_code == 200
    refused = player.get(_page(run, LIMIT + 1))
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert (
        f"Too many battle replays from you: at most {LIMIT} every 1 minute"
        in refused.content.decode()
    )
    as_json = player.get(_page(run, LIMIT + 7) + "replay.json")
    assert as_json.status_code == 429 and "Too many battle replays" in as_json.json()["error"]
    assert other.get(_page(run, LIMIT + 1)).status_code == 200  # another client is served


def test_a_battle_outside_the_run_is_still_404_and_not_counted(
    run: Matchup, small_limit: None
) -> None:
    player = Client()
    for _ in range(LIMIT + 1):
        assert player.get(_page(run, run.battles + 1)).status_code == 404
    assert player.get(_page(run, 1)).status_code == 200


def test_the_limit_can_be_turned_off(run: Matchup, settings, small_limit: None) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "replay": 0}
    player = Client()
    assert [player.get(_page(run, n)).status_code for n in range(1, LIMIT + 3)] == [200] * (
        LIMIT + 2
    )


def _results(run: Matchup, n: int | str | None = None) -> str:
    return f"/simulator/m/{run.public_id}/" + (f"?battle={n}" if n is not None else "")


def test_a_battle_log_on_the_results_page_counts_once_then_comes_from_the_cache(
    run: Matchup, small_limit: None
) -> None:
    """The results page shows battle 1's log (or ``?battle=n``'s), played in the request: it
    counts as a replay the first time, and the page shown again, or refreshing itself while
    the run plays, is answered from the cache."""
    player = Client(REMOTE_ADDR="203.0.113.9")
    first = player.get(_results(run))
    assert first.status_code == 200 and "Battle 1" in first.content.decode()
    for _ in range(LIMIT + 2):  # the same page again: free
        assert player.get(_results(run)).status_code == 200
    assert player.get(_results(run, 2)).status_code == 200  # the limit's second
    refused = player.get(_results(run, 3))
    assert refused.status_code == 429 and "Too many battle replays" in refused.content.decode()
    assert player.get(_results(run, 2)).status_code == 200  # cached: still served
    for odd in ("9" * 5000, "٣", "３", "²", "-1", "1.0"):  # never a battle, never counted
        outside = player.get(_results(run, odd))
        assert outside.status_code == 400 and "There is no battle" in outside.content.decode()


def test_a_battle_from_the_cache_is_the_battle_played_again(run: Matchup) -> None:
    played = run.battle(4)  # each side with its own edition's catalogue
    cached = run.battle(4)
    assert cached.to_dict() == played.to_dict()
    assert [e.text for e in cached.log or []] == [e.text for e in played.log or []]
    assert run.has_battle(4) and not run.has_battle(5)
