"""What the builder page shows of a fleet: one summary row per unit, read from its report.

Plain values for the templates; the numbers (points, effective leadership, stats after upgrades)
come from the validator's report, never recomputed here. A unit's editor (its upgrade options,
the squadrons it may move an escort to) is built only for the unit whose editor is open.

An edit re-renders only the units it changed: ``row_states`` gives, per unit, everything its row
shows, so the view compares the states before and after an edit (``changed_rows``) and sends
those rows alone, with the meter and the problems.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.urls import reverse

from rules_core import catalog as core
from rules_core import chatlist
from rules_core import fleet as rf
from rules_core.edits import (
    UpgradeOption,
    not_fielded,
    squadron_has_room,
    squadron_refit_reason,
    upgrade_options,
)
from rules_core.validator import (
    Problem,
    ShipReport,
    ValidationReport,
    catalog_index,
    upgrade_uses,
)

from .models import Fleet


@dataclass
class Stat:
    """One stat of the summary row: its short label, full name (for screen readers), value."""

    label: str
    name: str
    value: str


def ship_stats(profile: core.ShipProfile | None, report: ShipReport) -> list[Stat]:
    """Ld (effective), speed, shields, armour and turrets, with the upgrades' changes in."""
    if profile is None:
        return []
    fx = report.effects
    ld = report.leadership
    return [
        Stat("Ld", "Leadership", str(ld) if ld is not None else "–"),
        Stat("Spd", "Speed", f"{profile.speed_cm + fx.get('speed', 0)} cm"),
        Stat("Sh", "Shields", str(profile.shields + fx.get("shields", 0))),
        Stat("Arm", "Armour", f"{profile.armor + fx.get('armor', 0)}+"),
        Stat("Tur", "Turrets", str(profile.turrets + fx.get("turrets", 0))),
    ]


@dataclass
class Toggle:
    """One upgrade as a box in an open editor: ticked when fitted; greyed, with the reason,
    when it may not be fitted now (R-30, R-31, R-150)."""

    slug: str
    name: str
    points: int | None
    checked: bool
    reason: str = ""  # why it cannot be ticked; "" when it can (a ticked box can always be cleared)
    note: str = ""  # e.g. "on 1 of 3 escorts" for a squadron-wide box


@dataclass
class ShipCard:
    unit: int
    ship: int | None  # index inside a squadron; None for a capital-ship unit
    slug: str
    profile: core.ShipProfile | None
    report: ShipReport
    name: str | None = None
    upgrades: list[tuple[str, str, int | None]] = field(default_factory=list)  # slug, name, pts
    options: list[UpgradeOption] = field(default_factory=list)  # only in an open editor
    problems: tuple[Problem, ...] = ()
    profile_url: str = ""  # the ship's page in the catalogue ("" for a ship it lacks)

    @property
    def anchor(self) -> str:
        return f"unit-{self.unit}" if self.ship is None else f"unit-{self.unit}-ship-{self.ship}"

    @property
    def title(self) -> str:
        return self.profile.name if self.profile else self.slug

    @property
    def class_label(self) -> str:
        return self.profile.ship_class.label if self.profile else "Unknown ship"

    @property
    def stats(self) -> list[Stat]:
        return ship_stats(self.profile, self.report)

    allowed: list[UpgradeOption] = field(default_factory=list)
    refused: list[UpgradeOption] = field(default_factory=list)
    # In an answer to htmx, an escort that reads as an earlier one does (same ship, boxes and
    # reasons) is sent as a mark naming it; builder.js copies that one (pieces.mark_copies).
    copy_of: str = ""
    tools_copy_of: str = ""  # the same for its tools alone (Duplicate, Remove, Move to)

    def __post_init__(self) -> None:
        self.allowed = [o for o in self.options if o.allowed]
        self.refused = [o for o in self.options if not o.allowed]

    @property
    def toggles(self) -> list[Toggle]:
        """The editor's upgrade boxes: every option of a capital ship (greyed with the reason
        when barred); of an escort, the options open to escorts (the squadron lists the rest
        once). Fitted upgrades outside the list (another faction's, unknown) come last, ticked,
        so they can be taken off."""
        fitted = {slug for slug, _, _ in self.upgrades}
        boxes = []
        for o in self.options:
            u = o.upgrade
            if u.slug in fitted:
                boxes.append(Toggle(u.slug, u.name, u.points, True))
            elif self.ship is None or core.ShipClass.ESCORT in u.classes:
                boxes.append(Toggle(u.slug, u.name, u.points, False, o.reason))
        listed = {b.slug for b in boxes}
        for slug, name, pts in self.upgrades:
            if slug not in listed:
                boxes.append(Toggle(slug, name, pts, True))
                listed.add(slug)
        return boxes


