"""Ship cards of a shared fleet, for anyone holding the link (the cards app renders them)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.test import Client

from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db


def pdf_text(pdf: bytes, tmp_path) -> str:  # noqa: ANN001
    assert shutil.which("pdftotext"), "poppler-utils is needed (scripts/test installs it)"
    path = tmp_path / "cards.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


def test_a_visitor_prints_the_shared_fleets_cards(shared: Fleet, visitor: Client,
                                                  tmp_path) -> None:  # noqa: ANN001
    page = visitor.get(shared.share_url_path()).content.decode()
    assert f'action="{shared.share_url_path()}cards.pdf"' in page
    response = visitor.get(shared.share_url_path() + "cards.pdf", {"layout": "a4", "ink": "1"})
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == \
        'attachment; filename="imperial-navy-skirmish-fleet-cards.pdf"'
    text = pdf_text(response.content, tmp_path)
    assert "Siluria Class Light Cruiser" in text and "Cobra Destroyer" in text


def test_no_cards_once_the_link_is_off(shared: Fleet, visitor: Client) -> None:
    path = shared.share_url_path()
    shared.unshare()
    assert visitor.get(path + "cards.pdf").status_code == 404


@pytest.mark.parametrize(("query", "message"), [({"layout": "scroll"}, "Unknown layout"),
                                                ({"ink": "lots"}, "ink must be 1 or 0")])
def test_bad_print_options_are_refused(shared: Fleet, visitor: Client, query: dict,
                                       message: str) -> None:
    response = visitor.get(shared.share_url_path() + "cards.pdf", query)
    assert response.status_code == 400 and message in response.content.decode()
