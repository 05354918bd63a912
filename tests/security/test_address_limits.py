"""Issue 34 §2 and §6: limits by address as well as by account (R-96).

Free accounts made at one address do not multiply its allowance; sign-ups, guesses of the
current password and failed log-ins over many usernames are limited; a replay of big fleets
counts as more than one, and its page draws a bounded part of the battle.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from fleetbuilder.fleets import hostile
from fleetbuilder.simulator.models import Matchup
from fleetbuilder.simulator.replay import STILL_SHIPS_PER_PAGE
from rules_core.sim import SimOptions

from .conftest import PASSWORD, CsrfClient

ADDRESS = "203.0.113.9"


@pytest.fixture(autouse=True)
def fresh_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def signed_in(name: str, address: str = ADDRESS) -> Client:
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def test_accounts_at_one_address_share_its_allowance(db, settings) -> None:
    """Three fresh accounts at one address: together at most twice one account's limit."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sharecode": 3}
    settings.RATE_LIMIT_ADDRESS_FACTOR = 2
    statuses = []
    for n in range(3):
        client = signed_in(f"sock{n}")
        statuses += [client.get("/fleets/code/v2.AAAA/").status_code for _ in range(3)]
    assert 429 not in statuses[:6]
    assert statuses[6:] == [429, 429, 429]
    # another address is untouched
    assert signed_in("elsewhere", "198.51.100.1").get("/fleets/code/v2.AAAA/").status_code != 429


def sign_up(client: Client, name: str) -> Any:
    return client.post(
        "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )


def test_sign_ups_from_one_address_are_limited(db, settings) -> None:
    most = settings.RATE_LIMITS["signup"]
    for n in range(most):
        assert sign_up(Client(REMOTE_ADDR=ADDRESS), f"fresh{n}").status_code == 302
    response = sign_up(Client(REMOTE_ADDR=ADDRESS), "one-too-many")
    assert response.status_code == 429
    assert "Too many new accounts" in response.content.decode()
    assert response["Retry-After"]
    assert not get_user_model().objects.filter(username="one-too-many").exists()
    assert sign_up(Client(REMOTE_ADDR="198.51.100.2"), "from-elsewhere").status_code == 302


@pytest.mark.parametrize(
    ("path", "field"), [("/accounts/password/", "old_password"), ("/accounts/delete/", "password")]
)
def test_guesses_of_the_current_password_are_limited(db, settings, path: str, field: str) -> None:
    most = settings.RATE_LIMITS["password"]
    client = signed_in("guessed")
    form = {field: "wrong", "new_password1": "x Quite long 77", "new_password2": "x Quite long 77"}
    for _ in range(most):
        assert client.post(path, form).status_code in (200, 400)
    response = client.post(path, {**form, field: PASSWORD})  # the right one, too late
    assert response.status_code == 429
    assert "Too many password checks" in response.content.decode()
    assert get_user_model().objects.get(username="guessed").check_password(PASSWORD)


def test_failed_log_ins_over_many_usernames_from_one_address_are_limited(db, settings) -> None:
    most = settings.RATE_LIMITS["login"]
    get_user_model().objects.create_user("victim", password=PASSWORD)
    client = Client(REMOTE_ADDR=ADDRESS)
    for n in range(most):
        response = client.post("/accounts/login/", {"username": f"user{n}", "password": "x"})
        assert response.status_code == 200
    response = client.post("/accounts/login/", {"username": "victim", "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.content.decode()
    other = Client(REMOTE_ADDR="198.51.100.3")
    assert (
        other.post("/accounts/login/", {"username": "victim", "password": PASSWORD}).status_code
        == 302
    )


@pytest.fixture
def big_run(catalog: Any, held_chunks: list[tuple[int, int]]) -> Matchup:
    """A run of two 150-ship fleets (its chunks held, never played)."""
    fleet = hostile.max_ships(catalog)
    sources = {side: {"kind": "shared", "label": "Most ships"} for side in ("a", "b")}
    return Matchup.start(
        fleet_a=fleet,
        fleet_b=fleet,
        sources=sources,
        options=SimOptions(),
        seed=11,
        battles=3,
        owner_token="someone",
    )


def test_a_replay_of_big_fleets_counts_as_more_than_one(big_run: Matchup, settings) -> None:
    """Two 150-ship fleets: about 2 s of CPU a replay, counted as 5 of the 20 a minute."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "replay": 5}
    # A window far longer than the test: on a loaded machine the first replay may outlast a
    # minute's window, and the second would then count in a new one.
    settings.RATE_LIMIT_WINDOWS = {**getattr(settings, "RATE_LIMIT_WINDOWS", {}), "replay": 3600}
    assert big_run.replay_cost == 5
    client = CsrfClient(REMOTE_ADDR=ADDRESS)
    first = client.get(f"/simulator/m/{big_run.public_id}/battles/1/")
    assert first.status_code == 200
    second = client.get(f"/simulator/m/{big_run.public_id}/battles/2/")
    assert second.status_code == 429  # refused before it is played
    # The first page's own cost is bounded: a few rounds of stills, links to the others.
    html = first.content.decode()
    assert len(first.content) < 700 * 1024
    stills = html.split("data-replay-rounds", 1)[1]
    drawn = len(re.findall(r'<g class="rship rship--', stills))
    assert 0 < drawn <= STILL_SHIPS_PER_PAGE
    assert 'aria-label="Rounds, a few at a time"' in stills and "?rounds=" in stills
    later = re.search(r'href="\?rounds=(\d+)#', stills)
    assert later is not None
    page = client.get(f"/simulator/m/{big_run.public_id}/battles/1/?rounds={later.group(1)}")
    assert page.status_code == 200  # from the cache: not counted again
    assert f'id="round-{later.group(1)}"' in page.content.decode()


def test_the_replay_limit_counts_by_address_too(
    make_run: Callable[..., Matchup], db, settings
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "replay": 1}
    owner = CsrfClient()
    run = make_run(owner)
    statuses = [
        signed_in(f"watcher{n}").get(f"/simulator/m/{run.public_id}/battles/{n + 1}/").status_code
        for n in range(3)
    ]
    assert statuses == [200, 200, 429]


def test_one_address_makes_one_card_pdf_at_a_time(db, monkeypatch, settings) -> None:
    """Eight connections at once cannot take every core: while a PDF is being made for an
    address, one more from it waits its turn (here 0.3 s) and is then refused (429,
    Retry-After), as are the rest at once; another address is served."""
    from django.test import RequestFactory

    from fleetbuilder import ratelimit

    monkeypatch.setattr(ratelimit, "IN_FLIGHT_WAIT", 0.3)
    settings.RATE_LIMIT_IN_FLIGHT = 1  # the default, said here as the test depends on it

    held = RequestFactory().get("/", REMOTE_ADDR=ADDRESS)
    with ratelimit.in_flight(held, "cards") as may:
        assert may
        response = Client(REMOTE_ADDR=ADDRESS).get("/fleets/code/v2.AAAA/cards.pdf")
        assert response.status_code == 429 and response["Retry-After"] == "2"
        assert "one at a time" in response.content.decode()
        assert (
            Client(REMOTE_ADDR="198.51.100.4").get("/fleets/code/v2.AAAA/cards.pdf").status_code
            != 429
        )
    assert Client(REMOTE_ADDR=ADDRESS).get("/fleets/code/v2.AAAA/cards.pdf").status_code != 429
