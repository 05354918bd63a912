"""R-94 through the pages: every reader and form refuses a lone surrogate, a NUL or another
forbidden character with a 400 naming the JSON path, the line or the field, and stores nothing;
an address holding one is a 400; no page answers 500. On SQLite and on PostgreSQL (which
refuses NUL in text, so a NUL that got through was a 500 there)."""

from __future__ import annotations

import io
import json
import zipfile
from html import unescape
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core import fleet as rf

from .conftest import as_json

pytestmark = pytest.mark.django_db


def page_text(response: Any) -> str:
    return unescape(response.content.decode())


def test_the_issues_lone_surrogate_gets_a_400_on_the_preview_and_is_never_stored(
    visitor: Client, doc: dict[str, Any]
) -> None:
    text = as_json({**doc, "name": "\ud800"})
    assert '"name": "\\ud800"' in text
    response = visitor.post("/fleets/import/", {"text": text})
    assert response.status_code == 400
    assert (
        "This fleet file cannot be read at name: contains a lone surrogate (U+D800)."
        in page_text(response)
    )
    upload = SimpleUploadedFile("f.json", text.encode())
    response = visitor.post("/fleets/import/", {"file": upload})
    assert response.status_code == 400
    # Saving the text as the preview's form would send it: refused, nothing stored.
    response = visitor.post("/fleets/import/", {"save": text}, follow=True)
    assert response.status_code == 200
    assert "Nothing was saved: name: contains a lone surrogate (U+D800)" in page_text(response)
    assert not Fleet.objects.exists()


@pytest.mark.parametrize("where", ["name", "notes", "unit", "squadron"])
def test_a_nul_anywhere_is_refused_before_the_database(
    visitor: Client, doc: dict[str, Any], where: str
) -> None:
    units = [dict(u) for u in doc["units"]]
    squadron = next(i for i, u in enumerate(units) if u["kind"] == "squadron")
    if where == "unit":
        units[0]["name"], path = "Wr\x00th", "units[0].name"
    elif where == "squadron":
        units[squadron]["name"], path = "\x00", f"units[{squadron}].name"
    spoiled = {**doc, "units": units}
    if where in ("name", "notes"):
        spoiled[where], path = "a\x00b", where
    text = as_json(spoiled)
    response = visitor.post("/fleets/import/", {"text": text})
    assert response.status_code == 400
    assert f"at {path}: contains a control character (U+0000)." in page_text(response)
    visitor.post("/fleets/import/", {"save": text})
    visitor.post("/fleets/import/", {"save_all": f"[{text}]"})
    assert not Fleet.objects.exists()


def test_a_text_list_and_a_share_code_are_refused_naming_the_line_and_the_path(
    catalog, visitor: Client
) -> None:  # the catalogue: a transactional test may flush it
    text = 'Faction: Imperial Navy\nGame size: Patrol\n* Lunar Class Cruiser "\\u0000"\n'
    response = visitor.post("/fleets/import/", {"text": text})
    assert response.status_code == 400
    assert "Line 3: Units[0].name: contains a control character (U+0000)" in page_text(response)
    code = _code(["imperial-navy", "patrol", "Fleet\x00"])
    response = visitor.post("/fleets/import/", {"text": code})
    assert response.status_code == 400
    assert "(name: contains a control character (U+0000))" in page_text(response)
    for path in ("", "cards/", "cards.pdf"):
        response = visitor.get(f"/fleets/code/{code}/{path}")
        assert response.status_code == 404  # a code that cannot be opened, with the reason
        assert "contains a control character (U+0000)" in page_text(response)
    response = visitor.post(f"/fleets/code/{code}/")
    assert response.status_code == 404
    assert not Fleet.objects.exists()


