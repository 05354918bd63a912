"""The builder's edits as pure functions (rules_core/edits.py): each makes the next fleet or
refuses in the words the player reads, with no database. The refusals of R-05, R-06 and R-07
are the validator's own problems at the place edited; R-31's limit and R-95's bounds are the
validator's and the readers'."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules_core import edits
from rules_core.catalog import Catalog
from rules_core.edits import EditRefused
from rules_core.fleet import (
    MAX_UNITS,
    Fleet,
    GameSize,
    PointsBand,
    ShipUnit,
    Squadron,
    SquadronShip,
    Unit,
)
from rules_core.limits import MAX_FLEET_SHIPS
from rules_core.validator import SQUADRON_MAX, catalog_index, validate

LUNAR = "lunar-class-cruiser"  # cruiser, 180 pts
DOMINATOR = "dominator-class-cruiser"  # cruiser, 190 pts
SWORD = "sword-class-frigate"  # escort, 35 pts
COBRA = "cobra-class-destroyer"  # escort, 30 pts
KROOZER = "kill-kroozer"  # an Ork cruiser

OPEN = PointsBand("custom", 0, 10_000)


def fleet(*units: Unit, variant: str | None = None) -> Fleet:
    return Fleet("imperial-navy", GameSize.CUSTOM, tuple(units), variant=variant, points_limit=OPEN)


def flagship(slug: str = LUNAR, **kw: Any) -> ShipUnit:
    return ShipUnit(slug, flagship=True, **kw)


def squadron(*slugs: str, name: str | None = None) -> Squadron:
    return Squadron(tuple(SquadronShip(s) for s in slugs), name=name)


def refused(words: str) -> Any:
    """The edit is refused in exactly these words."""
    return pytest.raises(EditRefused, match=f"^{re.escape(words)}$")


def refused_like(pattern: str) -> Any:
    return pytest.raises(EditRefused, match=pattern)


# --- adding ships (R-05, R-07, R-180) -------------------------------------------------------


def test_the_first_capital_ship_added_is_the_flagship_and_the_next_is_not(catalog: Catalog) -> None:
    one, i, new = edits.add_ship(fleet(), catalog, LUNAR)
    two, j, _ = edits.add_ship(one, catalog, DOMINATOR)
    assert (i, new, j) == (0, True, 1)
    assert two.units == (flagship(LUNAR), ShipUnit(DOMINATOR))


def test_an_escort_joins_the_last_squadron_of_its_type_with_room(catalog: Catalog) -> None:
    # a Cobra squadron and a Sword squadron; a Sword joins the Swords, never the Cobras.
    start = fleet(flagship(), squadron(SWORD, SWORD), squadron(COBRA))
    after, i, new = edits.add_ship(start, catalog, SWORD)
    assert (i, new) == (1, False)
    assert after.units[1] == squadron(SWORD, SWORD, SWORD)
    assert after.units[2] == squadron(COBRA)


def test_an_escort_starts_a_squadron_when_its_type_has_no_room(catalog: Catalog) -> None:
    full = fleet(flagship(), squadron(*[SWORD] * SQUADRON_MAX))
    after, i, new = edits.add_ship(full, catalog, SWORD)
    assert (i, new) == (2, True)
    assert after.units[2] == squadron(SWORD)
    assert not edits.squadron_has_room(SQUADRON_MAX)


def test_an_escort_fills_an_empty_squadron_the_player_started(catalog: Catalog) -> None:
    started = edits.new_squadron(fleet(flagship()), catalog, "Blade Squadron")
    assert started.units[1] == Squadron((), name="Blade Squadron")
    after, i, new = edits.add_ship(started, catalog, COBRA)
    assert (i, new) == (1, False)
    assert after.units[1] == squadron(COBRA, name="Blade Squadron")


def test_the_ship_list_marks_a_ship_the_variant_may_not_field(catalog: Catalog) -> None:
    # The validator's variant.forbidden_ship, said before Add: Add still adds it.
    faction = catalog.faction("imperial-navy")
    assert faction is not None
    bastion = faction.variant("bastion-fleet")
    dauntless = faction.ship("dauntless-class-light-cruiser")
    lunar = faction.ship(LUNAR)
    assert dauntless is not None and lunar is not None
    assert edits.not_fielded(bastion, dauntless) == "Bastion Fleet fleets may not field it."
    assert edits.not_fielded(bastion, lunar) == edits.not_fielded(None, dauntless) == ""
    added = edits.add_ship(fleet(flagship(), variant="bastion-fleet"), catalog, dauntless.slug)
    assert "variant.forbidden_ship" in validate(added.fleet, catalog).codes


def test_a_ship_of_another_list_is_refused(catalog: Catalog) -> None:
    with refused("That ship is not in this fleet's list."):
        edits.add_ship(fleet(), catalog, KROOZER)


def test_a_squadron_takes_escorts_of_any_type_but_no_capital_ship(catalog: Catalog) -> None:
    # types may mix when the player asks; a capital ship is the validator's
    # squadron.capital_ship, refused in the builder's words.
    start = fleet(flagship(), squadron(SWORD))
    assert edits.add_escort(start, catalog, 1, COBRA).units[1] == squadron(SWORD, COBRA)
    with refused("Dominator-class Cruiser is a capital ship; only escorts fly in squadrons."):
        edits.add_escort(start, catalog, 1, DOMINATOR)
    with refused("That unit is not a squadron."):
        edits.add_escort(start, catalog, 0, COBRA)
    with refused("That unit is no longer in the fleet; the page has been refreshed."):
        edits.add_escort(start, catalog, 2, COBRA)


# --- moving escorts and units ---------------------------------------------------------------


def test_an_escort_moves_to_another_squadron_and_an_emptied_one_goes(catalog: Catalog) -> None:
    start = fleet(flagship(), squadron(SWORD), squadron(COBRA, COBRA))
    after = edits.move_escort(start, catalog, 1, 0, 2)
    assert after.units == (flagship(), squadron(COBRA, COBRA, SWORD))
    split = edits.move_escort(start, catalog, 2, 1, None)
    assert split.units[2:] == (squadron(COBRA), squadron(COBRA))


def test_moving_an_escort_into_its_own_squadron_changes_nothing(catalog: Catalog) -> None:
    start = fleet(flagship(), squadron(SWORD, SWORD))
    assert edits.move_escort(start, catalog, 1, 0, 1) is start
    with refused("That escort is no longer in the squadron."):
        edits.move_escort(start, catalog, 1, 2, None)


def test_a_unit_moves_to_a_place_kept_within_the_list(catalog: Catalog) -> None:
    start = fleet(flagship(), ShipUnit(DOMINATOR), squadron(SWORD))
    after, at = edits.move_unit(start, catalog, 2, -5)
    assert at == 0 and after.units[0] == squadron(SWORD)
    after, at = edits.move_unit(start, catalog, 0, 99)
    assert at == 2 and after.units[2] == flagship()
    assert edits.move_unit(start, catalog, 1, 1) == (start, 1)
    assert edits.move_unit(start, catalog, 1, 1).fleet is start


# --- flagship and admiral (R-05, R-06) ------------------------------------------------------


def test_the_flag_moves_and_takes_the_admiral_with_it(catalog: Catalog) -> None:
    start = fleet(flagship(admiral="commodore"), ShipUnit(DOMINATOR))
    after = edits.set_flagship(start, catalog, 1)
    assert after.units == (ShipUnit(LUNAR), flagship(DOMINATOR, admiral="commodore"))


def test_an_escort_cannot_be_made_the_flagship(catalog: Catalog) -> None:
    # a lone escort (an imported list) made flagship is the validator's
    # flagship.not_allowed at that unit.
    start = fleet(flagship(), ShipUnit(SWORD), squadron(COBRA, COBRA))
    with refused("An escort cannot be the flagship; choose a capital ship (R-05)."):
        edits.set_flagship(start, catalog, 1)
    with refused("That unit is a squadron, not a ship."):
        edits.set_flagship(start, catalog, 2)


def test_an_admiral_serves_on_the_flagship_only(catalog: Catalog) -> None:
    # at most one admiral, on the flagship.
    start = fleet(flagship(), ShipUnit(DOMINATOR))
    after = edits.set_admiral(start, catalog, 0, "vice-admiral")
    assert after.units[0] == flagship(admiral="vice-admiral")
    with refused("An admiral serves on the flagship; make this ship the flagship first (R-06)."):
        edits.set_admiral(after, catalog, 1, "commodore")
    with refused("There is no such admiral rank."):
        edits.set_admiral(after, catalog, 0, "grand-moff")
    assert edits.set_admiral(after, catalog, 0, None).units[0] == flagship()


def test_every_refusal_of_a_rule_is_what_the_validator_reports_there(catalog: Catalog) -> None:
    # The edits decide no rule of their own: the fleet each refuses is one the validator
    # reports at the place edited.
    made = {
        "flagship.not_allowed": fleet(ShipUnit(LUNAR), flagship(SWORD)),
        "admiral.not_on_flagship": fleet(flagship(), ShipUnit(DOMINATOR, admiral="commodore")),
        "squadron.capital_ship": fleet(flagship(), squadron(SWORD, DOMINATOR)),
    }
    where = {
        "flagship.not_allowed": (1, None),
        "admiral.not_on_flagship": (1, None),
        "squadron.capital_ship": (1, 1),
    }
    for code, refused_fleet in made.items():
        found = {
            (p.unit, p.ship) for p in validate(refused_fleet, catalog).errors if p.code == code
        }
        assert where[code] in found, code


# --- naming, copying, removing, Undo --------------------------------------------------------


def test_a_unit_is_renamed_and_a_blank_name_clears_it(catalog: Catalog) -> None:
    start = fleet(flagship(), squadron(SWORD, SWORD))
    named = edits.rename_unit(start, catalog, 0, "  Emperor's Wrath ")
    assert named.units[0] == flagship(name="Emperor's Wrath")
    assert edits.rename_unit(named, catalog, 0, "   ").units[0] == flagship()


def test_a_copy_of_the_flagship_is_neither_flagship_nor_admiral(catalog: Catalog) -> None:
    start = fleet(flagship(admiral="commodore", upgrades=("nova-refit",)), squadron(SWORD, COBRA))
    copied = edits.duplicate(start, catalog, 0)
    assert copied.units[1] == ShipUnit(LUNAR, upgrades=("nova-refit",))
    escorts = edits.duplicate(start, catalog, 1, 0).units[1]
    assert escorts == squadron(SWORD, SWORD, COBRA)


def test_a_removed_unit_and_a_removed_escort_come_back_with_undo(catalog: Catalog) -> None:
    start = fleet(flagship(name="Wrath", admiral="commodore"), squadron(SWORD, COBRA, SWORD))
    gone, memo = edits.remove(start, catalog, 0)
    assert gone.units == (start.units[1],)
    assert memo == {
        "unit": 0,
        "ship": None,
        "entry": {
            "kind": "ship",
            "ship": LUNAR,
            "name": "Wrath",
            "flagship": True,
            "admiral": "commodore",
            "upgrades": [],
        },
    }
    assert edits.undo_remove(gone, catalog, memo) == start
    gone, memo = edits.remove(start, catalog, 1, 1)
    assert gone.units[1] == squadron(SWORD, SWORD)
    assert memo == {"unit": 1, "ship": 1, "entry": {"ship": COBRA, "upgrades": []}}
    assert edits.undo_remove(gone, catalog, memo) == start


def test_a_flagship_put_back_beside_another_comes_back_without_the_flag(catalog: Catalog) -> None:
    start = fleet(flagship(admiral="commodore"), ShipUnit(DOMINATOR))
    gone, memo = edits.remove(start, catalog, 0)
    flagged = edits.set_flagship(gone, catalog, 0)
    back = edits.undo_remove(flagged, catalog, memo)
    assert back.units == (ShipUnit(LUNAR), flagship(DOMINATOR))


def test_undo_with_nothing_removed_is_refused(catalog: Catalog) -> None:
    with refused("There is nothing to undo."):
        edits.undo_remove(fleet(flagship()), catalog, None)


# --- upgrades (R-30, R-31, R-151) -----------------------------------------------------------


def test_an_upgrade_is_fitted_once_per_ship(catalog: Catalog) -> None:
    fitted = edits.add_upgrade(fleet(flagship()), catalog, 0, None, "command-bridge")
    assert fitted.units[0] == flagship(upgrades=("command-bridge",))
    with refused("Already fitted; a ship takes each upgrade once (R-31)."):
        edits.add_upgrade(fitted, catalog, 0, None, "command-bridge")
    assert edits.remove_upgrade(fitted, catalog, 0, None, "command-bridge").units[0] == flagship()
    with refused("That ship does not carry that upgrade."):
        edits.remove_upgrade(fitted, catalog, 0, None, "nova-refit")


def test_an_upgrade_is_refused_with_the_validators_reason(catalog: Catalog) -> None:
    # the class (the validator's upgrade_refusal words); a variant's own upgrade.
    start = fleet(flagship(), squadron(SWORD, SWORD))
    with refused(
        "Veteran Crew is for light cruisers, cruisers, grand cruisers or battleships "
        "only; Sword-class Frigate is an escort."
    ):
        edits.add_upgrade(start, catalog, 1, 0, "veteran-crew")
    with refused("Bastion Armour is only for Bastion Fleet fleets."):
        edits.add_upgrade(start, catalog, 0, None, "bastion-armour")
    with refused("That upgrade is not in this fleet's list."):
        edits.add_upgrade(start, catalog, 0, None, "big-gunz")
    with refused("That escort is no longer in the squadron."):
        edits.add_upgrade(start, catalog, 1, 5, "improved-thrusters")


def test_an_upgrade_at_its_fleet_limit_is_refused(catalog: Catalog) -> None:
    # Nova Refit, at most once a fleet.
    start = fleet(flagship(upgrades=("nova-refit",)), ShipUnit(DOMINATOR))
    with refused("A fleet may take Nova Refit at most once, and this one already does."):
        edits.add_upgrade(start, catalog, 1, None, "nova-refit")
    idx = catalog_index(catalog)
    options = edits.upgrade_options(
        catalog,
        "imperial-navy",
        None,
        idx.ships[DOMINATOR][0],
        (),
        edits.fleet_upgrade_uses(start.units),
    )
    reasons = {o.upgrade.slug: o.reason for o in options}
    assert reasons["nova-refit"].startswith("A fleet may take Nova Refit at most once")
    assert reasons["command-bridge"] == ""


def test_the_editors_boxes_fit_and_take_off_in_one_edit(catalog: Catalog) -> None:
    start = fleet(flagship(upgrades=("command-bridge",)))
    after, fitted, off = edits.set_upgrades(start, catalog, 0, None, ["nova-refit", "veteran-crew"])
    assert (fitted, off) == (["nova-refit", "veteran-crew"], ["command-bridge"])
    assert after.units[0] == flagship(upgrades=("nova-refit", "veteran-crew"))
    same = edits.set_upgrades(after, catalog, 0, None, ["veteran-crew", "nova-refit"])
    assert same == (after, [], []) and same.fleet is after


def test_a_squadron_wide_refit_is_all_or_nothing_and_names_the_escort(catalog: Catalog) -> None:
    # Improved Thrusters on every escort; a refit one escort may not take, nothing.
    start = fleet(flagship(), squadron(SWORD, COBRA))
    after, fitted, off = edits.set_squadron_upgrades(start, catalog, 1, ["improved-thrusters"])
    assert (fitted, off) == (["improved-thrusters"], [])
    refitted = after.units[1]
    assert isinstance(refitted, Squadron)
    assert all(e.upgrades == ("improved-thrusters",) for e in refitted.ships)
    with refused_like(
        r"^Not fitted to the squadron: escort 1 \(Sword-class Frigate\): "
        "Veteran Crew is for "
    ):
        edits.set_squadron_upgrades(start, catalog, 1, ["veteran-crew"])
    back, _, off = edits.set_squadron_upgrades(after, catalog, 1, [])
    assert off == ["improved-thrusters"] and back == start
    with refused("This squadron has no escorts yet."):
        edits.set_squadron_upgrades(fleet(flagship(), Squadron(())), catalog, 1, [])


def test_the_squadron_wide_box_says_why_it_cannot_be_ticked(catalog: Catalog) -> None:
    idx = catalog_index(catalog)
    nova, crew = idx.upgrades["nova-refit"], idx.upgrades["veteran-crew"]
    thrusters = idx.upgrades["improved-thrusters"]
    escorts = [(SWORD, ()), (COBRA, ())]
    why = edits.squadron_refit_reason(crew, escorts, {}, "imperial-navy", None, idx)
    assert why.startswith("Sword-class Frigate: Veteran Crew is for")  # mixed: named
    why = edits.squadron_refit_reason(crew, escorts[:1], {}, "imperial-navy", None, idx)
    assert why.startswith("Veteran Crew is for")
    assert edits.squadron_refit_reason(thrusters, escorts, {}, "imperial-navy", None, idx) == ""
    assert nova.max_per_fleet == 1  # a cruiser's upgrade: the class speaks before the limit
    assert edits.squadron_refit_reason(nova, escorts, {}, "imperial-navy", None, idx) != ""


# --- R-95's bounds ----------------------------------------------------------------------------


def test_an_edit_past_the_fleets_bounds_is_refused(catalog: Catalog) -> None:
    many = fleet(flagship(), *[ShipUnit(LUNAR)] * (MAX_UNITS - 1))
    with refused(f"A fleet holds at most {MAX_UNITS} units."):
        edits.new_squadron(many, catalog)
    escorts = fleet(
        flagship(),
        *[squadron(*[COBRA] * 4)] * ((MAX_FLEET_SHIPS - 1) // 4),
        squadron(*[COBRA] * ((MAX_FLEET_SHIPS - 1) % 4)),
    )
    assert escorts.ship_count == MAX_FLEET_SHIPS
    with refused(
        f"Not added: a fleet holds at most {MAX_FLEET_SHIPS} ships, escorts included (R-95)."
    ):
        edits.add_ship(escorts, catalog, COBRA)
    dear = fleet(flagship(), *[ShipUnit(LUNAR)] * 26)  # 27 × 180 = 4860 points
    with refused_like("^Not added: that would bring the fleet to more than 5000 points, "):
        edits.add_ship(dear, catalog, LUNAR)
    with refused_like(r"^Not done: units\[0\]\.name "):
        edits.rename_unit(dear, catalog, 0, "x" * 101)


def test_settings_change_the_list_but_not_its_units(catalog: Catalog) -> None:
    start = fleet(flagship())
    after = edits.change_settings(
        start,
        catalog,
        name="Patrol",
        variant="bastion-fleet",
        game_size="skirmish",
        points_limit=None,
    )
    assert (after.name, after.variant, after.game_size, after.points_limit) == (
        "Patrol",
        "bastion-fleet",
        GameSize.SKIRMISH,
        None,
    )
    assert after.units == start.units
    custom = edits.change_settings(
        after, catalog, name=None, variant="", game_size="custom", points_limit=(600, 900)
    )
    assert (custom.variant, custom.band) == (None, PointsBand("custom", 600, 900))
