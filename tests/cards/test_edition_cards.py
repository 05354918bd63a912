"""Cards name the edition whose numbers they print, and print that edition's numbers (R-160).

Each card's foot says "Edition N" (in its bottom padding, out of the flow: a card with it lays
out exactly as without it), and so does the roster; a list saved on an edition prints that
edition's prices, and a share code's cards its own edition's (R-161: a ``v1.`` code's, the
first's).
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from dataclasses import replace

import pytest
from django.test import Client

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from rules_core import sharecode
from rules_core.cards import render_cards
from rules_core.catalog import Catalog
from rules_core.fleet import Fleet as FleetList
from rules_core.fleet import GameSize, ShipUnit
from rules_core.sample_fleets import sample_fleet

from .conftest import Pdf

HARBINGER = "harbinger-class-heavy-cruiser"  # 300 points in edition 5, 315 in edition 7


def harvest() -> FleetList:
    return FleetList(
        "necrons",
        GameSize.BATTLE,
        name="Harvest",
        units=(ShipUnit(HARBINGER, flagship=True), ShipUnit(HARBINGER)),
    )


@pytest.mark.parametrize("layout", ["poker", "a4"])
def test_every_card_and_the_roster_name_the_edition(real_catalog: Catalog, layout: str) -> None:
    fleet = replace(sample_fleet(real_catalog, "imperial-navy", "battle"), edition=7)
    pdf = Pdf(render_cards(real_catalog, fleet, layout=layout))
    roster = re.sub(r"\s+", " ", pdf.page_texts[0])
    assert "Imperial Navy · Battle (1000–1500 points) · Edition 7" in roster
    assert pdf.text.count("Edition 7") == len(fleet.units) + 1  # each card, and the roster


def test_the_foot_takes_no_room_from_the_card(real_catalog: Catalog) -> None:
    """The same cards, pages and lines with the edition as without it (only its words)."""
    fleet = sample_fleet(real_catalog, "tyranids", "armada")  # dense cards
    without = Pdf(render_cards(real_catalog, fleet))
    named = Pdf(render_cards(real_catalog, replace(fleet, edition=7)))
    assert "Edition" not in without.text
    assert named.pages == without.pages and named.card_pages == without.card_pages
    assert len(named.card_pages) == len(fleet.units)
    for page in named.card_pages:
        plain, footed = without.raw_texts[page], named.raw_texts[page]
        assert footed.count("Edition 7") == 1
        assert " ".join(footed.replace("Edition 7", "").split()) == " ".join(plain.split())


@pytest.mark.django_db
def test_a_saved_list_prints_its_editions_prices(client: Client, catalog) -> None:
    response = client.post(
        "/fleets/new/",
        {"name": "Harvest", "faction": "necrons", "variant": "", "game_size": "battle"},
    )
    fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
    fleet.store(replace(harvest(), edition=5), editions.catalog_for(5))
    fleet.save()
    old = editions.catalog_for(5).faction("necrons").ship(HARBINGER).points
    new = editions.catalog_for(7).faction("necrons").ship(HARBINGER).points
    assert old != new
    pdf = Pdf(client.get(f"/cards/fleet/{fleet.pk}/").content)
    roster = re.sub(r"\s+", " ", pdf.page_texts[0])
    assert f"{2 * old} pts" in roster and "Edition 5" in roster
    for page in pdf.page_texts[1:]:
        assert f"{old} pts" in re.sub(r"\s+", " ", page) and "Edition 5" in page


@pytest.mark.django_db
def test_an_old_v1_codes_cards_are_the_first_editions(client: Client, catalog) -> None:
    """R-161: a code naming no edition prints under the first, and says so on every card."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = json.dumps(sharecode.to_compact(harvest())[:7]).encode()
    code = "v1." + base64.urlsafe_b64encode(
        packer.compress(payload) + packer.flush()
    ).decode().rstrip("=")
    first = editions.known()[0]
    price = editions.catalog_for(first.number).faction("necrons").ship(HARBINGER).points
    pdf = Pdf(client.get(f"/fleets/code/{code}/cards.pdf").content)
    assert f"{2 * price} pts" in re.sub(r"\s+", " ", pdf.page_texts[0])
    assert pdf.text.count(f"Edition {first.number}") == 3
