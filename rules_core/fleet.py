"""The fleet file (contract 1, version 1) as plain values, with its reader and writer.

``parse_fleet`` checks the *shape* of a file and nothing about the game: an unknown ship, a
squadron of seven or two flagships all parse, and the validator reports them. A shape error
raises :class:`FleetFormatError` naming the JSON path of the first problem (ruling R-20).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeAlias

from rules_core import text as player_text
from rules_core.jsonread import ObjectReader, ShapeError, kind, shown
from rules_core.limits import MAX_EDITION, MAX_FLEET_SHIPS, ships_message
from rules_core.limits import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from rules_core.limits import MAX_NOTES_LENGTH as MAX_NOTES_LENGTH
from rules_core.limits import MAX_POINTS_LIMIT as MAX_POINTS_LIMIT
from rules_core.limits import MAX_SLUG_LENGTH as MAX_SLUG_LENGTH
from rules_core.limits import MAX_SQUADRON_SHIPS as MAX_SQUADRON_SHIPS
from rules_core.limits import MAX_UNITS as MAX_UNITS
from rules_core.limits import MAX_UPGRADES_PER_SHIP as MAX_UPGRADES_PER_SHIP

FORMAT = "void-command-fleet"
VERSION = 1

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class FleetFormatError(ShapeError):
    """A fleet file that is not a version-1 fleet file; ``path`` is the JSON path at fault.

    ``path`` is ``""`` for the file as a whole (e.g. invalid JSON, where ``line`` and ``column``
    say where).
    """

    def __init__(
        self, path: str, message: str, *, line: int | None = None, column: int | None = None
    ) -> None:
        super().__init__(path, message)
        self.line = line
        self.column = column


class GameSize(StrEnum):
    PATROL = "patrol"
    SKIRMISH = "skirmish"
    BATTLE = "battle"
    ARMADA = "armada"
    CUSTOM = "custom"

    @property
    def label(self) -> str:
        return self.value.capitalize()


@dataclass(frozen=True, slots=True)
class PointsBand:
    """A game size's points band; both ends are inside it (R-04)."""

    name: str
    min: int
    max: int

    @property
    def label(self) -> str:
        return self.name.capitalize()

    def __contains__(self, points: object) -> bool:
        return isinstance(points, int) and self.min <= points <= self.max

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "min": self.min, "max": self.max}


POINTS_BANDS: dict[GameSize, PointsBand] = {
    GameSize.PATROL: PointsBand("patrol", 500, 750),
    GameSize.SKIRMISH: PointsBand("skirmish", 750, 1000),
    GameSize.BATTLE: PointsBand("battle", 1000, 1500),
    GameSize.ARMADA: PointsBand("armada", 1500, 2500),
}


@dataclass(frozen=True, slots=True)
class ShipUnit:
    """One capital ship (or, illegally, a lone escort: ``squadron.required``)."""

    ship: str
    name: str | None = None
    flagship: bool = False
    admiral: str | None = None
    upgrades: tuple[str, ...] = ()

    kind = "ship"


@dataclass(frozen=True, slots=True)
class SquadronShip:
    ship: str
    upgrades: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Squadron:
    """Escorts flying together; a squadron never holds the flagship or an admiral (R-21)."""

    ships: tuple[SquadronShip, ...]
    name: str | None = None

    kind = "squadron"


Unit: TypeAlias = ShipUnit | Squadron


@dataclass(frozen=True, slots=True)
class Fleet:
    faction: str
    game_size: GameSize
    units: tuple[Unit, ...] = ()
    name: str | None = None
    variant: str | None = None
    points_limit: PointsBand | None = None  # only, and always, for GameSize.CUSTOM
    notes: str = ""
    # The catalogue edition the list was built under; None: the file names none.
    edition: int | None = None

    def __post_init__(self) -> None:
        if (self.game_size is GameSize.CUSTOM) != (self.points_limit is not None):
            raise ValueError("a custom game size needs a points_limit, and only it has one")

    @property
    def band(self) -> PointsBand:
        if self.points_limit is not None:
            return self.points_limit
        return POINTS_BANDS[self.game_size]

    @property
    def ship_count(self) -> int:
        return sum(1 if isinstance(u, ShipUnit) else len(u.ships) for u in self.units)


