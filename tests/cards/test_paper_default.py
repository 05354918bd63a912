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
