"""Eight logged-in browsers of one account add ships to one fleet at the same moment, against a
threaded live server: no acknowledged add is lost ("Simultaneous edits are silently
lost": 56 % of them were on SQLite, 61 % on PostgreSQL)."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model

from fleetbuilder.fleets.models import Fleet

from .conftest import PASSWORD, Player, version_in

SESSIONS = 8
ADDS = 12  # per session
# An escort starts a squadron of its own: 96 units of 35 points stay inside every fleet bound.
SHIP = "sword-class-frigate"


@pytest.fixture
def fleet_of_one_account(real_server: Callable[[], str]) -> tuple[list[Player], int]:
    """SESSIONS players logged in to one account, each with its own session, and its fleet."""
    user = get_user_model().objects.create_user("admiral", password=PASSWORD)
    from fleetbuilder.catalog import loader

    fleet = Fleet.start(
        name="Crowded",
        faction="imperial-navy",
        variant=None,
        game_size="armada",
        points_limit=None,
        catalog=loader.core_catalog(),
        owner=user,
    )
    base = real_server()
    players = [Player(base) for _ in range(SESSIONS)]
    for player in players:
        player.log_in("admiral")
    return players, fleet.pk


def run_together(work: list[Callable[[], None]]) -> None:
    """Start every piece of work at the same moment, each on its own thread; wait for all."""
    barrier = threading.Barrier(len(work))
    failures: list[BaseException] = []

    def run(job: Callable[[], None]) -> None:
        try:
            barrier.wait(timeout=60)
            job()
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(job,)) for job in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not failures, failures
    assert not any(thread.is_alive() for thread in threads)


def test_eight_sessions_adding_twelve_ships_each_lose_no_acknowledged_add(
    fleet_of_one_account: tuple[list[Player], int],
) -> None:
    """Each session is a tab: it sends the version its page shows and, refused as stale (409),
    takes the version from the refreshed regions and adds again, as the page does."""
    players, fleet = fleet_of_one_account
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def tab(player: Player) -> None:
        version = player.version(fleet)
        for _ in range(ADDS):
            for _attempt in range(500):
                data = {"ship": SHIP} if version is None else {"ship": SHIP, "version": version}
                status, html = player.post(f"/fleets/{fleet}/add-ship/", data)
                with lock:
                    statuses[status] += 1
                version = version_in(html) or version
                if status != 409:
                    break
                time.sleep(random.uniform(0, 0.3))  # a player takes a moment to click again
            else:
                raise AssertionError("an add was refused 500 times in a row")

    run_together([lambda p=p: tab(p) for p in players])

    assert set(statuses) <= {200, 409}, statuses
    ships = players[0].ships(fleet)
    assert len(ships) == statuses[200] == SESSIONS * ADDS, statuses
    # Every acknowledged add was one change of the document.
    assert players[0].version(fleet) == 1 + SESSIONS * ADDS


def test_simultaneous_adds_without_a_version_are_all_kept(
    fleet_of_one_account: tuple[list[Player], int],
) -> None:
    """A client that sends no version (a script) is not checked, but its edit still runs under
    the fleet's row lock: 96 adds sent at once from eight sessions, 96 ships."""
    players, fleet = fleet_of_one_account
    statuses: list[int] = []

    def add(player: Player) -> None:
        status, _ = player.post(f"/fleets/{fleet}/add-ship/", {"ship": SHIP})
        statuses.append(status)

    run_together([lambda p=p: add(p) for p in players for _ in range(ADDS)])

    assert Counter(statuses) == {200: SESSIONS * ADDS}
    assert len(players[0].ships(fleet)) == SESSIONS * ADDS
