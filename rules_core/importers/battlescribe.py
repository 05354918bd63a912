"""A BattleScribe or New Recruit roster made into a fleet of this game, with the import report
(R-190).

:func:`import_roster` takes a read :class:`~.roster.Roster`, a catalogue (of the edition the
fleet is made under) and the :mod:`crosswalk`, and gives the fleet and a report of every
selection: what it became (matched by the entry's id in the crosswalk, or by its name), or why
it was left out, with the roster's own points beside this catalogue's, per unit and in total.
Nothing is refused for an unmatched selection: the rest is imported and the report says what was
left out. No Django here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.validator import ValidationReport, validate

from .crosswalk import Crosswalk, Entry, Kind, name_key
from .roster import Force, Roster, RosterError, Selection

# Matched how: the crosswalk's record of this entry id, or the name alone.
BY_ID, BY_NAME, NOT_MATCHED, IGNORED = "id", "name", "none", "ignored"


@dataclass(frozen=True, slots=True)
class ImportLine:
    """One selection of the roster and what became of it."""

    depth: int  # 0: a force's own selection
    name: str  # as the roster shows it (its custom name first)
    number: int
    status: str  # BY_ID, BY_NAME, NOT_MATCHED or IGNORED
    became: str  # what it is here ("Gothic Class Cruiser", "Vice Admiral", ...), or ""
    reason: str  # why it was left out or changed, for the player; "" when it simply matched
    roster_points: float  # its own cost in the roster


@dataclass(frozen=True, slots=True)
class UnitPoints:
    """A unit of the fleet made, with the roster's points for what it came from and ours."""

    label: str
    roster_points: float
    points: int

    @property
    def difference(self) -> int:
        return self.points - round(self.roster_points)


@dataclass(frozen=True, slots=True)
class ImportReport:
    roster_name: str
    form: str  # "ros", "rosz" or "json"
    force: str  # the force imported
    faction: str
    variant: str | None
    lines: tuple[ImportLine, ...]
    units: tuple[UnitPoints, ...]
    roster_points: float  # the roster's total, as it states it or as its costs add up
    points: int  # this catalogue's total for the fleet made
    left_out_forces: tuple[str, ...] = ()
    crosswalk_commit: str = ""

    @property
    def difference(self) -> int:
        return self.points - round(self.roster_points)

    @property
    def not_matched(self) -> tuple[ImportLine, ...]:
        return tuple(line for line in self.lines if line.status == NOT_MATCHED)

    def to_dict(self) -> dict[str, object]:
        return {
            "roster": self.roster_name,
            "format": self.form,
            "force": self.force,
            "faction": self.faction,
            "variant": self.variant,
            "roster_points": self.roster_points,
            "points": self.points,
            "difference": self.difference,
            "left_out_forces": list(self.left_out_forces),
            "crosswalk": {
                "repository": "BSData/battlefleetgothic",
                "commit": self.crosswalk_commit,
            },
            "units": [
                {
                    "unit": u.label,
                    "roster_points": u.roster_points,
                    "points": u.points,
                    "difference": u.difference,
                }
                for u in self.units
            ],
            "selections": [
                {
                    "depth": line.depth,
                    "name": line.name,
                    "number": line.number,
                    "status": line.status,
                    "became": line.became,
                    "reason": line.reason,
                    "roster_points": line.roster_points,
                }
                for line in self.lines
            ],
        }


@dataclass(frozen=True, slots=True)
class RosterImport:
    fleet: rf.Fleet
    report: ImportReport
    validation: ValidationReport


@dataclass
class _Ship:
    slug: str
    name: str | None
    escort: bool
    upgrades: list[str] = field(default_factory=list)
    admiral: str | None = None
    roster_points: float = 0.0  # its share of the roster's cost: what it came from, over N


@dataclass
class _Walk:
    crosswalk: Crosswalk
    catalog: core.Catalog
    faction: core.Faction
    catalogue_name: str
    lines: list[ImportLine] = field(default_factory=list)
    capitals: list[_Ship] = field(default_factory=list)
    squadrons: list[tuple[str | None, list[_Ship]]] = field(default_factory=list)
    loose_commanders: list[tuple[str, Selection]] = field(default_factory=list)


