"""The tools are reachable from more than the builder: the home page, the
simulator's form and Saved Fleets link to "Which ship matters?" and battle packs, and a ship's
page links to the gunnery odds of its guns and against it, each opening a worked answer."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/simulator/", "/fleets/"])
def test_analysis_and_battle_packs_are_linked_outside_the_builder(
    client: Client, catalog, url: str
) -> None:
    page = client.get(url).content.decode()
    main = page.split("<main", 1)[1]
    assert 'href="/analysis/"' in main and 'href="/pack/"' in main


def _link(page: str, marker: str) -> str:
    match = re.search(rf'<a href="([^"]+)" {marker}>', page)
    assert match, marker
    return html.unescape(match.group(1))


def test_a_ship_page_opens_the_odds_of_its_guns_and_against_it(client: Client, catalog) -> None:
    page = client.get("/ships/imperial-navy/lunar-class-cruiser/").content.decode()
    firing = client.get(_link(page, "data-odds-firing"))
    assert firing.status_code == 200
    body = firing.content.decode()
    assert '<section id="gunnery-result"' in body and "errorlist" not in body
    assert re.search(r'<option value="lunar-class-cruiser" selected>', body)
    against = client.get(_link(page, "data-odds-target"))
    body = against.content.decode()
    assert against.status_code == 200
    assert '<section id="gunnery-result"' in body and "errorlist" not in body
    assert re.search(
        r'name="target"[^>]*>.*?<option value="lunar-class-cruiser" selected>', body, re.S
    )
