"""What a card says, before it is drawn: the rulings R-60 … R-66 on the real catalogue."""

from __future__ import annotations

from rules_core.cards.model import build_cards, build_roster
from rules_core.catalog import Catalog
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip
from rules_core.validator import validate

from .conftest import price


def cards_for(catalog: Catalog, *units: ShipUnit | Squadron) -> list:
    fleet = Fleet("imperial-navy", GameSize.BATTLE, units, name="Test")
    return build_cards(catalog, fleet, validate(fleet, catalog))


def test_upgraded_shields_put_a_cruiser_on_a_large_base(real_catalog: Catalog) -> None:
    """R-60 with R-10: Shield Capacitors take a Lunar from 2 to 3 shields: a 60 mm base."""
    plain, upgraded = cards_for(
        real_catalog,
        ShipUnit("lunar-class-cruiser", flagship=True),
        ShipUnit("lunar-class-cruiser", upgrades=("shield-capacitors",)),
    )
    assert (plain.blocks[0].stats.shields, plain.blocks[0].stats.base_mm) == (2, 32)
    assert (upgraded.blocks[0].stats.shields, upgraded.blocks[0].stats.base_mm) == (3, 60)
    assert upgraded.tracks[0].shields == 3  # one box per shield point


def test_upgraded_hull_moves_the_crippled_threshold(real_catalog: Catalog) -> None:
    (card,) = cards_for(
        real_catalog, ShipUnit("lunar-class-cruiser", flagship=True, upgrades=("reinforced-hull",))
    )
    assert card.blocks[0].stats.hull == 9
    assert card.tracks[0].crippled_at == 5  # 9 - floor(9 / 2) lost, R-09
    assert card.blocks[0].crippled_summary.startswith("Crippled at hull ≤ 5: speed 10, turrets 1")


def test_speed_never_goes_above_forty(real_catalog: Catalog) -> None:
    fastest = max(
        (s for f in real_catalog.factions for s in f.ships if s.is_capital),
        key=lambda s: s.speed_cm,
    )
    (card,) = cards_for(
        real_catalog, ShipUnit(fastest.slug, flagship=True, upgrades=("improved-thrusters",))
    )
    assert card.blocks[0].stats.speed_cm == min(40, fastest.speed_cm + 5)


def test_leadership_and_points_are_the_validators(real_catalog: Catalog) -> None:
    fleet = Fleet(
        "imperial-navy",
        GameSize.BATTLE,
        (
            ShipUnit(
                "lunar-class-cruiser",
                flagship=True,
                admiral="vice-admiral",
                upgrades=("veteran-crew",),
            ),
            Squadron((SquadronShip("sword-class-frigate"), SquadronShip("cobra-class-destroyer"))),
        ),
        name="Test",
    )
    report = validate(fleet, real_catalog)
    flagship, squadron = build_cards(real_catalog, fleet, report)
    assert flagship.leadership == 10  # 8 + 1 crew + 1 flagship + 2 admiral, capped
    assert (
        flagship.points
        == report.units[0].points
        == price(real_catalog, "lunar-class-cruiser", "veteran-crew", "vice-admiral")
    )
    assert squadron.points == price(real_catalog, "sword-class-frigate", "cobra-class-destroyer")
    assert squadron.leadership == 7
    assert [b.count for b in squadron.blocks] == [1, 1]  # two kinds: two blocks
    assert [t.label for t in squadron.tracks] == ["1", "2"]
    roster = build_roster(real_catalog, fleet, report, [flagship, squadron])
    assert roster.command_leadership == 10 and roster.points == report.points


def test_only_special_weapons_print_their_rule(real_catalog: Catalog) -> None:
    """R-61: a special weapon's rule is how it fires; other weapons' rules are data notes."""
    ships = [
        s
        for f in real_catalog.factions
        for s in f.ships
        if s.is_capital and any(w.rule for w in s.weapons)
    ]
    kinds = set()
    for ship in ships:
        (card,) = cards_for(real_catalog, ShipUnit(ship.slug, flagship=True))
        printed = {name for _, name, _ in card.blocks[0].notes}
        assert printed == {w.name for w in ship.weapons if w.type.value == "special" and w.rule}
        kinds |= {(w.type.value, w.name in printed) for w in ship.weapons if w.rule}
    assert ("special", True) in kinds and ("battery", False) in kinds


def test_one_hull_escorts_get_no_checklist(real_catalog: Catalog) -> None:
    flagship, squadron = cards_for(
        real_catalog,
        ShipUnit("lunar-class-cruiser", flagship=True),
        Squadron((SquadronShip("sword-class-frigate"),) * 2),
    )
    assert flagship.criticals and not squadron.criticals


def test_a_rule_named_by_a_tag_too_is_printed_once(real_catalog: Catalog) -> None:
    """R-63: the Hive Ship has the rule Synapse and the tag synapse: one 'Synapse' on its card."""
    fleet = Fleet(
        "tyranids", GameSize.BATTLE, (ShipUnit("tyranid-hive-ship", flagship=True),), name="Test"
    )
    (card,) = build_cards(real_catalog, fleet, validate(fleet, real_catalog))
    assert card.blocks[0].rules == ("Synapse",)
    for faction in real_catalog.factions:  # no ship of any faction repeats a rule
        for ship in faction.ships:
            unit = ShipUnit(ship.slug) if ship.is_capital else Squadron((SquadronShip(ship.slug),))
            one = Fleet(faction.slug, GameSize.BATTLE, (unit,), name="T")
            rules = build_cards(real_catalog, one, validate(one, real_catalog))[0].blocks[0].rules
            assert len({r.casefold() for r in rules}) == len(rules), (ship.slug, rules)
