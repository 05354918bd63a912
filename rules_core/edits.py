"""Editing a fleet: each edit a pure function from a Fleet to the next one, or a refusal.

The builder's saved fleet (``fleetbuilder/fleets/models.py``) reads its document as a Fleet,
asks a function here for the next one and stores it (with its version and Undo); the builder's
page (``fleetbuilder/fleets/sheet.py``) asks the same functions which upgrades a ship may take.

No rule is decided here again. An edit is refused where the validator reports an error at the
place it edits: an escort made flagship (``flagship.not_allowed``, R-05), an admiral off the
flagship or of no known rank (``admiral.not_on_flagship``, ``catalog.unknown_admiral``, R-06),
a capital ship added to a squadron (``squadron.capital_ship``, R-07). Upgrades are judged by
the validator's ``upgrade_refusal`` and per-fleet limit (R-30, R-31, R-150); a squadron's room
is its ``SQUADRON_MAX`` (R-180); every result is held to R-95's bounds (``check_bounds``).

``i`` indexes ``fleet.units``; ``j`` an escort of squadron ``i`` (None for a capital-ship unit).
A refusal is :class:`EditRefused`, its message shown to the player as it is. An edit that
changes nothing returns the very fleet it was given (``is``), so the caller stores nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from rules_core.catalog import Catalog, ShipProfile, Upgrade, Variant
from rules_core.fleet import (
    MAX_UNITS,
    Fleet,
    FleetFormatError,
    GameSize,
    PointsBand,
    ShipUnit,
    Squadron,
    SquadronShip,
    Unit,
    fleet_to_dict,
    parse_fleet,
)
from rules_core.limits import MAX_FLEET_POINTS, MAX_FLEET_SHIPS, points_over
from rules_core.validator import (
    SQUADRON_MAX,
    CatalogIndex,
    ValidationReport,
    catalog_index,
    limit_sentence,
    past_limit,
    upgrade_refusal,
    upgrade_uses,
    validate,
)

Ship = ShipUnit | SquadronShip
# The refusal of an upgrade the fleet's list and the refits lack (also of a malformed slug).
UPGRADE_NOT_LISTED = "That upgrade is not in this fleet's list."


class EditRefused(ValueError):
    """An edit the builder refuses: a stale index, a ship of another list, a rule or a bound.

    The message is shown to the player as it is.
    """


class Placed(NamedTuple):
    fleet: Fleet
    unit: int  # the unit the ship went to
    new: bool  # that unit is new


class Moved(NamedTuple):
    fleet: Fleet
    at: int  # the unit's place now


class Refitted(NamedTuple):
    fleet: Fleet
    fitted: list[str]
    taken_off: list[str]


class Removed(NamedTuple):
    fleet: Fleet
    # What Undo puts back: {"unit": i, "ship": j or None, "entry": the unit or escort as the
    # fleet file writes it}. The builder stores it (``Fleet.last_removed``).
    memo: dict[str, Any]


# --- the bounds every edit's result is held to ----------------------------------------------


def check_bounds(fleet: Fleet, catalog: Catalog, report: ValidationReport | None = None) -> None:
    """Refuse a fleet the readers would refuse (R-20, R-95): the two bounds a player meets get
    their own sentence, any other is named by its path. ``report``: ``validate(fleet,
    catalog)``, if the caller has it."""
    if len(fleet.units) > MAX_UNITS:
        raise EditRefused(f"A fleet holds at most {MAX_UNITS} units.")
    if fleet.ship_count > MAX_FLEET_SHIPS:
        raise EditRefused(
            f"Not added: a fleet holds at most {MAX_FLEET_SHIPS} ships, escorts included (R-95)."
        )
    try:
        parse_fleet(fleet_to_dict(fleet))
    except FleetFormatError as exc:
        raise EditRefused(f"Not done: {exc.path} {exc.message}.") from None
    if report is None:
        report = validate(fleet, catalog)
    if points_over(u.points for u in report.units) is not None:
        raise EditRefused(
            f"Not added: that would bring the fleet to more than "
            f"{MAX_FLEET_POINTS} points, the most a fleet may total (twice the "
            "Armada band's maximum, R-95)."
        )


def _checked(fleet: Fleet, catalog: Catalog, *refusals: tuple[str, int, int | None, str]) -> Fleet:
    """``fleet``, if the builder may store it. ``refusals``: (code, unit, ship, words): the edit
    is refused in those words when the validator reports that error at that place."""
    report = validate(fleet, catalog)
    for code, unit, ship, words in refusals:
        if any(p.code == code and p.unit == unit and p.ship == ship for p in report.errors):
            raise EditRefused(words)
    check_bounds(fleet, catalog, report)
    return fleet


# --- finding what an edit names ---------------------------------------------------------------


def _unit(fleet: Fleet, i: int) -> Unit:
    if not 0 <= i < len(fleet.units):
        raise EditRefused("That unit is no longer in the fleet; the page has been refreshed.")
    return fleet.units[i]


def _squadron(fleet: Fleet, i: int) -> Squadron:
    unit = _unit(fleet, i)
    if not isinstance(unit, Squadron):
        raise EditRefused("That unit is not a squadron.")
    return unit


def _ship_unit(fleet: Fleet, i: int) -> ShipUnit:
    unit = _unit(fleet, i)
    if not isinstance(unit, ShipUnit):
        raise EditRefused("That unit is a squadron, not a ship.")
    return unit


def _escort(squadron: Squadron, j: int | None) -> SquadronShip:
    if j is None or not 0 <= j < len(squadron.ships):
        raise EditRefused("That escort is no longer in the squadron.")
    return squadron.ships[j]


def _ship_at(fleet: Fleet, i: int, j: int | None) -> Ship:
    unit = _unit(fleet, i)
    return unit if isinstance(unit, ShipUnit) else _escort(unit, j)


def _profile(fleet: Fleet, catalog: Catalog, slug: str) -> ShipProfile:
    """A ship of the fleet's own list."""
    faction = catalog.faction(fleet.faction)
    profile = faction.ship(slug) if faction else None
    if profile is None:
        raise EditRefused("That ship is not in this fleet's list.")
    return profile


