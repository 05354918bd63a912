"""How big a fleet may be, and how much one request may ask for (rulings R-20, R-95).

Every reader (fleet file, share code, text list, a ``.zip`` of files, the builder's edits, the
simulator's sides, the cards) holds a fleet to these bounds, which no real game meets, so that
no small input can cost minutes of CPU. Shape bounds are checked by
``rules_core.fleet.parse_fleet`` (a ``format.invalid`` error naming the JSON path); the points
bound needs the catalogue, so readers that have one check it with
``rules_core.validator.check_points_bound``.

No imports: the readers at the bottom of ``rules_core`` import this module.
"""

from __future__ import annotations

from collections.abc import Iterable

# Text.
MAX_NAME_LENGTH = 100
MAX_SLUG_LENGTH = 100
MAX_NOTES_LENGTH = 4000

# Units and ships. A squadron is 2–4 escorts by the rules (the validator's
# ``squadron.*``); a file may hold a larger one to be reported, up to this many entries.
MAX_UNITS = 100
MAX_SQUADRON_SHIPS = 20
MAX_FLEET_SHIPS = 150  # capital ships and escorts together
MAX_UPGRADES_PER_SHIP = 20

# Points: a custom band names at most MAX_POINTS_LIMIT (files written before R-95
# keep loading); the fleet itself may total at most twice the Armada band's maximum.
MAX_POINTS_LIMIT = 100_000

# Editions: the numbers a fleet file, a share code or a request may name.
MAX_EDITION = 9999
ARMADA_MAX_POINTS = 2500
MAX_FLEET_POINTS = 2 * ARMADA_MAX_POINTS

# Work a single web request may do: one card is a capital ship or a squadron, and a PDF
# of 40 cards renders in about 3 s on the 2-core machine this is built on.
MAX_CARDS_PER_PDF = 40


def ships_message(count: int) -> str:
    return f"is ship {count} of the fleet; a fleet holds at most {MAX_FLEET_SHIPS} ships (R-95)"


def points_over(unit_points: Iterable[int]) -> tuple[int, int] | None:
    """(unit index, running total) where the fleet's points first pass MAX_FLEET_POINTS."""
    total = 0
    for i, points in enumerate(unit_points):
        total += points
        if total > MAX_FLEET_POINTS:
            return i, total
    return None


def points_message(total: int) -> str:
    return (
        f"brings the fleet to {total} points; a fleet may total at most {MAX_FLEET_POINTS} "
        f"(twice the Armada band's {ARMADA_MAX_POINTS}, R-95)"
    )
