"""Every way a list travels names its edition, and is computed under it (R-160, R-161).

A share code, a fleet file, a zip of them, a text list and an API body are shown, priced and
saved under the edition they name; one naming none under the first edition, with R-161's note
where the player sees it; one naming an edition this server does not know is refused with a 4xx
that lists the known editions, and nothing is stored.
"""

from __future__ import annotations

import base64
import io
import json
import re
import zipfile
import zlib
from dataclasses import replace
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django.asserts import assertContains

from fleetbuilder.api.models import ApiToken
from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core import sharecode, textlist
from rules_core.validator import validate

pytestmark = pytest.mark.django_db

HARBINGER = "harbinger-class-heavy-cruiser"  # 300 points in edition 5, 315 in edition 7
UNKNOWN = 99


def necrons(name: str = "Harvest of Ages") -> rf.Fleet:
    """A Necron list whose total differs between editions 5 and 7 (its Harbingers)."""
    return rf.Fleet(
        "necrons",
        rf.GameSize.BATTLE,
        name=name,
        units=(
            rf.ShipUnit(HARBINGER, flagship=True),
            rf.ShipUnit(HARBINGER),
            rf.ShipUnit(HARBINGER),
        ),
    )


def points(fleet: rf.Fleet, edition: int) -> int:
    return validate(fleet, editions.catalog_for(edition)).points


def first() -> editions.EditionInfo:
    return editions.known()[0]


def note() -> str:
    """R-161's note for a list naming no edition."""
    return editions.resolve(None)[1]


def known_list() -> str:
    return ", ".join(str(i.number) for i in editions.known())


def v1_code(fleet: rf.Fleet) -> str:
    """The code a server from before editions wrote: the compact form without its edition."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = json.dumps(sharecode.to_compact(fleet)[:7], separators=(",", ":")).encode()
    raw = packer.compress(payload) + packer.flush()
    return "v1." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def assert_note_shown(response) -> None:  # type: ignore[no-untyped-def]
    assertContains(
        response, f'<p class="alert alert--info edition-note" role="note">{note()}</p>', html=True
    )


def assert_refused(response, status: int) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code == status
    text = unescape(response.content.decode())
    assert (
        f"Edition {UNKNOWN} is not one this server knows; the known editions are "
        f"{known_list()}." in text
    )


@pytest.fixture(autouse=True)
def _editions(catalog) -> None:
    assert [i.number for i in editions.known()][:7] == [1, 2, 3, 4, 5, 6, 7]
    assert points(necrons(), 5) != points(necrons(), 7)


# --- share codes ----------------------------------------------------------------------------


def test_a_code_made_under_edition_5_opens_with_edition_5s_numbers(visitor: Client) -> None:
    """R-160: a share code carries its list's edition; its page prices it under that one."""
    fleet = replace(necrons(), edition=5)
    code = sharecode.encode(fleet)
    response = visitor.get(f"/fleets/code/{code}/")
    assert response.status_code == 200
    assert response.context["report"].points == points(fleet, 5) != points(fleet, 7)
    assertContains(response, f"{points(fleet, 5)}")
    assertContains(
        response, f'<span class="roster-edition">{editions.get(5).title}</span>', html=True
    )
    assert "edition-note" not in response.content.decode()  # it names one: no note


def test_copying_a_code_saves_the_list_on_its_edition(visitor: Client) -> None:
    fleet = replace(necrons(), edition=5)
    code = sharecode.encode(fleet)
    page = visitor.get(f"/fleets/code/{code}/")
    response = visitor.post(f"/fleets/code/{code}/", {"once": page.context["once"]})
    assert response.status_code == 302
    saved = Fleet.objects.get()
    assert (saved.edition, saved.points) == (5, points(fleet, 5))
    assert saved.document["edition"] == 5


def test_an_old_v1_code_opens_under_the_first_edition_with_the_note(visitor: Client) -> None:
    """R-161: a v1. code cannot say when it was made: the first edition, and a note."""
    fleet = necrons()
    code = v1_code(fleet)
    assert sharecode.decode(code).edition is None
    response = visitor.get(f"/fleets/code/{code}/")
    assert response.status_code == 200
    assert response.context["report"].points == points(fleet, first().number)
    assert_note_shown(response)
    # Copied, it is saved on the first edition, and the note is said again.
    saved = visitor.post(f"/fleets/code/{code}/", {"once": response.context["once"]})
    assert saved.status_code == 302
    stored = Fleet.objects.get()
    assert (stored.edition, stored.points) == (first().number, points(fleet, first().number))
    assert note() in [m.message for m in get_messages(saved.wsgi_request)]


