"""Print cards from the app: the options page, the PDF, who may get it, bad parameters."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client

from fleetbuilder.cards.printing import pdf_response
from fleetbuilder.fleets.models import Fleet
from rules_core.sample_fleets import sample_fleet

from .conftest import Pdf

pytestmark = pytest.mark.django_db


@pytest.fixture
def fleet(client: Client, catalog) -> Fleet:
    """A fleet this browser started in the builder, holding the Ork Battle sample list."""
    response = client.post(
        "/fleets/new/", {"name": "Da Boyz", "faction": "orks", "variant": "", "game_size": "battle"}
    )
    assert response.status_code == 302
    fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
    fleet.store(replace(sample_fleet(catalog, "orks", "battle"), name="Da Boyz"), catalog)
    fleet.save()
    return fleet


def pdf_url(fleet: Fleet, query: str = "") -> str:
    return f"/cards/fleet/{fleet.pk}/{query}"


def test_the_builder_links_to_print_cards(client: Client, fleet: Fleet) -> None:
    page = client.get(fleet.get_absolute_url()).content.decode()
    assert f'href="/cards/fleet/{fleet.pk}/print/">Print cards</a>' in page


def test_the_options_page_offers_layouts_and_ink_saving(client: Client, fleet: Fleet) -> None:
    page = client.get(f"/cards/fleet/{fleet.pk}/print/").content.decode()
    assert f'action="/cards/fleet/{fleet.pk}/"' in page and 'method="get"' in page
    for value in ("poker", "a4", "letter"):
        assert f'name="layout" value="{value}"' in page
    assert 'name="ink" value="1"' in page
    assert re.search(r"<label for=\"ink-saver\">Ink saver</label>", page)


def test_the_owner_downloads_a_pdf_of_the_fleet(client: Client, fleet: Fleet, catalog) -> None:
    response = client.get(pdf_url(fleet, "?layout=a4&ink=1"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="da-boyz-cards.pdf"'
    assert response["Cache-Control"] == "private, no-cache"  # kept, revalidated by its ETag
    assert response["ETag"].startswith('"')
    pdf = Pdf(response.content)
    assert pdf.page_size_mm == (210.0, 297.0)
    assert "Da Boyz" in pdf.page_texts[0]
    report = fleet.report(catalog)
    assert f"{report.points} pts" in pdf.page_texts[0]
    assert len(pdf.card_pages) == -(-fleet.unit_count // 9)  # nine cards a sheet


def test_poker_is_the_default_layout(client: Client, fleet: Fleet) -> None:
    pdf = Pdf(client.get(pdf_url(fleet)).content)
    assert pdf.page_size_mm == (63.0, 88.0)
    assert len(pdf.card_pages) == fleet.unit_count


@pytest.mark.parametrize("path", ["", "print/"])
def test_another_visitor_gets_404(fleet: Fleet, path: str) -> None:
    assert Client().get(f"/cards/fleet/{fleet.pk}/{path}").status_code == 404


def test_a_deleted_or_missing_fleet_is_404(client: Client, fleet: Fleet) -> None:
    assert client.get("/cards/fleet/999999/").status_code == 404
    fleet.delete()
    assert client.get(pdf_url(fleet)).status_code == 404


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?layout=tarot", "Unknown layout 'tarot': choose poker, a4, letter."),
        ("?layout=", "Unknown layout '': choose poker, a4, letter."),
        ("?ink=maybe", "ink must be 1 or 0, not 'maybe'."),
    ],
)
def test_bad_parameters_are_400_with_the_reason(
    client: Client, fleet: Fleet, query: str, message: str
) -> None:
    response = client.get(pdf_url(fleet, query))
    assert response.status_code == 400
    assert response.content.decode() == message


def test_only_get(client: Client, fleet: Fleet) -> None:
    assert client.post(pdf_url(fleet)).status_code == 405
    assert client.post(f"/cards/fleet/{fleet.pk}/print/").status_code == 405


def test_a_shared_fleet_prints_its_link(client: Client, fleet: Fleet) -> None:
    if not hasattr(fleet, "share"):
        pytest.skip("sharing is not in this build")
    fleet.share()
    roster = Pdf(client.get(pdf_url(fleet, "?layout=letter")).content).page_texts[0]
    link = "http://testserver" + fleet.share_url_path()
    assert link in re.sub(r"\s", "", roster)


def test_an_unshared_fleet_prints_no_link(client: Client, fleet: Fleet) -> None:
    roster = Pdf(client.get(pdf_url(fleet, "?layout=letter")).content).page_texts[0]
    assert "http" not in roster


def test_pdf_response_for_a_shared_page(fleet: Fleet) -> None:
    """The helper the shared-fleet pages call: any layout, a file name, the share link."""
    response = pdf_response(
        fleet.document,
        filename="shared.pdf",
        layout="letter",
        ink_saver=False,
        share_url="https://example.org/s/abc/",
    )
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="shared.pdf"'
    assert Pdf(response.content).page_size_mm == (215.9, 279.4)
    bad = pdf_response(
        {"format": "nope"}, filename="x.pdf", layout="poker", ink_saver=False, share_url=None
    )
    assert bad.status_code == 400 and b"Not a usable fleet" in bad.content
