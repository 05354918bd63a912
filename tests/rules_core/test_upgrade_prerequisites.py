"""Upgrade prerequisites on the real catalogue (R-150): an upgrade that works through a kind of
weapon is refused, with ``upgrade.prerequisite``, on a ship that carries none."""

from __future__ import annotations

import copy
import json

import pytest

from rules_core.catalog import (
    DATA_DIR,
    Catalog,
    CatalogError,
    WeaponType,
    catalog_from_dicts,
    load_catalog_dir,
)
from rules_core.fleet import Fleet, GameSize, PointsBand, ShipUnit, Squadron, SquadronShip
from rules_core.validator import validate

OPEN = PointsBand("custom", 0, 10_000)
GOTHIC = "gothic-class-cruiser"  # lances and torpedoes: no launch bay, no weapons battery
DICTATOR = "dictator-class-cruiser"  # batteries and launch bays
LUNAR = "lunar-class-cruiser"  # batteries and lances, no launch bay


@pytest.fixture(scope="module")
def real() -> Catalog:
    return load_catalog_dir(DATA_DIR)


def navy(*units: ShipUnit | Squadron) -> Fleet:
    return Fleet("imperial-navy", GameSize.CUSTOM, units, points_limit=OPEN)


def test_r150_expanded_launch_bays_on_a_gothic_is_refused(real: Catalog) -> None:
    # Pins R-150: the case, a Gothic Class Cruiser (no launch bay) with Expanded Launch
    # Bays, was accepted with no problem raised.
    report = validate(
        navy(
            ShipUnit(DICTATOR, flagship=True), ShipUnit(GOTHIC, upgrades=("expanded-launch-bays",))
        ),
        real,
    )
    assert [(p.code, p.unit, p.ship, p.severity) for p in report.problems] == [
        ("upgrade.prerequisite", 1, None, "error")
    ]
    assert report.problems[0].message == (
        "Expanded Launch Bays needs a ship with a launch bay; Gothic Class Cruiser has none."
    )
    assert not report.legal
    # An illegal upgrade still costs its points; the prices are the catalogue's.
    gothic = real.faction("imperial-navy").ship(GOTHIC)
    bays = next(r for r in real.refits if r.slug == "expanded-launch-bays")
    assert report.units[1].points == gothic.points + bays.points


def test_r150_a_carrier_takes_expanded_launch_bays(real: Catalog) -> None:
    report = validate(
        navy(ShipUnit(DICTATOR, flagship=True, upgrades=("expanded-launch-bays",))), real
    )
    assert report.codes == []


def test_r150_a_battery_upgrade_needs_a_weapons_battery_not_a_lance_battery(real: Catalog) -> None:
    # Pins R-150: the Gothic's "Lance Batteries" are lances, not weapons batteries.
    report = validate(
        navy(
            ShipUnit(LUNAR, flagship=True, upgrades=("targeting-matrix", "imperial-gunnery-cadre")),
            ShipUnit(GOTHIC, upgrades=("targeting-matrix", "imperial-gunnery-cadre")),
        ),
        real,
    )
    assert [(p.code, p.unit) for p in report.problems] == [("upgrade.prerequisite", 1)] * 2
    assert "weapons batteries" in report.problems[0].message


def test_r150_each_launch_upgrade_of_every_faction_needs_a_launch_bay(real: Catalog) -> None:
    # Pins R-150 over the whole catalogue: a ship without a launch bay may not take any upgrade
    # whose text is about launch capacity; every ship with one of its classes and a bay may.
    launch = [
        u
        for u in (*real.refits, *(u for f in real.factions for u in f.upgrades))
        if "launch" in u.text.lower()
    ]
    assert {u.slug for u in launch} >= {
        "expanded-launch-bays",
        "astartes-extra-thunderhawks",
        "tyranid-brood-chambers",
    }
    for upgrade in launch:
        assert upgrade.requires_weapon == {WeaponType.LAUNCH_BAY}, upgrade.slug
        for faction in real.factions:
            if upgrade.faction not in (None, faction.slug):
                continue
            for ship in faction.ships:
                if ship.ship_class not in upgrade.classes:
                    continue
                unit = (
                    ShipUnit(ship.slug, upgrades=(upgrade.slug,))
                    if ship.is_capital
                    else Squadron((SquadronShip(ship.slug, (upgrade.slug,)),))
                )
                codes = validate(
                    Fleet(faction.slug, GameSize.CUSTOM, (unit,), points_limit=OPEN), real
                ).codes
                assert ("upgrade.prerequisite" in codes) == (ship.launch_capacity == 0), (
                    upgrade.slug,
                    ship.slug,
                )


def test_r150_every_upgrade_text_naming_a_weapon_kind_has_the_prerequisite(real: Catalog) -> None:
    # Pins R-150: the review of every upgrade's text, kept as a test so a new upgrade that
    # names a weapon kind gets the data too (or a conscious exception here).
    words = {
        "weapons batter": WeaponType.BATTERY,
        "launch": WeaponType.LAUNCH_BAY,
        "lance": WeaponType.LANCE,
        "torpedo": WeaponType.TORPEDO,
        "nova cannon": WeaponType.NOVA_CANNON,
    }
    for upgrade in (*real.refits, *(u for f in real.factions for u in f.upgrades)):
        named = {t for w, t in words.items() if w in upgrade.text.lower()}
        assert upgrade.requires_weapon == named, upgrade.slug


def test_r150_either_weapon_will_do_and_the_message_says_so() -> None:
    data = json.loads((DATA_DIR / "refits.json").read_text())
    refit = copy.deepcopy(data[0])
    refit.update(slug="fire-control", name="Fire Control", requires_weapon=["lance", "battery"])
    ship = {
        "slug": "tug",
        "name": "Tug",
        "class": "cruiser",
        "points": 100,
        "speed": 20,
        "leadership": 7,
        "shields": 1,
        "hull": 6,
        "armor": 5,
        "turrets": 1,
        "weapons": [
            {
                "name": "Prow Torpedoes",
                "type": "torpedo",
                "arcs": ["front"],
                "strength": 4,
                "range": 30,
            }
        ],
    }
    faction = json.loads((DATA_DIR / "factions" / "imperial-navy.json").read_text())
    faction = {**faction, "ships": [*faction["ships"], ship]}
    catalog = catalog_from_dicts(
        factions=[faction],
        admirals=json.loads((DATA_DIR / "admirals.json").read_text()),
        refits=[refit],
        version="test",
    )
    report = validate(navy(ShipUnit("tug", flagship=True, upgrades=("fire-control",))), catalog)
    assert report.problems[0].message == (
        "Fire Control needs a ship with weapons batteries or lances; Tug has none."
    )
    assert (
        validate(navy(ShipUnit(LUNAR, flagship=True, upgrades=("fire-control",))), catalog).codes
        == []
    )


def test_a_prerequisite_must_be_a_weapon_type() -> None:
    data = json.loads((DATA_DIR / "refits.json").read_text())
    data[0]["requires_weapon"] = ["plasma"]
    with pytest.raises(CatalogError) as caught:
        catalog_from_dicts(factions=[], admirals=[], refits=data, version="test")
    assert caught.value.path == "refits[0].requires_weapon[0]"
    assert "'plasma' is not one of battery" in caught.value.message
