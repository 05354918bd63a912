"""Hostile inputs for the bounds of R-95: the tests in tests/limits/ and ``bench_hostile`` use
them. Each is a small input that cost minutes of CPU before the bounds, or the
biggest fleet the bounds let through."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from django.db import DatabaseError

from fleetbuilder.catalog import editions
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core import sharecode
from rules_core.limits import (
    MAX_CARDS_PER_PDF,
    MAX_FLEET_POINTS,
    MAX_FLEET_SHIPS,
    MAX_NAME_LENGTH,
    MAX_NOTES_LENGTH,
    MAX_SQUADRON_SHIPS,
    MAX_UNITS,
    MAX_UPGRADES_PER_SHIP,
)

FACTION = "imperial-navy"


def _faction(catalog: core.Catalog) -> core.Faction:
    faction = catalog.faction(FACTION)
    assert faction is not None
    return faction


def edition_of(catalog: core.Catalog) -> int | None:
    """The edition ``catalog`` is, which a fleet built from it names (R-160): read under
    another edition's prices, it would no longer be the bound it was built to test. None for a
    development state (or no database)."""
    try:
        known = editions.known()
    except DatabaseError:
        return None
    return next((i.number for i in reversed(known) if i.data_version == catalog.version), None)


def cheapest_escort(catalog: core.Catalog) -> core.ShipProfile:
    return min((s for s in _faction(catalog).ships if s.is_escort), key=lambda s: s.points)


def bound_escort(catalog: core.Catalog) -> tuple[str, core.ShipProfile]:
    """The dearest escort of which one past the ship bound still fits in the points bound, and
    its faction: a fleet of them meets (or passes) the ship bound alone, as near the points
    bound as the catalogue allows. Prices are calibrated per faction, so this is looked up,
    not fixed (the Imperial Navy's cheapest escort costs too much for 150 of them)."""
    most = MAX_FLEET_POINTS // (MAX_FLEET_SHIPS + 1)
    return max(
        (
            (f.slug, s)
            for f in catalog.factions
            for s in f.ships
            if s.is_escort and s.points <= most
        ),
        key=lambda fs: fs[1].points,
    )


def busiest_capital(catalog: core.Catalog, max_points: int) -> core.ShipProfile:
    """The capital ship with the most weapons costing at most ``max_points``."""
    ships = [s for s in _faction(catalog).ships if not s.is_escort and s.points <= max_points]
    return max(ships, key=lambda s: (len(s.weapons), -s.points))


def squadrons_of(escort: str, squadrons: int, size: int, **fields: Any) -> rf.Fleet:
    """``squadrons`` squadrons of ``size`` escorts each (the issue's 100 × 32 is one)."""
    unit = rf.Squadron(tuple(rf.SquadronShip(escort) for _ in range(size)))
    return rf.Fleet(FACTION, rf.GameSize.ARMADA, (unit,) * squadrons, **fields)


def issue_code(catalog: core.Catalog) -> str:
    """The issue's share code of about 420 characters: 100 squadrons × 32 escorts, 3,200 ships
    (the escort with the shortest slug, so that it inflates to under the inflation cap and is
    refused by the fleet bounds, R-95)."""
    escort = min((s for s in _faction(catalog).ships if s.is_escort), key=lambda s: len(s.slug))
    return sharecode.PREFIX + _pack(sharecode.to_compact(squadrons_of(escort.slug, 100, 32)))


def _pack(compact: Any) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = json.dumps(compact, separators=(",", ":")).encode()
    raw = packer.compress(payload) + packer.flush()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def bomb_code(inflated_bytes: int = 2_000_000) -> str:
    """A share code of under 3000 characters that inflates to ``inflated_bytes`` of JSON."""
    return sharecode.PREFIX + _pack_raw(
        b'["imperial-navy","armada","' + b"x" * inflated_bytes + b'"]'
    )


def _pack_raw(data: bytes) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress(data) + packer.flush()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def max_ships(catalog: core.Catalog) -> rf.Fleet:
    """The most a fleet may hold: 150 of ``bound_escort`` (4500 points) in 75 squadrons of
    two, every name and the notes at their longest, and unknown upgrades (which cost nothing)
    in every ship's 20 slots, so the validator has 3,000 problems to report."""
    faction, escort = bound_escort(catalog)
    upgrades = tuple(f"no-such-upgrade-{n}" for n in range(MAX_UPGRADES_PER_SHIP))
    name = "N" * MAX_NAME_LENGTH
    pair = rf.Squadron(tuple(rf.SquadronShip(escort.slug, upgrades) for _ in range(2)), name=name)
    fleet = rf.Fleet(
        faction,
        rf.GameSize.ARMADA,
        (pair,) * (MAX_FLEET_SHIPS // 2),
        name=name,
        notes="x" * MAX_NOTES_LENGTH,
        edition=edition_of(catalog),
    )
    assert fleet.ship_count == MAX_FLEET_SHIPS and len(fleet.units) <= MAX_UNITS
    assert fleet.ship_count * escort.points <= MAX_FLEET_POINTS
    return fleet


def max_cards(catalog: core.Catalog) -> rf.Fleet:
    """The biggest card PDF the bounds allow: 40 cards of the capital ship with the most
    weapons that 40 of fit in 5000 points."""
    ship = busiest_capital(catalog, MAX_FLEET_POINTS // MAX_CARDS_PER_PDF)
    units = tuple(rf.ShipUnit(ship.slug, flagship=n == 0) for n in range(MAX_CARDS_PER_PDF))
    return rf.Fleet(
        FACTION, rf.GameSize.ARMADA, units, name="Forty cards", edition=edition_of(catalog)
    )


def big_squadrons(catalog: core.Catalog) -> rf.Fleet:
    """Five squadrons of 20 escorts (the squadron bound) and ten capital ships: few cards,
    each as full as a card gets."""
    escort = cheapest_escort(catalog)
    room = MAX_FLEET_POINTS - 5 * MAX_SQUADRON_SHIPS * escort.points
    capital = busiest_capital(catalog, room // 10)
    units: list[rf.Unit] = [rf.ShipUnit(capital.slug, flagship=n == 0) for n in range(10)]
    units += [
        rf.Squadron(tuple(rf.SquadronShip(escort.slug) for _ in range(MAX_SQUADRON_SHIPS)))
    ] * 5
    return rf.Fleet(
        FACTION, rf.GameSize.ARMADA, tuple(units), name="Big squadrons", edition=edition_of(catalog)
    )


def over_ships(catalog: core.Catalog) -> rf.Fleet:
    """151 ships: one past the bound (and under the points bound: ``bound_escort``)."""
    faction, profile = bound_escort(catalog)
    escort = profile.slug
    units = [rf.Squadron(tuple(rf.SquadronShip(escort) for _ in range(MAX_SQUADRON_SHIPS)))] * 7
    units.append(rf.Squadron(tuple(rf.SquadronShip(escort) for _ in range(11))))
    return rf.Fleet(
        faction, rf.GameSize.ARMADA, tuple(units), name="One too many", edition=edition_of(catalog)
    )


def over_points(catalog: core.Catalog) -> rf.Fleet:
    """Under 150 ships but over 5000 points: the dearest capital ship, as often as it takes."""
    ship = max((s for s in _faction(catalog).ships if not s.is_escort), key=lambda s: s.points)
    count = MAX_FLEET_POINTS // ship.points + 1
    units = tuple(rf.ShipUnit(ship.slug, flagship=n == 0) for n in range(count))
    return rf.Fleet(
        FACTION, rf.GameSize.ARMADA, units, name="Too dear", edition=edition_of(catalog)
    )


def deep_json(depth: int = 100_000) -> str:
    """A fleet file whose units nest ``depth`` lists deep."""
    return (
        '{"format": "void-command-fleet", "version": 1, "units": ' + "[" * depth + "]" * depth + "}"
    )


def file_text(fleet: rf.Fleet) -> str:
    """A fleet's file without the reader's checks (the writer writes any fleet)."""
    return rf.dump_fleet_json(fleet, indent=None)


def raw_code(fleet: rf.Fleet) -> str:
    """A fleet's share code without the encoder's length check."""
    return sharecode.PREFIX + _pack(sharecode.to_compact(fleet))
