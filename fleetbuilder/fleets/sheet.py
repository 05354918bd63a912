"""What the builder page shows of a fleet: one card per unit, read from its validation report.

Plain values for the templates; the numbers (points, effective leadership) come from the
validator's report, never recomputed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse

from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.validator import Problem, ShipReport, ValidationReport, catalog_index

from .models import Fleet, UpgradeOption, fleet_upgrade_uses, upgrade_reason


@dataclass
class ShipCard:
    unit: int
    ship: int | None  # index inside a squadron; None for a capital-ship unit
    slug: str
    profile: core.ShipProfile | None
    report: ShipReport
    name: str | None = None
    upgrades: list[tuple[str, str]] = field(default_factory=list)  # (slug, name)
    options: list[UpgradeOption] = field(default_factory=list)
    problems: tuple[Problem, ...] = ()

    @property
    def anchor(self) -> str:
        return f"unit-{self.unit}" if self.ship is None else f"unit-{self.unit}-ship-{self.ship}"

    @property
    def title(self) -> str:
        return self.profile.name if self.profile else self.slug

    @property
    def class_label(self) -> str:
        return self.profile.ship_class.label if self.profile else "Unknown ship"

    allowed: list[UpgradeOption] = field(default_factory=list)
    refused: list[UpgradeOption] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.allowed = [o for o in self.options if o.allowed]
        self.refused = [o for o in self.options if not o.allowed]


@dataclass
class UnitCard:
    index: int
    kind: str
    name: str | None
    points: int
    ships: list[ShipCard]
    problems: tuple[Problem, ...]

    @property
    def anchor(self) -> str:
        return f"unit-{self.index}"

    @property
    def is_squadron(self) -> bool:
        return self.kind == "squadron"

    @property
    def ship_card(self) -> ShipCard:
        return self.ships[0]

    label: str = ""
    url: str = ""  # the prefix of this unit's edit URLs: /fleets/<pk>/units/<i>/

    @property
    def refused(self) -> list[UpgradeOption]:
        """For a squadron, the upgrades its escorts may not take (shown once per squadron)."""
        return self.ships[0].refused if self.ships else []


@dataclass
class Sheet:
    units: list[UnitCard]
    escorts: list[core.ShipProfile]  # the list's escorts, for "add escort"
    admirals: tuple[core.AdmiralRank, ...]
    squadrons: list[UnitCard] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.squadrons = [u for u in self.units if u.is_squadron]


def build_sheet(fleet: Fleet, catalog: core.Catalog, report: ValidationReport) -> Sheet:
    idx = catalog_index(catalog)
    core_fleet = fleet.to_core()
    faction = idx.factions.get(fleet.faction)
    candidates = (*faction.upgrades, *catalog.refits) if faction else ()
    uses = fleet_upgrade_uses(core_fleet.units)
    unit_problems: dict[int | None, list[Problem]] = {}
    for p in report.problems:
        unit_problems.setdefault(p.unit, []).append(p)

    def card(i: int, j: int | None, slug: str, upgrades: tuple[str, ...], ship_report: ShipReport,
             name: str | None = None) -> ShipCard:
        entry = idx.ships.get(slug)
        profile = entry[0] if entry else None
        options = ([UpgradeOption(u, upgrade_reason(u, profile, upgrades, uses, fleet, idx))
                    for u in candidates] if profile is not None else [])
        named = [(s, idx.upgrades[s].name if s in idx.upgrades else s) for s in upgrades]
        problems = tuple(p for p in unit_problems.get(i, ()) if p.ship == j)
        return ShipCard(i, j, slug, profile, ship_report, name, named, options, problems)

    labels = unit_labels(fleet, catalog)
    base = reverse("fleets:units", args=[fleet.pk])
    units = []
    for i, (unit, unit_report) in enumerate(zip(core_fleet.units, report.units, strict=True)):
        if isinstance(unit, rf.ShipUnit):
            ships = [card(i, None, unit.ship, unit.upgrades, unit_report.ships[0], unit.name)]
        else:
            ships = [card(i, j, s.ship, s.upgrades, unit_report.ships[j])
                     for j, s in enumerate(unit.ships)]
        squad_problems = tuple(p for p in unit_problems.get(i, ())
                               if unit.kind == "squadron" and p.ship is None)
        units.append(UnitCard(i, unit.kind, unit.name, unit_report.points, ships,
                              squad_problems, labels[i], f"{base}{i}/"))
    escorts = [s for s in faction.ships if s.is_escort] if faction else []
    return Sheet(units, escorts, catalog.admirals)


@dataclass
class ShipGroup:
    label: str
    ships: list[tuple[core.ShipProfile, str]]  # (profile, why it may not be taken, or "")


def ship_groups(fleet: Fleet, catalog: core.Catalog) -> list[ShipGroup]:
    """The faction's ships by class, escorts first, each with a note if the variant forbids it."""
    faction = catalog.faction(fleet.faction)
    if faction is None:
        return []
    variant = faction.variant(fleet.variant) if fleet.variant else None
    forbidden = variant.forbidden_ships if variant else frozenset()
    groups = []
    for cls in core.CLASS_ORDER:
        ships = [(s, f"{variant.name} fleets may not field it." if variant and s.slug in forbidden
                  else "") for s in faction.ships if s.ship_class is cls]
        if ships:
            groups.append(ShipGroup(cls.label, ships))
    return groups


