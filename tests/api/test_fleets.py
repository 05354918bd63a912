"""/api/v1/fleets: your own fleets by personal token; the builder's version check (409); trash."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.api.models import ApiToken
from fleetbuilder.catalog import loader
from fleetbuilder.fleets.models import Fleet

from .conftest import Api, ApiUser

pytestmark = pytest.mark.django_db
SUMMARY_KEYS = {
    "id",
    "name",
    "faction",
    "variant",
    "game_size",
    "points",
    "legal",
    "version",
    "created",
    "updated",
    "url",
}


def priced(doc: dict[str, Any]) -> int:
    """A fleet file's total, summed from the catalogue's prices of its ships, upgrades and
    admirals (prices are calibrated; tests don't copy totals)."""
    catalog = loader.core_catalog()
    faction = catalog.faction(doc["faction"])
    prices = {
        x.slug: x.points
        for x in (*faction.ships, *faction.upgrades, *catalog.refits, *catalog.admirals)
    }
    total = 0
    for unit in doc["units"]:
        for item in unit.get("ships", [unit]):
            total += prices[item["ship"]] + sum(prices[u] for u in item.get("upgrades", []))
        total += prices[unit["admiral"]] if unit.get("admiral") else 0
    return total


# --- tokens ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [None, "Bearer", "Bearer vc_unknown", "Bearer nonsense", "Basic dXNlcjpwYXNz", "Token vc_x"],
)
def test_missing_or_invalid_token_is_401(player: ApiUser, saved, header: str | None) -> None:
    fleet = saved(player)
    kwargs = {} if header is None else {"HTTP_AUTHORIZATION": header}
    for method, path in (
        ("GET", "/api/v1/fleets"),
        ("GET", f"/api/v1/fleets/{fleet.pk}"),
        ("DELETE", f"/api/v1/fleets/{fleet.pk}"),
        ("POST", "/api/v1/runs"),
    ):
        response = Api().call(method, path, **kwargs)
        assert response.status_code == 401, (method, path)
        assert response["WWW-Authenticate"].startswith("Bearer")
        assert response.json()["detail"]
    assert Fleet.objects.get(pk=fleet.pk).deleted_at is None


def test_a_revoked_token_is_401_at_once(player: ApiUser) -> None:
    assert player.api.get("/api/v1/fleets").status_code == 200
    ApiToken.objects.get(user=player.user).revoke()
    assert player.api.get("/api/v1/fleets").status_code == 401


def test_a_deactivated_account_s_token_is_401(player: ApiUser) -> None:
    player.user.is_active = False
    player.user.save()
    assert player.api.get("/api/v1/fleets").status_code == 401


def test_the_session_cookie_is_never_read(player: ApiUser, patrol: dict[str, Any], saved) -> None:
    """A signed-in browser without a token is nobody to the API: no cross-site request can act
    as the player, so the API needs (and asks for) no CSRF token."""
    saved(player)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player.user)
    assert browser.get("/api/v1/fleets").status_code == 401
    response = browser.post("/api/v1/fleets", patrol, content_type="application/json")
    assert response.status_code == 401
    assert Fleet.objects.count() == 1


def test_a_token_needs_no_csrf_token(player: ApiUser, patrol: dict[str, Any]) -> None:
    assert player.api.call("POST", "/api/v1/fleets", patrol).status_code == 201  # enforcing CSRF


def test_the_token_is_stored_only_as_a_hash(player: ApiUser) -> None:
    token = ApiToken.objects.get(user=player.user)
    assert player.token not in (token.digest, token.prefix, token.name)
    assert player.token.startswith(token.prefix) and len(token.prefix) == 8
    player.api.get("/api/v1/fleets")
    token.refresh_from_db()
    assert token.last_used is not None


# --- list, read, create ---------------------------------------------------------------------


def test_list_holds_only_your_living_fleets(player: ApiUser, rival: ApiUser, saved) -> None:
    mine, trashed = saved(player), saved(player)
    trashed.trash()
    saved(rival)
    body = player.api.get("/api/v1/fleets").json()
    assert [f["id"] for f in body] == [mine.pk]
    assert set(body[0]) == SUMMARY_KEYS
    assert body[0]["url"] == f"http://testserver/fleets/{mine.pk}/"


def test_read_gives_the_file_the_report_and_the_version(
    player: ApiUser, saved, patrol: dict[str, Any]
) -> None:
    fleet = saved(player)
    body = player.api.get(f"/api/v1/fleets/{fleet.pk}").json()
    assert set(body) == SUMMARY_KEYS | {"document", "report"}
    assert body["document"] == patrol
    assert body["report"] == {
        **fleet.report(loader.core_catalog()).to_dict(),
        "edition": fleet.edition,
        "edition_note": None,
    }
    assert body["version"] == fleet.version == 1
    assert body["points"] == body["report"]["points"] == priced(patrol)


def test_create_stores_the_file_as_your_fleet(
    player: ApiUser, named_patrol: dict[str, Any]
) -> None:
    response = player.api.call("POST", "/api/v1/fleets", named_patrol)
    assert response.status_code == 201
    fleet = Fleet.objects.get(pk=response.json()["id"])
    assert fleet.owner == player.user and fleet.document == named_patrol
    assert response.json()["document"] == named_patrol
    assert fleet.edition == named_patrol["edition"]