# --- reading ------------------------------------------------------------------------------


def _reader(data: object, path: str) -> ObjectReader:
    return ObjectReader(data, path, FleetFormatError)


def _player_text(
    obj: ObjectReader, key: str, *, max_length: int = MAX_NAME_LENGTH, multiline: bool = False
) -> str | None:
    """A name or the notes: a string or null, free of forbidden characters (R-94), bounded."""
    value = obj.optional_text(key)
    if value is None:
        return None
    if multiline:  # notes: CR LF and CR read as LF
        value = player_text.normalise_newlines(value)
    try:
        player_text.check(value, multiline=multiline)
    except player_text.TextError as exc:
        obj.fail(key, exc.message)
    if len(value) > max_length:
        obj.fail(key, f"is {len(value)} characters long; the limit is {max_length}")
    return value


def _slug(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise FleetFormatError(path, f"expected a slug (a string), found {kind(value)}")
    if len(value) > MAX_SLUG_LENGTH or not SLUG_RE.match(value):
        raise FleetFormatError(
            path, f"{value[:MAX_SLUG_LENGTH]!r} is not a slug (lowercase words joined by '-')"
        )
    return value


def _optional_slug(obj: ObjectReader, key: str) -> str | None:
    value = obj.value(key)
    return None if value is None else _slug(value, obj.at(key))


def _upgrades(obj: ObjectReader) -> tuple[str, ...]:
    items = obj.items("upgrades", max_items=MAX_UPGRADES_PER_SHIP)
    return tuple(_slug(u, f"{obj.at('upgrades')}[{i}]") for i, u in enumerate(items))


def _no_command_keys(obj: ObjectReader) -> None:
    """Only a ``ship`` unit may be the flagship or carry the admiral (R-21)."""
    for key in ("flagship", "admiral"):
        if obj.has(key):
            obj.fail(
                key,
                f"a squadron cannot hold the {key}: only a 'ship' unit (a capital ship) can",
            )


def _unit(data: object, path: str) -> Unit:
    obj = _reader(data, path)
    unit_kind = obj.value("kind", required=True)
    if unit_kind == "ship":
        unit: Unit = ShipUnit(
            ship=_slug(obj.value("ship", required=True), obj.at("ship")),
            name=_player_text(obj, "name"),
            flagship=obj.flag("flagship"),
            admiral=_optional_slug(obj, "admiral"),
            upgrades=_upgrades(obj),
        )
    elif unit_kind == "squadron":
        _no_command_keys(obj)
        ships = []
        items = obj.items("ships", required=True, max_items=MAX_SQUADRON_SHIPS)
        for j, item in enumerate(items):
            sobj = _reader(item, f"{obj.at('ships')}[{j}]")
            _no_command_keys(sobj)
            ships.append(
                SquadronShip(
                    ship=_slug(sobj.value("ship", required=True), sobj.at("ship")),
                    upgrades=_upgrades(sobj),
                )
            )
            sobj.done()
        unit = Squadron(ships=tuple(ships), name=_player_text(obj, "name"))
    else:
        obj.fail("kind", f"{shown(unit_kind)} is not 'ship' or 'squadron'")
    obj.done()
    return unit


def _check_ship_count(units: tuple[Unit, ...]) -> None:
    """At most MAX_FLEET_SHIPS ships, escorts included; the error names the first one past it
    (R-95)."""
    count = 0
    for i, unit in enumerate(units):
        if isinstance(unit, ShipUnit):
            count += 1
            if count > MAX_FLEET_SHIPS:
                raise FleetFormatError(f"units[{i}]", ships_message(count))
        elif count + len(unit.ships) > MAX_FLEET_SHIPS:
            j = MAX_FLEET_SHIPS - count
            raise FleetFormatError(f"units[{i}].ships[{j}]", ships_message(MAX_FLEET_SHIPS + 1))
        else:
            count += len(unit.ships)


def parse_fleet(data: object) -> Fleet:
    """Read a decoded fleet file (``json.loads`` output) into a :class:`Fleet`."""
    obj = _reader(data, "")
    fmt = obj.value("format", required=True)
    if fmt != FORMAT:
        raise FleetFormatError("format", f"{shown(fmt)} is not {FORMAT!r}")
    version = obj.value("version", required=True)
    if not isinstance(version, int) or isinstance(version, bool):
        raise FleetFormatError("version", f"expected a whole number, found {kind(version)}")
    if version > VERSION:
        raise FleetFormatError(
            "version", f"version {version} is newer than this program reads (up to {VERSION})"
        )
    if version < 1:
        raise FleetFormatError("version", f"{version} is not a fleet file version")

    name = _player_text(obj, "name")
    faction = _slug(obj.value("faction", required=True), "faction")
    variant = _optional_slug(obj, "variant")
    game_size = obj.choice("game_size", GameSize)

    limit_raw = obj.value("points_limit")
    points_limit = None
    if game_size is GameSize.CUSTOM:
        if limit_raw is None:
            raise FleetFormatError("points_limit", 'a custom game size needs {"min", "max"}')
        lobj = _reader(limit_raw, "points_limit")
        lo = lobj.whole_number("min", lo=0, hi=MAX_POINTS_LIMIT)
        hi = lobj.whole_number("max", lo=0, hi=MAX_POINTS_LIMIT)
        lobj.done()
        if hi < lo:
            raise FleetFormatError("points_limit.max", f"{hi} is below the minimum {lo}")
        points_limit = PointsBand("custom", lo, hi)
    elif limit_raw is not None:
        raise FleetFormatError(
            "points_limit", f"must be null unless game_size is 'custom' (it is {game_size.value!r})"
        )

    units_raw = obj.items("units", required=True, max_items=MAX_UNITS)
    units = tuple(_unit(u, f"units[{i}]") for i, u in enumerate(units_raw))
    _check_ship_count(units)
    notes = _player_text(obj, "notes", max_length=MAX_NOTES_LENGTH, multiline=True)
    edition = obj.optional_whole_number("edition", lo=1, hi=MAX_EDITION)
    obj.done()
    return Fleet(
        faction=faction,
        game_size=game_size,
        units=units,
        name=name,
        variant=variant,
        points_limit=points_limit,
        notes=notes or "",
        edition=edition,
    )


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a fleet file")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise FleetFormatError("", f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def load_fleet_json(text: str) -> Fleet:
    """Parse fleet-file text; invalid JSON raises FleetFormatError with its line and column."""
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(
            text, object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant
        )
    except json.JSONDecodeError as exc:
        raise FleetFormatError(
            "",
            f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
            line=exc.lineno,
            column=exc.colno,
        ) from None
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, FleetFormatError):
            raise
        raise FleetFormatError("", f"not a usable fleet file: {exc}") from None
    return parse_fleet(data)


