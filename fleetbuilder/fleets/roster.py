"""A fleet list as a read-only roster: what the shared page, a share code and an import show.

Works on rules_core values, so it serves fleets that are not in this database (a share code, a
file being imported) as well as saved ones. Numbers come from the validator's report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from fleetbuilder.catalog import editions
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.chatlist import lineup
from rules_core.validator import Problem, ShipReport, ValidationReport, catalog_index, validate

from .models import Fleet
from .sheet import Stat, meter, problem_rows, ship_stats


@dataclass
class RosterShip:
    slug: str
    title: str  # the ship's catalogue name, or its slug when unknown
    class_label: str
    report: ShipReport
    upgrades: list[tuple[str, int | None]] = field(default_factory=list)  # (name, points)
    admiral: str = ""
    problems: tuple[Problem, ...] = ()
    anchor: str = ""
    profile: core.ShipProfile | None = None
    faction: str = ""  # the slug of the faction whose list holds the profile

    @property
    def stats(self) -> list[Stat]:
        """The builder's stat line (Ld, speed, shields, armour, turrets) and the hull, with the
        upgrades' changes in (the shared page showed only Ld)."""
        if self.profile is None:
            return []
        hull = self.profile.hull + self.report.effects.get("hull", 0)
        return [*ship_stats(self.profile, self.report), Stat("Hull", "Hull", str(hull))]

    @property
    def weapons(self) -> tuple[core.Weapon, ...]:
        return self.profile.weapons if self.profile else ()

    @property
    def profile_url(self) -> str:
        """The ship's page in the catalogue; "" for a ship the catalogue lacks."""
        if self.profile is None or not self.faction:
            return ""
        return reverse("catalog:ship", args=[self.faction, self.slug])


@dataclass
class RosterUnit:
    index: int
    label: str
    name: str | None
    is_squadron: bool
    points: int
    ships: list[RosterShip]
    problems: tuple[Problem, ...]

    @property
    def anchor(self) -> str:
        return f"unit-{self.index}"

    @property
    def is_flagship(self) -> bool:
        return not self.is_squadron and self.ships[0].report.is_flagship

    @property
    def lineup_text(self) -> str:
        """A squadron's escorts as the builder and the text list say them: "3× Sword Frigate"."""
        return lineup(s.title for s in self.ships) or "no escorts"


def build_roster(
    fleet: rf.Fleet, catalog: core.Catalog, report: ValidationReport
) -> list[RosterUnit]:
    idx = catalog_index(catalog)
    squadrons = 0

    def ship(
        i: int,
        j: int | None,
        slug: str,
        upgrades: tuple[str, ...],
        ship_report: ShipReport,
        admiral: str | None = None,
    ) -> RosterShip:
        entry = idx.ships.get(slug)
        profile, faction = entry if entry else (None, None)
        named: list[tuple[str, int | None]] = [
            (idx.upgrades[u].name, idx.upgrades[u].points) if u in idx.upgrades else (u, None)
            for u in upgrades
        ]
        rank = idx.admirals.get(admiral) if admiral else None
        return RosterShip(
            slug=slug,
            title=profile.name if profile else slug,
            class_label=profile.ship_class.label if profile else "Unknown ship",
            report=ship_report,
            upgrades=named,
            admiral=(rank.name if rank else admiral) if admiral else "",
            problems=report.problems_for(i, j)
            if j is not None
            else tuple(p for p in report.problems if p.unit == i and p.ship is None),
            anchor=f"unit-{i}" if j is None else f"unit-{i}-ship-{j}",
            profile=profile,
            faction=faction.slug if faction else "",
        )

    units = []
    for i, (unit, unit_report) in enumerate(zip(fleet.units, report.units, strict=True)):
        if isinstance(unit, rf.ShipUnit):
            card = ship(i, None, unit.ship, unit.upgrades, unit_report.ships[0], unit.admiral)
            units.append(
                RosterUnit(
                    i, unit.name or card.title, unit.name, False, unit_report.points, [card], ()
                )
            )
        else:
            squadrons += 1
            ships = [
                ship(i, j, s.ship, s.upgrades, unit_report.ships[j])
                for j, s in enumerate(unit.ships)
            ]
            own = tuple(p for p in report.problems if p.unit == i and p.ship is None)
            units.append(
                RosterUnit(
                    i,
                    unit.name or f"Squadron {squadrons}",
                    unit.name,
                    True,
                    unit_report.points,
                    ships,
                    own,
                )
            )
    return units


def roster_context(
    fleet: rf.Fleet, catalog: core.Catalog, *, edition_note: str = ""
) -> dict[str, Any]:
    """Everything the read-only roster template shows of ``fleet``, priced under ``catalog``
    (its edition's, R-160); ``edition_note`` is R-161's note for a list that named none."""
    report = validate(fleet, catalog)
    faction = catalog.faction(fleet.faction)
    variant = faction.variant(fleet.variant) if faction and fleet.variant else None
    unsaved = Fleet(document=rf.fleet_to_dict(fleet))  # problem_rows reads only the document
    return {
        "doc": fleet,
        "report": report,
        "faction_name": faction.name if faction else fleet.faction,
        "variant_name": variant.name if variant else (fleet.variant or ""),
        "band": fleet.band,
        "meter": meter(report.points, fleet.band),
        "problems": problem_rows(unsaved, catalog, report),
        "roster": build_roster(fleet, catalog, report),
        "ship_count": fleet.ship_count,
        "known_faction": faction is not None,
        "edition": _edition(fleet.edition),
        "edition_note": edition_note,
    }


def _edition(number: int | None) -> editions.EditionInfo | None:
    if number is None:
        return None
    try:
        return editions.get(number)
    except editions.UnknownEdition:
        return None