def _with_units(fleet: Fleet, units: Iterable[Unit]) -> Fleet:
    return replace(fleet, units=tuple(units))


def _with_unit(fleet: Fleet, i: int, unit: Unit) -> Fleet:
    return _with_units(fleet, (*fleet.units[:i], unit, *fleet.units[i + 1 :]))


def _with_ship(fleet: Fleet, i: int, j: int | None, ship: Ship) -> Fleet:
    unit = fleet.units[i]
    if isinstance(unit, ShipUnit):
        assert isinstance(ship, ShipUnit)
        return _with_unit(fleet, i, ship)
    assert j is not None and isinstance(ship, SquadronShip)
    return _with_unit(fleet, i, replace(unit, ships=(*unit.ships[:j], ship, *unit.ships[j + 1 :])))


def _has_flagship(units: Iterable[Unit]) -> bool:
    return any(isinstance(u, ShipUnit) and u.flagship for u in units)


def squadron_has_room(escorts: int) -> bool:
    """Whether a squadron of ``escorts`` may take one more (R-07's four: SQUADRON_MAX)."""
    return escorts < SQUADRON_MAX


def not_fielded(variant: Variant | None, ship: ShipProfile) -> str:
    """Why the ship list marks ``ship``: the fleet's variant may not field it (the validator's
    ``variant.forbidden_ship``); "" if it may. Add still adds it, and the problem is listed."""
    if variant is not None and ship.slug in variant.forbidden_ships:
        return f"{variant.name} fleets may not field it."
    return ""


def squadron_for_escort(units: Sequence[Unit], slug: str) -> int | None:
    """The squadron an escort added from the ship list joins (R-180): the last one with room
    whose escorts are all of its type, or that has none yet (a squadron the player started with
    New squadron). Types may mix (R-07), but only when the player asks: a squadron of another
    type is never joined unasked."""
    for i in range(len(units) - 1, -1, -1):
        unit = units[i]
        if (
            isinstance(unit, Squadron)
            and squadron_has_room(len(unit.ships))
            and all(escort.ship == slug for escort in unit.ships)
        ):
            return i
    return None