@dataclass
class Lineup:
    """Escorts of one type in a squadron, for the row's title (each type links to its ship's
    page) and stats; the text ("3× Sword Frigate") is rules_core.chatlist.lineup's."""

    count: int
    card: ShipCard  # the first of them, for the stats


@dataclass
class Chip:
    name: str
    points: int | None
    count: int = 1
    admiral: bool = False  # the admiral's rank, whose points the unit's total includes


@dataclass
class UnitCard:
    index: int
    kind: str
    name: str | None
    points: int
    ships: list[ShipCard]
    problems: tuple[Problem, ...]
    label: str = ""
    url: str = ""  # the prefix of this unit's edit URLs: /fleets/<pk>/units/<i>/
    open: bool = False  # its editor is shown
    squadron_toggles: list[Toggle] = field(default_factory=list)  # R-151, open squadrons only

    @property
    def anchor(self) -> str:
        return f"unit-{self.index}"

    @property
    def is_squadron(self) -> bool:
        return self.kind == "squadron"

    @property
    def ship_card(self) -> ShipCard:
        return self.ships[0]

    @property
    def is_flagship(self) -> bool:
        return not self.is_squadron and self.ships[0].report.is_flagship

    @property
    def all_problems(self) -> list[Problem]:
        """The unit's own problems and its escorts' (the row shows them all)."""
        return [*self.problems, *(p for s in self.ships for p in s.problems)]

    @property
    def lineup(self) -> list[Lineup]:
        groups: dict[str, Lineup] = {}
        for card in self.ships:
            if card.slug in groups:
                groups[card.slug].count += 1
            else:
                groups[card.slug] = Lineup(1, card)
        return list(groups.values())

    @property
    def lineup_text(self) -> str:
        """A squadron's escorts as the text list and the shared view say them."""
        return chatlist.lineup(card.title for card in self.ships) or "no escorts yet"

    @property
    def admiral(self) -> core.AdmiralRank | None:
        return None if self.is_squadron or not self.ships else self.ships[0].report.admiral

    @property
    def chips(self) -> list[Chip]:
        """The admiral's rank and the upgrades as chips with their points, so the row's total
        adds up; a squadron's alike upgrades are counted together."""
        counted: Counter[tuple[str, int | None]] = Counter(
            (name, pts) for s in self.ships for _, name, pts in s.upgrades
        )
        rank = self.admiral
        admiral = [Chip(rank.name, rank.points, admiral=True)] if rank else []
        return [*admiral, *(Chip(name, pts, n) for (name, pts), n in counted.items())]

    @property
    def plus_one(self) -> str:
        """What "+1" adds: the ship again, or one more escort of the squadron's first type."""
        if not self.is_squadron:
            return self.ships[0].title
        if self.ships and squadron_has_room(len(self.ships)):
            return self.ships[0].title
        return ""

    @property
    def refused(self) -> list[UpgradeOption]:
        """For a squadron, the upgrades its escorts may not take (shown once per squadron); not
        those the first escort carries (its box is ticked, and ticking one leaves this alone)."""
        if not self.ships:
            return []
        fitted = {slug for slug, _, _ in self.ships[0].upgrades}
        return [o for o in self.ships[0].refused if o.upgrade.slug not in fitted]


@dataclass(frozen=True, slots=True)
class SquadronRef:
    index: int
    label: str


@dataclass
class Sheet:
    units: list[UnitCard]
    escorts: list[core.ShipProfile]  # the list's escorts, for "add escort"
    admirals: tuple[core.AdmiralRank, ...]
    squadrons: list[SquadronRef] = field(default_factory=list)  # for "move to"


def _problems_by_unit(report: ValidationReport) -> dict[int | None, list[Problem]]:
    by_unit: dict[int | None, list[Problem]] = {}
    for p in report.problems:
        by_unit.setdefault(p.unit, []).append(p)
    return by_unit