# --- writing ------------------------------------------------------------------------------


def _unit_to_dict(unit: Unit) -> dict[str, Any]:
    if isinstance(unit, ShipUnit):
        return {
            "kind": "ship",
            "ship": unit.ship,
            "name": unit.name,
            "flagship": unit.flagship,
            "admiral": unit.admiral,
            "upgrades": list(unit.upgrades),
        }
    return {
        "kind": "squadron",
        "name": unit.name,
        "ships": [{"ship": s.ship, "upgrades": list(s.upgrades)} for s in unit.ships],
    }


def fleet_to_dict(fleet: Fleet) -> dict[str, Any]:
    """The normalised fleet file: every key present, in contract 1's order."""
    limit = fleet.points_limit
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if fleet.edition is not None:  # written only when known, so older files round-trip
        out["edition"] = fleet.edition
    return out | {
        "name": fleet.name,
        "faction": fleet.faction,
        "variant": fleet.variant,
        "game_size": fleet.game_size.value,
        "points_limit": None if limit is None else {"min": limit.min, "max": limit.max},
        "units": [_unit_to_dict(u) for u in fleet.units],
        "notes": fleet.notes,
    }


def dump_fleet_json(fleet: Fleet, *, indent: int | None = 2) -> str:
    return json.dumps(fleet_to_dict(fleet), indent=indent, ensure_ascii=False)
