"""What-if analysis ("Which ship matters?"): a fleet's variants and paired statistics.

    from rules_core.whatif import what_if_variants, paired_difference

For each unit of a fleet, :func:`what_if_variants` makes the fleet without it and with each
same-class alternative of equal or lower points from the fleet's list (ruling R-97: the
flagship's move, the nearest alternatives, identical units once). Every variant then fights the
same opponent with the same seed, battle ``i`` of every variant taking the dice of
``(seed, i)`` (``rules_core.sim.battle.battle_dice``): common random numbers, so
:func:`paired_difference` compares battle by battle.

A subpackage, not ``rules_core/sim/whatif.py``: a new file beside the simulator's compiled
modules would mark their mypyc build stale (``rules_core/__init__``) and slow every run 3x.
No Django here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..catalog import Catalog, ShipProfile
from ..fleet import Fleet, ShipUnit, Squadron, SquadronShip, Unit

Z95 = 1.96  # the interval is mean ± 1.96·sd/√n
DEFAULT_ALTERNATIVES = 3  # the nearest alternatives in points, per ship type


@dataclass(frozen=True, slots=True)
class Variant:
    """One version of the fleet to play: the baseline, one unit removed, or one swap."""

    key: str  # "base", "remove-3", "swap-3-lunar-class-cruiser"
    kind: str  # "base" | "remove" | "swap"
    label: str  # "without Dominator", "swap Dominator for Lunar"
    fleet: Fleet
    unit: int | None = None  # 0-based index of the unit removed or changed
    note: str = ""  # what else changed (the flagship moved, R-97)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A variant not played, and why (for the player)."""

    label: str
    reason: str


def short_name(profile: ShipProfile | None, slug: str) -> str:
    """ "Lunar" for "Lunar Class Cruiser": the word a player says at the table."""
    if profile is None:
        return slug
    return profile.name.split()[0] if profile.name.split() else profile.name


def unit_label(unit: Unit, names: dict[str, ShipProfile]) -> str:
    if isinstance(unit, ShipUnit):
        return short_name(names.get(unit.ship), unit.ship)
    counts: dict[str, int] = {}
    for ship in unit.ships:
        counts[ship.ship] = counts.get(ship.ship, 0) + 1
    return " + ".join(f"{n} {short_name(names.get(s), s)}" for s, n in counts.items())


def _same_unit(a: Unit, b: Unit) -> bool:
    """The same question twice: two units alike but for their names (R-97)."""
    if isinstance(a, ShipUnit) and isinstance(b, ShipUnit):
        return replace(a, name=None) == replace(b, name=None)
    if isinstance(a, Squadron) and isinstance(b, Squadron):
        return a.ships == b.ships
    return False


def _move_flagship(
    units: list[Unit], names: dict[str, ShipProfile], admiral: str | None
) -> tuple[list[Unit], str] | None:
    """Give the flagship (and its admiral) to the most expensive capital ship left (the first
    of equals); None when no capital ship is left (R-97)."""
    best: int | None = None
    best_points = -1
    for i, unit in enumerate(units):
        profile = names.get(unit.ship) if isinstance(unit, ShipUnit) else None
        if profile is not None and profile.is_capital and profile.points > best_points:
            best, best_points = i, profile.points
    if best is None:
        return None
    heir = units[best]
    assert isinstance(heir, ShipUnit)
    units = list(units)
    units[best] = replace(heir, flagship=True, admiral=admiral)
    return units, short_name(names.get(heir.ship), heir.ship)


def _alternatives(
    profile: ShipProfile, pool: Sequence[ShipProfile], limit: int | None
) -> tuple[list[ShipProfile], int]:
    """Same class, equal or lower points, nearest first (ties by name); and how many more."""
    found = [
        p
        for p in pool
        if p.slug != profile.slug
        and p.ship_class == profile.ship_class
        and p.points <= profile.points
    ]
    found.sort(key=lambda p: (profile.points - p.points, p.name))
    if limit is None or len(found) <= limit:
        return found, 0
    return found[:limit], len(found) - limit


