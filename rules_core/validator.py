"""The fleet validator: a report listing every problem (contract 2), never an exception.

``validate(fleet, catalog)`` also works out what the cards and the simulator need: each unit's
and ship's points, each ship's effective leadership (R-06) and victory-point value (R-13). The
catalogue is read through a per-catalogue index of dicts, built once (see ``catalog_index``).
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules_core.catalog import (
    CLASS_ORDER,
    AdmiralRank,
    Catalog,
    CompositionRule,
    Faction,
    RuleKind,
    Selector,
    ShipClass,
    ShipProfile,
    Upgrade,
    Variant,
    WeaponType,
)
from rules_core.fleet import Fleet, FleetFormatError, PointsBand, ShipUnit, Squadron
from rules_core.limits import points_message, points_over

LEADERSHIP_CAP = 10  # nothing exceeds 10
SQUADRON_MIN = 2
SQUADRON_MAX = 4


class Severity(StrEnum):
    ERROR = "error"  # the fleet is not legal
    WARNING = "warning"  # worth a look; the fleet stays legal


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    message: str
    severity: Severity = Severity.ERROR
    unit: int | None = None  # 0-based index into fleet.units
    ship: int | None = None  # 0-based index into a squadron's ships

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "unit": self.unit,
            "ship": self.ship,
        }


@dataclass(frozen=True, slots=True)
class ShipReport:
    """One ship as the fleet fields it; ``profile`` is None for a slug the catalogue lacks."""

    ship: str
    profile: ShipProfile | None
    points: int  # hull + known upgrades + admiral
    leadership: int | None  # effective Ld, capped at 10; None if unknown ship
    is_flagship: bool = False
    admiral: AdmiralRank | None = None
    upgrades: tuple[Upgrade, ...] = ()  # the known upgrades, in file order
    effects: Mapping[str, int] = field(default_factory=dict)  # summed upgrade stat changes

    @property
    def victory_points(self) -> int:
        """What destroying it is worth: its full cost with upgrades and admiral (R-13)."""
        return self.points

    def to_dict(self) -> dict[str, Any]:
        return {
            "ship": self.ship,
            "points": self.points,
            "victory_points": self.victory_points,
            "leadership": self.leadership,
            "flagship": self.is_flagship,
            "admiral": self.admiral.slug if self.admiral else None,
            "upgrades": [u.slug for u in self.upgrades],
            "effects": dict(self.effects),
        }


@dataclass(frozen=True, slots=True)
class UnitReport:
    kind: str  # "ship" or "squadron"
    ships: tuple[ShipReport, ...]
    points: int

    @property
    def victory_points(self) -> int:
        """A unit is worth the sum of its ships (R-13, R-34)."""
        return self.points

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "points": self.points,
            "victory_points": self.victory_points,
            "ships": [s.to_dict() for s in self.ships],
        }


@dataclass(frozen=True, slots=True)
class ValidationReport:
    points: int
    band: PointsBand | None
    problems: tuple[Problem, ...]
    units: tuple[UnitReport, ...] = ()

    @property
    def legal(self) -> bool:
        return not any(p.severity is Severity.ERROR for p in self.problems)

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.WARNING)

    @property
    def codes(self) -> list[str]:
        return [p.code for p in self.problems]

    def problems_for(self, unit: int, ship: int | None = None) -> tuple[Problem, ...]:
        return tuple(
            p for p in self.problems if p.unit == unit and (ship is None or p.ship == ship)
        )

    @property
    def leadership(self) -> int | None:
        """The fleet's highest effective Ld, used in the Command Phase (R-08)."""
        values = [s.leadership for u in self.units for s in u.ships if s.leadership is not None]
        return max(values, default=None)

    def to_dict(self) -> dict[str, Any]:
        """Contract 2, exactly."""
        return {
            "legal": self.legal,
            "points": self.points,
            "band": None if self.band is None else self.band.to_dict(),
            "problems": [p.to_dict() for p in self.problems],
        }

    def details_dict(self) -> dict[str, Any]:
        """Contract 2 plus ``units``: points, victory points and leadership per unit and ship."""
        return {**self.to_dict(), "units": [u.to_dict() for u in self.units]}

    @classmethod
    def for_format_error(cls, error: FleetFormatError) -> ValidationReport:
        """The report for a file that is not a fleet file at all: one ``format.invalid``."""
        where = f" (at {error.path})" if error.path else ""
        return cls(
            points=0,
            band=None,
            problems=(
                Problem("format.invalid", f"Not a usable fleet file{where}: {error.message}"),
            ),
        )