def test_a_code_naming_an_unknown_edition_is_refused_and_nothing_is_saved(visitor: Client) -> None:
    """R-161: an edition this server does not know is a 404 naming the known ones (as any
    code that cannot be opened); copying it saves nothing; its cards are refused too."""
    code = sharecode.encode(replace(necrons(), edition=UNKNOWN))
    before = Fleet.objects.count()
    for url in (
        f"/fleets/code/{code}/",
        f"/fleets/code/{code}/cards/",
        f"/fleets/code/{code}/cards.pdf",
    ):
        assert_refused(visitor.get(url), 404)
    assert_refused(visitor.post(f"/fleets/code/{code}/", {"once": "x"}), 404)
    assert Fleet.objects.count() == before


def test_the_share_page_makes_a_v2_code_naming_the_edition(client: Client, make_fleet) -> None:
    fleet = make_fleet(replace(necrons(), edition=5))
    page = client.get(f"/fleets/{fleet.pk}/share/").content.decode()
    code = re.search(r'id="code-only" type="text" readonly value="([^"]+)"', page).group(1)
    assert code.startswith("v2.") and sharecode.decode(code).edition == 5


# --- fleet files, zips and text lists -------------------------------------------------------


def preview(client: Client, **data: object):  # type: ignore[no-untyped-def]
    return client.post("/fleets/import/", data)


def save_preview(client: Client, response) -> Fleet:  # type: ignore[no-untyped-def]
    page = response.content.decode()
    data = {
        "save": unescape(re.search(r'name="save" value="([^"]*)"', page).group(1)),
        "once": response.context["once"],
    }
    if 'name="unnamed_edition"' in page:
        data["unnamed_edition"] = "1"
    saved = client.post("/fleets/import/", data)
    assert saved.status_code == 302
    return Fleet.objects.get(pk=int(saved.headers["Location"].strip("/").split("/")[-1]))


def test_a_file_naming_edition_5_is_shown_and_saved_under_it(visitor: Client) -> None:
    fleet = replace(necrons(), edition=5)
    response = preview(visitor, text=rf.dump_fleet_json(fleet))
    assert response.status_code == 200
    assert response.context["report"].points == points(fleet, 5)
    assert "edition-note" not in response.content.decode()
    stored = save_preview(visitor, response)
    assert (stored.edition, stored.points) == (5, points(fleet, 5))


def test_a_file_naming_no_edition_opens_under_the_first_with_the_note(visitor: Client) -> None:
    """R-161: a file without an edition is read under the first edition, with the note shown
    on the preview and again when it is saved; the saved list names that edition."""
    fleet = necrons()
    upload = SimpleUploadedFile("old.json", rf.dump_fleet_json(fleet).encode(), "application/json")
    response = preview(visitor, file=upload)
    assert response.status_code == 200
    assert response.context["report"].points == points(fleet, first().number)
    assert_note_shown(response)
    stored = save_preview(visitor, response)
    assert (stored.edition, stored.points) == (first().number, points(fleet, first().number))
    assert stored.document["edition"] == first().number
    page = visitor.get(stored.get_absolute_url())
    assert note() in [m.message for m in get_messages(page.wsgi_request)]


@pytest.mark.parametrize("kind", ["pasted file", "uploaded file", "text list", "share code"])
def test_an_unknown_edition_is_refused_on_import_naming_the_known_ones(
    visitor: Client, kind: str
) -> None:
    """R-161: a 400 that lists the known editions, and nothing is stored."""
    fleet = replace(necrons(), edition=UNKNOWN)
    text = rf.dump_fleet_json(fleet)
    data: dict[str, object] = {"text": text}
    if kind == "uploaded file":
        data = {"file": SimpleUploadedFile("new.json", text.encode(), "application/json")}
    elif kind == "text list":
        listed = textlist.to_text(
            editions.catalog_for(7), fleet, validate(fleet, editions.catalog_for(7))
        )
        assert f"Edition: {UNKNOWN}" in listed
        data = {"text": listed}
    elif kind == "share code":
        data = {"text": sharecode.encode(fleet)}
    before = Fleet.objects.count()
    assert_refused(preview(visitor, **data), 400)
    assert Fleet.objects.count() == before


