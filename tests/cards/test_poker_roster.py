"""The poker roster stays on its one card (a five-unit list with a problem, a share
link and its faction's rules printed 7 pages, the roster spilling two lines onto a second card):
denser type when it has much to say; a roster too long for any type runs on to a second card
at the plain size, well filled."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.cards import render_cards
from rules_core.catalog import Catalog
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip
from rules_core.sample_fleets import sample_fleet

from .conftest import Pdf

LINK = "https://fleets.example.org/s/rI3dwc6jXTfbQWUqzuF5BQ/"


def test_five_units_a_problem_a_link_and_the_rules_fit_one_card(real_catalog: Catalog) -> None:
    fleet = Fleet(
        faction="imperial-navy",
        game_size=GameSize.SKIRMISH,
        name="Gothic Sector Patrol",
        units=(
            ShipUnit(
                "retribution-class-battleship",
                name="Emperor's Wrath",
                flagship=True,
                admiral="commodore",
            ),
            ShipUnit("lunar-class-cruiser"),
            ShipUnit("siluria-class-light-cruiser"),
            Squadron((SquadronShip("sword-class-frigate"),) * 3, name="Sword Squadron"),
            Squadron((SquadronShip("cobra-class-destroyer"),) * 2),
        ),
    )
    pdf = Pdf(render_cards(real_catalog, fleet, layout="poker", share_url=LINK))
    assert pdf.pages == 6  # the roster, then one card a unit
    assert pdf.card_pages == [1, 2, 3, 4, 5]
    roster = pdf.page_texts[0]
    assert "Torpedo Doctrine." in roster and "PROBLEMS" in roster  # all of it, on one card
    assert "fleets.example.org/s/rI3dwc6jXTfbQWUqzuF5BQ" in roster.replace("\n", "")


@pytest.mark.parametrize(
    ("faction", "units"), [("orks", 9), ("tau-empire", 10), ("necrons", 7), ("craftworld-eldar", 8)]
)
def test_a_long_roster_takes_denser_type_not_a_second_card(
    real_catalog: Catalog, faction: str, units: int
) -> None:
    sample = sample_fleet(real_catalog, faction, "armada")
    fleet = replace(sample, units=sample.units[:units])
    pdf = Pdf(render_cards(real_catalog, fleet, layout="poker", share_url=LINK))
    assert pdf.card_pages[0] == 1, pdf.page_texts[1][:400]


def test_a_roster_too_long_for_one_card_fills_its_second(real_catalog: Catalog) -> None:
    fleet = sample_fleet(real_catalog, "orks", "armada")
    assert len(fleet.units) >= 18
    pdf = Pdf(render_cards(real_catalog, fleet, layout="poker", share_url=LINK))
    assert pdf.card_pages[0] == 2
    assert len([line for line in pdf.page_texts[1].splitlines() if line.strip()]) >= 15


def test_every_stat_label_keeps_a_space_from_its_cells_borders(real_catalog: Catalog) -> None:
    """SHIELDS and TURRETS touched the cell borders of the stat line."""
    from rules_core.cards.markup import STAT_LABEL_CHARS, stat_text
    from rules_core.cards.model import build_cards
    from rules_core.validator import validate

    fleet = Fleet(
        faction="imperial-navy",
        game_size=GameSize.PATROL,
        units=(ShipUnit("lunar-class-cruiser", flagship=True),),
    )
    card = build_cards(real_catalog, fleet, validate(fleet, real_catalog))[0]
    labels, _ = stat_text(card.blocks[0], card.leadership)
    cells = [labels[i : i + STAT_LABEL_CHARS] for i in range(0, len(labels), STAT_LABEL_CHARS)]
    assert [c.strip() for c in cells] == [
        "SPEED",
        "TURNS",
        "LD",
        "SHIELDS",
        "HULL",
        "ARMOR",
        "TURRETS",
        "BASE",
    ]
    assert all(c.startswith(" ") and c.endswith(" ") for c in cells), cells
