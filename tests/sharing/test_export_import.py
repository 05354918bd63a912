"""Export and import through the pages: the file, the share code and the text, for every faction;
broken or oversize input is refused with a message naming the problem, and creates nothing."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django.asserts import assertInHTML

from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet

pytestmark = pytest.mark.django_db

FACTIONS = [
    "adepta-sororitas",
    "adeptus-astartes",
    "adeptus-custodes",
    "adeptus-mechanicus",
    "archenemy",
    "craftworld-eldar",
    "drukhari",
    "grey-knights",
    "imperial-navy",
    "leagues-of-votann",
    "necrons",
    "orks",
    "tau-empire",
    "tyranids",
]


def test_every_faction_is_listed(catalog) -> None:
    assert sorted(f.slug for f in catalog.factions) == FACTIONS


def preview(client: Client, **data: object) -> str:
    response = client.post("/fleets/import/", data)
    assert response.status_code == 200, unescape(response.content.decode())[-3000:]
    return response.content.decode()


def save(client: Client, page: str) -> Fleet:
    normalised = unescape(re.search(r'name="save" value="([^"]*)"', page).group(1))
    response = client.post("/fleets/import/", {"save": normalised})
    assert response.status_code == 302
    return Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))


def export_file(client: Client, fleet: Fleet) -> bytes:
    response = client.get(f"/fleets/{fleet.pk}/export.json")
    assert response.status_code == 200
    return response.content


def code_of(client: Client, fleet: Fleet) -> str:
    page = client.get(f"/fleets/{fleet.pk}/share/").content.decode()
    return re.search(
        r'id="code-url" type="text" readonly value="http://testserver/fleets/'
        r'code/([^"/]+)/"',
        page,
    ).group(1)


def text_of(client: Client, fleet: Fleet) -> str:
    return client.get(f"/fleets/{fleet.pk}/export.txt").content.decode()


@pytest.mark.parametrize("faction", FACTIONS)
def test_export_import_export_is_identical(
    client: Client, catalog, make_fleet, faction: str
) -> None:
    fleet = make_fleet(sample_fleet(catalog, faction, "battle"))
    # The fleet file: download, upload, save, download again.
    first = export_file(client, fleet)
    page = preview(client, file=SimpleUploadedFile("fleet.json", first, "application/json"))
    assert "from a fleet file" in page and "Legal fleet" in page
    assert export_file(client, save(client, page)) == first
    # The share code, pasted (as its link).
    code = code_of(client, fleet)
    page = preview(client, text=f"http://example.org/fleets/code/{code}/")
    assert "from a share code" in page
    copy = save(client, page)
    assert code_of(client, copy) == code and export_file(client, copy) == first
    # The plain text, pasted.
    text = text_of(client, fleet)
    page = preview(client, text=text)
    assert "from a plain-text list" in page
    copy = save(client, page)
    assert text_of(client, copy) == text and export_file(client, copy) == first
    assert Fleet.objects.count() == 4


def test_the_file_download_is_contract_1_with_a_safe_filename(
    client: Client, make_fleet, catalog
) -> None:
    from dataclasses import replace

    doc = replace(
        sample_fleet(catalog, "orks", "patrol"), name='../../etc/passwd"; x=\u2028<Waaagh!>'
    )  # CR LF: refused
    fleet = make_fleet(doc)
    response = client.get(f"/fleets/{fleet.pk}/export.json")
    assert (
        response.headers["Content-Disposition"] == 'attachment; filename="etcpasswd-x-waaagh.json"'
    )
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    data = json.loads(response.content)
    assert data["format"] == "void-command-fleet" and data["version"] == 1
    assert data["edition"] == fleet.edition  # the file names the list's edition
    assert rf.parse_fleet(data) == replace(doc, edition=fleet.edition)


def test_a_saved_import_is_owned_by_the_importer(
    client: Client, make_fleet, visitor: Client, other_account: Client
) -> None:
    text = text_of(client, make_fleet())
    copy = save(visitor, preview(visitor, text=text))
    assert copy.owner is None and visitor.get(copy.get_absolute_url()).status_code == 200
    assert client.get(copy.get_absolute_url()).status_code == 404
    mine = save(other_account, preview(other_account, text=text))
    assert mine.owner.username == "rival"


def test_a_permalink_pasted_into_import_opens_that_fleet(shared: Fleet, visitor: Client) -> None:
    page = preview(visitor, text=f"http://testserver{shared.share_url_path()}")
    assert "from a shared link" in page and shared.name in page


def test_the_share_code_page_opens_a_fleet_from_no_database(
    client: Client, make_fleet, visitor: Client
) -> None:
    fleet = make_fleet()
    code = code_of(client, fleet)
    fleet.delete()  # the code alone carries the list
    page = visitor.get(f"/fleets/code/{code}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Fleet from a share code" in html and "Imperial Navy Skirmish Fleet" in html
    response = visitor.post(f"/fleets/code/{code}/")
    assert response.status_code == 302
    assert Fleet.objects.get().name == "Imperial Navy Skirmish Fleet"


def test_a_bad_share_code_page_says_why(visitor: Client) -> None:
    response = visitor.get("/fleets/code/v1.____/")
    assert response.status_code == 404
    assert "damaged (it does not decompress)" in response.content.decode()
    assert visitor.post("/fleets/code/v9.abc/").status_code == 404
    assert not Fleet.objects.exists()


BROKEN = [
    (
        '{"format": "void-command-fleet", "version": 1, "faction": "orks", "game_size": "patrol",'
        ' "units": [{"kind": "ship", "ship": "Ork Kill Kroozer"}]}',
        "This fleet file cannot be read at units[0].ship: 'Ork Kill Kroozer' is not a slug",
    ),
    (
        '{"format": "void-command-fleet", "version": 2}',
        "at version: version 2 is newer than this program reads",
    ),
    ('{"format": "void-command-fleet",\n "version": 1,', "not valid JSON at line 2"),
    ("v1.____", "The share code is damaged"),
    (
        "Faction: Orks\nGame size: Patrol\n* Ork Kill Kroozer\n+ Golden Teef",
        "Line 4: No upgrade called 'Golden Teef'",
    ),
    ("hello world", "Line 1: Not understood"),
]


@pytest.mark.parametrize(("text", "message"), BROKEN)
def test_broken_input_names_the_problem_and_creates_nothing(
    visitor: Client, catalog, text: str, message: str
) -> None:
    response = visitor.post("/fleets/import/", {"text": text})
    assert response.status_code == 400
    html = unescape(response.content.decode())
    assert "Nothing was imported." in html and message in html
    assert not Fleet.objects.exists()


def test_a_broken_uploaded_file_names_the_json_path(visitor: Client, catalog) -> None:
    body = (
        b'{"format": "void-command-fleet", "version": 1, "faction": "orks", '
        b'"game_size": "patrol", "units": [{"kind": "wing", "ship": "x"}]}'
    )
    response = visitor.post("/fleets/import/", {"file": SimpleUploadedFile("f.json", body)})
    assert response.status_code == 400
    assert (
        "at units[0].kind: &#x27;wing&#x27; is not &#x27;ship&#x27; or &#x27;squadron&#x27;"
        in response.content.decode()
    )
    binary = visitor.post("/fleets/import/", {"file": SimpleUploadedFile("f.json", b"\xff\x00")})
    assert "not UTF-8 text" in binary.content.decode()
    assert not Fleet.objects.exists()


def test_a_tampered_save_creates_nothing(visitor: Client, catalog) -> None:
    response = visitor.post(
        "/fleets/import/", {"save": '{"format": "void-command-fleet"}'}, follow=True
    )
    assert "Nothing was saved: version: is required" in response.content.decode()
    assert not Fleet.objects.exists()


def test_a_fleet_of_a_faction_this_catalogue_lacks_is_shown_not_saved(
    visitor: Client, catalog
) -> None:
    text = json.dumps(
        {
            "format": "void-command-fleet",
            "version": 1,
            "faction": "space-elves",
            "game_size": "patrol",
            "units": [],
        }
    )
    page = preview(visitor, text=text)
    assert "catalog.unknown_faction" in page and "Save to my fleets" not in page
    response = visitor.post("/fleets/import/", {"save": text}, follow=True)
    assert "no faction &#x27;space-elves&#x27;" in response.content.decode()
    assert not Fleet.objects.exists()


def test_nothing_to_import_or_two_things_at_once(visitor: Client, catalog) -> None:
    assert (
        "Choose a fleet file or paste"
        in visitor.post("/fleets/import/", {"text": "  "}).content.decode()
    )
    both = visitor.post("/fleets/import/", {"text": "x", "file": SimpleUploadedFile("a", b"{}")})
    assert "not both at once" in both.content.decode()


def test_oversize_input_is_refused_with_a_clear_message(visitor: Client, catalog) -> None:
    big = b"{" + b" " * (300 * 1024) + b"}"
    response = visitor.post("/fleets/import/", {"file": SimpleUploadedFile("big.json", big)})
    assert response.status_code == 400
    assert (
        "The file is 300.0 KB (307,202 bytes); the limit is 256 KB (262,144 bytes)."
        in response.content.decode()
    )
    response = visitor.post("/fleets/import/", {"text": "x" * (300 * 1024)})
    assert response.status_code == 400
    assert (
        "The pasted text is 307,200 characters long; the limit is 262,144."
        in response.content.decode()
    )
    assert not Fleet.objects.exists()


def test_a_file_one_byte_over_the_cap_says_so(visitor: Client, catalog) -> None:
    body = b"{" + b" " * (256 * 1024 - 1) + b"}"
    response = visitor.post("/fleets/import/", {"file": SimpleUploadedFile("f.json", body)})
    assert response.status_code == 400
    assert "The file is 256.0 KB (262,145 bytes); the limit is 256 KB (262,144 bytes)." in unescape(
        response.content.decode()
    )
    exact = SimpleUploadedFile("f.json", body[:-2] + b"}")
    assert "the limit is" not in visitor.post("/fleets/import/", {"file": exact}).content.decode()


def csrf_client() -> tuple[Client, str]:
    browser = Client(enforce_csrf_checks=True)
    page = browser.get("/fleets/import/").content.decode()
    return browser, re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def test_past_the_sites_form_limit_the_page_still_says_why(catalog) -> None:
    browser, token = csrf_client()
    big = {"csrfmiddlewaretoken": token, "text": "x" * (600 * 1024)}
    response = browser.post("/fleets/import/", big)
    assert response.status_code == 413
    assert re.search(
        r"That was 600\.\d KB \(61\d,\d{3} bytes\), too much to send: a file may "
        r"be up to 256 KB \(262,144 bytes\)",
        response.content.decode(),
    )
    upload = {
        "csrfmiddlewaretoken": token,
        "file": SimpleUploadedFile("big.json", b" " * (700 * 1024)),
    }
    response = browser.post("/fleets/import/", upload)
    assert response.status_code == 413
    assert "Nothing was imported." in response.content.decode()
    ten_mb = {
        "csrfmiddlewaretoken": token,
        "file": SimpleUploadedFile("huge.json", b"{" + b" " * (10 * 1024 * 1024) + b"}"),
    }
    response = browser.post("/fleets/import/", ten_mb)
    assert response.status_code == 413
    assert re.search(
        r"That was 10\.0 MB \(10,48\d,\d{3} bytes\), too much to send", response.content.decode()
    )
    assert not Fleet.objects.exists()


def test_import_still_needs_the_csrf_token(client: Client, make_fleet) -> None:
    text = text_of(client, make_fleet())
    browser, token = csrf_client()
    assert browser.post("/fleets/import/", {"text": text}).status_code == 403
    assert (
        browser.post("/fleets/import/", {"text": text, "csrfmiddlewaretoken": token}).status_code
        == 200
    )
    save_data = {"save": export_file(client, Fleet.objects.get()).decode()}
    assert browser.post("/fleets/import/", save_data).status_code == 403
    assert Fleet.objects.count() == 1


def test_the_import_page_is_linked_and_works_without_a_fleet(client: Client) -> None:
    page = client.get("/fleets/import/").content.decode()
    assert 'enctype="multipart/form-data"' in page and 'maxlength="262144"' in page
    saved_fleets = client.get("/fleets/").content.decode()
    assertInHTML(
        '<a class="button button--ghost" href="/fleets/import/">Import a fleet</a>', saved_fleets
    )


def test_an_uploaded_text_file_is_read_as_a_list(client: Client, make_fleet) -> None:
    text = text_of(client, make_fleet()).encode()
    page = preview(client, file=SimpleUploadedFile("fleet.txt", text, "text/plain"))
    assert "from a plain-text list" in page and "Save to my fleets" in page


def test_a_fleet_too_big_for_a_code_still_has_a_link_and_a_file(
    client: Client, make_fleet, catalog
) -> None:
    import random

    rng = random.Random(3)
    units = tuple(
        rf.ShipUnit(
            "lunar-class-cruiser",
            name="".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(100)),
        )
        for _ in range(60)
    )
    fleet = make_fleet(rf.Fleet("imperial-navy", rf.GameSize.ARMADA, units, name="Big"))
    page = client.get(f"/fleets/{fleet.pk}/share/").content.decode()
    assert "This fleet is too big for a share code" in page and 'id="code-url"' not in page
    assert client.get(f"/fleets/{fleet.pk}/export.json").status_code == 200


def test_pasted_files_with_a_bom_and_windows_line_ends_read(client: Client, make_fleet) -> None:
    fleet = make_fleet()
    body = export_file(client, fleet).decode()
    page = preview(client, text="\ufeff" + body.replace("\n", "\r\n"))
    assert "from a fleet file" in page
    text = text_of(client, fleet).replace("\n", "\r\n")
    assert "from a plain-text list" in preview(client, text=text)


def test_a_variant_fleet_keeps_its_variant_through_every_format(
    client: Client, catalog, make_fleet
) -> None:
    fleet = make_fleet(
        sample_fleet(catalog, "imperial-navy", "battle", variant="bakka-sector-fleet")
    )
    fleet.share()
    assert (
        "Imperial Navy · Battlefleet Bakka · Battle"
        in Client().get(fleet.share_url_path()).content.decode()
    )
    text = text_of(client, fleet)
    assert "\nVariant: Battlefleet Bakka\n" in text
    for pasted in (text, code_of(client, fleet)):
        copy = save(client, preview(client, text=pasted))
        assert copy.variant == "bakka-sector-fleet"
        assert copy.document == fleet.document


# --- sent twice, and the words of a missing key ----------------------------------------------


def once_of(page: str) -> str:
    return re.search(r'name="once" value="([^"]+)"', page).group(1)


def test_saving_an_import_twice_saves_one_fleet(client: Client, make_fleet) -> None:
    text = text_of(client, make_fleet())
    page = preview(client, text=text)
    normalised = unescape(re.search(r'name="save" value="([^"]*)"', page).group(1))
    data = {"save": normalised, "once": once_of(page)}
    first = client.post("/fleets/import/", data)
    second = client.post("/fleets/import/", data)  # a double click
    assert Fleet.objects.count() == 2  # the original and one import
    imported = Fleet.objects.latest("pk")
    assert first.headers["Location"] == second.headers["Location"] == imported.get_absolute_url()
    page = client.get(imported.get_absolute_url()).content.decode()
    assert "That was sent twice; the fleet is saved once." in page
    # A new preview is a new form: saving it again is a deliberate second copy.
    again = preview(client, text=text)
    client.post("/fleets/import/", {"save": normalised, "once": once_of(again)})
    assert Fleet.objects.count() == 3


def test_copying_a_shared_fleet_twice_makes_one_copy(shared: Fleet, visitor: Client) -> None:
    page = visitor.get(shared.share_url_path()).content.decode()
    assert "data-submit-once" in page
    data = {"once": once_of(page)}
    first = visitor.post(shared.share_url_path() + "copy/", data)
    second = visitor.post(shared.share_url_path() + "copy/", data)
    assert Fleet.objects.count() == 2
    assert first.headers["Location"] == second.headers["Location"]


def test_a_sent_twice_token_never_leads_to_someone_elses_fleet(
    shared: Fleet, visitor: Client
) -> None:
    page = visitor.get(shared.share_url_path()).content.decode()
    data = {"once": once_of(page)}
    visitor.post(shared.share_url_path() + "copy/", data)
    thief = Client()
    response = thief.post(shared.share_url_path() + "copy/", data)
    assert response.headers["Location"] == "/fleets/"  # not the visitor's copy
    assert Fleet.objects.count() == 2


def test_a_missing_key_is_named_in_words(visitor: Client, catalog) -> None:
    response = visitor.post("/fleets/import/", {"text": '{"faction": "orks", "units": []}'})
    assert response.status_code == 400
    assert "This fleet file cannot be read: “format” is required." in unescape(
        response.content.decode()
    )


def test_the_line_at_fault_is_marked_in_the_pasted_text(client: Client, make_fleet) -> None:
    lines = text_of(client, make_fleet()).splitlines()
    n = next(i for i, line in enumerate(lines, start=1) if line.startswith("  - Cobra Destroyer"))
    lines[n - 1] = lines[n - 1].replace("Cobra", "Kobra")
    response = client.post("/fleets/import/", {"text": "\n".join(lines)})
    html = unescape(response.content.decode())
    assert f"Line {n}: No ship called 'Kobra Destroyer'" in html
    assert f'data-error-line="{n}"' in html
    # The text comes back as it was sent, first line included.
    assert ">\n" + "\n".join(lines) + "</textarea>" in html
    broken_json = '\n\n{"format": "void-command-fleet",\n "version": 1,'
    html = client.post("/fleets/import/", {"text": broken_json}).content.decode()
    assert "not valid JSON at line 4" in html and 'data-error-line="4"' in html


# --- a zip of fleet files: Saved Fleets' "Download all", imported back -----------------------


def zip_of(files: dict[str, bytes]) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in files.items():
            archive.writestr(name, body)
    return buffer.getvalue()


def upload_zip(client: Client, data: bytes) -> object:
    return client.post(
        "/fleets/import/", {"file": SimpleUploadedFile("fleets.zip", data, "application/zip")}
    )


def test_a_backup_zip_imports_every_fleet_at_once(client: Client, catalog, make_fleet) -> None:
    originals = [
        make_fleet(sample_fleet(catalog, f, "patrol")) for f in ("orks", "necrons", "tyranids")
    ]
    backup = client.get("/fleets/export.zip").content
    newcomer = Client()
    response = upload_zip(newcomer, backup)
    assert response.status_code == 200
    page = unescape(response.content.decode())
    assert "3 fleets" in page and "(from a .zip of fleet files)" in page
    for fleet in originals:
        assert fleet.name in page and f">{fleet.points}<" in page
    assert Fleet.objects.count() == 3  # nothing saved yet
    raw = response.content.decode()
    data = {
        "save_all": unescape(re.search(r'name="save_all" value="([^"]*)"', raw).group(1)),
        "once": once_of(raw),
    }
    saved = newcomer.post("/fleets/import/", data, follow=True)
    assert saved.redirect_chain[-1][0] == "/fleets/"
    assert "Imported 3 fleets." in saved.content.decode()
    copies = Fleet.objects.exclude(pk__in=[f.pk for f in originals])
    assert sorted(
        c.document["units"] == o.document["units"]
        for c, o in zip(
            copies.order_by("name"), sorted(originals, key=lambda f: f.name), strict=True
        )
    ) == [True, True, True]
    # Sent twice: saved once.
    again = newcomer.post("/fleets/import/", data, follow=True)
    assert "the fleets are saved once" in again.content.decode()
    assert Fleet.objects.count() == 6


def test_one_broken_file_in_a_zip_names_it_and_imports_nothing(
    client: Client, catalog, make_fleet
) -> None:
    good = export_file(client, make_fleet())
    data = zip_of({"good.json": good, "bad.json": b'{"format": "void-command-fleet"}'})
    response = upload_zip(Client(), data)
    assert response.status_code == 400
    html = unescape(response.content.decode())
    assert "Nothing was imported." in html and "bad.json: This fleet file cannot be read" in html
    assert Fleet.objects.count() == 1


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, "holds no fleet files"),
        ({f"f{n}.json": b"{}" for n in range(101)}, "holds 101 files; import at most 100"),
        ({"huge.json": b" " * (300 * 1024)}, "huge.json: over 256 KB unpacked"),
        ({"bin.json": b"\xff\xfe\x00"}, "bin.json: not a fleet file (it is not UTF-8 text)"),
    ],
)
def test_a_zip_that_cannot_be_a_backup_is_refused(db, files: dict, message: str) -> None:
    response = upload_zip(Client(), zip_of(files))
    assert response.status_code == 400
    assert message in unescape(response.content.decode())
    assert not Fleet.objects.exists()


def test_a_damaged_zip_is_refused(db) -> None:
    response = upload_zip(Client(), b"PK\x03\x04" + b"\x00" * 100)
    assert "The .zip file is damaged." in response.content.decode()


def test_a_tampered_save_all_saves_nothing(db) -> None:
    for bad in ("[]", "{}", "[1, 2]", '[{"format": "void-command-fleet"}]', "[" * 5000):
        response = Client().post("/fleets/import/", {"save_all": bad}, follow=True)
        assert "Nothing was saved" in response.content.decode(), bad
    assert not Fleet.objects.exists()