# --- the fleet's settings and its units -------------------------------------------------------


def change_settings(
    fleet: Fleet,
    catalog: Catalog,
    *,
    name: str | None,
    variant: str | None,
    game_size: GameSize | str,
    points_limit: tuple[int, int] | None,
) -> Fleet:
    """Its name, variant and game size (a custom size with its points limit); units unchanged."""
    size = GameSize(game_size)
    band = PointsBand("custom", *points_limit) if size is GameSize.CUSTOM and points_limit else None
    return _checked(
        replace(fleet, name=name, variant=variant or None, game_size=size, points_limit=band),
        catalog,
    )


def add_ship(fleet: Fleet, catalog: Catalog, slug: str) -> Placed:
    """The ship list's Add: a capital ship as its own unit (the flagship if there is none yet);
    an escort joins ``squadron_for_escort``, else starts a new squadron (R-180)."""
    profile = _profile(fleet, catalog, slug)
    units = list(fleet.units)
    if profile.is_escort:
        joins = squadron_for_escort(units, slug)
        if joins is not None:
            squadron = units[joins]
            assert isinstance(squadron, Squadron)
            units[joins] = replace(squadron, ships=(*squadron.ships, SquadronShip(slug)))
            return Placed(_checked(_with_units(fleet, units), catalog), joins, False)
        units.append(Squadron(ships=(SquadronShip(slug),)))
    else:
        units.append(ShipUnit(ship=slug, flagship=not _has_flagship(units)))
    return Placed(_checked(_with_units(fleet, units), catalog), len(units) - 1, True)


def new_squadron(fleet: Fleet, catalog: Catalog, name: str | None = None) -> Fleet:
    """An empty squadron at the end of the list (its escorts are added next)."""
    return _checked(
        _with_units(fleet, (*fleet.units, Squadron(ships=(), name=name or None))), catalog
    )


def add_escort(fleet: Fleet, catalog: Catalog, i: int, slug: str) -> Fleet:
    """Escort ``slug`` joins squadron ``i`` (of any type: the player asked, R-07)."""
    profile = _profile(fleet, catalog, slug)
    squadron = _squadron(fleet, i)
    after = _with_unit(fleet, i, replace(squadron, ships=(*squadron.ships, SquadronShip(slug))))
    return _checked(
        after,
        catalog,
        (
            "squadron.capital_ship",
            i,
            len(squadron.ships),
            f"{profile.name} is a capital ship; only escorts fly in squadrons.",
        ),
    )


def move_escort(fleet: Fleet, catalog: Catalog, i: int, j: int, to: int | None) -> Fleet:
    """Escort ``j`` of squadron ``i`` joins squadron ``to`` (None: a new squadron at the end).
    A squadron the move leaves empty is removed."""
    source = _squadron(fleet, i)
    escort = _escort(source, j)
    if to == i:
        return fleet
    units = list(fleet.units)
    if to is None:
        units.append(Squadron(ships=(escort,)))
    else:
        target = _squadron(fleet, to)
        units[to] = replace(target, ships=(*target.ships, escort))
    rest = source.ships[:j] + source.ships[j + 1 :]
    units[i] = replace(source, ships=rest)
    if not rest:
        del units[i]
    return _checked(_with_units(fleet, units), catalog)


def set_flagship(fleet: Fleet, catalog: Catalog, i: int) -> Fleet:
    """Ship unit ``i`` becomes the flagship, the only one; the admiral moves with the flag."""
    chosen = _ship_unit(fleet, i)
    _profile(fleet, catalog, chosen.ship)
    admiral = next((u.admiral for u in fleet.units if isinstance(u, ShipUnit) and u.admiral), None)
    after = _with_units(
        fleet,
        (
            replace(u, flagship=n == i, admiral=admiral if n == i else None)
            if isinstance(u, ShipUnit)
            else u
            for n, u in enumerate(fleet.units)
        ),
    )
    return _checked(
        after,
        catalog,
        (
            "flagship.not_allowed",
            i,
            None,
            "An escort cannot be the flagship; choose a capital ship (R-05).",
        ),
    )


