"""A player's export of everything they own, taken to another server (R-191)."""

from __future__ import annotations

import html
import io
import json
import re
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from fleetbuilder.api.models import ApiToken
from fleetbuilder.events.models import Entry, Event
from fleetbuilder.fleets.models import Fleet
from tests.events.test_events import form_data, legal_fleet, player

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(catalog):
    """A player with two fleets (one in the trash), a submitted event list, an event of their
    own another player entered, and an API token."""
    client, user = player("kassia")
    keep = legal_fleet(user, name="Kassia's Picket")
    legal_fleet(user, faction="orks", name="Old Orks").trash()
    _, raw = ApiToken.issue(user, "my script")
    org_client, org = player("marshal")
    org_client.post("/events/new/", form_data(name="Friday Skirmish"))
    theirs = Event.objects.get(organiser=org)
    theirs.join(user)
    theirs.submit(user, keep)
    client.post("/events/new/", form_data(name="Kassia's Cup"))
    mine = Event.objects.get(organiser=user)
    _, rival = player("rival")
    mine.join(rival)
    mine.submit(rival, legal_fleet(rival, name="Rival Secret List"))
    return client, user, raw


def _zip(client: Client) -> zipfile.ZipFile:
    response = client.get("/accounts/export.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response["Cache-Control"] == "private, no-store"
    return zipfile.ZipFile(io.BytesIO(response.content))


def test_r191_the_export_holds_every_fleet_event_list_and_token_name(owner) -> None:
    client, user, raw = owner
    archive = _zip(client)
    names = sorted(archive.namelist())
    assert names == ["account.json", "fleets/kassias-picket.json", "trash/old-orks.json"]
    fleet = json.loads(archive.read("fleets/kassias-picket.json"))
    assert fleet == Fleet.objects.get(owner=user, name="Kassia's Picket").document
    assert fleet["edition"] == 7
    doc = json.loads(archive.read("account.json"))
    assert doc["account"]["username"] == "kassia"
    entered = doc["events_entered"]
    assert [e["event"] for e in entered] == ["Friday Skirmish"]
    assert entered[0]["list"] == Entry.objects.get(player=user).document
    assert [e["event"] for e in doc["events_organised"]] == ["Kassia's Cup"]
    assert doc["events_organised"][0]["players"] == 1
    assert [t["name"] for t in doc["api_tokens"]] == ["my script"]
    # Never a token's secret, nor another player's list (even in the player's own event).
    everything = b"".join(archive.read(n) for n in names).decode()
    assert raw not in everything and raw[8:] not in everything
    assert "Rival Secret List" not in everything and "digest" not in everything


def test_r191_the_export_is_the_players_own_and_needs_an_account(owner) -> None:
    response = Client().get("/accounts/export.zip")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    rival = Client()
    rival.force_login(Entry.objects.get(player__username="rival").player)
    names = _zip(rival).namelist()
    assert "fleets/kassias-picket.json" not in names
    assert not any("old-orks" in n for n in names)


def test_r191_another_server_imports_the_export(owner) -> None:
    client, _, _ = owner
    data = client.get("/accounts/export.zip").content
    newcomer, new_user = player("kassia-elsewhere")
    page = newcomer.post(
        "/fleets/import/",
        {"file": SimpleUploadedFile("void-command-kassia.zip", data, "application/zip")},
    )
    text = page.content.decode()
    assert page.status_code == 200, text[:2000]
    assert "2 fleets" in text  # the account record is not a fleet
    bundle = html.unescape(re.search(r'name="save_all" value="([^"]*)"', text).group(1))
    once = re.search(r'name="once" value="([^"]*)"', text).group(1)
    newcomer.post("/fleets/import/", {"save_all": bundle, "once": once})
    assert sorted(Fleet.objects.filter(owner=new_user).values_list("name", flat=True)) == [
        "Kassia's Picket",
        "Old Orks",
    ]