def test_an_illegal_list_may_be_saved_as_in_the_builder(
    player: ApiUser, patrol: dict[str, Any]
) -> None:
    doc = copy.deepcopy(patrol)
    doc["units"][0]["ship"] = "no-such-ship"
    response = player.api.call("POST", "/api/v1/fleets", doc)
    assert response.status_code == 201
    assert "catalog.unknown_ship" in [p["code"] for p in response.json()["report"]["problems"]]


def test_an_unknown_faction_is_refused_with_the_contract_2_problem(
    player: ApiUser, patrol: dict[str, Any]
) -> None:
    doc = {**patrol, "faction": "no-such-faction"}
    response = player.api.call("POST", "/api/v1/fleets", doc)
    assert response.status_code == 422
    assert "catalog.unknown_faction" in [p["code"] for p in response.json()["problems"]]
    assert Fleet.objects.count() == 0


def test_a_bad_file_stores_nothing(player: ApiUser) -> None:
    response = player.api.call("POST", "/api/v1/fleets", raw="{not json")
    assert response.status_code == 400
    assert response.json()["problems"][0]["code"] == "format.invalid"
    assert Fleet.objects.count() == 0


# --- ownership -------------------------------------------------------------------------------


def test_another_players_fleet_is_404_like_a_missing_one(
    player: ApiUser, rival: ApiUser, saved, patrol: dict[str, Any]
) -> None:
    theirs = saved(rival)
    before = (theirs.document, theirs.version)
    for fleet_id in (theirs.pk, theirs.pk + 1000):
        for method in ("GET", "PUT", "DELETE"):
            path = f"/api/v1/fleets/{fleet_id}" + ("?version=1" if method == "PUT" else "")
            response = player.api.call(method, path, patrol if method == "PUT" else None)
            assert response.status_code == 404, (method, fleet_id)
            assert response.json() == {"detail": "No such fleet."}
    theirs.refresh_from_db()
    assert (theirs.document, theirs.version, theirs.deleted_at) == (*before, None)


# --- update with the version check -----------------------------------------------------------


def _renamed(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return {**doc, "name": name}


def test_update_replaces_the_list_and_bumps_the_version(
    player: ApiUser, saved, named_patrol: dict[str, Any]
) -> None:
    patrol = named_patrol
    fleet = saved(player)
    doc = _renamed(patrol, "Renamed by a script")
    doc["units"] = doc["units"][:1]
    response = player.api.call("PUT", f"/api/v1/fleets/{fleet.pk}?version=1", doc)
    assert response.status_code == 200
    body = response.json()
    assert body["version"] == 2 and body["name"] == "Renamed by a script"
    fleet.refresh_from_db()
    assert fleet.document == doc and fleet.version == 2
    assert body["points"] == fleet.points == priced(doc) < priced(patrol)


def test_a_stale_version_is_409_and_nothing_is_applied(
    player: ApiUser, saved, patrol: dict[str, Any]
) -> None:
    fleet = saved(player)
    # The builder changes it meanwhile (version 1 → 2).
    fleet.rename("Changed in the builder")
    response = player.api.call(
        "PUT", f"/api/v1/fleets/{fleet.pk}?version=1", _renamed(patrol, "Stale edit")
    )
    assert response.status_code == 409
    assert "version 2" in response.json()["detail"]
    fleet.refresh_from_db()
    assert fleet.name == "Changed in the builder" and fleet.version == 2
    ok = player.api.call("PUT", f"/api/v1/fleets/{fleet.pk}?version=2", _renamed(patrol, "Ok"))
    assert ok.status_code == 200 and ok.json()["version"] == 3


def test_update_needs_the_version(player: ApiUser, saved, patrol: dict[str, Any]) -> None:
    fleet = saved(player)
    for query in ("", "?version=", "?version=two"):
        response = player.api.call("PUT", f"/api/v1/fleets/{fleet.pk}{query}", patrol)
        assert response.status_code == 400, query
        assert response.json()["errors"][0]["path"] == "version"


def test_update_refuses_a_bad_file_with_its_path(
    player: ApiUser, saved, patrol: dict[str, Any]
) -> None:
    fleet = saved(player)
    doc = copy.deepcopy(patrol)
    doc["units"][0]["flagship"] = "yes"
    response = player.api.call("PUT", f"/api/v1/fleets/{fleet.pk}?version=1", doc)
    assert response.status_code == 400
    assert response.json()["error"]["path"] == "units[0].flagship"
    fleet.refresh_from_db()
    assert fleet.version == 1


# --- delete to the trash ---------------------------------------------------------------------


def test_delete_moves_the_fleet_to_the_trash(player: ApiUser, saved: Callable[..., Fleet]) -> None:
    fleet = saved(player)
    response = player.api.call("DELETE", f"/api/v1/fleets/{fleet.pk}")
    assert response.status_code == 204
    fleet.refresh_from_db()
    assert fleet.in_trash
    assert player.api.get(f"/api/v1/fleets/{fleet.pk}").status_code == 404
    assert player.api.call("DELETE", f"/api/v1/fleets/{fleet.pk}").status_code == 404
    fleet.restore()  # the site's trash page can bring it back
    assert player.api.get(f"/api/v1/fleets/{fleet.pk}").status_code == 200