def build_sheet(
    fleet: Fleet,
    catalog: core.Catalog,
    report: ValidationReport,
    *,
    indexes: Iterable[int] | None = None,
    open_unit: int | None = None,
) -> Sheet:
    """The rows of ``indexes`` (every unit when None); ``open_unit``'s with its editor.

    Reads the stored document's dicts (no parse): a row costs the same in any size of fleet.
    """
    idx = catalog_index(catalog)
    doc_units: list[dict[str, Any]] = fleet.document.get("units", [])
    faction = idx.factions.get(fleet.faction)
    unit_problems = _problems_by_unit(report)
    labels = unit_labels(fleet, catalog)
    base = reverse("fleets:units", args=[fleet.pk])
    ships_base = reverse("catalog:factions")

    def card(
        i: int,
        j: int | None,
        entry: dict[str, Any],
        ship_report: ShipReport,
        uses: Mapping[str, int] | None,
    ) -> ShipCard:
        slug = entry["ship"]
        known = idx.ships.get(slug)
        profile = known[0] if known else None
        upgrades = tuple(entry.get("upgrades", ()))
        options = []
        if uses is not None and profile is not None:
            options = upgrade_options(
                catalog, fleet.faction, fleet.variant, profile, upgrades, uses
            )
        named: list[tuple[str, str, int | None]] = [
            (s, idx.upgrades[s].name, idx.upgrades[s].points) if s in idx.upgrades else (s, s, None)
            for s in upgrades
        ]
        problems = tuple(p for p in unit_problems.get(i, ()) if p.ship == j)
        url = f"{ships_base}{known[1].slug}/{slug}/" if known else ""
        return ShipCard(
            i,
            j,
            slug,
            profile,
            ship_report,
            entry.get("name") if j is None else None,
            named,
            options,
            problems,
            url,
        )

    wanted = range(len(doc_units)) if indexes is None else sorted(set(indexes))
    units = []
    for i in wanted:
        unit, unit_report = doc_units[i], report.units[i]
        is_open = i == open_unit
        uses = _uses(doc_units) if is_open else None
        if unit["kind"] == "ship":
            ships = [card(i, None, unit, unit_report.ships[0], uses)]
            own: tuple[Problem, ...] = ()
        else:
            ships = [card(i, j, s, unit_report.ships[j], uses) for j, s in enumerate(unit["ships"])]
            own = tuple(p for p in unit_problems.get(i, ()) if p.ship is None)
        card_ = UnitCard(
            i,
            unit["kind"],
            unit.get("name"),
            unit_report.points,
            ships,
            own,
            labels[i],
            f"{base}{i}/",
            is_open,
        )
        if is_open and unit["kind"] == "squadron" and ships and uses is not None:
            card_.squadron_toggles = squadron_toggles(fleet, catalog, ships, uses)
        units.append(card_)
    escorts = [s for s in faction.ships if s.is_escort] if faction else []
    squadrons = [
        SquadronRef(i, labels[i]) for i, u in enumerate(doc_units) if u["kind"] == "squadron"
    ]
    return Sheet(units, escorts, catalog.admirals, squadrons)


def squadron_toggles(
    fleet: Fleet, catalog: core.Catalog, ships: list[ShipCard], uses: Mapping[str, int]
) -> list[Toggle]:
    """Squadron-wide boxes (R-151), one per option open to escorts: ticked when every escort
    carries it; greyed with rules_core.edits' reason when fitting it to all may not be done."""
    idx = catalog_index(catalog)
    faction = idx.factions.get(fleet.faction)
    if faction is None:
        return []
    escorts = [(c.slug, tuple(s for s, _, _ in c.upgrades)) for c in ships]
    boxes = []
    for u in (*faction.upgrades, *catalog.refits):
        if core.ShipClass.ESCORT not in u.classes:
            continue
        carried = sum(1 for _, taken in escorts if u.slug in taken)
        reason = squadron_refit_reason(u, escorts, uses, fleet.faction, fleet.variant, idx)
        note = f"on {carried} of {len(ships)}" if 0 < carried < len(ships) else ""
        boxes.append(Toggle(u.slug, u.name, u.points, carried == len(ships), reason, note))
    return boxes


def _uses(doc_units: list[dict[str, Any]]) -> Mapping[str, int]:
    """How many ships of the fleet carry each upgrade (for per-fleet limits, R-31)."""
    return upgrade_uses(
        ship.get("upgrades", ())
        for unit in doc_units
        for ship in ((unit,) if unit["kind"] == "ship" else unit["ships"])
    )


