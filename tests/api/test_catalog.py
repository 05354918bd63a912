"""GET /api/v1/catalog: contract 3's export_catalog document, ETagged on the catalogue version."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from fleetbuilder.catalog import pagecache

from .conftest import Api

pytestmark = pytest.mark.django_db


def test_the_catalogue_is_export_catalogs_document(anonymous: Api, catalog, capsys) -> None:
    response = anonymous.get("/api/v1/catalog")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    call_command("export_catalog")
    assert body == json.loads(capsys.readouterr().out)
    assert body["catalog_version"] == catalog.version
    ship = next(
        s for f in body["factions"] for s in f["ships"] if s["slug"] == "lunar-class-cruiser"
    )
    assert {
        "slug",
        "name",
        "class",
        "points",
        "speed",
        "turns",
        "leadership",
        "shields",
        "hull",
        "armor",
        "turrets",
        "weapons",
    } <= set(ship)
    assert {"name", "type", "arc", "strength", "range"} <= set(ship["weapons"][0])
    assert {"slug", "name", "points", "leadership_bonus"} <= set(body["admirals"][0])


def test_etag_and_304_until_the_catalogue_changes(anonymous: Api, monkeypatch) -> None:
    first = anonymous.get("/api/v1/catalog")
    etag = first["ETag"]
    assert etag.startswith('"') and first["Cache-Control"] == "public, no-cache"
    again = anonymous.get("/api/v1/catalog", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    assert anonymous.get("/api/v1/catalog", HTTP_IF_NONE_MATCH='"other"').status_code == 200
    # A new catalogue version (a reload, an admin edit) is a new ETag: the old one gets a 200.
    monkeypatch.setattr(pagecache, "catalogue_version", lambda request=None: "next-version")
    changed = anonymous.get("/api/v1/catalog", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_same_etag_for_everyone_and_with_a_token(anonymous: Api, player) -> None:
    assert anonymous.get("/api/v1/catalog")["ETag"] == player.api.get("/api/v1/catalog")["ETag"]


def test_a_bad_token_is_refused_even_on_public_endpoints(db) -> None:
    response = Api("vc_not-a-token").get("/api/v1/catalog")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
