"""The API's access matrix, built as the pages' one (tests/security/test_access.py): every API URL
that names an object, for its owner's token, another player's token, no token, and the owner's
signed-in browser without a token, by every method.

The site's matrix leaves ``api/`` to this one (EXCLUDED_PREFIXES there); here each API URL with
an argument is in MATRIX or in ELSEWHERE (with the reason), and a new one in neither fails
``test_every_api_url_with_an_argument_is_classified``.

The rules are the pages' rules: your fleet is yours (anyone else 404, as a missing fleet; no
token 401); a run and a share code are readable by anyone holding them; only the player who
started a run may cancel it (anyone else 403). A method an endpoint does not take is 405.
After every refused request the object is exactly as it was and nothing new was stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core import fleet as rf
from rules_core import sharecode
from rules_core.sample_fleets import sample_fleet
from rules_core.sim import SimOptions
from tests.security.conftest import fleet_state, run_state, walk

from .conftest import Api, ApiUser

pytestmark = pytest.mark.django_db

OWNER = "owner"  # the owner's token only; another token 404; no token 401
ANYONE = "anyone"  # anyone holding the URL, token or not: 2xx
OWNER_ELSE_403 = "owner, else 403"  # the owner's token; another token 403; no token 401
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class ApiRoute:
    obj: str  # fleet, run, code
    rules: dict[str, str] = field(default_factory=dict)  # a method not named: 405


MATRIX: dict[str, ApiRoute] = {
    "api/v1/fleets/<int:fleet_id>": ApiRoute(
        "fleet", {"GET": OWNER, "PUT": OWNER, "DELETE": OWNER}
    ),
    "api/v1/share-codes/<code>": ApiRoute("code", {"GET": ANYONE}),
    "api/v1/runs/<public_id>": ApiRoute("run", {"GET": ANYONE}),
    "api/v1/runs/<public_id>/cancel": ApiRoute("run", {"POST": OWNER_ELSE_403}),
}
ELSEWHERE: dict[str, str] = {
    "api/v1/editions/<int:number>/diff": "public, as the catalogue: a published edition, named "
    "by its number (tests/editions/test_api.py)",
    "api/tokens/<int:pk>/revoke/": "the account page's revoke form (a signed-in browser with "
    "CSRF): tests/api/test_tokens.py, another's token is 404",
}


def api_routes_with_arguments() -> list[str]:
    return sorted({r.route for r in walk() if r.route.startswith("api/") and r.params})


def test_every_api_url_with_an_argument_is_classified() -> None:
    routes = api_routes_with_arguments()
    unclassified = [r for r in routes if r not in MATRIX and r not in ELSEWHERE]
    assert unclassified == [], (
        f"New API URLs that take an id: add each to MATRIX in {__file__} (who may use it by "
        f"which method) or to ELSEWHERE with the reason: {unclassified}"
    )
    assert sorted(set(MATRIX) | set(ELSEWHERE)) == routes, "the matrix names URLs that are gone"


def _doc() -> rf.Fleet:
    return rf.Fleet(
        faction="imperial-navy",
        game_size=rf.GameSize.PATROL,
        name="Matrix Patrol",
        units=(
            rf.ShipUnit("lunar-class-cruiser", flagship=True, admiral="commodore", name="Wrath"),
            rf.Squadron((rf.SquadronShip("sword-class-frigate"),) * 2),
        ),
    )


def _counts() -> tuple[int, int]:
    return Fleet.objects.count(), Matchup.objects.count()


@pytest.mark.parametrize("route", sorted(MATRIX))
def test_api_access_matrix(
    route: str, make_player: Callable[[str], ApiUser], catalog, held_chunks: list[Any]
) -> None:
    spec = MATRIX[route]
    owner, other = make_player("owner"), make_player("rival")
    Fleet.from_core(_doc(), catalog, owner=other.user)  # the rival has fleets of their own
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(owner.user)  # the owner's own browser, signed in, without a token
    doc = _doc()
    if spec.obj == "fleet":
        fleet = Fleet.from_core(doc, catalog, owner=owner.user)
        kwargs: dict[str, Any] = {"fleet_id": fleet.pk}
        state: Callable[[], Any] = lambda: fleet_state(fleet)  # noqa: E731
    elif spec.obj == "run":
        run = Matchup.start(
            fleet_a=doc,
            fleet_b=sample_fleet(catalog, "orks", "patrol"),
            sources={},
            options=SimOptions(),
            seed=7,
            battles=4,
            owner=owner.user,
        )
        kwargs = {"public_id": run.public_id}
        state = lambda: run_state(run)  # noqa: E731
    else:
        kwargs = {"code": sharecode.encode(doc)}
        state = lambda: None  # noqa: E731
    name = next(r.name for r in walk() if r.route == route)
    url = reverse(name, kwargs=kwargs)
    body = rf.fleet_to_dict(rf.Fleet(faction="orks", game_size=rf.GameSize.ARMADA, name="Pwned"))
    callers: list[tuple[str, Any]] = [
        ("another token", other.api),
        ("no token", Api()),
        ("the owner's session", browser),
        ("owner", owner.api),
    ]
    for role, caller in callers:
        for method in METHODS:
            rule = spec.rules.get(method)
            before, counts = state(), _counts()
            target = url
            if method == "PUT" and spec.obj == "fleet":
                target += f"?version={Fleet.objects.get(pk=kwargs['fleet_id']).version}"
            if method == "DELETE" and role == "owner":
                continue  # checked last, below
            if isinstance(caller, Api):
                response = caller.call(method, target, body)
            else:
                response = caller.generic(method, target, "{}", content_type="application/json")
            status, where = response.status_code, f"{method} {url} as {role}"
            assert status != 500, where
            if rule is None:
                assert status == 405, f"{where}: {status}, expected 405"
            elif rule == ANYONE or role == "owner":
                assert 200 <= status < 300, f"{where}: {status} {response.content[:200]!r}"
            elif role in ("no token", "the owner's session"):
                assert status == 401, f"{where}: {status}, expected 401"
            elif rule == OWNER:
                assert status == 404, f"{where}: {status}, expected 404"
                assert response.json() == {"detail": "No such fleet."}
            else:
                assert status == 403, f"{where}: {status}, expected 403"
            if role != "owner" and (status >= 400 or method == "GET"):
                assert state() == before, f"{where} changed the object"
                assert _counts() == counts, f"{where} stored something"
    if spec.rules.get("DELETE") == OWNER:
        assert owner.api.call("DELETE", url).status_code == 204
        assert Fleet.objects.get(pk=kwargs["fleet_id"]).in_trash


def test_a_private_fleet_looks_exactly_like_a_missing_one(
    make_player: Callable[[str], ApiUser], catalog
) -> None:
    owner, other = make_player("owner"), make_player("rival")
    fleet = Fleet.from_core(_doc(), catalog, owner=owner.user)
    private = other.api.get(f"/api/v1/fleets/{fleet.pk}")
    missing = other.api.get(f"/api/v1/fleets/{fleet.pk + 1000}")
    assert private.status_code == missing.status_code == 404
    assert private.content == missing.content