@dataclass
class Meter:
    """The points total against the band, as numbers a bar can be drawn from (percentages)."""

    points: int
    band: rf.PointsBand
    scale: int
    state: str  # "under", "in" or "over"
    text: str

    @property
    def fill(self) -> float:
        return round(min(100.0, 100 * self.points / self.scale), 1) if self.scale else 0.0

    @property
    def band_left(self) -> float:
        return round(100 * self.band.min / self.scale, 1) if self.scale else 0.0

    @property
    def band_width(self) -> float:
        if not self.scale:
            return 100.0
        return round(100 * (self.band.max - self.band.min) / self.scale, 1)


def meter(points: int, band: rf.PointsBand) -> Meter:
    scale = max(round(band.max * 1.2), points, 1)
    if points < band.min:
        return Meter(points, band, scale, "under", f"{band.min - points} points to the band")
    if points > band.max:
        return Meter(points, band, scale, "over", f"{points - band.max} points over the band")
    return Meter(points, band, scale, "in", f"In the band, {band.max - points} points to spare")


@dataclass
class ProblemRow:
    problem: Problem
    href: str  # "" for a problem of the whole fleet
    where: str


def problem_rows(fleet: Fleet, catalog: core.Catalog, report: ValidationReport) -> list[ProblemRow]:
    """Each problem with a link to the card of the unit (or escort) it concerns."""
    idx = catalog_index(catalog)
    units = fleet.document.get("units", [])
    labels = unit_labels(fleet, catalog)
    rows = []
    for p in report.problems:
        if p.unit is None or p.unit >= len(units):
            rows.append(ProblemRow(p, "", "Fleet"))
            continue
        unit = units[p.unit]
        where = labels[p.unit]
        if unit["kind"] == "squadron" and p.ship is not None and p.ship < len(unit["ships"]):
            where += f": {idx.ship_name(unit['ships'][p.ship]['ship'])}"
        href = f"#unit-{p.unit}" if p.ship is None else f"#unit-{p.unit}-ship-{p.ship}"
        rows.append(ProblemRow(p, href, where))
    return rows


def unit_labels(fleet: Fleet, catalog: core.Catalog) -> list[str]:
    """How the page names each unit: its own name, else its ship, else "Squadron n"."""
    idx = catalog_index(catalog)
    labels = []
    squadrons = 0
    for unit in fleet.document.get("units", []):
        if unit["kind"] == "squadron":
            squadrons += 1
            labels.append(unit["name"] or f"Squadron {squadrons}")
        else:
            labels.append(unit["name"] or idx.ship_name(unit["ship"]))
    return labels