def set_admiral(fleet: Fleet, catalog: Catalog, i: int, slug: str | None) -> Fleet:
    """Admiral rank ``slug`` on ship unit ``i`` (None: no admiral); any other admiral goes."""
    _ship_unit(fleet, i)
    after = _with_units(
        fleet,
        (
            replace(u, admiral=slug if n == i else None) if isinstance(u, ShipUnit) else u
            for n, u in enumerate(fleet.units)
        ),
    )
    return _checked(
        after,
        catalog,
        ("catalog.unknown_admiral", i, None, "There is no such admiral rank."),
        (
            "admiral.not_on_flagship",
            i,
            None,
            "An admiral serves on the flagship; make this ship the flagship first (R-06).",
        ),
    )


def move_unit(fleet: Fleet, catalog: Catalog, i: int, to: int) -> Moved:
    """Unit ``i`` to place ``to`` (kept within the list); the units between shift by one."""
    unit = _unit(fleet, i)
    to = max(0, min(to, len(fleet.units) - 1))
    if to == i:
        return Moved(fleet, to)
    units = list(fleet.units)
    del units[i]
    units.insert(to, unit)
    return Moved(_checked(_with_units(fleet, units), catalog), to)


def rename_unit(fleet: Fleet, catalog: Catalog, i: int, name: str) -> Fleet:
    """Unit ``i`` named ``name`` (blank: no name of its own)."""
    return _checked(
        _with_unit(fleet, i, replace(_unit(fleet, i), name=name.strip() or None)), catalog
    )


def duplicate(fleet: Fleet, catalog: Catalog, i: int, j: int | None = None) -> Fleet:
    """A copy next to itself: of capital ship ``i`` (never flagship or admiral), or of escort
    ``j`` of squadron ``i``."""
    unit = _unit(fleet, i)
    if isinstance(unit, ShipUnit):
        units = list(fleet.units)
        units.insert(i + 1, replace(unit, flagship=False, admiral=None))
        return _checked(_with_units(fleet, units), catalog)
    escort = _escort(unit, j)
    assert j is not None
    ships = (*unit.ships[: j + 1], escort, *unit.ships[j + 1 :])
    return _checked(_with_unit(fleet, i, replace(unit, ships=ships)), catalog)


def remove(fleet: Fleet, catalog: Catalog, i: int, j: int | None = None) -> Removed:
    """Without unit ``i`` (or escort ``j`` of squadron ``i``), and the memo Undo puts back."""
    unit = _unit(fleet, i)
    if isinstance(unit, ShipUnit) or j is None:
        after = _with_units(fleet, (*fleet.units[:i], *fleet.units[i + 1 :]))
        entry = fleet_to_dict(Fleet(fleet.faction, GameSize.PATROL, (unit,)))["units"][0]
        memo: dict[str, Any] = {"unit": i, "ship": None, "entry": entry}
    else:
        escort = _escort(unit, j)
        after = _with_unit(fleet, i, replace(unit, ships=unit.ships[:j] + unit.ships[j + 1 :]))
        memo = {
            "unit": i,
            "ship": j,
            "entry": {"ship": escort.ship, "upgrades": list(escort.upgrades)},
        }
    return Removed(_checked(after, catalog), memo)


def undo_remove(fleet: Fleet, catalog: Catalog, memo: Mapping[str, Any] | None) -> Fleet:
    """What ``remove`` took out (its ``memo``) put back where it was, as near as the list now
    allows; a flagship put back beside another flagship comes back without flag or admiral."""
    if not memo:
        raise EditRefused("There is nothing to undo.")
    units = list(fleet.units)
    i = min(int(memo["unit"]), len(units))
    if memo["ship"] is None:
        unit = parse_fleet({**fleet_to_dict(fleet), "units": [memo["entry"]]}).units[0]
        if isinstance(unit, ShipUnit) and unit.flagship and _has_flagship(units):
            unit = replace(unit, flagship=False, admiral=None)
        units.insert(i, unit)
    else:
        escort = SquadronShip(memo["entry"]["ship"], tuple(memo["entry"]["upgrades"]))
        target = units[i] if i < len(units) else None
        if isinstance(target, Squadron):
            j = min(int(memo["ship"]), len(target.ships))
            units[i] = replace(target, ships=(*target.ships[:j], escort, *target.ships[j:]))
        else:
            units.insert(i, Squadron(ships=(escort,)))
    return _checked(_with_units(fleet, units), catalog)


