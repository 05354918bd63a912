"""Ship pages read as written for players: descriptions say what a ship is, not
where its numbers were converted from, and tags are words ("armoured prow"), not slugs."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains

from rules_core.catalog import DATA_DIR
from tools.ship_descriptions import describe

NOTE = re.compile(r"Converted from|reference record|after the reference|points model|docs/", re.I)


def every_ship() -> list[dict]:
    return [
        ship
        for path in sorted((DATA_DIR / "factions").glob("*.json"))
        for ship in json.loads(path.read_text(encoding="utf-8"))["ships"]
    ]


def test_no_description_reads_like_a_conversion_note() -> None:
    notes = [
        f"{s['slug']}: {s['description']}"
        for s in every_ship()
        if NOTE.search(s.get("description", ""))
    ]
    assert notes == []
    assert all(s.get("description") for s in every_ship())


def test_a_description_says_what_the_ship_is_and_where_its_guns_point() -> None:
    ships = {s["slug"]: s for s in every_ship()}
    assert describe(ships["lunar-class-cruiser"]) == (
        "A cruiser with lances and weapons batteries on both broadsides and an armoured prow "
        "for ramming."
    )
    assert describe(ships["cobra-class-destroyer"]) == (
        "A fast destroyer with torpedoes in the prow and a weapons battery on a dorsal mount."
    )
    one_sided = {
        "name": "Test Hulk",
        "class": "cruiser",
        "speed": 15,
        "weapons": [
            {"name": "Port Lance", "type": "lance", "arcs": ["left"]},
            {"name": "Prow Bombardment Cannon", "type": "special", "arcs": ["front"]},
            {"name": "Bays", "type": "launch_bay", "arcs": ["left"]},
        ],
    }
    assert describe(one_sided) == (
        "A slow cruiser with a bombardment cannon in the prow, "
        "a lance to port and launch bays for attack craft."
    )


@pytest.mark.django_db
def test_the_ship_page_shows_the_description_and_tags_as_words(client: Client) -> None:
    page = client.get("/ships/imperial-navy/lunar-class-cruiser/")
    assertContains(
        page,
        '<p class="lead">A cruiser with lances and weapons batteries on both '
        "broadsides and an armoured prow for ramming.</p>",
        html=True,
    )
    assertContains(page, '<span class="tag">armoured prow</span>', html=True)
    assertNotContains(page, "armoured-prow")
    assertNotContains(page, "Converted from the reference record")
    planet_killer = client.get("/ships/archenemy/planet-killer/")
    assertContains(planet_killer, '<span class="tag">Black Legion</span>', html=True)


@pytest.mark.django_db
def test_the_faction_page_lists_tags_as_words(client: Client) -> None:
    page = client.get("/ships/archenemy/")
    assertContains(page, '<span class="tag">Slaanesh</span>', html=True)
    navy = client.get("/ships/imperial-navy/")
    assertContains(navy, '<span class="tag">armoured prow</span>', html=True)
    assertNotContains(navy, ">armoured-prow<")