# --- the catalogue index ------------------------------------------------------------------


class CatalogIndex:
    """Dict lookups over one catalogue, built once per catalogue object."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.factions: dict[str, Faction] = {f.slug: f for f in catalog.factions}
        self.ships: dict[str, tuple[ShipProfile, Faction]] = {
            s.slug: (s, f) for f in catalog.factions for s in f.ships
        }
        self.upgrades: dict[str, Upgrade] = {u.slug: u for u in catalog.refits}
        for f in catalog.factions:
            self.upgrades.update((u.slug, u) for u in f.upgrades)
        self.admirals: dict[str, AdmiralRank] = {a.slug: a for a in catalog.admirals}
        self.variants: dict[tuple[str, str], Variant] = {
            (f.slug, v.slug): v for f in catalog.factions for v in f.variants
        }
        self._selected: dict[Selector, frozenset[str]] = {}

    def selected(self, selector: Selector) -> frozenset[str]:
        """Slugs of every catalogue ship the selector matches (cached per selector)."""
        found = self._selected.get(selector)
        if found is None:
            found = frozenset(s for s, (p, _) in self.ships.items() if selector.matches(p))
            self._selected[selector] = found
        return found

    def ship_name(self, slug: str) -> str:
        entry = self.ships.get(slug)
        return entry[0].name if entry else repr(slug)


_INDEXES: OrderedDict[int, CatalogIndex] = OrderedDict()
_INDEX_CACHE_SIZE = 8


def catalog_index(catalog: Catalog) -> CatalogIndex:
    """The lookup index of ``catalog``; the few most recent catalogues are kept.

    Keyed by identity: a Catalog is immutable, so one object always has the same index.
    """
    key = id(catalog)
    index = _INDEXES.get(key)
    if index is not None and index.catalog is catalog:
        _INDEXES.move_to_end(key)
        return index
    index = CatalogIndex(catalog)
    _INDEXES[key] = index
    while len(_INDEXES) > _INDEX_CACHE_SIZE:
        _INDEXES.popitem(last=False)
    return index


# --- wording -----------------------------------------------------------------------------

_CLASS_PLURALS = {c: c.label.lower() + "s" for c in ShipClass}
_CLASS_PLURALS[ShipClass.ESCORT] = "escorts"


def _classes_phrase(classes: Iterable[ShipClass]) -> str:
    names = [_CLASS_PLURALS[c] for c in sorted(classes, key=CLASS_ORDER.index)]
    return _or_list(names)


def _or_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _selector_phrase(selector: Selector, idx: CatalogIndex, count: int = 2) -> str:
    """The ships a selector names, in the plural unless ``count`` is 1."""
    one = count == 1
    classes = sorted(selector.classes, key=CLASS_ORDER.index)
    parts = [c.label.lower() if one else _CLASS_PLURALS[c] for c in classes]
    parts += [idx.ship_name(s) + ("" if one else "s") for s in sorted(selector.ships)]
    parts += [f"'{t}' ship{'' if one else 's'}" for t in sorted(selector.tags)]
    return _or_list(parts)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


# --- per-fleet limits of upgrades (R-31) --------------------------------------------------


def upgrade_uses(ships_upgrades: Iterable[Iterable[str]]) -> Counter[str]:
    """How many ships of a fleet carry each upgrade, from each ship's upgrade slugs."""
    return Counter(slug for upgrades in ships_upgrades for slug in upgrades)


def past_limit(upgrade: Upgrade, uses: int) -> bool:
    """Whether ``uses`` ships carrying ``upgrade`` pass its ``max_per_fleet`` (R-31)."""
    return upgrade.max_per_fleet is not None and uses > upgrade.max_per_fleet


def limit_sentence(upgrade: Upgrade) -> str:
    """ "A fleet may take Nova Refit at most once": how every refusal of R-31's limit begins."""
    assert upgrade.max_per_fleet is not None
    return f"A fleet may take {upgrade.name} at most {_times(upgrade.max_per_fleet)}"


# --- composition rules -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleTally:
    """One composition rule measured against a fleet."""

    rule: CompositionRule
    actual: int  # matching ships, or their points for a share rule
    limit: float  # the most allowed, or for min_count the fewest needed
    per_actual: int | None = None  # ships counted by ``per`` (max_per)

    @property
    def ok(self) -> bool:
        if self.rule.kind is RuleKind.MIN_COUNT:
            return self.actual >= self.limit
        return self.actual <= self.limit + 1e-9