# --- upgrades (R-30, R-31, R-150, R-151) ------------------------------------------------------


class UpgradeOption:
    """An upgrade of the fleet's list or a refit, and why a ship may not take it now."""

    __slots__ = ("upgrade", "reason")

    def __init__(self, upgrade: Upgrade, reason: str) -> None:
        self.upgrade = upgrade
        self.reason = reason  # "" when the ship may take it

    @property
    def allowed(self) -> bool:
        return not self.reason


def fleet_upgrade_uses(units: Iterable[Unit]) -> Counter[str]:
    """How many ships of ``units`` carry each upgrade (R-31's count)."""
    return upgrade_uses(
        ship.upgrades
        for unit in units
        for ship in ((unit,) if isinstance(unit, ShipUnit) else unit.ships)
    )


def upgrade_reason(
    upgrade: Upgrade,
    profile: ShipProfile,
    taken: Sequence[str],
    uses: Mapping[str, int],
    faction: str,
    variant: str | None,
    idx: CatalogIndex,
) -> str:
    """Why ``profile``, carrying ``taken``, may not take ``upgrade`` now in a fleet of
    ``faction`` and ``variant`` whose ships carry ``uses``; "" if it may."""
    if upgrade.slug in taken:
        return "Already fitted; a ship takes each upgrade once (R-31)."
    refusal = upgrade_refusal(upgrade, profile, faction, variant or None, idx)
    if refusal is not None:
        return refusal[1]
    if past_limit(upgrade, uses.get(upgrade.slug, 0) + 1):
        return f"{limit_sentence(upgrade)}, and this one already does."
    return ""


def upgrade_options(
    catalog: Catalog,
    faction: str,
    variant: str | None,
    profile: ShipProfile,
    taken: Sequence[str],
    uses: Mapping[str, int],
) -> list[UpgradeOption]:
    """Every upgrade of the fleet's list and every refit, each with ``upgrade_reason``."""
    idx = catalog_index(catalog)
    listed = idx.factions.get(faction)
    if listed is None:
        return []
    return [
        UpgradeOption(u, upgrade_reason(u, profile, taken, uses, faction, variant, idx))
        for u in (*listed.upgrades, *catalog.refits)
    ]


def squadron_refit_reason(
    upgrade: Upgrade,
    escorts: Sequence[tuple[str, Sequence[str]]],
    uses: Mapping[str, int],
    faction: str,
    variant: str | None,
    idx: CatalogIndex,
) -> str:
    """Why ``upgrade`` may not be fitted to every escort of a squadron at once (R-151): the
    first escort lacking it that may not take it (named when the squadron mixes types), or the
    fleet's limit, passed once every escort carries it; "" if it may. ``escorts``: each
    escort's ship and upgrades; ``uses``: ``fleet_upgrade_uses`` of the fleet."""
    mixed = len({slug for slug, _ in escorts}) > 1
    lacking = [(slug, taken) for slug, taken in escorts if upgrade.slug not in taken]
    for slug, taken in lacking:
        entry = idx.ships.get(slug)
        if entry is None:
            return f"{slug} is not in the catalogue."
        why = upgrade_reason(upgrade, entry[0], taken, {}, faction, variant, idx)
        if why:
            return f"{entry[0].name}: {why}" if mixed else why
    after = uses.get(upgrade.slug, 0) + len(lacking)
    if lacking and past_limit(upgrade, after):
        return f"{limit_sentence(upgrade)}; on every escort here it would take it {after} times."
    return ""


