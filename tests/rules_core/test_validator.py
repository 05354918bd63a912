"""The validator (contract 2): every problem code on the smallest fleet that shows it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core.catalog import Catalog
from rules_core.fleet import (
    Fleet,
    GameSize,
    PointsBand,
    ShipUnit,
    Squadron,
    SquadronShip,
    Unit,
    fleet_to_dict,
    parse_fleet,
)
from rules_core.text import problem
from rules_core.validator import ValidationReport, catalog_index, validate

LUNAR = "lunar-class-cruiser"  # cruiser, 180 pts, Ld 8
DOMINATOR = "dominator-class-cruiser"  # cruiser, 190 pts, Ld 7
DAUNTLESS = "dauntless-class-light-cruiser"  # light cruiser, 110 pts
RETRIBUTION = "retribution-class-battleship"  # battleship, 345 pts, Ld 9
VENGEANCE = "vengeance-class-grand-cruiser"  # grand cruiser, 230 pts
FIST = "emperors-fist"  # unique grand cruiser, 300 pts
SWORD = "sword-class-frigate"  # escort, 35 pts
COBRA = "cobra-class-destroyer"  # escort, 30 pts
KROOZER = "kill-kroozer"  # an Ork cruiser
RAVAGER = "ravager-attack-ship"  # an Ork escort

OPEN = PointsBand("custom", 0, 10_000)


def fleet(
    *units: Unit,
    faction: str = "imperial-navy",
    variant: str | None = None,
    band: PointsBand = OPEN,
) -> Fleet:
    return Fleet(faction, GameSize.CUSTOM, tuple(units), variant=variant, points_limit=band)


def flagship(slug: str = LUNAR, **kw: Any) -> ShipUnit:
    return ShipUnit(slug, flagship=True, **kw)


def cap(slug: str = LUNAR, **kw: Any) -> ShipUnit:
    return ShipUnit(slug, **kw)


def squadron(*slugs: str, name: str | None = None) -> Squadron:
    return Squadron(tuple(SquadronShip(s) for s in slugs), name=name)


def band(lo: int, hi: int) -> PointsBand:
    return PointsBand("custom", lo, hi)


BASTION = "bastion-fleet"

# (code, fleet that breaks it, its neighbour that is legal, unit, ship)
CASES: list[tuple[str, Fleet, Fleet, int | None, int | None]] = [
    (
        "catalog.unknown_faction",
        fleet(flagship(), faction="space-elves"),
        fleet(flagship()),
        None,
        None,
    ),
    (
        "catalog.unknown_variant",
        fleet(flagship(), variant="nope"),
        fleet(flagship(), variant=BASTION),
        None,
        None,
    ),
    (
        "catalog.unknown_ship",
        fleet(flagship(), cap("ghost-ship")),
        fleet(flagship(), cap(DOMINATOR)),
        1,
        None,
    ),
    (
        "catalog.unknown_upgrade",
        fleet(flagship(upgrades=("warp-drive",))),
        fleet(flagship(upgrades=("command-bridge",))),
        0,
        None,
    ),
    (
        "catalog.unknown_admiral",
        fleet(flagship(admiral="grand-moff")),
        fleet(flagship(admiral="commodore")),
        0,
        None,
    ),
    (
        "faction.mismatch",
        fleet(flagship(), cap(KROOZER)),
        fleet(flagship(), cap(DOMINATOR)),
        1,
        None,
    ),
    (
        "points.under_band",
        fleet(flagship(), band=band(181, 500)),
        fleet(flagship(), band=band(180, 500)),
        None,
        None,
    ),
    (
        "points.over_band",
        fleet(flagship(), band=band(0, 179)),
        fleet(flagship(), band=band(0, 180)),
        None,
        None,
    ),
    (
        "squadron.too_small",
        fleet(flagship(), squadron(SWORD)),
        fleet(flagship(), squadron(SWORD, SWORD)),
        1,
        None,
    ),
    (
        "squadron.too_large",
        fleet(flagship(), squadron(*[SWORD] * 5)),
        fleet(flagship(), squadron(*[SWORD] * 4)),
        1,
        None,
    ),
    (
        "squadron.required",
        fleet(flagship(), cap(SWORD)),
        fleet(flagship(), squadron(SWORD, SWORD)),
        1,
        None,
    ),
    (
        "squadron.capital_ship",
        fleet(flagship(), squadron(SWORD, DAUNTLESS)),
        fleet(flagship(), squadron(SWORD, COBRA)),
        1,
        1,
    ),
    ("flagship.missing", fleet(cap()), fleet(flagship()), None, None),
    (
        "flagship.multiple",
        fleet(flagship(), flagship(DOMINATOR)),
        fleet(flagship(), cap(DOMINATOR)),
        1,
        None,
    ),
    (
        "flagship.not_allowed",
        fleet(cap(), ShipUnit(SWORD, flagship=True)),
        fleet(flagship(), squadron(SWORD, SWORD)),
        1,
        None,
    ),
    (
        "admiral.multiple",
        fleet(flagship(admiral="commodore"), cap(DOMINATOR, admiral="fleet-captain")),
        fleet(flagship(admiral="commodore"), cap(DOMINATOR)),
        1,
        None,
    ),
    (
        "admiral.not_on_flagship",
        fleet(flagship(), cap(DOMINATOR, admiral="commodore")),
        fleet(flagship(admiral="commodore"), cap(DOMINATOR)),
        1,
        None,
    ),
    (
        "upgrade.not_allowed",
        fleet(flagship(), cap(DAUNTLESS, upgrades=("nova-refit",))),
        fleet(flagship(), cap(DOMINATOR, upgrades=("nova-refit",))),
        1,
        None,
    ),
    (
        "upgrade.duplicate",
        fleet(flagship(upgrades=("command-bridge", "command-bridge"))),
        fleet(flagship(upgrades=("command-bridge",)), cap(DOMINATOR, upgrades=("command-bridge",))),
        0,
        None,
    ),
    (
        "upgrade.limit",
        fleet(flagship(upgrades=("nova-refit",)), cap(DOMINATOR, upgrades=("nova-refit",))),
        fleet(flagship(upgrades=("nova-refit",)), cap(DOMINATOR)),
        1,
        None,
    ),
    (
        "variant.forbidden_ship",
        fleet(flagship(), cap(DAUNTLESS), variant=BASTION),
        fleet(flagship(), cap(DAUNTLESS)),
        1,
        None,
    ),
    ("ship.unique", fleet(flagship(), cap(FIST), cap(FIST)), fleet(flagship(), cap(FIST)), 2, None),
    (
        "composition.battleships_per_cruisers",
        fleet(flagship(), cap(RETRIBUTION)),
        fleet(flagship(), cap(DOMINATOR), cap(RETRIBUTION)),
        None,
        None,
    ),
    (
        "composition.grand_cruisers_per_points",
        fleet(flagship(), cap(VENGEANCE), band=band(0, 749)),
        fleet(flagship(), cap(VENGEANCE), band=band(0, 750)),
        None,
        None,
    ),
    (
        "composition.light_cruisers_limit",
        fleet(flagship(), cap(DAUNTLESS), cap(DAUNTLESS), cap(DAUNTLESS)),
        fleet(flagship(), cap(DAUNTLESS), cap(DAUNTLESS)),
        None,
        None,
    ),
    (
        "composition.cruiser_required",
        fleet(flagship(DAUNTLESS)),
        fleet(flagship(DAUNTLESS), cap()),
        None,
        None,
    ),
    # exactly half is allowed; 210 of 390 points is not.
    (
        "composition.escort_share",
        fleet(flagship(), squadron(*[COBRA] * 4), squadron(*[COBRA] * 3)),
        fleet(flagship(), squadron(*[COBRA] * 3), squadron(*[COBRA] * 3)),
        None,
        None,
    ),
    # a variant's own composition rules are reported like the faction's.
    (
        "composition.bastion_escorts",
        fleet(
            flagship(),
            cap(DOMINATOR),
            squadron(SWORD, SWORD),
            squadron(SWORD, SWORD, SWORD),
            variant=BASTION,
        ),
        fleet(
            flagship(),
            cap(DOMINATOR),
            squadron(SWORD, SWORD),
            squadron(SWORD, SWORD),
            variant=BASTION,
        ),
        None,
        None,
    ),
]


@pytest.mark.parametrize(
    ("code", "broken", "neighbour", "unit", "ship"), CASES, ids=[c[0] for c in CASES]
)
def test_each_problem_code_on_its_smallest_fleet(
    catalog: Catalog,
    code: str,
    broken: Fleet,
    neighbour: Fleet,
    unit: int | None,
    ship: int | None,
) -> None:
    # Pins R-05 (flagship.not_allowed), R-07 and R-33 (squadron.*), R-22 (flagship.multiple), R-26
    # (variant.forbidden_ship, composition.bastion_escorts), R-28 (escort_share), R-29 (composition
    # counts ships), R-30 (upgrade.not_allowed), R-31 (upgrade.duplicate, upgrade.limit), R-32
    # (ship.unique): each code on its smallest fleet.
    report = validate(broken, catalog)
    found = [p for p in report.problems if p.code == code]
    assert found, report.codes
    assert (found[0].unit, found[0].ship) == (unit, ship)
    assert found[0].severity == "error"
    assert not report.legal
    assert found[0].message.endswith(".")

    near = validate(neighbour, catalog)
    assert near.codes == []
    assert near.legal


def codes(f: Fleet, catalog: Catalog) -> list[str]:
    return validate(f, catalog).codes


# --- more ways to break the same rules ----------------------------------------------------


def test_an_upgrade_of_another_faction_is_a_mismatch(catalog: Catalog) -> None:
    assert codes(fleet(flagship(upgrades=("big-gunz",))), catalog) == ["faction.mismatch"]


def test_an_escort_of_another_faction_in_a_squadron_is_a_mismatch(catalog: Catalog) -> None:
    report = validate(fleet(flagship(), squadron(SWORD, RAVAGER)), catalog)
    assert [(p.code, p.unit, p.ship) for p in report.problems] == [("faction.mismatch", 1, 1)]
    assert "Orks" in report.problems[0].message


def test_an_empty_squadron_is_too_small(catalog: Catalog) -> None:
    assert codes(fleet(flagship(), squadron()), catalog) == ["squadron.too_small"]


def test_a_variant_only_upgrade_needs_its_variant(catalog: Catalog) -> None:
    armoured = flagship(upgrades=("bastion-armour",))
    report = validate(fleet(armoured), catalog)
    assert report.codes == ["upgrade.not_allowed"]
    assert "Bastion Fleet" in report.problems[0].message
    assert codes(fleet(armoured, variant=BASTION), catalog) == []


def test_an_admiral_listed_as_an_upgrade_is_not_allowed(catalog: Catalog) -> None:
    report = validate(fleet(flagship(upgrades=("commodore",))), catalog)
    assert report.codes == ["upgrade.not_allowed"]
    assert report.points == 180  # its points do not count
    assert "admiral" in report.problems[0].message


def test_a_lone_escort_flagship_is_not_also_missing(catalog: Catalog) -> None:
    # Pins: an escort flagship is not_allowed and required, not missing.
    assert codes(fleet(cap(), ShipUnit(SWORD, flagship=True)), catalog) == [
        "squadron.required",
        "flagship.not_allowed",
    ]


def test_an_empty_fleet_lacks_a_flagship_and_points(catalog: Catalog) -> None:
    report = validate(Fleet("imperial-navy", GameSize.PATROL), catalog)
    assert report.codes == ["points.under_band", "flagship.missing", "composition.cruiser_required"]


def test_rules_per_points_use_the_band_maximum(catalog: Catalog) -> None:
    # a Battle (1000–1500) allows two grand cruisers "per full 750 points".
    two = [flagship(), cap(DOMINATOR), cap(VENGEANCE), cap(VENGEANCE)]
    battle = Fleet("imperial-navy", GameSize.BATTLE, (*two, cap(), cap(DOMINATOR)))
    assert validate(battle, catalog).codes == []
    skirmish = Fleet("imperial-navy", GameSize.SKIRMISH, tuple(two))
    assert validate(skirmish, catalog).codes == ["composition.grand_cruisers_per_points"]


def test_unknown_faction_skips_list_checks_but_still_counts(catalog: Catalog) -> None:
    report = validate(
        fleet(flagship(upgrades=("big-gunz",)), cap(KROOZER), faction="space-elves"), catalog
    )
    assert report.codes == ["catalog.unknown_faction"]
    assert report.points == 180 + 10 + 150


# --- messages a player understands --------------------------------------------------------


def test_over_band_message(catalog: Catalog) -> None:
    f = Fleet(
        "imperial-navy",
        GameSize.SKIRMISH,
        (
            flagship(),
            cap(),
            cap(DOMINATOR),
            cap(RETRIBUTION),
            squadron(COBRA, COBRA, COBRA),
            squadron(COBRA, COBRA),
        ),
    )
    report = validate(f, catalog)
    assert report.to_dict() == {
        "legal": False,
        "points": 1045,
        "band": {"name": "skirmish", "min": 750, "max": 1000},
        "problems": [
            {
                "code": "points.over_band",
                "severity": "error",
                "message": "1045 points is over the Skirmish band (750–1000).",
                "unit": None,
                "ship": None,
            }
        ],
    }


def test_under_band_message(catalog: Catalog) -> None:
    report = validate(Fleet("imperial-navy", GameSize.PATROL, (flagship(),)), catalog)
    assert report.problems[0].message == "180 points is under the Patrol band (500–750)."


def test_a_message_names_the_ship(catalog: Catalog) -> None:
    report = validate(fleet(flagship(), ShipUnit(SWORD, name="Lonely")), catalog)
    assert report.problems[0].message.startswith("“Lonely” (Sword-class Frigate) is an escort")


def test_composition_message_quotes_the_rule_and_the_counts(catalog: Catalog) -> None:
    report = validate(fleet(flagship(), cap(RETRIBUTION), cap(RETRIBUTION)), catalog)
    assert report.problems[0].message == (
        "Up to one battleship for every two cruisers. "
        "This fleet has 2 battleships and 1 cruiser, which allows 0."
    )


def test_share_message_gives_the_points(catalog: Catalog) -> None:
    report = validate(fleet(flagship(), squadron(*[COBRA] * 4), squadron(*[COBRA] * 3)), catalog)
    assert report.problems[0].message == (
        "Escorts may not cost more than half the fleet. "
        "Escorts cost 210 of the fleet's 390 points (54%); at most 50% is allowed."
    )


def test_limit_message_gives_the_count(catalog: Catalog) -> None:
    nova = ("nova-refit",)
    report = validate(
        fleet(flagship(upgrades=nova), cap(upgrades=nova), cap(upgrades=nova)), catalog
    )
    assert [(p.code, p.unit) for p in report.problems] == [("upgrade.limit", 1)]
    assert report.problems[0].message == (
        "A fleet may take Nova Refit at most once; this fleet takes it 3 times."
    )


# --- points, leadership and victory points ------------------------------------------------


def test_points_per_unit_and_total(catalog: Catalog) -> None:
    f = fleet(
        flagship(admiral="commodore", upgrades=("command-bridge",)),
        Squadron((SquadronShip(SWORD), SquadronShip(SWORD, ("improved-thrusters",)))),
    )
    report = validate(f, catalog)
    assert [u.points for u in report.units] == [180 + 25 + 15, 35 + 35 + 5]
    assert report.units[1].ships[1].points == 40
    assert report.units[1].ships[1].effects == {"speed": 5}
    assert report.points == 295


def test_victory_points_are_the_full_cost(catalog: Catalog) -> None:
    # upgrades and the admiral count; a squadron is worth its escorts.
    f = fleet(flagship(admiral="vice-admiral", upgrades=("nova-refit",)), squadron(SWORD, COBRA))
    report = validate(f, catalog)
    assert [u.victory_points for u in report.units] == [180 + 75 + 20, 65]
    assert [s.victory_points for s in report.units[1].ships] == [35, 30]


@pytest.mark.parametrize(
    ("units", "expected"),
    [
        ((flagship(),), [9]),  # Ld 8 + 1 for the flagship
        ((flagship(admiral="fleet-captain"),), [9]),  # +0 admiral
        ((flagship(admiral="commodore"),), [10]),
        ((flagship(RETRIBUTION, admiral="vice-admiral"),), [10]),  # 9 + 1 + 2, capped
        ((flagship(), cap(DOMINATOR, upgrades=("command-bridge",))), [9, 8]),
        ((flagship(), cap(DOMINATOR, upgrades=("command-bridge", "veteran-crew"))), [9, 10]),
        ((flagship(upgrades=("veteran-crew",)), cap(DOMINATOR, admiral="commodore")), [10, 7]),
    ],
)
def test_effective_leadership(
    catalog: Catalog, units: tuple[Unit, ...], expected: list[int]
) -> None:
    # Pins: effective Ld per ship and the fleet's highest.
    report = validate(fleet(*units), catalog)
    assert [u.ships[0].leadership for u in report.units] == expected
    assert report.leadership == max(expected)


def test_an_illegal_upgrade_still_costs_points(catalog: Catalog) -> None:
    # the file's cost as written.
    report = validate(fleet(flagship(), cap(DAUNTLESS, upgrades=("nova-refit",))), catalog)
    assert report.units[1].points == 110 + 20


def test_unknown_slugs_add_no_points_and_do_not_crash(catalog: Catalog) -> None:
    f = fleet(
        flagship(admiral="grand-moff", upgrades=("warp-drive",)),
        cap("ghost-ship", upgrades=("command-bridge",)),
        squadron("ghost-escort", SWORD),
    )
    report = validate(f, catalog)
    assert [u.points for u in report.units] == [180, 15, 35]
    assert report.units[1].ships[0].leadership is None
    assert sorted(report.codes) == [
        "catalog.unknown_admiral",
        "catalog.unknown_ship",
        "catalog.unknown_ship",
        "catalog.unknown_upgrade",
    ]


def test_report_to_dict_is_contract_2_and_details_add_units(catalog: Catalog) -> None:
    report = validate(fleet(flagship(), cap(SWORD)), catalog)
    data = report.to_dict()
    assert list(data) == ["legal", "points", "band", "problems"]
    assert list(data["problems"][0]) == ["code", "severity", "message", "unit", "ship"]
    assert data["band"] == {"name": "custom", "min": 0, "max": 10_000}
    details = json.loads(json.dumps(report.details_dict()))
    assert details["units"][0]["ships"][0] == {
        "ship": LUNAR,
        "points": 180,
        "victory_points": 180,
        "leadership": 9,
        "flagship": True,
        "admiral": None,
        "upgrades": [],
        "effects": {},
    }


def test_problems_for_a_unit(catalog: Catalog) -> None:
    report = validate(fleet(flagship(), squadron(SWORD, LUNAR)), catalog)
    assert [p.code for p in report.problems_for(1, 1)] == ["squadron.capital_ship"]
    assert report.problems_for(0) == ()


# --- speed --------------------------------------------------------------------------------


def forty_ships() -> Fleet:
    capitals = [flagship(admiral="commodore", upgrades=("command-bridge",))]
    capitals += [
        cap(DOMINATOR if i % 2 else LUNAR, upgrades=("improved-thrusters",)) for i in range(15)
    ]
    squadrons = [squadron(SWORD, COBRA, SWORD, COBRA) for _ in range(6)]
    f = fleet(*capitals, *squadrons)
    assert f.ship_count == 40
    return f


def test_the_index_is_built_once_per_catalogue(catalog: Catalog) -> None:
    assert catalog_index(catalog) is catalog_index(catalog)


# --- random fleets ------------------------------------------------------------------------


def fleets(catalog: Catalog) -> st.SearchStrategy[Fleet]:
    ships = sorted({s.slug for f in catalog.factions for s in f.ships} | {"ghost-ship"})
    upgrades = sorted(
        {u.slug for u in catalog.refits}
        | {u.slug for f in catalog.factions for u in f.upgrades}
        | {"commodore", "warp-drive"}
    )
    admirals = sorted({a.slug for a in catalog.admirals} | {"grand-moff"})
    names = st.none() | st.text(
        st.characters(blacklist_categories=("Cs", "Cc")), max_size=100
    ).filter(lambda s: problem(s) is None)  # any name R-94 allows
    upgrade_lists = st.lists(st.sampled_from(upgrades), max_size=3).map(tuple)
    ship_units = st.builds(
        ShipUnit,
        ship=st.sampled_from(ships),
        name=names,
        flagship=st.booleans(),
        admiral=st.none() | st.sampled_from(admirals),
        upgrades=upgrade_lists,
    )
    members = st.builds(SquadronShip, ship=st.sampled_from(ships), upgrades=upgrade_lists)
    squadrons = st.builds(Squadron, ships=st.lists(members, max_size=6).map(tuple), name=names)

    @st.composite
    def build(draw: st.DrawFn) -> Fleet:
        size = draw(st.sampled_from(list(GameSize)))
        limit = None
        if size is GameSize.CUSTOM:
            lo = draw(st.integers(0, 3000))
            limit = PointsBand("custom", lo, draw(st.integers(lo, 5000)))
        return Fleet(
            faction=draw(st.sampled_from(["imperial-navy", "orks", "space-elves"])),
            game_size=size,
            units=tuple(draw(st.lists(ship_units | squadrons, max_size=12))),
            name=draw(names),
            variant=draw(st.none() | st.sampled_from([BASTION, "nope"])),
            points_limit=limit,
        )

    return build()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_fleets_never_crash_and_points_add_up(catalog: Catalog, data: st.DataObject) -> None:
    f = data.draw(fleets(catalog))
    report = validate(f, catalog)
    assert isinstance(report, ValidationReport)
    assert report.points == sum(u.points for u in report.units)
    assert len(report.units) == len(f.units)
    for unit, unit_report in zip(f.units, report.units, strict=True):
        count = 1 if isinstance(unit, ShipUnit) else len(unit.ships)
        assert len(unit_report.ships) == count
        assert unit_report.points == sum(s.points for s in unit_report.ships)
        assert all(s.leadership is None or s.leadership <= 10 for s in unit_report.ships)
    for p in report.problems:
        if p.unit is not None:
            assert 0 <= p.unit < len(f.units)
        if p.ship is not None:
            unit = f.units[p.unit or 0]
            assert isinstance(unit, Squadron) and 0 <= p.ship < len(unit.ships)
    # A legal fleet passes the checks a player can make by hand; an unknown faction stops the
    # checking, otherwise each broken count is reported by its code.
    flagships = sum(isinstance(u, ShipUnit) and u.flagship for u in f.units)
    sizes = [len(u.ships) for u in f.units if isinstance(u, Squadron)]
    if report.legal:
        assert report.points in f.band and flagships == 1 and all(2 <= n <= 4 for n in sizes)
    if "catalog.unknown_faction" not in report.codes:
        if report.points < f.band.min:
            assert "points.under_band" in report.codes
        if report.points > f.band.max:
            assert "points.over_band" in report.codes
        assert ("flagship.missing" in report.codes) == (flagships == 0)
        assert report.codes.count("squadron.too_small") == sum(n < 2 for n in sizes)
        assert report.codes.count("squadron.too_large") == sum(n > 4 for n in sizes)
    json.dumps(report.details_dict())
    assert parse_fleet(fleet_to_dict(f)) == f  # any fleet round-trips through its file