def import_roster(
    roster: Roster, catalog: core.Catalog, crosswalk: Crosswalk, *, edition: int | None = None
) -> RosterImport:
    """The fleet the roster's first force with a counterpart makes, its import report and its
    validation; RosterError when no force of it has a counterpart here."""
    chosen: tuple[Force, core.Faction, str | None] | None = None
    left_out = []
    for force in roster.forces:
        faction, variant, reason = _faction_of(force, catalog, crosswalk)
        if chosen is None and faction is not None:
            chosen = (force, faction, variant)
        else:
            why = reason or "a fleet here has one faction, so only the first force is imported"
            left_out.append(f"{force.name or force.catalogue_name}: {why}")
    if chosen is None:
        raise RosterError("Nothing in this roster has a counterpart here: " + "; ".join(left_out))
    force, faction, variant = chosen
    walk = _Walk(crosswalk, catalog, faction, force.catalogue_name)
    for selection in force.selections:
        _take(walk, selection, 0, squadron=None)
    _seat_commanders(walk)
    units: list[rf.Unit] = []
    sources: list[tuple[str, float]] = []
    for ship in walk.capitals:
        units.append(
            rf.ShipUnit(
                ship=ship.slug,
                name=ship.name,
                flagship=ship.admiral is not None,
                admiral=ship.admiral,
                upgrades=tuple(ship.upgrades),
            )
        )
        sources.append((ship.name or _ship_name(walk, ship.slug), ship.roster_points))
    for name, ships in walk.squadrons:
        units.append(
            rf.Squadron(
                ships=tuple(rf.SquadronShip(s.slug, tuple(s.upgrades)) for s in ships), name=name
            )
        )
        label = name or f"{len(ships)} × {_ship_name(walk, ships[0].slug)}"
        sources.append((label, sum(s.roster_points for s in ships)))
    fleet = rf.Fleet(
        faction=faction.slug,
        game_size=rf.GameSize.BATTLE,
        units=tuple(units),
        name=(roster.name or force.name or "Imported roster")[: rf.MAX_NAME_LENGTH],
        variant=variant,
        edition=edition,
    )
    first = validate(fleet, catalog)
    size, band = _size_for(first.points, roster.points_limit)
    fleet = replace(fleet, game_size=size, points_limit=band)
    validation = validate(fleet, catalog)
    unit_points = tuple(
        UnitPoints(label, round(roster_points, 2), report.points)
        for (label, roster_points), report in zip(sources, validation.units, strict=True)
    )
    stated = (
        roster.points
        if roster.points is not None
        else sum(s.total_points for f in roster.forces for s in f.selections)
    )
    report = ImportReport(
        roster_name=roster.name,
        form=roster.format,
        force=force.name or force.catalogue_name,
        faction=faction.slug,
        variant=variant,
        lines=tuple(walk.lines),
        units=unit_points,
        roster_points=stated,
        points=validation.points,
        left_out_forces=tuple(left_out),
        crosswalk_commit=crosswalk.commit,
    )
    return RosterImport(fleet, report, validation)


def _size_for(points: int, limit: float | None) -> tuple[rf.GameSize, rf.PointsBand | None]:
    """The game size whose band holds the roster's points limit (else the fleet's points);
    a custom band at the limit when none does (R-190)."""
    target = round(limit) if limit else points
    for size, band in rf.POINTS_BANDS.items():
        if target in band:
            return size, None
    top = max(target, 1)
    return rf.GameSize.CUSTOM, rf.PointsBand("custom", 0, min(top, rf.MAX_POINTS_LIMIT))


def _faction_of(
    force: Force, catalog: core.Catalog, crosswalk: Crosswalk
) -> tuple[core.Faction | None, str | None, str]:
    """The faction and variant a force becomes (its fleet list, else its catalogue, else its
    catalogue's name), or None and the reason."""
    listed = crosswalk.forces.get(force.entry_id)
    slug: str | None
    variant: str | None = None
    reason = ""
    if listed is not None:
        slug, variant, reason = listed.faction, listed.variant, listed.reason
    elif force.catalogue_id in crosswalk.catalogues:
        slug = crosswalk.catalogues[force.catalogue_id]
        reason = "" if slug else f"the {force.catalogue_name} catalogue has no counterpart here"
    else:
        key = name_key(force.catalogue_name)
        slug = next((f.slug for f in catalog.factions if name_key(f.name) == key), None)
        reason = (
            ""
            if slug
            else f"the {force.catalogue_name or 'unnamed'} catalogue is not one this importer knows"
        )
    faction = catalog.faction(slug) if slug else None
    if slug and faction is None:
        reason = f"this edition has no {slug} fleet"
    if faction is not None and variant and faction.variant(variant) is None:
        variant = None
    return faction, variant, reason


