"""Card rulings pinned on the real catalogue: shield and blast-marker boxes (R-62) and the hull
boxes with the crippled threshold shaded (R-65), from rules_core.cards alone (no PDF)."""

from __future__ import annotations

import pytest

from rules_core.cards.markup import BOX, hull_boxes
from rules_core.cards.model import BLAST_MARKER_BOXES, HullTrack, build_cards
from rules_core.catalog import DATA_DIR, Catalog, load_catalog_dir
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip
from rules_core.validator import validate


@pytest.fixture(scope="module")
def real() -> Catalog:
    return load_catalog_dir(DATA_DIR)


def cards(catalog: Catalog, *units: ShipUnit | Squadron) -> list:
    fleet = Fleet("imperial-navy", GameSize.BATTLE, units)
    return build_cards(catalog, fleet, validate(fleet, catalog))


def test_r62_one_shield_box_per_upgraded_shield_and_six_blast_marker_boxes(real):
    """R-62: "one shield box per (upgraded) shield point and six blast-marker boxes per ship";
    every escort of a squadron has its own row."""
    plain, shielded, escorts = cards(
        real,
        ShipUnit("lunar-class-cruiser", flagship=True),
        ShipUnit("lunar-class-cruiser", upgrades=("shield-capacitors",)),
        Squadron((SquadronShip("sword-class-frigate"),) * 3),
    )
    assert [(t.shields, t.blast_markers) for t in plain.tracks] == [(2, 6)]
    assert [(t.shields, t.blast_markers) for t in shielded.tracks] == [(3, 6)]
    assert [(t.shields, t.blast_markers) for t in escorts.tracks] == [(1, 6)] * 3
    assert BLAST_MARKER_BOXES == 6


@pytest.mark.parametrize(
    "hull, plain, shaded", [(1, 1, 0), (3, 1, 2), (5, 2, 3), (8, 4, 4), (9, 4, 5)]
)
def test_r65_the_last_crippled_at_hull_boxes_are_shaded(hull, plain, shaded):
    """R-65 with R-09: one box per hull point, the last ceil(hull / 2) shaded, so a ship is
    crippled once only shaded boxes are left; a 1-hull escort has none shaded."""
    from rules_core.catalog import crippled_threshold

    html = hull_boxes(HullTrack("", hull, crippled_threshold(hull), 0))
    assert html.count(BOX) == hull
    assert ('class="bx crip"' in html) is (shaded > 0)
    if shaded:
        assert html.split('class="bx crip">')[1].count(BOX) == shaded


def test_r65_a_reinforced_lunar_prints_its_crippled_values(real):
    """R-65 (R-60, R-09): the card works the crippled threshold out from the upgraded hull
    (9 hull: crippled at 5 or less)."""
    card = cards(
        real, ShipUnit("lunar-class-cruiser", flagship=True, upgrades=("reinforced-hull",))
    )[0]
    assert (card.tracks[0].hull, card.tracks[0].crippled_at) == (9, 5)
    assert card.blocks[0].stats.crippled_at == 5