def tally_rule(
    rule: CompositionRule,
    idx: CatalogIndex,
    ships: Sequence[tuple[str, int]],
    total: int,
    band: PointsBand,
) -> RuleTally:
    """Measure ``rule`` on ``ships`` (slug, full cost) of known profiles (R-27, R-28, R-29)."""
    subject = idx.selected(rule.subject)
    kind = rule.kind
    if kind is RuleKind.MAX_POINTS_SHARE:
        spent = sum(cost for slug, cost in ships if slug in subject)
        return RuleTally(rule, spent, (rule.share or 0.0) * total)
    count = sum(1 for slug, _ in ships if slug in subject)
    if kind is RuleKind.MAX_PER:
        assert rule.per is not None and rule.per_count and rule.max is not None
        per = idx.selected(rule.per)
        per_count = sum(1 for slug, _ in ships if slug in per)
        return RuleTally(rule, count, rule.max * (per_count // rule.per_count), per_count)
    if kind is RuleKind.MAX_PER_POINTS:
        assert rule.per_points and rule.max is not None
        return RuleTally(rule, count, rule.max * (band.max // rule.per_points))
    if kind is RuleKind.MAX_COUNT:
        return RuleTally(rule, count, rule.max or 0)
    return RuleTally(rule, count, rule.min or 0)  # MIN_COUNT


def _rule_message(t: RuleTally, idx: CatalogIndex, band: PointsBand, total: int) -> str:
    rule = t.rule
    subject = _selector_phrase(rule.subject, idx, t.actual)
    head = _sentence(rule.text)
    limit = int(t.limit)
    if rule.kind is RuleKind.MAX_PER:
        assert rule.per is not None and t.per_actual is not None
        per = _selector_phrase(rule.per, idx, t.per_actual)
        return (
            f"{head} This fleet has {t.actual} {subject} and {t.per_actual} {per}, "
            f"which allows {limit}."
        )
    if rule.kind is RuleKind.MAX_PER_POINTS:
        return (
            f"{head} This fleet has {t.actual} {subject}; the {band.label} band's "
            f"{band.max} points allow {limit}."
        )
    if rule.kind is RuleKind.MAX_COUNT:
        return f"{head} This fleet has {t.actual} {subject}; at most {limit} may be taken."
    if rule.kind is RuleKind.MIN_COUNT:
        return f"{head} This fleet has {t.actual} {subject}; it needs at least {limit}."
    share = round(100 * (rule.share or 0))
    actual_share = round(100 * t.actual / total) if total else 0
    return (
        f"{head} {_selector_phrase(rule.subject, idx).capitalize()} cost {t.actual} of "
        f"the fleet's {total} points ({actual_share}%); at most {share}% is allowed."
    )


# --- upgrades ----------------------------------------------------------------------------


def upgrade_refusal(
    upgrade: Upgrade, profile: ShipProfile, faction: str, variant: str | None, idx: CatalogIndex
) -> tuple[str, str] | None:
    """Why ``profile`` may not take ``upgrade`` in this fleet: (code, message), or None (R-30,
    R-150)."""
    refusal = _faction_refusal(upgrade, faction, idx)
    if refusal is not None:
        return refusal
    if profile.ship_class not in upgrade.classes:
        return (
            "upgrade.not_allowed",
            f"{upgrade.name} is for {_classes_phrase(upgrade.classes)} only; "
            f"{profile.name} is {_a(profile.ship_class.label.lower())}.",
        )
    if upgrade.variants and variant not in upgrade.variants:
        names = [_variant_name(faction, v, idx) for v in sorted(upgrade.variants)]
        return ("upgrade.not_allowed", f"{upgrade.name} is only for {_or_list(names)} fleets.")
    if not upgrade.takes(profile):
        return (
            "upgrade.prerequisite",
            f"{upgrade.name} needs a ship with {_weapons_phrase(upgrade.requires_weapon)}; "
            f"{profile.name} has none.",
        )
    return None


_WEAPON_PHRASES = {
    WeaponType.LAUNCH_BAY: "a launch bay",
    WeaponType.BATTERY: "weapons batteries",
    WeaponType.LANCE: "lances",
    WeaponType.TORPEDO: "torpedoes",
    WeaponType.NOVA_CANNON: "a nova cannon",
    WeaponType.SPECIAL: "a special weapon",
}


def _weapons_phrase(types: Iterable[WeaponType]) -> str:
    order = list(WeaponType)
    return _or_list([_WEAPON_PHRASES[t] for t in sorted(types, key=order.index)])


def _faction_refusal(upgrade: Upgrade, faction: str, idx: CatalogIndex) -> tuple[str, str] | None:
    """Another known faction's upgrade; with an unknown fleet faction nothing can be said."""
    if upgrade.faction is None or upgrade.faction == faction or faction not in idx.factions:
        return None
    owner = idx.factions[upgrade.faction].name
    return (
        "faction.mismatch",
        f"{upgrade.name} is an upgrade of the {owner} list, not of {idx.factions[faction].name}.",
    )


def _variant_name(faction: str, slug: str, idx: CatalogIndex) -> str:
    variant = idx.variants.get((faction, slug))
    return variant.name if variant else slug


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


# --- the validator -----------------------------------------------------------------------


def validate(fleet: Fleet, catalog: Catalog) -> ValidationReport:
    """Every problem of ``fleet`` against ``catalog``; never raises on an illegal fleet."""
    return _Validation(fleet, catalog_index(catalog)).run()


class _Validation:
    def __init__(self, fleet: Fleet, idx: CatalogIndex) -> None:
        self.fleet = fleet
        self.idx = idx
        self.problems: list[Problem] = []
        self.faction = idx.factions.get(fleet.faction)
        self.variant: Variant | None = None
        # (slug, full cost) of every known ship, for composition rules
        self.known: list[tuple[str, int]] = []
        self.upgrade_uses: Counter[str] = Counter()
        self.upgrade_over: dict[str, tuple[int, int | None]] = {}  # first place past the limit
        self.unique_seen: set[str] = set()

    def add(
        self,
        code: str,
        message: str,
        unit: int | None = None,
        ship: int | None = None,
        severity: Severity = Severity.ERROR,
    ) -> None:
        self.problems.append(Problem(code, message, severity, unit, ship))

    def run(self) -> ValidationReport:
        fleet = self.fleet
        self.check_faction()
        head = len(self.problems)  # the points verdict goes right after the list's own problems
        flagship_at = self.check_flagship()
        units = []
        for i, unit in enumerate(fleet.units):
            if isinstance(unit, ShipUnit):
                units.append(self.ship_unit(i, unit, i == flagship_at))
            else:
                units.append(self.squadron(i, unit))
        self.check_admirals(flagship_at)
        self.check_upgrade_limits()
        total = sum(u.points for u in units)
        self.check_composition(total)
        self.problems[head:head] = self.points_problems(total)
        return ValidationReport(total, fleet.band, tuple(self.problems), tuple(units))

    # fleet-wide --------------------------------------------------------------------------

    def check_faction(self) -> None:
        fleet = self.fleet
        if self.faction is None:
            self.add(
                "catalog.unknown_faction",
                f"The catalogue has no faction {fleet.faction!r}, so the fleet's list "
                f"cannot be checked.",
            )
            return
        if fleet.variant is not None:
            self.variant = self.idx.variants.get((self.faction.slug, fleet.variant))
            if self.variant is None:
                self.add(
                    "catalog.unknown_variant",
                    f"The {self.faction.name} list has no variant {fleet.variant!r}.",
                )

    def check_flagship(self) -> int | None:
        """Index of the flagship: the first ship unit marked so (R-22)."""
        marked = [
            i for i, u in enumerate(self.fleet.units) if isinstance(u, ShipUnit) and u.flagship
        ]
        if not marked:
            self.add(
                "flagship.missing",
                "No ship is marked as the flagship; a fleet designates exactly one "
                "capital ship as its flagship.",
            )
            return None
        first = marked[0]
        for i in marked[1:]:
            self.add(
                "flagship.multiple",
                f"{self.unit_label(i)} is marked as a flagship too; a fleet has exactly "
                f"one, and {self.unit_label(first)} was marked first.",
                unit=i,
            )
        return first

    def check_admirals(self, flagship_at: int | None) -> None:
        carriers = [
            i
            for i, u in enumerate(self.fleet.units)
            if isinstance(u, ShipUnit) and u.admiral is not None
        ]
        for n, i in enumerate(carriers):
            unit = self.fleet.units[i]
            assert isinstance(unit, ShipUnit) and unit.admiral is not None
            rank = self.admiral_name(unit.admiral)
            if i != flagship_at:
                self.add(
                    "admiral.not_on_flagship",
                    f"{self.unit_label(i)} carries {_a_rank(rank)} but is not the "
                    f"flagship; an admiral serves on the flagship.",
                    unit=i,
                )
            if n > 0:
                self.add(
                    "admiral.multiple",
                    f"{self.unit_label(i)} carries a second admiral ({rank}); a fleet "
                    f"has at most one.",
                    unit=i,
                )

    def check_upgrade_limits(self) -> None:
        for slug, (unit, ship) in self.upgrade_over.items():
            upgrade = self.idx.upgrades[slug]
            self.add(
                "upgrade.limit",
                f"{limit_sentence(upgrade)}; this fleet takes it "
                f"{_times(self.upgrade_uses[slug])}.",
                unit=unit,
                ship=ship,
            )

    def check_composition(self, total: int) -> None:
        if self.faction is None:
            return
        band = self.fleet.band
        rules = list(self.faction.composition)
        if self.variant is not None:
            rules += self.variant.composition
        for rule in rules:
            tally = tally_rule(rule, self.idx, self.known, total, band)
            if not tally.ok:
                self.add(f"composition.{rule.code}", _rule_message(tally, self.idx, band, total))

    def points_problems(self, total: int) -> list[Problem]:
        band = self.fleet.band  # both ends are inside the band
        if total < band.min:
            return [
                Problem(
                    "points.under_band",
                    f"{total} points is under the {band.label} band ({band.min}–{band.max}).",
                )
            ]
        if total > band.max:
            return [
                Problem(
                    "points.over_band",
                    f"{total} points is over the {band.label} band ({band.min}–{band.max}).",
                )
            ]
        return []

    # units ------------------------------------------------------------------------------

    def ship_unit(self, i: int, unit: ShipUnit, is_flagship: bool) -> UnitReport:
        profile = self.check_ship(unit.ship, i, None)
        if profile is not None and profile.is_escort:
            self.add(
                "squadron.required",
                f"{self.unit_label(i)} is an escort and must fly in a squadron of "
                f"{SQUADRON_MIN} to {SQUADRON_MAX}, not as a unit of its own.",
                unit=i,
            )
            if unit.flagship:
                self.add(
                    "flagship.not_allowed",
                    f"{self.unit_label(i)} is an escort and cannot be the flagship; "
                    f"choose a capital ship.",
                    unit=i,
                )
        admiral = None
        if unit.admiral is not None:
            admiral = self.idx.admirals.get(unit.admiral)
            if admiral is None:
                self.add(
                    "catalog.unknown_admiral",
                    f"The catalogue has no admiral rank {unit.admiral!r}; its points are "
                    f"not counted.",
                    unit=i,
                )
        report = self.ship_report(unit.ship, profile, unit.upgrades, i, None, is_flagship, admiral)
        return UnitReport("ship", (report,), report.points)

    def squadron(self, i: int, unit: Squadron) -> UnitReport:
        label = f"“{unit.name}”" if unit.name else "This squadron"
        size = len(unit.ships)
        if size < SQUADRON_MIN:
            self.add(
                "squadron.too_small",
                f"{label} has {size} escort{'s' if size != 1 else ''}; a squadron needs "
                f"{SQUADRON_MIN} to {SQUADRON_MAX}.",
                unit=i,
            )
        elif size > SQUADRON_MAX:
            self.add(
                "squadron.too_large",
                f"{label} has {size} escorts; a squadron holds at most {SQUADRON_MAX}.",
                unit=i,
            )
        ships = []
        for j, member in enumerate(unit.ships):
            profile = self.check_ship(member.ship, i, j)
            if profile is not None and profile.is_capital:
                self.add(
                    "squadron.capital_ship",
                    f"{profile.name} is {_a(profile.ship_class.label.lower())}, a capital "
                    f"ship, and cannot fly in an escort squadron.",
                    unit=i,
                    ship=j,
                )
            ships.append(self.ship_report(member.ship, profile, member.upgrades, i, j, False, None))
        return UnitReport("squadron", tuple(ships), sum(s.points for s in ships))

    def check_ship(self, slug: str, i: int, j: int | None) -> ShipProfile | None:
        entry = self.idx.ships.get(slug)
        if entry is None:
            self.add(
                "catalog.unknown_ship",
                f"The catalogue has no ship {slug!r}; its points are not counted.",
                unit=i,
                ship=j,
            )
            return None
        profile, owner = entry
        faction = self.faction
        if faction is not None and owner.slug != faction.slug:
            self.add(
                "faction.mismatch",
                f"{profile.name} is a ship of the {owner.name} list, not of {faction.name}.",
                unit=i,
                ship=j,
            )
        if self.variant is not None and slug in self.variant.forbidden_ships:
            self.add(
                "variant.forbidden_ship",
                f"{self.variant.name} fleets may not field {profile.name}.",
                unit=i,
                ship=j,
            )
        if profile.is_unique:
            if slug in self.unique_seen:
                self.add(
                    "ship.unique",
                    f"{profile.name} is unique: a fleet may include it only once.",
                    unit=i,
                    ship=j,
                )
            self.unique_seen.add(slug)
        return profile

    def ship_report(
        self,
        slug: str,
        profile: ShipProfile | None,
        upgrade_slugs: Sequence[str],
        i: int,
        j: int | None,
        is_flagship: bool,
        admiral: AdmiralRank | None,
    ) -> ShipReport:
        upgrades = self.check_upgrades(profile, upgrade_slugs, i, j)
        points = (profile.points if profile else 0) + sum(u.points for u in upgrades)
        if admiral is not None:
            points += admiral.points
        effects: dict[str, int] = {}
        for u in upgrades:
            for stat, change in u.effects.items():
                effects[stat] = effects.get(stat, 0) + change
        leadership = None
        if profile is not None:
            # profile Ld + upgrades + 1 for the flagship + its admiral, capped.
            ld = profile.leadership + effects.get("leadership", 0)
            if is_flagship:
                ld += 1 + (admiral.leadership_bonus if admiral else 0)
            leadership = min(LEADERSHIP_CAP, ld)
            self.known.append((slug, points))
        return ShipReport(
            slug, profile, points, leadership, is_flagship, admiral, upgrades, effects
        )

    def check_upgrades(
        self, profile: ShipProfile | None, slugs: Sequence[str], i: int, j: int | None
    ) -> tuple[Upgrade, ...]:
        known = []
        seen: set[str] = set()
        name = profile.name if profile else "This ship"
        for slug in slugs:
            upgrade = self.idx.upgrades.get(slug)
            if upgrade is None:
                if slug in self.idx.admirals:
                    self.add(
                        "upgrade.not_allowed",
                        f"{self.idx.admirals[slug].name} is an admiral rank, not an "
                        f"upgrade: make it the flagship's admiral instead.",
                        unit=i,
                        ship=j,
                    )
                else:
                    self.add(
                        "catalog.unknown_upgrade",
                        f"The catalogue has no upgrade {slug!r} (on {name}); its points "
                        f"are not counted.",
                        unit=i,
                        ship=j,
                    )
                continue
            known.append(upgrade)
            if slug in seen:
                self.add(
                    "upgrade.duplicate",
                    f"{name} takes {upgrade.name} twice; a ship takes each upgrade once.",
                    unit=i,
                    ship=j,
                )
            seen.add(slug)
            if profile is not None:
                refusal = upgrade_refusal(
                    upgrade, profile, self.fleet.faction, self.fleet.variant, self.idx
                )
            else:
                refusal = _faction_refusal(upgrade, self.fleet.faction, self.idx)
            if refusal is not None:
                self.add(refusal[0], refusal[1], unit=i, ship=j)
            self.upgrade_uses[slug] += 1
            if past_limit(upgrade, self.upgrade_uses[slug]):
                self.upgrade_over.setdefault(slug, (i, j))
        return tuple(known)

    # wording helpers --------------------------------------------------------------------

    def unit_label(self, i: int) -> str:
        unit = self.fleet.units[i]
        if isinstance(unit, Squadron):
            return f"“{unit.name}”" if unit.name else "This squadron"
        ship = self.idx.ship_name(unit.ship)
        return f"“{unit.name}” ({ship})" if unit.name else ship

    def admiral_name(self, slug: str) -> str:
        rank = self.idx.admirals.get(slug)
        return rank.name if rank else repr(slug)


def _a_rank(rank: str) -> str:
    return f"an admiral ({rank})"


def check_points_bound(report: ValidationReport) -> None:
    """Refuse a fleet past MAX_FLEET_POINTS (R-95): FleetFormatError naming the unit at which
    its running total passes the bound. ``report`` is ``validate(fleet, catalog)``."""
    over = points_over(u.points for u in report.units)
    if over is not None:
        raise FleetFormatError(f"units[{over[0]}]", points_message(over[1]))