def _resolve(walk: _Walk, selection: Selection) -> tuple[Entry | None, str]:
    """The crosswalk's entry for a selection: by its entry id, else by its name (ships first,
    then commanders, then upgrades); and how it was found."""
    entry = walk.crosswalk.entries.get(selection.entry_id)
    if entry is not None:
        return entry, BY_ID
    kinds: Sequence[Kind] = ("ship", "commander", "upgrade")
    for kind in kinds:
        found = walk.crosswalk.by_name(kind, selection.name, walk.catalogue_name)
        if found is not None:
            return found, BY_NAME
    return None, NOT_MATCHED


def _line(
    walk: _Walk, selection: Selection, depth: int, status: str, became: str = "", reason: str = ""
) -> None:
    walk.lines.append(
        ImportLine(
            depth, selection.label, selection.number, status, became, reason, selection.points
        )
    )


def _ship_name(walk: _Walk, slug: str) -> str:
    ship = walk.faction.ship(slug)
    return ship.name if ship else slug


def _own_ship(walk: _Walk, selection: Selection, entry: Entry | None) -> str | None:
    """The faction's ship a selection is: the crosswalk's target when it is this faction's,
    else one of the faction's ships with the same name."""
    if (
        entry is not None
        and entry.kind == "ship"
        and entry.target
        and walk.faction.ship(entry.target) is not None
    ):
        return entry.target
    key = name_key(selection.name)
    return next((s.slug for s in walk.faction.ships if name_key(s.name) == key), None)


def _take(
    walk: _Walk, selection: Selection, depth: int, squadron: tuple[str | None, list[_Ship]] | None
) -> None:
    entry, how = _resolve(walk, selection)
    slug = _own_ship(walk, selection, entry)
    if (
        slug is None
        and how == NOT_MATCHED
        and name_key(selection.name)
        and any(name_key(s.name) == name_key(selection.name) for s in walk.faction.ships)
    ):
        how = BY_NAME
    if slug is not None:
        _take_ship(
            walk,
            selection,
            depth,
            slug,
            BY_NAME if entry is None or entry.target != slug else how,
            squadron,
        )
        return
    if entry is not None and entry.kind == "ship":
        reason = entry.reason or (
            f"the {entry.name} is a {entry.faction} ship here, not a {walk.faction.name} one"
            if entry.target
            else "no counterpart here"
        )
        _line(walk, selection, depth, NOT_MATCHED, reason=f"Left out: {reason}.")
        return
    if entry is not None and entry.kind == "commander":
        if entry.target and walk.catalog.admiral(entry.target) is not None:
            walk.loose_commanders.append((entry.target, selection))
            _line(
                walk,
                selection,
                depth,
                how,
                _rank_name(walk, entry.target),
                "Commands the flagship: the most expensive capital ship.",
            )
        else:
            _line(walk, selection, depth, NOT_MATCHED, reason=f"Left out: {entry.reason}.")
        return
    children_ships = any(
        _own_ship(walk, s, _resolve(walk, s)[0]) is not None for s in selection.selections
    )
    if children_ships:  # a container: an escort squadron, a reserve, a detachment
        group: tuple[str | None, list[_Ship]] = (
            (selection.custom_name or None, []) if squadron is None else squadron
        )
        _line(
            walk,
            selection,
            depth,
            IGNORED,
            "",
            "A group of the roster: its escorts make one squadron here.",
        )
        for child in selection.selections:
            _take(walk, child, depth + 1, group)
        if group[1]:
            group[1][0].roster_points += selection.points  # the group's own cost, if any
        if squadron is None and group[1]:
            walk.squadrons.append(group)
        return
    if entry is None:
        _line(
            walk,
            selection,
            depth,
            NOT_MATCHED if selection.points else IGNORED,
            reason="Left out: no entry of this name in the BSData catalogues this importer knows."
            if selection.points
            else "A choice of the roster with no cost: nothing to import.",
        )
        return
    _line(
        walk,
        selection,
        depth,
        NOT_MATCHED if selection.points else IGNORED,
        reason=f"Left out: {entry.reason}." if entry.reason else "Left out.",
    )


