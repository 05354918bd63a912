"""Text stored before R-94 (SQLite kept lone surrogates and NULs; PostgreSQL never could): the
migration fleets 0004 rewrites each forbidden character as U+FFFD, after which the export, the
share page, the link, the cards and "Download all" work again for everyone."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client

from fleetbuilder.fleets.models import Fleet

from .conftest import as_json

pytestmark = pytest.mark.django_db

clean = importlib.import_module("fleetbuilder.fleets.migrations.0004_r94_clean_text").clean


@pytest.mark.skipif(connection.vendor != "sqlite", reason="only SQLite could store these")
def test_stored_surrogates_and_nuls_are_replaced_and_every_page_works(
    client: Client, doc: dict[str, Any]
) -> None:
    response = client.post("/fleets/import/", {"save": as_json(doc)})
    assert response.status_code == 302
    fleet = Fleet.objects.get()
    fleet.share()
    units = [{**doc["units"][0], "name": "Wr\ud800th"}, *doc["units"][1:]]
    bad = {**doc, "name": "\ud800", "units": units, "notes": "a\x00\r\nb"}
    Fleet.objects.filter(pk=fleet.pk).update(
        document=bad,
        name="Bad\x00name",
        last_removed={"unit": 0, "ship": None, "entry": {"name": "\udfff"}},
    )
    client.raise_request_exception = False
    assert client.get(f"/fleets/{fleet.pk}/export.json").status_code != 200  # the 500

    clean(apps, None)

    fleet.refresh_from_db()
    assert fleet.name == "Bad\ufffdname"
    assert fleet.document["name"] == "\ufffd"
    assert fleet.document["units"][0]["name"] == "Wr\ufffdth"
    assert fleet.document["notes"] == "a\ufffd\nb"
    assert fleet.last_removed["entry"]["name"] == "\ufffd"
    visitor = Client()
    for who, url in [
        (client, f"/fleets/{fleet.pk}/export.json"),
        (client, f"/fleets/{fleet.pk}/export.txt"),
        (client, f"/fleets/{fleet.pk}/share/"),
        (client, f"/fleets/{fleet.pk}/"),
        (client, "/fleets/export.zip"),
        (client, "/fleets/"),
        (client, f"/cards/fleet/{fleet.pk}/"),
        (visitor, fleet.share_url_path()),
        (visitor, fleet.share_url_path() + "fleet.json"),
        (visitor, fleet.share_url_path() + "cards.pdf"),
    ]:
        assert who.get(url).status_code == 200, url
    assert client.post(f"/fleets/{fleet.pk}/copy/").status_code == 302


def test_clean_text_is_left_alone(client: Client, doc: dict[str, Any]) -> None:
    client.post("/fleets/import/", {"save": as_json(doc)})
    before = Fleet.objects.values().get()
    clean(apps, None)
    assert Fleet.objects.values().get() == before  # not even "updated" moves
