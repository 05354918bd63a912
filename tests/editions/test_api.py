"""The editions in the API: the list and what changed between two, as JSON (R-160)."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()  # rate limits and cached answers of other tests


def test_the_list_gives_every_edition_newest_first(client: Client) -> None:
    response = client.get("/api/v1/editions")
    assert response.status_code == 200
    body = response.json()
    assert [e["number"] for e in body] == [7, 6, 5, 4, 3, 2, 1]
    newest = body[0]
    assert newest["title"] == "Edition 7 (2026-12, Necrons' Battle ships)"
    assert newest["current"] is True and not any(e["current"] for e in body[1:])
    assert newest["published"].startswith("2026-12-02T03:35:22")
    assert newest["url"] == "http://testserver/editions/7/"
    assert newest["price_changes"] == 2 and body[2]["price_changes"] == 10
    assert body[-1]["price_changes"] is None  # the first edition
    assert len(newest["sha256"]) == 64


def test_the_diff_against_the_previous_edition(client: Client) -> None:
    """Edition 5: the Astartes escorts from 30 to 40 points for the smallest (the Cobra)."""
    response = client.get("/api/v1/editions/5/diff")
    assert response.status_code == 200
    body = response.json()
    assert body["edition"]["number"] == 5 and body["against"]["number"] == 4
    cobra = next(p for p in body["points"] if p["slug"] == "cobra-rapid-strike-vessel")
    assert cobra == {
        "kind": "ship",
        "slug": "cobra-rapid-strike-vessel",
        "name": "Cobra Rapid Strike Vessel",
        "faction": "adeptus-astartes",
        "old": 30,
        "new": 40,
    }
    assert len(body["points"]) == 10
    assert body["factions"] == [
        {
            "faction": "adeptus-astartes",
            "name": "Adeptus Astartes",
            "changed": 10,
            "ships": 22,
            "share": 0.4545,
        }
    ]
    assert body["added"] == body["removed"] == body["changes"] == []


def test_the_diff_against_any_edition(client: Client) -> None:
    body = client.get("/api/v1/editions/7/diff", {"against": 5}).json()
    assert body["against"]["number"] == 5
    assert {p["faction"] for p in body["points"]} == {"craftworld-eldar", "necrons"}
    holofields = body["changes"][0]
    assert holofields["kind"] == "faction_rule" and holofields["field"] == "Holofields"
    assert "on a 5+ if it comes from within 15 cm" in holofields["new"]


def test_the_first_edition_has_nothing_before_it(client: Client) -> None:
    body = client.get("/api/v1/editions/1/diff").json()
    assert body["against"] is None and body["points"] == []
    assert "Edition 1 is the first edition" in body["note"]
    assert client.get("/api/v1/editions/1/diff", {"against": 2}).json()["against"]["number"] == 2


@pytest.mark.parametrize(
    "url",
    ["/api/v1/editions/99/diff", "/api/v1/editions/5/diff?against=99", "/api/v1/editions/0/diff"],
)
def test_an_unknown_edition_is_404_naming_the_known_ones(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    detail = response.json()["detail"]
    assert "is not one this server knows" in detail
    assert "the known editions are 1, 2, 3, 4, 5, 6, 7" in detail


def test_a_bad_against_is_400_with_its_path(client: Client) -> None:
    itself = client.get("/api/v1/editions/5/diff", {"against": 5})
    assert itself.status_code == 400
    assert itself.json()["errors"] == [
        {"path": "against", "message": "Compare edition 5 with another edition, not with itself."}
    ]
    words = client.get("/api/v1/editions/5/diff", {"against": "abc"})
    assert words.status_code == 400 and words.json()["errors"][0]["path"] == "against"


def test_a_bad_token_is_refused_as_everywhere_in_the_api(client: Client) -> None:
    response = client.get("/api/v1/editions", headers={"Authorization": "Bearer vc_nothing"})
    assert response.status_code == 401


def test_the_openapi_document_describes_them(client: Client) -> None:
    doc = json.loads(client.get("/api/v1/openapi.json").content)
    diff = doc["paths"]["/api/v1/editions/{number}/diff"]["get"]
    assert diff["tags"] == ["editions"]
    assert {"200", "400", "404"} <= set(diff["responses"])
    assert "/api/v1/editions" in doc["paths"]
