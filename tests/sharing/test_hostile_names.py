"""Names are the player's own text: HTML, scripts and URLs in them are shown, never run."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client

from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet

pytestmark = pytest.mark.django_db

SCRIPT = '<script>alert("fleet")</script>'
IMG = '"><img src=x onerror=alert(1)>'
URL = "javascript:alert(2) https://evil.example/?a=1&b=<2>"


@pytest.fixture
def hostile(catalog, make_fleet) -> Fleet:
    doc = sample_fleet(catalog, "imperial-navy", "skirmish")
    first = doc.units[0]
    squadron = next(u for u in doc.units if isinstance(u, rf.Squadron))
    units = tuple(
        replace(u, name=IMG) if u is first else replace(u, name=URL) if u is squadron else u
        for u in doc.units
    )
    fleet = make_fleet(replace(doc, name=SCRIPT, units=units, notes=f"{URL}\n{SCRIPT}"))
    fleet.share()
    return fleet


def assert_escaped(html: str) -> None:
    for raw in (SCRIPT, IMG, "<img", "<2>", 'href="javascript', 'href="https://evil'):
        assert raw not in html
    assert "&lt;script&gt;alert(&quot;fleet&quot;)&lt;/script&gt;" in html
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
    assert "javascript:alert(2) https://evil.example/?a=1&amp;b=&lt;2&gt;" in html


def test_the_public_page_escapes_names_and_notes(hostile: Fleet, visitor: Client) -> None:
    assert_escaped(visitor.get(hostile.share_url_path()).content.decode())


def test_the_share_page_escapes_names_in_the_text_and_the_title(
    client: Client, hostile: Fleet
) -> None:
    assert_escaped(client.get(f"/fleets/{hostile.pk}/share/").content.decode())


def test_the_share_code_page_and_the_import_preview_escape_names(
    client: Client, hostile: Fleet, visitor: Client
) -> None:
    from rules_core import sharecode

    code = sharecode.encode(hostile.to_core())
    assert_escaped(visitor.get(f"/fleets/code/{code}/").content.decode())
    assert_escaped(visitor.post("/fleets/import/", {"text": code}).content.decode())


def test_the_text_export_is_plain_text_with_the_names_quoted(
    client: Client, hostile: Fleet
) -> None:
    response = client.get(f"/fleets/{hostile.pk}/export.txt")
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert (
        response.headers["Content-Disposition"]
        == 'attachment; filename="scriptalertfleetscript.txt"'
    )
    text = response.content.decode()
    assert text.startswith('Fleet: <script>alert("fleet")</script>\n')
    assert '"\\"><img src=x onerror=alert(1)>"' in text  # a unit name is always in quotes


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("Флот Готики", "флот-готики"),
        ("أسطول الظل", "أسطول-الظل"),
        ("<script>", "script"),
        ("!!!", "fleet"),
    ],
)
def test_downloads_are_named_after_the_fleet_in_its_own_script(
    shared, visitor, catalog, name: str, stem: str
) -> None:
    from urllib.parse import quote

    shared.rename(name)
    path = shared.share_url_path()
    for tail, filename in (
        ("fleet.json", f"{stem}.json"),
        ("fleet.txt", f"{stem}.txt"),
        ("cards.pdf", f"{stem}-cards.pdf"),
    ):
        disposition = visitor.get(path + tail).headers["Content-Disposition"]
        assert disposition in (
            f'attachment; filename="{filename}"',
            f"attachment; filename*=utf-8''{quote(filename)}",
        ), disposition
