"""The print page picks A4 or US Letter sheets from the browser's languages (issue 13 §7)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client

from fleetbuilder.cards.paper import default_paper
from fleetbuilder.fleets.models import Fleet
from rules_core.sample_fleets import sample_fleet

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("header", "paper"), [
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
])
def test_the_default_paper_follows_the_first_region(header: str, paper: str) -> None:
    assert default_paper(header) == paper


@pytest.fixture
def fleet(client: Client, catalog) -> Fleet:
    response = client.post("/fleets/new/", {"name": "Da Boyz", "faction": "orks", "variant": "",
                                            "game_size": "patrol"})
    fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
    fleet.store(replace(sample_fleet(catalog, "orks", "patrol"), name="Da Boyz"), catalog)
    fleet.save()
    return fleet


@pytest.mark.parametrize(("header", "checked"), [("en-US,en;q=0.9", "letter"),
                                                 ("en-GB", "a4"), (None, "a4")])
def test_the_print_page_checks_the_browsers_paper(client: Client, fleet: Fleet,
                                                  header: str | None, checked: str) -> None:
    headers = {"Accept-Language": header} if header else {}
    response = client.get(f"/cards/fleet/{fleet.pk}/print/", headers=headers)
    page = response.content.decode()
    assert f'id="layout-{checked}" checked' in page
    assert page.count(" checked ") + page.count(" checked>") == 2  # the layout and movement
    assert "Accept-Language" in response["Vary"]


def test_a_shared_fleets_print_page_checks_it_too(client: Client, fleet: Fleet) -> None:
    fleet.share()
    visitor = Client()
    page = visitor.get(f"{fleet.share_url_path()}cards/",
                       headers={"Accept-Language": "en-US"}).content.decode()
    assert 'id="layout-letter" checked' in page


# --- the preview's page thumbnails ----------------------------------------------------------

def thumbnail_pages(png: bytes) -> list[tuple[int, int]]:
    """The (width, height) of each page on the preview strip: runs of non-background columns."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    background = image.getpixel((0, 0))
    middle = image.height // 2
    pages, start = [], None
    for x in range(image.width):
        inside = image.getpixel((x, middle)) != background
        if inside and start is None:
            start = x
        elif not inside and start is not None:
            pages.append((x - start, image.height - 24))
            start = None
    return pages


@pytest.mark.parametrize(("layout", "ratio", "pages"), [("a4", 297 / 210, 2),
                                                          ("letter", 11 / 8.5, 2),
                                                          ("poker", 88 / 63, 4)])
def test_the_preview_shows_the_first_pages_in_the_chosen_layout(
        client: Client, fleet: Fleet, layout: str, ratio: float, pages: int) -> None:
    response = client.get(f"/cards/fleet/{fleet.pk}/?layout={layout}&preview=1")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    found = thumbnail_pages(response.content)
    assert len(found) == pages  # the roster and a sheet of cards; or four poker-card pages
    for width, height in found:
        assert height / width == pytest.approx(ratio, rel=0.03)
    again = client.get(f"/cards/fleet/{fleet.pk}/?layout={layout}&preview=1",
                       headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304
    pdf = client.get(f"/cards/fleet/{fleet.pk}/?layout={layout}")
    assert pdf["ETag"] != response["ETag"]  # the PDF and its picture are cached apart


def test_the_print_page_shows_the_preview_and_a_bad_value_is_refused(
        client: Client, fleet: Fleet) -> None:
    page = client.get(f"/cards/fleet/{fleet.pk}/print/", headers={"Accept-Language": "en-GB"})
    assert f'src="/cards/fleet/{fleet.pk}/?layout=a4&amp;preview=1"' in page.content.decode()
    bad = client.get(f"/cards/fleet/{fleet.pk}/?preview=maybe")
    assert bad.status_code == 400 and b"preview must be 1 or 0" in bad.content
