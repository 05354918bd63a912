"""Names and notes are the player's own text: on every page that shows them they are escaped,
never markup; in the cards PDF they print as text and make WeasyPrint fetch nothing.

A page is read with an HTML parser, as a browser would: no <script> but the site's own files,
no on* handler, no javascript: URL, no element made of the hostile text; and the hostile text
itself is there, as text or as an attribute's value (it was shown, not dropped).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import replace

import pytest

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core import fleet as rf
from rules_core import sharecode

from .conftest import CsrfClient, Trap, read_page

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
SVG = "'><svg onload=alert(1)>"
JS_URL = "javascript:alert(1)//"
TEMPLATE = "{{ request.user }}{% debug %}"
FLEET_NAME = f"{SCRIPT}{IMG}"
NOTES = f"</textarea>{SCRIPT}\n{JS_URL}\n{TEMPLATE}\n{SVG}"
HOSTILE = (FLEET_NAME, IMG, SVG, JS_URL, TEMPLATE)


def hostile_fleet() -> rf.Fleet:
    return rf.Fleet(
        faction="imperial-navy",
        game_size=rf.GameSize.PATROL,
        name=FLEET_NAME,
        notes=NOTES,
        units=(
            rf.ShipUnit("lunar-class-cruiser", flagship=True, name=IMG),
            rf.ShipUnit("gothic-class-cruiser", name=SVG),
            rf.ShipUnit("dauntless-class-light-cruiser", name=TEMPLATE),
            rf.Squadron((rf.SquadronShip("sword-class-frigate"),) * 2, name=JS_URL),
        ),
    )


def assert_inert(html: str, where: str, shows: tuple[str, ...] = (FLEET_NAME,)) -> None:
    page = read_page(html)
    assert all(src.startswith("/static/") for src in page.scripts), (
        f"{where}: a <script> that is not the site's own file: {page.scripts}"
    )
    assert page.handlers == [], f"{where}: event handlers {page.handlers}"
    assert page.js_urls == [], f"{where}: javascript: URLs {page.js_urls}"
    made = [
        (tag, attrs)
        for tag, attrs in page.tags
        if (tag == "img" and attrs.get("src") == "x")
        or tag == "svg"
        and "onload" in attrs
        or any(name.startswith(("hx-on", "data-hx-on")) for name in attrs)
    ]
    assert made == [], f"{where}: markup made of user data: {made}"
    shown = "\n".join(page.texts)
    for text in shows:
        assert text in shown, f"{where}: {text!r} is not shown as text"
    assert "alert(1)</script>" not in html.replace("&lt;script&gt;alert(1)&lt;/script&gt;", "")


@pytest.fixture
def hostile(owner: CsrfClient, make_fleet: Callable[..., Fleet]) -> Fleet:
    return make_fleet(owner, hostile_fleet(), shared=True)


def test_the_builder_and_its_regions(owner: CsrfClient, hostile: Fleet) -> None:
    all_names = (FLEET_NAME, IMG, SVG, TEMPLATE, JS_URL)
    assert_inert(owner.get(f"/fleets/{hostile.pk}/").content.decode(), "builder", all_names)
    for region, shows in (("head", (FLEET_NAME,)), ("units", (IMG, SVG, TEMPLATE, JS_URL))):
        response = owner.get(f"/fleets/{hostile.pk}/{region}/", headers={"HX-Request": "true"})
        assert_inert(response.content.decode(), f"builder {region}", shows)
    # A unit's row and its open editor (Edit), one by one.
    units = Fleet.objects.get(pk=hostile.pk).unit_count
    rows = [
        owner.get(
            f"/fleets/{hostile.pk}/units/{i}/", {"edit": edit}, headers={"HX-Request": "true"}
        ).content.decode()
        for i in range(units)
        for edit in ("1", "")
    ]
    assert_inert("\n".join(rows), "builder rows", (IMG, SVG, TEMPLATE, JS_URL))
    # An edit's answer (htmx): the rows it changed and the out-of-band regions.
    data = {"name": SVG, "csrfmiddlewaretoken": owner.csrf_token()}
    if hasattr(hostile, "version"):
        data["version"] = str(Fleet.objects.get(pk=hostile.pk).version)
    response = owner.post(
        f"/fleets/{hostile.pk}/new-squadron/", data, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert_inert(response.content.decode(), "edit answer", (SVG,))


def test_saved_fleets_trash_and_messages(
    owner: CsrfClient, hostile: Fleet, make_fleet: Callable[..., Fleet]
) -> None:
    make_fleet(owner, replace(hostile_fleet(), name=SVG), trashed=True)
    assert_inert(owner.get("/fleets/").content.decode(), "saved fleets")
    assert_inert(owner.get("/fleets/trash/").content.decode(), "trash", (SVG,))
    # The flash message naming the new name, and the search box echoing the query.
    owner.send("POST", f"/fleets/{hostile.pk}/rename-fleet/", {"name": IMG})
    assert_inert(owner.get("/fleets/").content.decode(), "rename message", (IMG,))
    assert_inert(owner.get("/fleets/", {"q": SCRIPT}).content.decode(), "search", (SCRIPT,))


def test_sharing_pages(owner: CsrfClient, anonymous: CsrfClient, hostile: Fleet) -> None:
    assert_inert(owner.get(f"/fleets/{hostile.pk}/share/").content.decode(), "share page")
    link = f"/s/{hostile.share_id}/"
    assert_inert(anonymous.get(link).content.decode(), "shared link", HOSTILE)
    assert_inert(anonymous.get(link + "cards/").content.decode(), "shared print options")
    code = sharecode.encode(hostile.to_core())
    assert_inert(anonymous.get(f"/fleets/code/{code}/").content.decode(), "share code", HOSTILE)
    assert_inert(
        anonymous.get(f"/fleets/code/{code}/cards/").content.decode(), "share code print options"
    )
    preview = anonymous.send(
        "POST", "/fleets/import/", {"text": rf.dump_fleet_json(hostile.to_core())}
    )
    assert preview.status_code == 200
    assert_inert(preview.content.decode(), "import preview", HOSTILE)


def test_the_text_export_is_plain_text(
    owner: CsrfClient, anonymous: CsrfClient, hostile: Fleet
) -> None:
    for who, url in (
        (owner, f"/fleets/{hostile.pk}/export.txt"),
        (anonymous, f"/s/{hostile.share_id}/fleet.txt"),
        (owner, f"/fleets/{hostile.pk}/export.json"),
    ):
        response = who.get(url)
        assert response.status_code == 200
        assert response["Content-Type"].split(";")[0] in ("text/plain", "application/json")
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Content-Disposition"].startswith("attachment")
        assert "<" not in response["Content-Disposition"]
        assert (
            IMG in response.content.decode() or IMG.replace('"', '\\"') in response.content.decode()
        )


def test_print_options(owner: CsrfClient, hostile: Fleet) -> None:
    assert_inert(owner.get(f"/cards/fleet/{hostile.pk}/print/").content.decode(), "print options")


def test_simulator_pages(
    owner: CsrfClient, anonymous: CsrfClient, hostile: Fleet, make_run: Callable[..., Matchup]
) -> None:
    assert_inert(owner.get("/simulator/").content.decode(), "simulator form")
    run = make_run(owner, hostile.to_core())
    page = anonymous.get(f"/simulator/m/{run.public_id}/")
    assert page.status_code == 200
    assert_inert(page.content.decode(), "run page")
    response = anonymous.get(f"/simulator/m/{run.public_id}/fleet-a.json")
    assert response["Content-Type"].startswith("application/json")
    assert re.fullmatch(r'attachment; filename="a-[\w-]+\.json"', response["Content-Disposition"])
    # Query parameters the form reads back are not echoed as markup either.
    assert_inert(
        anonymous.get("/simulator/", {"from": SCRIPT, "a": IMG}).content.decode(),
        "simulator form with a hostile query",
        (),
    )


def test_reflected_inputs_are_escaped(anonymous: CsrfClient) -> None:
    """What a page echoes from the request: a query, a bad share code, a broken import."""
    assert_inert(anonymous.get("/fleets/new/", {"faction": IMG}).content.decode(), "new", ())
    bad = anonymous.get(f"/fleets/code/v1.{'A' * 10}{SCRIPT}/")
    assert bad.status_code == 404
    assert_inert(bad.content.decode(), "bad code", ())
    broken = anonymous.send("POST", "/fleets/import/", {"text": f'{{"name": "{SCRIPT}"'})
    assert broken.status_code == 400
    assert_inert(broken.content.decode(), "import error", ())
    listed = anonymous.send("POST", "/fleets/import/", {"text": f"{SCRIPT}\n{IMG}\n"})
    assert listed.status_code == 400
    assert_inert(listed.content.decode(), "text list error", ())


# --- the PDF --------------------------------------------------------------------------------


def pdf_text(data: bytes) -> str:
    done = subprocess.run(
        ["pdftotext", "-raw", "-", "-"], input=data, capture_output=True, check=True
    )
    return re.sub(r"\s+", "", done.stdout.decode())


def pdf_images(data: bytes) -> int:
    done = subprocess.run(["pdfimages", "-list", "-"], input=data, capture_output=True, check=False)
    if done.returncode != 0:  # older poppler reads no stdin: use a file
        import tempfile

        with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
            f.write(data)
            f.flush()
            done = subprocess.run(["pdfimages", "-list", f.name], capture_output=True, check=True)
    return len(done.stdout.decode().splitlines()) - 2  # two header lines


def fetching_fleet(trap: Trap) -> rf.Fleet:
    return rf.Fleet(
        faction="imperial-navy",
        game_size=rf.GameSize.PATROL,
        name=f'<img src="{trap.url}/name.png">',
        notes=f'<link rel=stylesheet href="{trap.url}/notes.css">',
        units=(
            rf.ShipUnit(
                "lunar-class-cruiser", flagship=True, name='<img src="file:///etc/passwd">'
            ),
            rf.ShipUnit("gothic-class-cruiser", name=f"{trap.url}/bare-url.png"),
            rf.Squadron(
                (rf.SquadronShip("sword-class-frigate"),) * 2,
                name=f"<style>@import '{trap.url}/s.css'</style>",
            ),
        ),
    )


def plain(fleet: rf.Fleet) -> rf.Fleet:
    """The same fleet with harmless names: what the PDF should look like, images and all."""
    return replace(
        fleet,
        name="Plain",
        notes="",
        units=tuple(replace(u, name=f"Unit {i}") for i, u in enumerate(fleet.units)),
    )


def test_the_pdf_prints_names_as_text_and_fetches_nothing(
    owner: CsrfClient, anonymous: CsrfClient, make_fleet: Callable[..., Fleet], trap: Trap
) -> None:
    doc = fetching_fleet(trap)
    fleet = make_fleet(owner, doc, shared=True)
    control = make_fleet(owner, plain(doc))
    baseline = owner.get(f"/cards/fleet/{control.pk}/", {"layout": "poker"})
    assert baseline.status_code == 200
    code = sharecode.encode(doc)
    for who, url, layout in (
        (owner, f"/cards/fleet/{fleet.pk}/", "poker"),
        (anonymous, f"/s/{fleet.share_id}/cards.pdf", "poker"),
        (anonymous, f"/fleets/code/{code}/cards.pdf", "a4"),
    ):
        response = who.get(url, {"layout": layout})
        assert response.status_code == 200, url
        assert response["Content-Type"] == "application/pdf"
        text = pdf_text(response.content)
        for name in (doc.name, *(u.name for u in doc.units)):
            assert re.sub(r"\s+", "", name or "") in text, f"{url}: {name!r} not printed"
        assert "root:" not in text
        if layout == "poker":  # the same drawings as the plain fleet: no image from a name
            assert pdf_images(response.content) == pdf_images(baseline.content), url
    assert trap.hits == []


def test_the_server_trap_works(trap: Trap) -> None:
    """The control: WeasyPrint without the cards' fetcher does reach the trap."""
    from weasyprint import HTML

    HTML(string=f'<img src="{trap.url}/control.png">').write_pdf()
    assert trap.hits == ["/control.png"]