class RowState(NamedTuple):
    """Everything a unit's row shows but its position (two rows with equal states look alike)."""

    key: str  # the unit as stored, serialised: rows before and after an edit are paired by it
    label: str  # "Squadron 3" moves with the squadrons before it: sent alone when only it changed
    shown: tuple[Any, ...]  # its problems, its ships' numbers, its points

    def same_row(self, other: RowState) -> bool:
        """Draws the same row, but perhaps for its label."""
        return self.key == other.key and self.shown == other.shown


def row_states(fleet: Fleet, catalog: core.Catalog, report: ValidationReport) -> list[RowState]:
    """Per unit, everything its row shows but its position: entry, label, problems, numbers."""
    by_unit = _problems_by_unit(report)
    labels = unit_labels(fleet, catalog)
    states = []
    for i, (unit, unit_report) in enumerate(
        zip(fleet.document.get("units", []), report.units, strict=True)
    ):
        problems = tuple((p.code, p.message, p.severity, p.ship) for p in by_unit.get(i, ()))
        ships = tuple(
            (
                s.points,
                s.leadership,
                s.is_flagship,
                s.admiral.slug if s.admiral else None,
                tuple(sorted(s.effects.items())),
            )
            for s in unit_report.ships
        )
        key = json.dumps(unit, sort_keys=True, separators=(",", ":"))
        states.append(RowState(key, labels[i], (problems, ships, unit_report.points)))
    return states


@dataclass
class RowChanges:
    """How the rows on the page become the fleet's rows after an edit.

    An edit inserts or removes one run of units at one place (or none, or moves one unit) and
    may change units elsewhere in place (the flag passing from one ship to another, an escort
    moving between squadrons). So the page: removes the rows ``gone`` (old ids), renumbers the
    rows from old index ``shift_from`` on (up to ``shift_until``) by ``shift_by``
    (static/js/builder.js: ids and URLs only), moves the row ``moved`` to its new place,
    inserts the rows ``inserted`` after row ``insert_after`` (-1: at the top), redraws the rows
    ``redrawn`` (new indexes) whose content changed, and gives the rows ``relabelled`` (new
    indexes) whose label alone changed ("Squadron 4" is now "Squadron 3") their new label. A
    removal or a move near the top of a long fleet thus sends no row at all.
    """

    redrawn: list[int]
    inserted: list[int]
    insert_after: int
    gone: list[str]
    shift_from: int
    shift_by: int
    shift_until: int | None = None  # old index the shift stops before (a move); None: the end
    relabelled: list[int] = field(default_factory=list)
    moved: tuple[int, int] | None = None  # a reorder: the row at old index i goes to place j


def _compare(
    before: list[RowState],
    after: list[RowState],
    pairs: Iterable[tuple[int, int]],
    changes: RowChanges,
) -> None:
    """Sort the rows kept (old index, new index) into redrawn, relabelled and untouched."""
    for old, new in pairs:
        if not before[old].same_row(after[new]):
            changes.redrawn.append(new)
        elif before[old].label != after[new].label:
            changes.relabelled.append(new)
    changes.redrawn.sort()
    changes.relabelled.sort()


def _moved(before: list[RowState], after: list[RowState]) -> RowChanges | None:
    """A reorder: one unit moved from i to j, the units between shifting by one place. The page
    moves the rows itself (``moved``, builder.js) and renumbers them, so the answer carries no
    row but those whose content changed, and the squadrons' new labels (a drag from the bottom
    to the top of 40 units sends a few labels)."""
    n = len(before)
    if n != len(after) or n < 2:
        return None
    keys_b, keys_a = [s.key for s in before], [s.key for s in after]
    lo = next((k for k in range(n) if keys_b[k] != keys_a[k]), None)
    if lo is None:
        return None
    hi = next(k for k in range(n - 1, -1, -1) if keys_b[k] != keys_a[k])
    if keys_a[lo] == keys_b[hi] and keys_a[lo + 1 : hi + 1] == keys_b[lo:hi]:
        i, j, by, shifted = hi, lo, 1, range(lo, hi)  # moved up from hi to lo
    elif keys_a[hi] == keys_b[lo] and keys_a[lo:hi] == keys_b[lo + 1 : hi + 1]:
        i, j, by, shifted = lo, hi, -1, range(lo + 1, hi + 1)  # moved down from lo to hi
    else:
        return None
    changes = RowChanges(
        redrawn=[],
        inserted=[],
        insert_after=-1,
        gone=[],
        shift_from=shifted.start,
        shift_by=by,
        shift_until=shifted.stop,
        moved=(i, j),
    )
    _compare(
        before,
        after,
        [(i, j), *((k, k + by) for k in shifted), *((k, k) for k in range(n) if not lo <= k <= hi)],
        changes,
    )
    return changes


