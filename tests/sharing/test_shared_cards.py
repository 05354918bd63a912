"""Ship cards of a shared fleet, for anyone holding the link (the cards app renders them)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.test import Client
from pytest_django.asserts import assertInHTML

from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db


def pdf_text(pdf: bytes, tmp_path) -> str:
    assert shutil.which("pdftotext"), "poppler-utils is needed (scripts/test installs it)"
    path = tmp_path / "cards.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def test_a_visitor_prints_the_shared_fleets_cards(shared: Fleet, visitor: Client, tmp_path) -> None:
    page = visitor.get(shared.share_url_path()).content.decode()
    assertInHTML(
        f'<a class="button button--ghost" href="{shared.share_url_path()}cards/">'
        "Print ship cards</a>",
        page,
    )
    response = visitor.get(shared.share_url_path() + "cards.pdf", {"layout": "a4", "ink": "1"})
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    assert (
        response.headers["Content-Disposition"]
        == 'attachment; filename="imperial-navy-skirmish-fleet-cards.pdf"'
    )
    text = pdf_text(response.content, tmp_path)
    assert "Siluria Class Light Cruiser" in text and "Cobra Destroyer" in text


def test_a_visitor_gets_the_owners_print_options(shared: Fleet, visitor: Client) -> None:
    """The same choices as the owner's page: every layout, with its help, and the ink saver."""
    path = shared.share_url_path()
    page = visitor.get(path + "cards/").content.decode()
    assert (
        f'<form method="get" action="{path}cards.pdf" class="panel print-options" data-print-form>'
    ) in page
    for value in ("poker", "a4", "letter"):
        assert f'name="layout" value="{value}"' in page
    assert "Nine cards a sheet with cut marks." in page
    assertInHTML('<label for="ink-saver">Ink saver</label>', page)
    assert f"{shared.unit_count} cards, {shared.points} points" in page
    assert "QR code of this shared fleet" in page
    assertInHTML(f'<a href="{path}">Back to the shared fleet</a>', page)
    assert "Saved Fleets</a>" not in page.split("<main")[1]  # no trail into the owner's pages


def test_letter_sheets_for_a_visitor(shared: Fleet, visitor: Client, tmp_path) -> None:
    response = visitor.get(shared.share_url_path() + "cards.pdf", {"layout": "letter"})
    assert response.status_code == 200
    path = tmp_path / "cards.pdf"
    path.write_bytes(response.content)
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    assert "612 x 792 pts (letter)" in info


@pytest.mark.parametrize("tail", ["cards/", "cards.pdf"])
def test_no_cards_once_the_link_is_off(shared: Fleet, visitor: Client, tail: str) -> None:
    path = shared.share_url_path()
    shared.unshare()
    assert visitor.get(path + tail).status_code == 404


@pytest.mark.parametrize(
    ("query", "message"),
    [({"layout": "scroll"}, "Unknown layout"), ({"ink": "lots"}, "ink must be 1 or 0")],
)
def test_bad_print_options_are_refused(
    shared: Fleet, visitor: Client, query: dict, message: str
) -> None:
    response = visitor.get(shared.share_url_path() + "cards.pdf", query)
    assert response.status_code == 400 and message in response.content.decode()


# --- a share code's cards (no database behind the fleet) -------------------------------------


@pytest.fixture
def code(catalog) -> str:
    from dataclasses import replace

    from rules_core import sharecode
    from rules_core.sample_fleets import sample_fleet

    return sharecode.encode(replace(sample_fleet(catalog, "orks", "patrol"), name="Da Kode"))


def test_a_share_code_prints_its_cards(code: str, visitor: Client, tmp_path) -> None:
    page = visitor.get(f"/fleets/code/{code}/").content.decode()
    assertInHTML(
        f'<a class="button button--ghost" href="/fleets/code/{code}/cards/">Print ship cards</a>',
        page,
    )
    options = visitor.get(f"/fleets/code/{code}/cards/").content.decode()
    assert f'action="/fleets/code/{code}/cards.pdf"' in options
    assert "Da Kode" in options and "too long for a QR code" in options
    response = visitor.get(f"/fleets/code/{code}/cards.pdf", {"layout": "a4", "ink": "1"})
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="da-kode-cards.pdf"'
    assert "Da Kode" in pdf_text(response.content, tmp_path)


@pytest.mark.parametrize("tail", ["cards/", "cards.pdf"])
def test_a_garbled_share_code_prints_nothing(visitor: Client, tail: str, db) -> None:
    response = visitor.get(f"/fleets/code/v1.garbage!!/{tail}")
    assert response.status_code == 404
    assert "This share code cannot be opened" in response.content.decode()