def _take_ship(
    walk: _Walk,
    selection: Selection,
    depth: int,
    slug: str,
    how: str,
    squadron: tuple[str | None, list[_Ship]] | None,
) -> None:
    profile = walk.faction.ship(slug)
    assert profile is not None
    escort = profile.ship_class is core.ShipClass.ESCORT
    _line(
        walk,
        selection,
        depth,
        how,
        profile.name,
        "" if selection.number == 1 else f"{selection.number} ships.",
    )
    share = selection.total_points / max(selection.number, 1)
    made = [
        _Ship(
            slug, None if escort else (selection.custom_name or None), escort, roster_points=share
        )
        for _ in range(max(selection.number, 0))
    ]
    for child in selection.selections:
        _take_on_ship(walk, child, depth + 1, made)
    if not escort:
        walk.capitals.extend(made)
        return
    if squadron is not None:
        squadron[1].extend(made)
        return
    walk.squadrons.append((selection.custom_name or None, made))


def _take_on_ship(walk: _Walk, selection: Selection, depth: int, ships: list[_Ship]) -> None:
    """A selection under a ship: a commander, a refit, an upgrade, or an option of BFG's."""
    entry, how = _resolve(walk, selection)
    if entry is not None and entry.kind == "commander":
        if (
            entry.target
            and walk.catalog.admiral(entry.target) is not None
            and ships
            and not ships[0].escort
        ):
            ships[0].admiral = entry.target
            _line(
                walk,
                selection,
                depth,
                how,
                _rank_name(walk, entry.target),
                "Commands this ship, the flagship.",
            )
        else:
            _line(
                walk,
                selection,
                depth,
                NOT_MATCHED,
                reason=f"Left out: {entry.reason or 'an escort cannot carry the admiral'}.",
            )
        for child in selection.selections:
            _take_on_ship(walk, child, depth + 1, ships)
        return
    target = entry.target if entry is not None and entry.kind == "upgrade" else None
    upgrade = _upgrade(walk, target) if target else None
    if upgrade is None and entry is None:  # an entry the crosswalk lacks: this game's names
        key = name_key(selection.name)
        upgrade = next(
            (u for u in (*walk.catalog.refits, *walk.faction.upgrades) if name_key(u.name) == key),
            None,
        )
        how = BY_NAME
    if upgrade is not None:
        for ship in ships:
            ship.upgrades.append(upgrade.slug)
        _line(walk, selection, depth, how, upgrade.name)
    elif selection.points:
        reason = (
            entry.reason
            if entry is not None and entry.reason
            else "no counterpart here: this game's ships carry fixed weapons and refits"
        )
        _line(walk, selection, depth, NOT_MATCHED, reason=f"Left out: {reason}.")
    else:
        _line(
            walk,
            selection,
            depth,
            IGNORED,
            reason="A choice of the roster with no cost: nothing to import.",
        )
    for child in selection.selections:
        _take_on_ship(walk, child, depth + 1, ships)


def _upgrade(walk: _Walk, slug: str) -> core.Upgrade | None:
    for upgrade in (*walk.catalog.refits, *walk.faction.upgrades):
        if upgrade.slug == slug:
            return upgrade
    return None


def _rank_name(walk: _Walk, slug: str) -> str:
    rank = walk.catalog.admiral(slug)
    return rank.name if rank else slug


def _seat_commanders(walk: _Walk) -> None:
    """A commander bought apart from any ship commands the most expensive capital ship without
    one (R-190); with none, it is left out."""
    for rank, selection in walk.loose_commanders:
        free = [s for s in walk.capitals if s.admiral is None]
        if any(s.admiral for s in walk.capitals) or not free:
            walk.lines.append(
                ImportLine(
                    0,
                    selection.label,
                    selection.number,
                    NOT_MATCHED,
                    "",
                    "Left out: the fleet has its admiral already, or no capital ship to carry one.",
                    selection.points,
                )
            )
            continue
        flagship = max(free, key=lambda s: _points_of(walk, s.slug))
        flagship.admiral = rank
        flagship.roster_points += selection.total_points


def _points_of(walk: _Walk, slug: str) -> int:
    ship = walk.faction.ship(slug)
    return ship.points if ship else 0