def _run_at(keys_b: list[str], keys_a: list[str], near: int | None) -> int:
    """Where (old index) the edit inserted or removed its run of units: the place that leaves
    the fewest other rows changed; of equals (alike units side by side), for a removal the one
    nearest ``near`` (the unit the edit was about: its row goes), then the last (the fewest
    rows renumbered; a copy goes after its original)."""
    n_b, d = len(keys_b), len(keys_a) - len(keys_b)
    removed = max(-d, 0)
    places = range(n_b - removed + 1)
    # differ_before[p]: rows before p changed; differ_after[q]: rows from old q on changed.
    differ_before = [0]
    for k in range(places.stop - 1):
        differ_before.append(differ_before[-1] + (keys_b[k] != keys_a[k]))
    differ_after = [0] * (n_b + 1)
    for k in range(n_b - 1, removed - 1, -1):
        differ_after[k] = differ_after[k + 1] + (keys_b[k] != keys_a[k + d])
    return min(
        places,
        key=lambda p: (
            differ_before[p] + differ_after[p + removed],
            abs(p - near) if near is not None and removed else 0,
            -p,
        ),
    )


def changed_rows(
    before: list[RowState], after: list[RowState], near: int | None = None
) -> RowChanges:
    """What the page must do to show ``after`` instead of ``before`` (see RowChanges)."""
    moved = _moved(before, after)
    if moved is not None:
        return moved
    n_b, n_a = len(before), len(after)
    d = n_a - n_b
    if d == 0:
        changes = RowChanges(
            redrawn=[], inserted=[], insert_after=-1, gone=[], shift_from=n_b, shift_by=0
        )
        _compare(before, after, ((k, k) for k in range(n_b)), changes)
        return changes
    p = _run_at([s.key for s in before], [s.key for s in after], near)
    removed = max(-d, 0)
    changes = RowChanges(
        redrawn=[],
        inserted=list(range(p, p + max(d, 0))),
        insert_after=p - 1,
        gone=[f"unit-{k}" for k in range(p, p + removed)],
        shift_from=p + removed,
        shift_by=d if p + removed < n_b else 0,
    )
    _compare(
        before,
        after,
        [*((k, k) for k in range(p)), *((k, k + d) for k in range(p + removed, n_b))],
        changes,
    )
    return changes


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
    groups = []
    for cls in core.CLASS_ORDER:
        ships = [(s, not_fielded(variant, s)) for s in faction.ships if s.ship_class is cls]
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
    """One problem as the panel lists it, with every place it occurs: the same problem of
    many units ("This squadron has 1 escort…" on 40 squadrons) is one row linking to each, so
    the panel, sent with every edit, does not grow with the fleet."""

    problem: Problem
    places: list[tuple[str, str]]  # (href, where): "" for a problem of the whole fleet

    @property
    def href(self) -> str:
        return self.places[0][0]

    @property
    def where(self) -> str:
        return self.places[0][1]


def problem_rows(fleet: Fleet, catalog: core.Catalog, report: ValidationReport) -> list[ProblemRow]:
    """Each problem with a link to the card of the unit (or escort) it concerns; alike ones
    (same code, message and severity) as one row."""
    idx = catalog_index(catalog)
    units = fleet.document.get("units", [])
    labels = unit_labels(fleet, catalog)
    rows: dict[tuple[str, str, str], ProblemRow] = {}
    for p in report.problems:
        if p.unit is None or p.unit >= len(units):
            place = ("", "Fleet")
        else:
            unit = units[p.unit]
            where = labels[p.unit]
            if unit["kind"] == "squadron" and p.ship is not None and p.ship < len(unit["ships"]):
                where += f": {idx.ship_name(unit['ships'][p.ship]['ship'])}"
            place = (
                f"#unit-{p.unit}" if p.ship is None else f"#unit-{p.unit}-ship-{p.ship}",
                where,
            )
        key = (p.code, p.message, p.severity)
        if key in rows:
            rows[key].places.append(place)
        else:
            rows[key] = ProblemRow(p, [place])
    return list(rows.values())


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