def test_a_forged_save_naming_an_unknown_edition_saves_nothing(visitor: Client) -> None:
    before = Fleet.objects.count()
    doc = rf.dump_fleet_json(replace(necrons(), edition=UNKNOWN))
    response = visitor.post("/fleets/import/", {"save": doc}, follow=True)
    assert Fleet.objects.count() == before
    assert any(
        f"the known editions are {known_list()}" in m.message for m in response.context["messages"]
    )
    forged = json.dumps([json.loads(doc)])
    response = visitor.post("/fleets/import/", {"save_all": forged}, follow=True)
    assert Fleet.objects.count() == before
    assert any("known editions" in m.message for m in response.context["messages"])


def zip_of(files: dict[str, str]) -> SimpleUploadedFile:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, text in files.items():
            bundle.writestr(name, text)
    return SimpleUploadedFile("fleets.zip", data.getvalue(), "application/zip")


def test_a_zip_reads_each_file_under_its_own_edition(visitor: Client) -> None:
    named = replace(necrons("Named"), edition=5)
    unnamed = necrons("Unnamed")
    response = preview(
        visitor,
        file=zip_of({"a.json": rf.dump_fleet_json(named), "b.json": rf.dump_fleet_json(unnamed)}),
    )
    assert response.status_code == 200
    rows = {row["name"]: row for row in response.context["bundle"]}
    assert (rows["Named"]["edition"], rows["Named"]["points"]) == (5, points(named, 5))
    assert (rows["Unnamed"]["edition"], rows["Unnamed"]["points"]) == (
        first().number,
        points(unnamed, first().number),
    )
    assertContains(response, "1 of these 2 fleets name no edition")
    page = response.content.decode()
    everything = unescape(re.search(r'name="save_all" value="([^"]*)"', page).group(1))
    saved = visitor.post(
        "/fleets/import/", {"save_all": everything, "once": response.context["once"]}
    )
    assert saved.status_code == 302
    stored = {f.name: (f.edition, f.points) for f in Fleet.objects.all()}
    assert stored == {
        "Named": (5, points(named, 5)),
        "Unnamed": (first().number, points(unnamed, first().number)),
    }


def test_a_zip_with_one_unknown_edition_names_the_file_and_saves_nothing(visitor: Client) -> None:
    before = Fleet.objects.count()
    response = preview(
        visitor,
        file=zip_of(
            {
                "good.json": rf.dump_fleet_json(replace(necrons(), edition=7)),
                "future.json": rf.dump_fleet_json(replace(necrons(), edition=UNKNOWN)),
            }
        ),
    )
    assert_refused(response, 400)
    assert "future.json" in response.context["error"]
    assert Fleet.objects.count() == before


def test_a_text_list_names_its_edition_and_reads_back_under_it(client: Client, make_fleet) -> None:
    """R-160: the text export names the edition; imported, it is priced under it again."""
    fleet = make_fleet(replace(necrons(), edition=5))
    text = client.get(f"/fleets/{fleet.pk}/export.txt").content.decode()
    assert f"Edition: 5 ({editions.get(5).label})" in text.splitlines()
    assert f"Points: {points(fleet.to_core(), 5)}" in text
    response = preview(client, text=text)
    assert response.status_code == 200 and response.context["kind"] == "plain-text list"
    assert response.context["doc"].edition == 5
    assert response.context["report"].points == points(fleet.to_core(), 5)


def test_a_text_list_without_an_edition_line_reads_under_the_first(visitor: Client) -> None:
    """R-161 for a text list."""
    fleet = necrons()
    catalog = editions.catalog_for(7)
    text = textlist.to_text(catalog, fleet, validate(fleet, catalog))
    assert "Edition" not in text
    response = preview(visitor, text=text)
    assert response.status_code == 200
    assert response.context["doc"].edition == first().number
    assert_note_shown(response)


# --- saved lists: exports, the permalink and its copy --------------------------------------