def _fit(fleet: Fleet, catalog: Catalog, ship: Ship, slug: str) -> Ship:
    """``ship`` (as it stands in ``fleet``) with ``slug`` fitted, or the refusal."""
    entry = catalog_index(catalog).ships.get(ship.ship)
    options = (
        upgrade_options(
            catalog,
            fleet.faction,
            fleet.variant,
            entry[0],
            ship.upgrades,
            fleet_upgrade_uses(fleet.units),
        )
        if entry
        else []
    )
    option = next((o for o in options if o.upgrade.slug == slug), None)
    if option is None:
        raise EditRefused(UPGRADE_NOT_LISTED)
    if option.reason:
        raise EditRefused(option.reason)
    return replace(ship, upgrades=(*ship.upgrades, slug))


def add_upgrade(fleet: Fleet, catalog: Catalog, i: int, j: int | None, slug: str) -> Fleet:
    ship = _ship_at(fleet, i, j)
    return _checked(_with_ship(fleet, i, j, _fit(fleet, catalog, ship, slug)), catalog)


def remove_upgrade(fleet: Fleet, catalog: Catalog, i: int, j: int | None, slug: str) -> Fleet:
    ship = _ship_at(fleet, i, j)
    if slug not in ship.upgrades:
        raise EditRefused("That ship does not carry that upgrade.")
    kept = list(ship.upgrades)
    kept.remove(slug)
    return _checked(_with_ship(fleet, i, j, replace(ship, upgrades=tuple(kept))), catalog)


def set_upgrades(
    fleet: Fleet, catalog: Catalog, i: int, j: int | None, wanted: Sequence[str]
) -> Refitted:
    """Exactly ``wanted`` on ship ``j`` of unit ``i`` (the ticked boxes of its editor): what it
    carries and is not wanted comes off, what is wanted and new is fitted, each checked as
    ``add_upgrade`` would."""
    ship = _ship_at(fleet, i, j)
    keep = set(wanted)
    taken_off = list(dict.fromkeys(s for s in ship.upgrades if s not in keep))
    fitted = [s for s in wanted if s not in ship.upgrades]
    if not (fitted or taken_off):
        return Refitted(fleet, [], [])
    ship = replace(ship, upgrades=tuple(s for s in ship.upgrades if s in keep))
    after = _with_ship(fleet, i, j, ship)
    for slug in fitted:
        ship = _fit(after, catalog, ship, slug)
        after = _with_ship(after, i, j, ship)
    return Refitted(_checked(after, catalog), fitted, taken_off)


def set_squadron_upgrades(
    fleet: Fleet, catalog: Catalog, i: int, wanted: Sequence[str]
) -> Refitted:
    """Squadron-wide refits (R-151): each upgrade in ``wanted`` is fitted to every escort of
    squadron ``i`` that lacks it, all or nothing; one every escort carries and ``wanted``
    leaves out comes off them all. One only some escorts carry and ``wanted`` leaves out is
    left as it is (chosen escort by escort)."""
    squadron = _squadron(fleet, i)
    if not squadron.ships:
        raise EditRefused("This squadron has no escorts yet.")
    keep = set(wanted)

    def on_every(slug: str) -> bool:
        return all(slug in e.upgrades for e in squadron.ships)

    carried = dict.fromkeys(s for e in squadron.ships for s in e.upgrades)
    taken_off = [s for s in carried if s not in keep and on_every(s)]
    fitted = [s for s in wanted if not on_every(s)]
    if not (fitted or taken_off):
        return Refitted(fleet, [], [])
    ships = [
        replace(e, upgrades=tuple(s for s in e.upgrades if s not in taken_off))
        for e in squadron.ships
    ]
    after = _with_unit(fleet, i, replace(squadron, ships=tuple(ships)))
    names = catalog_index(catalog)
    for slug in fitted:
        for n, escort in enumerate(ships):
            if slug in escort.upgrades:
                continue
            try:
                fitted_escort = _fit(after, catalog, escort, slug)
            except EditRefused as exc:
                raise EditRefused(
                    f"Not fitted to the squadron: escort {n + 1} "
                    f"({names.ship_name(escort.ship)}): {exc}"
                ) from None
            assert isinstance(fitted_escort, SquadronShip)
            ships[n] = fitted_escort
            after = _with_unit(after, i, replace(squadron, ships=tuple(ships)))
    return Refitted(_checked(after, catalog), fitted, taken_off)