def _code(compact: object) -> str:
    import base64
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress(json.dumps(compact).encode()) + packer.flush()
    return "v1." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_a_zip_with_a_spoiled_file_or_odd_file_names_is_refused_clearly(
    visitor: Client, doc: dict[str, Any]
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("good.json", as_json(doc))
        archive.writestr("bad\x1b[31m\u202e.json", as_json({**doc, "name": "\ud800"}))
    upload = SimpleUploadedFile("fleets.zip", buffer.getvalue())
    response = visitor.post("/fleets/import/", {"file": upload})
    assert response.status_code == 400
    text = page_text(response)
    assert (
        "bad\\u001b[31m\u202e.json: This fleet file cannot be read at name: contains a lone "
        "surrogate (U+D800)." in text
    )
    assert not Fleet.objects.exists()


def _new_fleet(client: Client, name: str) -> Any:
    return client.post(
        "/fleets/new/",
        {"faction": "imperial-navy", "variant": "", "game_size": "patrol", "name": name},
    )


def test_the_builders_names_are_checked_with_the_field_named(client: Client, catalog) -> None:
    response = _new_fleet(client, "Patrol\x00")
    assert response.status_code == 400
    assert "Name contains a control character (U+0000)." in page_text(response)
    assert not Fleet.objects.exists()
    assert _new_fleet(client, "Patrol").status_code == 302
    fleet = Fleet.objects.get()
    response = client.post(f"/fleets/{fleet.pk}/add-ship/", {"ship": "lunar-class-cruiser"})
    assert response.status_code == 302
    for path, data in [
        ("settings/", {"name": "\x07", "variant": "", "game_size": "patrol"}),
        ("units/0/rename/", {"name": "Wrath\x1b"}),
        ("new-squadron/", {"name": "Sq\x00"}),
        ("rename-fleet/", {"name": "A\x00"}),
    ]:
        response = client.post(f"/fleets/{fleet.pk}/{path}", data, follow=True)
        assert response.status_code in (200, 400), path
        assert "contains a control character" in page_text(response), path
    fleet.refresh_from_db()
    assert fleet.name == "Patrol" and len(fleet.document["units"]) == 1
    assert fleet.document["units"][0]["name"] is None
    # Tab and newline are no more welcome in a name than in a file; a surrounding space is
    # trimmed, as ever in a form.
    client.post(f"/fleets/{fleet.pk}/units/0/rename/", {"name": "  Wrath 👩‍🚀  "})
    fleet.refresh_from_db()
    assert fleet.document["units"][0]["name"] == "Wrath 👩‍🚀"


def test_the_search_box_and_addresses_holding_a_nul_are_400_not_500(
    client: Client, catalog
) -> None:
    for url in (
        "/fleets/?q=%00",
        "/fleets/?q=a%01",
        "/fleets/?%00=1",
        "/s/%00/",
        "/s/abc%00/cards.pdf",
        "/simulator/?from=%00",
        "/simulator/m/%00/",
        "/fleets/code/v1.%00/",
        "/ships/?x=%C2%85",
    ):
        response = client.get(url)
        assert response.status_code == 400, url
        assert "The address contains a control character" in response.content.decode(), url
    # Bad UTF-8 reads as U+FFFD, which is text like any other.
    assert client.get("/fleets/?q=%ED%A0%80").status_code == 200
    assert client.get("/fleets/?q=%F0%9F%9A%80").status_code == 200


def test_account_fields_are_checked(client: Client) -> None:
    password = "a long password 123"
    for username, email in [
        ("bob\x00", ""),
        ("bob\x7f", ""),
        ("bob", "bob\x00@example.org"),
        ("bob", "bob\x1b@example.org"),
    ]:
        response = client.post(
            "/accounts/signup/",
            {"username": username, "email": email, "password1": password, "password2": password},
        )
        assert response.status_code == 400, (username, email)
        assert "contains a control character" in page_text(response)
    assert not get_user_model().objects.exists()
    user = get_user_model().objects.create_user("bob", password=password)
    client.force_login(user)
    response = client.post("/accounts/", {"email": "b\x00@example.org", "password": password})
    assert response.status_code == 400
    assert "Email contains a control character (U+0000)." in page_text(response)
    user.refresh_from_db()
    assert user.email == ""
    client.logout()
    response = client.post("/accounts/login/", {"username": "bob\x00", "password": password})
    assert response.status_code in (200, 400)
    assert "contains a control character (U+0000)" in page_text(response)


def test_the_simulators_share_field_is_checked(client: Client, catalog) -> None:
    data = {
        "a_source": "shared",
        "a_share": "v1.abc\x00",
        "b_source": "sample",
        "b_faction": "orks",
        "b_size": "patrol",
        "battles": 1,
        "max_rounds": 1,
        "scoring": "core",
        "terrain": "none",
    }
    response = client.post("/simulator/", data)
    assert response.status_code == 400
    assert "Share link or code contains a control character (U+0000)." in page_text(response)
    assert not Matchup.objects.exists()


def test_odd_but_allowed_text_prints_and_shares(client: Client, doc: dict[str, Any]) -> None:
    name = "👩‍🚀 \u202eﺔﻗﺮﻓ e\u0301 \ue000\ufffd\U0010fffd\u0378 日本"
    units = [{**doc["units"][0], "name": name}, *doc["units"][1:]]
    spoiled = {**doc, "name": name, "units": units, "notes": f"{name}\n\tindented"}
    response = client.post("/fleets/import/", {"save": as_json(spoiled)})
    assert response.status_code == 302
    fleet = Fleet.objects.get()
    assert fleet.name == name
    fleet.share()
    for url in (
        f"/fleets/{fleet.pk}/",
        f"/fleets/{fleet.pk}/share/",
        "/fleets/",
        f"/fleets/{fleet.pk}/export.txt",
        fleet.share_url_path(),
        fleet.share_url_path() + "fleet.txt",
        "/fleets/export.zip",
    ):
        assert client.get(url).status_code == 200, url
    exported = json.loads(client.get(f"/fleets/{fleet.pk}/export.json").content)
    assert exported == rf.fleet_to_dict(rf.parse_fleet(spoiled))
    pdf = client.get(f"/cards/fleet/{fleet.pk}/")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
