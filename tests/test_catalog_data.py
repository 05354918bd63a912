"""Invariants over the whole catalogue, read straight from the data files (no database)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_core.catalog import (
    DATA_DIR,
    SLUG_RE,
    Catalog,
    ShipClass,
    WeaponType,
    load_catalog_dir,
)

FACTIONS = {
    "imperial-navy": "Imperial Navy",
    "adeptus-mechanicus": "Adeptus Mechanicus",
    "adeptus-astartes": "Adeptus Astartes",
    "grey-knights": "Grey Knights",
    "adeptus-custodes": "Adeptus Custodes",
    "adepta-sororitas": "Adepta Sororitas",
    "archenemy": "Archenemy",
    "orks": "Orks",
    "craftworld-eldar": "Craftworld Eldar",
    "drukhari": "Drukhari",
    "tyranids": "Tyranids",
    "tau-empire": "T'au Empire",
    "necrons": "Necrons",
    "leagues-of-votann": "Leagues of Votann",
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog_dir(DATA_DIR)


def all_slugs(catalog: Catalog) -> set[str]:
    slugs = {f"admiral:{a.slug}" for a in catalog.admirals}
    slugs |= {f"upgrade:{u.slug}" for u in catalog.refits}
    for f in catalog.factions:
        slugs.add(f"faction:{f.slug}")
        slugs |= {f"variant:{f.slug}/{v.slug}" for v in f.variants}
        slugs |= {f"ship:{s.slug}" for s in f.ships}
        slugs |= {f"upgrade:{u.slug}" for u in f.upgrades}
        slugs |= {f"craft:{f.slug}/{c.slug}" for c in f.attack_craft}
    return slugs


def test_all_fourteen_factions_of_section_16_are_there(catalog: Catalog) -> None:
    assert {f.slug: f.name for f in catalog.factions} == FACTIONS


def test_catalogue_holds_at_least_150_ship_profiles(catalog: Catalog) -> None:
    assert catalog.ship_count >= 150


@pytest.mark.parametrize("faction_slug", sorted(FACTIONS))
def test_every_faction_has_the_classes_to_build_any_fleet(
    catalog: Catalog, faction_slug: str
) -> None:
    faction = catalog.faction(faction_slug)
    classes = Counter(s.ship_class for s in faction.ships)
    assert len(faction.ships) >= 8
    assert classes[ShipClass.ESCORT] >= 2, "at least two escort classes"
    assert sum(classes[c] for c in ShipClass if c.is_cruiser_weight) >= 3
    assert classes[ShipClass.BATTLESHIP] + classes[ShipClass.GRAND_CRUISER] >= 1


@pytest.mark.parametrize("faction_slug", sorted(FACTIONS))
def test_every_faction_has_variants_upgrades_rules_and_composition(
    catalog: Catalog, faction_slug: str
) -> None:
    faction = catalog.faction(faction_slug)
    assert len(faction.variants) >= 2
    assert len(faction.upgrades) >= 2
    assert len(faction.special_rules) >= 2
    assert faction.composition, "composition guidelines are data the validator enforces"
    assert faction.description


def test_shared_refits_are_open_to_every_faction(catalog: Catalog) -> None:
    assert len(catalog.refits) >= 4
    assert all(u.faction is None and u.classes for u in catalog.refits)


def test_the_five_admiral_ranks_of_section_15(catalog: Catalog) -> None:
    ranks = [(a.name, a.points, a.leadership_bonus) for a in catalog.admirals]
    assert ranks == [
        ("Fleet Captain", 10, 0),
        ("Commodore", 25, 1),
        ("Rear Admiral", 50, 1),
        ("Vice Admiral", 75, 2),
        ("Lord Admiral", 100, 2),
    ]
    assert catalog.admiral("commodore").command_radius_cm == 45


def test_every_ship_stat_is_within_the_rules(catalog: Catalog) -> None:
    for faction in catalog.factions:
        for ship in faction.ships:
            where = f"{faction.slug}/{ship.slug}"
            assert 2 <= ship.armor <= 6, where
            assert 6 <= ship.leadership <= 10, where
            assert ship.turns in (45, 90), where
            assert ship.hull >= 1 and ship.points > 0, where
            if ship.is_escort:
                assert ship.hull <= 4, f"{where}: an escort is a small ship"
            assert ship.weapons, f"{where} has no weapons"


def test_every_weapon_is_valid(catalog: Catalog) -> None:
    for faction in catalog.factions:
        craft = {c.slug for c in faction.attack_craft}
        for ship in faction.ships:
            for weapon in ship.weapons:
                where = f"{ship.slug}: {weapon.name}"
                assert weapon.arcs and weapon.strength >= 1, where
                if weapon.type is WeaponType.LAUNCH_BAY:
                    assert ship.attack_craft, f"{where} launches nothing"
                else:
                    assert 0 < weapon.range_cm <= 150, where
                if weapon.type is WeaponType.SPECIAL:
                    assert weapon.rule, f"{where}: a special weapon explains itself"
            assert set(ship.attack_craft) <= craft


def test_base_size_follows_the_class_table_and_the_large_base_rule(catalog: Catalog) -> None:
    for faction in catalog.factions:
        for ship in faction.ships:
            big = ship.ship_class in (ShipClass.GRAND_CRUISER, ShipClass.BATTLESHIP)
            large = ship.shields >= 3 or ship.hull > 10
            assert ship.base_mm == (60 if big or large else 32), ship.slug


def test_crippled_threshold_is_half_hull_rounded_down() -> None:
    """R-09: crippled once half the starting hull, rounded down, is lost (7 hull: at 4 left)."""
    from rules_core.catalog import ShipProfile

    def ship(hull: int) -> ShipProfile:
        return ShipProfile("x", "X", ShipClass.CRUISER, 100, 20, 45, 8, 1, hull, 5, 1)

    assert [ship(h).crippled_at for h in (8, 10, 12, 7, 1)] == [4, 5, 6, 4, None]


def test_slugs_are_unique_lowercase_words(catalog: Catalog) -> None:
    ships = [s.slug for f in catalog.factions for s in f.ships]
    assert len(ships) == len(set(ships))
    for slug in (s.split(":", 1)[1].split("/")[-1] for s in all_slugs(catalog)):
        assert SLUG_RE.match(slug), slug


def test_published_slugs_never_disappear(catalog: Catalog) -> None:
    """A fleet file written today must load next year: every published slug stays."""
    published = {
        line.strip()
        for line in (DATA_DIR / "published-slugs.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    current = all_slugs(catalog)
    assert not published - current, f"published slugs removed: {sorted(published - current)}"
    assert not current - published, (
        f"publish new slugs with tools/publish_slugs.py: {sorted(current - published)[:10]}"
    )


def test_all_ahead_full_follows_ruling_r16(catalog: Catalog) -> None:
    for faction in catalog.factions:
        extra = 1 if faction.slug == "orks" else 0
        for ship in faction.ships:
            massive = ship.ship_class in (ShipClass.GRAND_CRUISER, ShipClass.BATTLESHIP)
            assert ship.all_ahead_full == f"{(3 if massive else 4) + extra}d6", ship.slug