def what_if_variants(
    catalog: Catalog, fleet: Fleet, *, alternatives: int | None = DEFAULT_ALTERNATIVES
) -> tuple[list[Variant], list[Skipped]]:
    """The baseline first, then for each unit (in list order) its removal and its swaps.

    Alternatives come from the fleet's faction list, less the ships its variant forbids and
    unique ships the fleet already holds; upgrades stay (same class, so still allowed).
    """
    faction = catalog.faction(fleet.faction)
    names: dict[str, ShipProfile] = {s.slug: s for f in catalog.factions for s in f.ships}
    pool: list[ShipProfile] = list(faction.ships) if faction is not None else []
    list_variant = faction.variant(fleet.variant) if faction and fleet.variant else None
    if list_variant is not None:
        pool = [p for p in pool if p.slug not in list_variant.forbidden_ships]
    held = {u.ship for u in fleet.units if isinstance(u, ShipUnit)} | {
        s.ship for u in fleet.units if isinstance(u, Squadron) for s in u.ships
    }
    pool = [p for p in pool if not (p.is_unique and p.slug in held)]

    variants = [Variant("base", "base", "your fleet as it is", fleet)]
    skipped: list[Skipped] = []
    for i, unit in enumerate(fleet.units):
        label = unit_label(unit, names)
        twin = next((j for j in range(i) if _same_unit(fleet.units[j], unit)), None)
        if twin is not None:
            continue  # played once, as the first of the alike
        rest = [u for j, u in enumerate(fleet.units) if j != i]
        if not rest:
            skipped.append(Skipped(f"without {label}", "it is the fleet's only unit"))
        else:
            note = ""
            if isinstance(unit, ShipUnit) and unit.flagship:
                moved = _move_flagship(rest, names, unit.admiral)
                if moved is None:
                    skipped.append(
                        Skipped(
                            f"without {label}",
                            "it is the flagship and no other capital ship could take over (R-97)",
                        )
                    )
                    rest = []
                else:
                    rest, heir = moved
                    admiral = catalog.admiral(unit.admiral) if unit.admiral else None
                    note = f"flagship{f' and {admiral.name}' if admiral else ''} moved to {heir}"
            if rest:
                variants.append(
                    Variant(
                        f"remove-{i}",
                        "remove",
                        f"without {label}",
                        replace(fleet, units=tuple(rest)),
                        i,
                        note,
                    )
                )
        variants += _swaps(fleet, i, unit, names, pool, alternatives, skipped)
    return variants, skipped


def _swaps(
    fleet: Fleet,
    i: int,
    unit: Unit,
    names: dict[str, ShipProfile],
    pool: Sequence[ShipProfile],
    limit: int | None,
    skipped: list[Skipped],
) -> list[Variant]:
    out: list[Variant] = []
    if isinstance(unit, ShipUnit):
        profile = names.get(unit.ship)
        if profile is None:
            return out
        found, more = _alternatives(profile, pool, limit)
        for alt in found:
            units = list(fleet.units)
            units[i] = replace(unit, ship=alt.slug)
            out.append(
                Variant(
                    f"swap-{i}-{alt.slug}",
                    "swap",
                    f"swap {short_name(profile, unit.ship)} for {short_name(alt, alt.slug)}",
                    replace(fleet, units=tuple(units)),
                    i,
                )
            )
        if more:
            skipped.append(
                Skipped(
                    f"other swaps for {short_name(profile, unit.ship)}",
                    f"{more} more of lower points not played: the {limit} "
                    "nearest in points are (R-97)",
                )
            )
        return out
    seen: list[str] = []
    for ship in unit.ships:
        if ship.ship in seen:
            continue
        seen.append(ship.ship)
        profile = names.get(ship.ship)
        if profile is None:
            continue
        count = sum(1 for s in unit.ships if s.ship == ship.ship)
        found, more = _alternatives(profile, pool, limit)
        for alt in found:
            ships = tuple(
                SquadronShip(alt.slug, s.upgrades) if s.ship == ship.ship else s for s in unit.ships
            )
            units = list(fleet.units)
            units[i] = replace(unit, ships=ships)
            what = short_name(profile, ship.ship)
            out.append(
                Variant(
                    f"swap-{i}-{ship.ship}-{alt.slug}",
                    "swap",
                    f"swap {count} {what} for {short_name(alt, alt.slug)}",
                    replace(fleet, units=tuple(units)),
                    i,
                )
            )
        if more:
            skipped.append(
                Skipped(
                    f"other swaps for {short_name(profile, ship.ship)}",
                    f"{more} more of lower points not played: the {limit} "
                    "nearest in points are (R-97)",
                )
            )
    return out


# --- paired statistics ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Paired:
    """The mean of per-battle differences (variant − baseline) and its 95 % half-width."""

    n: int
    mean: float
    sd: float
    half_width: float | None  # None below two battles

    @property
    def interval(self) -> tuple[float, float] | None:
        if self.half_width is None:
            return None
        return self.mean - self.half_width, self.mean + self.half_width


def paired_difference(base: Sequence[float], variant: Sequence[float]) -> Paired:
    """d_i = variant_i − base_i on common seeds; mean ± 1.96·sd/√n, sd with n − 1."""
    if len(base) != len(variant):
        raise ValueError("paired samples must have the same length")
    n = len(base)
    if n == 0:
        return Paired(0, 0.0, 0.0, None)
    d = [v - b for b, v in zip(base, variant, strict=True)]
    mean = math.fsum(d) / n
    if n < 2:
        return Paired(n, mean, 0.0, None)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in d) / (n - 1))
    return Paired(n, mean, sd, Z95 * sd / math.sqrt(n))


def half_points(winner: str | None) -> int:
    """Side A's result in half-points: a win 2, a draw 1, a loss 0 (score = half-points / 2)."""
    return 2 if winner == "a" else 1 if winner is None else 0
