"""The print page picks A4 or US Letter sheets from the browser's languages."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client

from fleetbuilder.cards.paper import default_paper
from fleetbuilder.fleets.models import Fleet
from rules_core.sample_fleets import sample_fleet

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("header", "paper"),
    [
        ("en-US,en;q=0.9", "letter"),
        ("en-CA", "letter"),
        ("fr-CA,fr;q=0.8", "letter"),
        ("es-MX", "letter"),
        ("en-GB,en;q=0.9", "a4"),
        ("de-DE,de;q=0.9,en-US;q=0.8", "a4"),  # the first language with a region decides
        ("en;q=0.9,en-US;q=0.8", "letter"),  # "en" names no region: the next tag does
        ("en-GB;q=0.5,en-US;q=0.9", "letter"),  # by quality, not by order
        ("en-US;q=0,de-AT", "a4"),  # q=0 means "not this one"
        ("zh-Hant-TW", "a4"),
        ("", "a4"),
        ("*", "a4"),
        ("x" * 5000 + ",en-US", "a4"),  # a huge header is cut, not read to its end
        ("en-US\x00;q=abc,;;,,", "a4"),  # garbage is skipped, never an error
    ],
)
def test_the_default_paper_follows_the_first_region(header: str, paper: str) -> None:
    assert default_paper(header) == paper


@pytest.fixture
def fleet(client: Client, catalog) -> Fleet:
    response = client.post(
        "/fleets/new/", {"name": "Da Boyz", "faction": "orks", "variant": "", "game_size": "patrol"}
    )
    fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
    fleet.store(replace(sample_fleet(catalog, "orks", "patrol"), name="Da Boyz"), catalog)
    fleet.save()
    return fleet


@pytest.mark.parametrize(
    ("header", "checked"), [("en-US,en;q=0.9", "letter"), ("en-GB", "a4"), (None, "a4")]
)
def test_the_print_page_checks_the_browsers_paper(
    client: Client, fleet: Fleet, header: str | None, checked: str
) -> None:
    headers = {"Accept-Language": header} if header else {}
    response = client.get(f"/cards/fleet/{fleet.pk}/print/", headers=headers)
    page = response.content.decode()
    assert f'id="layout-{checked}" checked' in page
    assert page.count(" checked ") + page.count(" checked>") == 2  # the layout and movement
    assert "Accept-Language" in response["Vary"]


def test_a_shared_fleets_print_page_checks_it_too(client: Client, fleet: Fleet) -> None:
    fleet.share()
    visitor = Client()
    page = visitor.get(
        f"{fleet.share_url_path()}cards/", headers={"Accept-Language": "en-US"}
    ).content.decode()
    assert 'id="layout-letter" checked' in page


# --- the preview: one whole page to read -------------------------------------


def picture_size(png: bytes) -> tuple[int, int]:
    import io

    from PIL import Image

    return Image.open(io.BytesIO(png)).size


@pytest.mark.parametrize(
    ("layout", "ratio", "pages"),
    [("a4", 297 / 210, 2), ("letter", 11 / 8.5, 2), ("poker", 88 / 63, 0)],
)
def test_the_preview_is_one_whole_page_large_enough_to_read(
    client: Client, fleet: Fleet, layout: str, ratio: float, pages: int
) -> None:
    """The strip of four 220 px thumbnails showed the layout, not a word of it: now each page
    is drawn alone, 1800 px on its longer side (a card's 4.2 pt type 9 px tall on a sheet)."""
    pages = pages or 1 + len(fleet.to_core().units)  # poker: the roster, then a card a unit
    url = f"/cards/fleet/{fleet.pk}/?layout={layout}&preview=1"
    response = client.get(url)  # page 1 when none is asked
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    width, height = picture_size(response.content)
    assert height == 1800 and height / width == pytest.approx(ratio, rel=0.01)
    last = client.get(f"{url}&page={pages}")
    assert last.status_code == 200 and last.content != response.content
    assert last["ETag"] != response["ETag"]  # each page is cached on its own
    assert client.get(f"{url}&page={pages + 1}").status_code == 404  # past the last page
    again = client.get(f"{url}&page=1", headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304
    pdf = client.get(f"/cards/fleet/{fleet.pk}/?layout={layout}")
    assert pdf["ETag"] != response["ETag"]  # the PDF and its pictures are cached apart


def test_the_print_page_shows_the_preview_and_a_bad_value_is_refused(
    client: Client, fleet: Fleet
) -> None:
    page = client.get(f"/cards/fleet/{fleet.pk}/print/", headers={"Accept-Language": "en-GB"})
    assert (
        f'src="/cards/fleet/{fleet.pk}/?layout=a4&amp;preview=1&amp;page=1"'
        in page.content.decode()
    )
    bad = client.get(f"/cards/fleet/{fleet.pk}/?preview=maybe")
    assert bad.status_code == 400 and b"preview must be 1 or 0" in bad.content
    for page in ("0", "x", "99999", "-1"):
        bad = client.get(f"/cards/fleet/{fleet.pk}/?preview=1&page={page}")
        assert bad.status_code == 400 and b"page must be 1 to" in bad.content