def test_exports_write_the_lists_edition(client: Client, make_fleet) -> None:
    fleet = make_fleet(replace(necrons(), edition=5))
    data = json.loads(client.get(f"/fleets/{fleet.pk}/export.json").content)
    assert data["edition"] == 5 and list(data)[:3] == ["format", "version", "edition"]
    archive = zipfile.ZipFile(io.BytesIO(client.get("/fleets/export.zip").content))
    assert [json.loads(archive.read(n))["edition"] for n in archive.namelist()] == [5]


def test_a_shared_link_shows_and_copies_its_edition(
    client: Client, make_fleet, visitor: Client
) -> None:
    fleet = make_fleet(replace(necrons(), edition=5))
    fleet.share()
    page = visitor.get(fleet.share_url_path())
    assert page.context["report"].points == points(fleet.to_core(), 5)
    assertContains(page, editions.get(5).title)
    text = visitor.get(fleet.share_url_path() + "fleet.txt").content.decode()
    assert f"Edition: 5 ({editions.get(5).label})" in text
    copied = visitor.post(fleet.share_url_path() + "copy/", {"once": page.context["once"]})
    assert copied.status_code == 302
    copy = Fleet.objects.exclude(pk=fleet.pk).get()
    assert (copy.edition, copy.points) == (5, points(fleet.to_core(), 5))
    # Pasted into the import page, the link keeps its edition too (no note).
    response = preview(visitor, text="http://testserver" + fleet.share_url_path())
    assert response.context["doc"].edition == 5
    assert "edition-note" not in response.content.decode()


# --- the API (contract 4) -------------------------------------------------------------------


@pytest.fixture
def api_token(db) -> str:
    user = get_user_model().objects.create_user("api-editions", password="a long password 9")
    return ApiToken.issue(user, "editions script")[1]


def api_post(path: str, body: object, token: str | None = None):  # type: ignore[no-untyped-def]
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return Client().post(path, json.dumps(body), content_type="application/json", **headers)


def test_the_api_computes_a_file_under_its_edition(api_token: str) -> None:
    fleet = replace(necrons(), edition=5)
    body = api_post("/api/v1/fleet-files/validate", rf.fleet_to_dict(fleet)).json()
    assert (body["edition"], body["points"], body["edition_note"]) == (5, points(fleet, 5), None)
    created = api_post("/api/v1/fleets", rf.fleet_to_dict(fleet), api_token)
    assert created.status_code == 201
    assert created.json()["report"]["edition"] == 5
    assert Fleet.objects.get().edition == 5


def test_the_api_reads_a_file_naming_no_edition_under_the_first_with_the_note(
    api_token: str,
) -> None:
    """R-161 in the API: the first edition, and the note as "edition_note"."""
    fleet = necrons()
    body = api_post("/api/v1/fleet-files/validate", rf.fleet_to_dict(fleet)).json()
    assert (body["edition"], body["points"]) == (first().number, points(fleet, first().number))
    assert body["edition_note"] == note()
    code = api_post("/api/v1/share-codes", rf.fleet_to_dict(fleet)).json()["code"]
    assert sharecode.decode(code).edition == first().number  # the code names it now
    decoded = Client().get(f"/api/v1/share-codes/{v1_code(fleet)}").json()
    assert decoded["fleet"]["edition"] == first().number
    assert decoded["report"]["edition_note"] == note()
    created = api_post("/api/v1/fleets", rf.fleet_to_dict(fleet), api_token).json()
    assert created["report"]["edition_note"] == note()
    assert Fleet.objects.get().edition == first().number


def test_the_api_refuses_an_unknown_edition_and_stores_nothing(api_token: str) -> None:
    """R-161: a 422 naming the known editions; nothing stored."""
    doc = rf.fleet_to_dict(replace(necrons(), edition=UNKNOWN))
    before = Fleet.objects.count()
    known = [i.number for i in editions.known()]
    for response in (
        api_post("/api/v1/fleet-files/validate", doc),
        api_post("/api/v1/share-codes", doc),
        api_post("/api/v1/fleets", doc, api_token),
        Client().get(
            f"/api/v1/share-codes/{sharecode.encode(replace(necrons(), edition=UNKNOWN))}"
        ),
    ):
        assert response.status_code == 422
        body = response.json()
        assert (body["edition"], body["known_editions"]) == (UNKNOWN, known)
        assert f"the known editions are {known_list()}" in body["detail"]
    assert Fleet.objects.count() == before
