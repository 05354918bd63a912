"""Odd values in the address, the query and the form — ids past a database integer, negative
and non-numeric numbers, unknown choices, foreign redirect targets — get a 4xx or the page, never
a 500, and never send the player to another site."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup

from .conftest import CsrfClient, fleet_state

pytestmark = pytest.mark.django_db

HUGE = "9" * 30  # past any database's integer
BIG = str(2**63)  # one past PostgreSQL's bigint and SQLite's integer


@pytest.fixture(autouse=True)
def _no_rate_limits(settings) -> None:
    if hasattr(settings, "RATE_LIMITS"):
        settings.RATE_LIMITS = {scope: 0 for scope in settings.RATE_LIMITS}


def test_ids_past_a_database_integer_are_404(
    owner: CsrfClient, make_fleet: Callable[..., Fleet]
) -> None:
    fleet = make_fleet(owner)
    for pk in (HUGE, BIG, str(2**31)):
        for url in (
            f"/fleets/{pk}/",
            f"/fleets/{pk}/share/",
            f"/cards/fleet/{pk}/",
            f"/fleets/{pk}/export.json",
            f"/fleets/{pk}/delete-forever/",
        ):
            assert owner.get(url).status_code == 404, url
        for url in (
            f"/fleets/{pk}/rename-fleet/",
            f"/fleets/{pk}/add-ship/",
            f"/fleets/{pk}/units/0/remove/",
            f"/fleets/{pk}/trash/",
        ):
            assert owner.send("POST", url, {"name": "x", "ship": "x"}).status_code == 404, url
    before = fleet_state(fleet)
    for unit in (HUGE, BIG, "99"):
        for edit in (
            "remove",
            "rename",
            "flagship",
            "duplicate",
            "add-escort",
            "move",
            "admiral",
            "upgrades/add",
            "upgrades",
            "reorder",
        ):
            response = owner.send(
                "POST",
                f"/fleets/{fleet.pk}/units/{unit}/{edit}/",
                {"name": "x", "ship": HUGE, "to": HUGE, "by": HUGE, "upgrade": "x", "admiral": "x"},
            )
            assert response.status_code < 500, (unit, edit)
    assert fleet_state(fleet) == before


def test_odd_queries_are_never_a_500(
    owner: CsrfClient, make_fleet: Callable[..., Fleet], make_run: Callable[..., Matchup]
) -> None:
    fleet = make_fleet(owner, shared=True)
    run = make_run(owner)
    odd = [
        ("/fleets/", {"page": HUGE}),
        ("/fleets/", {"page": "-1"}),
        ("/fleets/", {"sort": "password"}),
        ("/fleets/", {"faction": "../../x"}),
        ("/fleets/", {"q": "%' OR 1=1 --"}),
        ("/fleets/trash/", {"page": "x" * 5000}),
        ("/simulator/", {"a": HUGE, "from": "x" * 5000}),
        (f"/simulator/m/{run.public_id}/", {"battle": HUGE}),
        (f"/simulator/m/{run.public_id}/", {"battle": "-1"}),
        (f"/simulator/m/{run.public_id}/", {"battle": "1" * 5000}),
        (f"/simulator/m/{run.public_id}/fleet-c.json", {}),
        (f"/simulator/m/{run.public_id}/fleet-../a.json", {}),
        (f"/cards/fleet/{fleet.pk}/", {"layout": "../../../etc/passwd"}),
        (f"/cards/fleet/{fleet.pk}/", {"ink": "x" * 5000}),
        (f"/s/{fleet.share_id}/cards.pdf", {"layout": "<script>"}),
        ("/gunnery/", {"strength": HUGE, "range": HUGE, "armor": "-5", "hull": HUGE}),
        ("/ships/no-such-faction/", {}),
        ("/ships/imperial-navy/no-such-ship/", {}),
        (f"/s/{'A' * 5000}/", {}),
        (f"/simulator/m/{'A' * 5000}/", {}),
        (f"/fleets/code/v9.{'A' * 40}/", {}),
        ("/fleets/code/v1./", {}),
    ]
    for url, query in odd:
        response = owner.get(url, query)
        assert response.status_code < 500, (url, str(query)[:80])
        if url.startswith("/cards/") or url.endswith("cards.pdf"):
            assert response.status_code == 400, url


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "javascript:alert(1)",
        "https:evil.example",
    ],
)
def test_no_redirect_leaves_the_site(
    target: str, anonymous: CsrfClient, owner: CsrfClient, make_fleet: Callable[..., Fleet]
) -> None:
    fleet = make_fleet(owner)
    answers = [
        owner.send("POST", f"/fleets/{fleet.pk}/rename-fleet/", {"name": "x", "next": target}),
        owner.send("POST", f"/fleets/{fleet.pk}/copy/", {"next": target}),
        anonymous.get("/accounts/login/", {"next": target}),
        anonymous.send(
            "POST", "/accounts/login/", {"username": "nobody", "password": "x", "next": target}
        ),
        anonymous.get("/accounts/signup/", {"next": target}),
    ]
    for answer in answers:
        location = answer.headers.get("Location", "")
        assert "evil" not in location and "javascript" not in location, location
        assert f'href="{target}"' not in answer.content.decode()
