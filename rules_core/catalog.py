"""The catalogue as plain values: factions, ships, weapons, attack craft, upgrades, admirals.

No Django here. The catalogue's source of truth is the JSON files under
``fleetbuilder/catalog/data`` (``DATA_DIR``); :func:`load_catalog_dir` reads and checks them,
the Django app stores them, and the validator, the simulator and the cards read these same
values.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from rules_core.jsonread import ObjectReader, ShapeError

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CODE_RE = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)*$")
DICE_RE = re.compile(r"^[1-9]d6$")
# The shipped catalogue's data folder, written here once: the Django app loads it (and keeps the
# published editions in its ``editions`` folder), and the benches, tools and tests read it.
DATA_DIR = Path(__file__).resolve().parent.parent / "fleetbuilder" / "catalog" / "data"


class CatalogError(ShapeError):
    """A catalogue file that breaks the schema; ``path`` says where (``imperial-navy.ships[3]``)."""


class ShipClass(StrEnum):
    ESCORT = "escort"
    LIGHT_CRUISER = "light_cruiser"
    CRUISER = "cruiser"
    HEAVY_CRUISER = "heavy_cruiser"
    BATTLECRUISER = "battlecruiser"
    GRAND_CRUISER = "grand_cruiser"
    BATTLESHIP = "battleship"

    @property
    def label(self) -> str:
        return CLASS_LABELS[self]

    @property
    def is_escort(self) -> bool:
        return self is ShipClass.ESCORT

    @property
    def is_capital(self) -> bool:
        """Every class but escorts is a capital ship (ruling R-11)."""
        return self is not ShipClass.ESCORT

    @property
    def is_cruiser_weight(self) -> bool:
        return self in CRUISER_WEIGHT

    @property
    def class_base_mm(self) -> int:
        """Base size by the class table of section 2."""
        return 60 if self in (ShipClass.GRAND_CRUISER, ShipClass.BATTLESHIP) else 32


CLASS_LABELS = {
    ShipClass.ESCORT: "Escort",
    ShipClass.LIGHT_CRUISER: "Light Cruiser",
    ShipClass.CRUISER: "Cruiser",
    ShipClass.HEAVY_CRUISER: "Heavy Cruiser",
    ShipClass.BATTLECRUISER: "Battlecruiser",
    ShipClass.GRAND_CRUISER: "Grand Cruiser",
    ShipClass.BATTLESHIP: "Battleship",
}
CLASS_ORDER = list(ShipClass)
CRUISER_WEIGHT = frozenset(
    {
        ShipClass.LIGHT_CRUISER,
        ShipClass.CRUISER,
        ShipClass.HEAVY_CRUISER,
        ShipClass.BATTLECRUISER,
    }
)


class Arc(StrEnum):
    FRONT = "front"
    LEFT = "left"
    RIGHT = "right"
    REAR = "rear"
    ALL_AROUND = "all_around"

    @property
    def abbreviation(self) -> str:
        return ARC_ABBREVIATIONS[self]


ARC_ABBREVIATIONS = {
    Arc.FRONT: "F",
    Arc.LEFT: "L",
    Arc.RIGHT: "R",
    Arc.REAR: "Re",
    Arc.ALL_AROUND: "AA",
}
ARC_ORDER = [Arc.LEFT, Arc.FRONT, Arc.RIGHT, Arc.REAR, Arc.ALL_AROUND]


class WeaponType(StrEnum):
    BATTERY = "battery"
    LANCE = "lance"
    TORPEDO = "torpedo"
    NOVA_CANNON = "nova_cannon"
    LAUNCH_BAY = "launch_bay"
    # Rolls like a battery but its hits ignore shields (bombardment cannons, boarding claws …);
    # the weapon's ``rule`` says how. See docs/catalogue.md.
    SPECIAL = "special"


class CraftRole(StrEnum):
    FIGHTER = "fighter"
    BOMBER = "bomber"
    ASSAULT_BOAT = "assault_boat"


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    type: WeaponType
    arcs: tuple[Arc, ...]
    strength: int
    range_cm: int
    rule: str = ""

    @property
    def arc_label(self) -> str:
        return "/".join(a.abbreviation for a in sorted(self.arcs, key=ARC_ORDER.index))


@dataclass(frozen=True, slots=True)
class AttackCraft:
    slug: str
    name: str
    role: CraftRole
    speed_cm: int = 20
    rule: str = ""


@dataclass(frozen=True, slots=True)
class ShipProfile:
    slug: str
    name: str
    ship_class: ShipClass
    points: int
    speed_cm: int
    turns: int  # degrees it may turn after its minimum move, from its class: 45 or 90
    leadership: int
    shields: int
    hull: int
    armor: int  # the save: a d6 at or above it ignores the hit (lower is tougher)
    turrets: int
    weapons: tuple[Weapon, ...] = ()
    attack_craft: tuple[str, ...] = ()  # slugs of the faction's craft its bays launch
    all_ahead_full: str = "4d6"
    special_rules: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    description: str = ""
    source: str = ""  # "reference" (converted) or "designed" (points model)

    @property
    def is_escort(self) -> bool:
        return self.ship_class.is_escort

    @property
    def is_capital(self) -> bool:
        return self.ship_class.is_capital

    @property
    def base_mm(self) -> int:
        """The profile's base (R-10, :func:`base_size_mm`)."""
        return base_size_mm(self.ship_class, self.shields, self.hull)

    @property
    def crippled_at(self) -> int | None:
        """Remaining hull at or below which the ship is crippled (ruling R-09).

        ``None`` for a 1-hull ship, which cannot be crippled.
        """
        return crippled_threshold(self.hull)

    @property
    def launch_capacity(self) -> int:
        return sum(w.strength for w in self.weapons if w.type is WeaponType.LAUNCH_BAY)

    @property
    def is_unique(self) -> bool:
        return "unique" in self.tags


def base_size_mm(ship_class: ShipClass, shields: int, hull: int) -> int:
    """R-10, section 2 with its Large Base Rule: a ship with 3+ shields or more than 10 hull is
    on a 60 mm base, any other on its class's (:attr:`ShipClass.class_base_mm`)."""
    if shields >= 3 or hull > 10:
        return 60
    return ship_class.class_base_mm


def crippled_threshold(max_hull: int) -> int | None:
    """R-09: crippled once it has lost half its starting hull rounded down, and at least one
    point (§9), so at or below ceil(starting hull / 2) remaining; a 1-hull ship cannot be
    crippled (its one point lost destroys it)."""
    return None if max_hull <= 1 else max_hull - max(1, max_hull // 2)


# faction rules whose own text sets the turn (degrees after the minimum move).
TURN_RULES = {"Solar Sails": 90}  # Craftworld Eldar: "may turn up to 90° at any point"


def turn_degrees(ship_class: ShipClass, faction_rules: Iterable[str] = ()) -> int:
    """R-11 (§5): the class decides the turn: capital ships one 45° turn, escorts up to two
    (90°). Only a faction rule that says so in its own text changes it (``TURN_RULES``)."""
    degrees = 90 if ship_class.is_escort else 45
    for name in faction_rules:
        degrees = max(degrees, TURN_RULES.get(name, 0))
    return degrees


@dataclass(frozen=True, slots=True)
class Selector:
    """Which ships a composition rule counts: any listed class, ship slug or tag."""

    classes: frozenset[ShipClass] = frozenset()
    ships: frozenset[str] = frozenset()
    tags: frozenset[str] = frozenset()

    def matches(self, ship: ShipProfile) -> bool:
        return (
            ship.ship_class in self.classes
            or ship.slug in self.ships
            or any(t in self.tags for t in ship.tags)
        )

    def to_dict(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        if self.classes:
            out["classes"] = sorted(c.value for c in self.classes)
        if self.ships:
            out["ships"] = sorted(self.ships)
        if self.tags:
            out["tags"] = sorted(self.tags)
        return out


class RuleKind(StrEnum):
    MAX_PER = "max_per"  # count(subject) <= max * floor(count(per) / per_count)
    MAX_PER_POINTS = "max_per_points"  # count(subject) <= max * floor(points_limit / per_points)
    MAX_COUNT = "max_count"  # count(subject) <= max
    MIN_COUNT = "min_count"  # count(subject) >= min
    MAX_POINTS_SHARE = "max_points_share"  # points(subject) <= share * total points


@dataclass(frozen=True, slots=True)
class CompositionRule:
    """A fleet composition guideline as data; the validator reports ``composition.<code>``."""

    code: str
    text: str
    kind: RuleKind
    subject: Selector
    max: int | None = None
    min: int | None = None
    per: Selector | None = None
    per_count: int | None = None
    per_points: int | None = None
    share: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "text": self.text,
            "kind": self.kind.value,
            "subject": self.subject.to_dict(),
        }
        for key in ("max", "min", "per_count", "per_points", "share"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.per is not None:
            out["per"] = self.per.to_dict()
        return out


@dataclass(frozen=True, slots=True)
class Upgrade:
    slug: str
    name: str
    points: int
    classes: frozenset[ShipClass]
    text: str
    faction: str | None = None  # None: a refit every faction may take
    variants: frozenset[str] = frozenset()  # non-empty: only fleets of these variants
    max_per_fleet: int | None = None
    effects: Mapping[str, int] = field(default_factory=dict)  # stat changes: {"turrets": 1}
    # Non-empty: only for a ship carrying a weapon of one of these types, e.g. a launch
    # bay for Expanded Launch Bays.
    requires_weapon: frozenset[WeaponType] = frozenset()

    def takes(self, profile: ShipProfile) -> bool:
        """Whether ``profile`` meets the upgrade's weapon prerequisite (R-150)."""
        return not self.requires_weapon or any(
            w.type in self.requires_weapon for w in profile.weapons
        )


@dataclass(frozen=True, slots=True)
class Variant:
    slug: str
    name: str
    text: str
    composition: tuple[CompositionRule, ...] = ()
    forbidden_ships: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class SpecialRule:
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class AdmiralRank:
    slug: str
    name: str
    points: int
    leadership_bonus: int
    command_radius_cm: int
    rule: str


@dataclass(frozen=True, slots=True)
class Faction:
    slug: str
    name: str
    allegiance: str  # imperium, chaos or xenos (section 16's groups)
    description: str
    leadership: int
    special_rules: tuple[SpecialRule, ...]
    variants: tuple[Variant, ...]
    attack_craft: tuple[AttackCraft, ...]
    upgrades: tuple[Upgrade, ...]
    composition: tuple[CompositionRule, ...]
    ships: tuple[ShipProfile, ...]

    def ship(self, slug: str) -> ShipProfile | None:
        return next((s for s in self.ships if s.slug == slug), None)

    def variant(self, slug: str) -> Variant | None:
        return next((v for v in self.variants if v.slug == slug), None)


@dataclass(frozen=True, slots=True)
class Catalog:
    version: str
    factions: tuple[Faction, ...]
    admirals: tuple[AdmiralRank, ...]
    refits: tuple[Upgrade, ...]

    def faction(self, slug: str) -> Faction | None:
        return next((f for f in self.factions if f.slug == slug), None)

    def admiral(self, slug: str) -> AdmiralRank | None:
        return next((a for a in self.admirals if a.slug == slug), None)

    @property
    def ship_count(self) -> int:
        return sum(len(f.ships) for f in self.factions)


# --- reading ------------------------------------------------------------------------------


def _reader(data: object, path: str) -> ObjectReader:
    return ObjectReader(data, path, CatalogError)


def _selector(data: Any, path: str) -> Selector:
    r = _reader(data, path)
    classes = frozenset(_class(c, f"{path}.classes") for c in r.texts("classes"))
    sel = Selector(
        classes=classes,
        ships=frozenset(r.texts("ships", pattern=SLUG_RE)),
        tags=frozenset(r.texts("tags", pattern=SLUG_RE)),
    )
    r.done()
    if not (sel.classes or sel.ships or sel.tags):
        raise CatalogError(path, "a selector needs classes, ships or tags")
    return sel


def _class(value: str, path: str) -> ShipClass:
    try:
        return ShipClass(value)
    except ValueError:
        raise CatalogError(path, f"{value!r} is not a ship class") from None


def _weapon_type(value: str, path: str) -> WeaponType:
    try:
        return WeaponType(value)
    except ValueError:
        allowed = ", ".join(t.value for t in WeaponType)
        raise CatalogError(path, f"{value!r} is not one of {allowed}") from None


def _composition_rule(data: Any, path: str) -> CompositionRule:
    r = _reader(data, path)
    kind = r.choice("kind", RuleKind)
    rule = CompositionRule(
        code=r.text("code", pattern=CODE_RE),
        text=r.text("text"),
        kind=kind,
        subject=_selector(r.value("subject", required=True), f"{path}.subject"),
        max=r.optional_whole_number("max", hi=100),
        min=r.optional_whole_number("min", hi=100),
        per=(_selector(r.value("per"), f"{path}.per") if r.has("per") else None),
        per_count=r.optional_whole_number("per_count", lo=1, hi=100),
        per_points=r.optional_whole_number("per_points", lo=1, hi=10_000),
        share=_share(r, path),
    )
    r.done()
    needs = {
        RuleKind.MAX_PER: ("max", "per", "per_count"),
        RuleKind.MAX_PER_POINTS: ("max", "per_points"),
        RuleKind.MAX_COUNT: ("max",),
        RuleKind.MIN_COUNT: ("min",),
        RuleKind.MAX_POINTS_SHARE: ("share",),
    }[kind]
    for key in needs:
        if getattr(rule, key) is None:
            raise CatalogError(f"{path}.{key}", f"is required for a {kind.value} rule")
    return rule


def _share(r: ObjectReader, path: str) -> float | None:
    value = r.value("share")
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value <= 1:
        raise CatalogError(f"{path}.share", "expected a fraction in (0, 1]")
    return float(value)


def _weapon(data: Any, path: str) -> Weapon:
    r = _reader(data, path)
    arcs = []
    for i, arc in enumerate(r.texts("arcs")):
        try:
            arcs.append(Arc(arc))
        except ValueError:
            raise CatalogError(f"{path}.arcs[{i}]", f"{arc!r} is not an arc") from None
    if not arcs:
        raise CatalogError(f"{path}.arcs", "a weapon needs at least one arc")
    weapon = Weapon(
        name=r.text("name"),
        type=r.choice("type", WeaponType),
        arcs=tuple(arcs),
        strength=r.whole_number("strength", lo=1, hi=40),
        range_cm=r.whole_number("range", lo=0, hi=150),
        rule=r.text("rule", ""),
    )
    r.done()
    if weapon.type is not WeaponType.LAUNCH_BAY and weapon.range_cm == 0:
        raise CatalogError(f"{path}.range", "only launch bays may have no range")
    return weapon


def _ship(
    data: Any, path: str, craft: set[str], faction_rules: tuple[str, ...] = ()
) -> ShipProfile:
    r = _reader(data, path)
    ship_class = _class(r.text("class"), f"{path}.class")
    turns = turn_degrees(ship_class, faction_rules)  # the class decides
    ship = ShipProfile(
        slug=r.text("slug", pattern=SLUG_RE),
        name=r.text("name"),
        ship_class=ship_class,
        points=r.whole_number("points", lo=5, hi=1000),
        speed_cm=r.whole_number("speed", lo=0, hi=40),
        turns=r.whole_number("turns", turns, lo=45, hi=90),
        leadership=r.whole_number("leadership", lo=6, hi=10),
        shields=r.whole_number("shields", lo=0, hi=6),
        hull=r.whole_number("hull", lo=1, hi=20),
        armor=r.whole_number("armor", lo=2, hi=6),
        turrets=r.whole_number("turrets", lo=0, hi=8),
        weapons=tuple(_weapon(w, f"{path}.weapons[{i}]") for i, w in enumerate(r.items("weapons"))),
        attack_craft=r.texts("attack_craft", pattern=SLUG_RE),
        all_ahead_full=r.text(
            "all_ahead_full",
            default_all_ahead_full(ship_class),
            pattern=DICE_RE,
        ),
        special_rules=r.texts("special_rules"),
        tags=r.texts("tags", pattern=SLUG_RE),
        description=r.text("description", ""),
        source=r.text("source", ""),
    )
    r.done()
    if ship.turns != turns:
        raise CatalogError(
            f"{path}.turns",
            f"a {ship_class.label.lower()} turns {turns}°, "
            "as its class and faction rules say (R-11), not "
            f"{ship.turns}°",
        )
    unknown = [c for c in ship.attack_craft if c not in craft]
    if unknown:
        raise CatalogError(f"{path}.attack_craft", f"unknown craft {', '.join(unknown)}")
    if ship.attack_craft and not ship.launch_capacity:
        raise CatalogError(f"{path}.attack_craft", "attack craft need a launch_bay weapon")
    if ship.launch_capacity and not ship.attack_craft:
        raise CatalogError(f"{path}.attack_craft", "a launch bay needs the craft it launches")
    return ship


def default_all_ahead_full(ship_class: ShipClass) -> str:
    """R-16: +4d6 cm, but +3d6 for the massive grand cruisers and battleships."""
    if ship_class in (ShipClass.GRAND_CRUISER, ShipClass.BATTLESHIP):
        return "3d6"
    return "4d6"


def _upgrade(data: Any, path: str, faction: str | None) -> Upgrade:
    r = _reader(data, path)
    classes = r.texts("classes")
    effects_raw = r.value("effects") if r.has("effects") else {}
    if not isinstance(effects_raw, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in effects_raw.items()
    ):
        raise CatalogError(f"{path}.effects", "expected an object of stat: integer change")
    unknown_stats = set(effects_raw) - UPGRADE_STATS
    if unknown_stats:
        raise CatalogError(f"{path}.effects", f"unknown stat(s) {', '.join(sorted(unknown_stats))}")
    upgrade = Upgrade(
        slug=r.text("slug", pattern=SLUG_RE),
        name=r.text("name"),
        points=r.whole_number("points", lo=0, hi=500),
        classes=frozenset(_class(c, f"{path}.classes") for c in classes),
        text=r.text("text"),
        faction=faction,
        variants=frozenset(r.texts("variants", pattern=SLUG_RE)),
        max_per_fleet=r.optional_whole_number("max_per_fleet", lo=1, hi=20),
        effects=dict(effects_raw),
        requires_weapon=frozenset(
            _weapon_type(t, f"{path}.requires_weapon[{i}]")
            for i, t in enumerate(r.texts("requires_weapon"))
        ),
    )
    r.done()
    if not upgrade.classes:
        raise CatalogError(f"{path}.classes", "an upgrade names the classes that may take it")
    return upgrade


UPGRADE_STATS = frozenset(
    {"speed", "leadership", "shields", "hull", "armor", "turrets", "launch_capacity"}
)


def _faction(data: Any, path: str) -> Faction:
    r = _reader(data, path)
    slug = r.text("slug", pattern=SLUG_RE)
    craft = []
    for i, c in enumerate(r.items("attack_craft")):
        cr = _reader(c, f"{path}.attack_craft[{i}]")
        craft.append(
            AttackCraft(
                slug=cr.text("slug", pattern=SLUG_RE),
                name=cr.text("name"),
                role=cr.choice("role", CraftRole),
                speed_cm=cr.whole_number("speed", 20, lo=5, hi=40),
                rule=cr.text("rule", ""),
            )
        )
        cr.done()
    craft_slugs = {c.slug for c in craft}
    variants = []
    for i, v in enumerate(r.items("variants")):
        vpath = f"{path}.variants[{i}]"
        vr = _reader(v, vpath)
        variants.append(
            Variant(
                slug=vr.text("slug", pattern=SLUG_RE),
                name=vr.text("name"),
                text=vr.text("text"),
                composition=tuple(
                    _composition_rule(c, f"{vpath}.composition[{j}]")
                    for j, c in enumerate(vr.items("composition"))
                ),
                forbidden_ships=frozenset(vr.texts("forbidden_ships", pattern=SLUG_RE)),
            )
        )
        vr.done()
    special = []
    for i, s in enumerate(r.items("special_rules")):
        sr = _reader(s, f"{path}.special_rules[{i}]")
        special.append(SpecialRule(name=sr.text("name"), text=sr.text("text")))
        sr.done()
    faction = Faction(
        slug=slug,
        name=r.text("name"),
        allegiance=r.text("allegiance"),
        description=r.text("description"),
        leadership=r.whole_number("leadership", lo=6, hi=10),
        special_rules=tuple(special),
        variants=tuple(variants),
        attack_craft=tuple(craft),
        upgrades=tuple(
            _upgrade(u, f"{path}.upgrades[{i}]", slug) for i, u in enumerate(r.items("upgrades"))
        ),
        composition=tuple(
            _composition_rule(c, f"{path}.composition[{i}]")
            for i, c in enumerate(r.items("composition"))
        ),
        ships=tuple(
            _ship(s, f"{path}.ships[{i}]", craft_slugs, tuple(sr.name for sr in special))
            for i, s in enumerate(r.items("ships"))
        ),
    )
    r.done()
    if faction.allegiance not in ("imperium", "chaos", "xenos"):
        raise CatalogError(f"{path}.allegiance", "expected imperium, chaos or xenos")
    _unique([s.slug for s in faction.ships], f"{path}.ships")
    _unique([v.slug for v in faction.variants], f"{path}.variants")
    _unique([u.slug for u in faction.upgrades], f"{path}.upgrades")
    _unique([c.code for c in faction.composition], f"{path}.composition")
    variant_slugs = {v.slug for v in faction.variants}
    ship_slugs = {s.slug for s in faction.ships}
    for i, u in enumerate(faction.upgrades):
        if not u.variants <= variant_slugs:
            raise CatalogError(f"{path}.upgrades[{i}].variants", "names an unknown variant")
    for i, v in enumerate(faction.variants):
        if not v.forbidden_ships <= ship_slugs:
            raise CatalogError(f"{path}.variants[{i}].forbidden_ships", "names an unknown ship")
    return faction


def _unique(items: Iterable[str], path: str) -> None:
    seen: set[str] = set()
    for item in items:
        if item in seen:
            raise CatalogError(path, f"{item!r} appears twice")
        seen.add(item)


def _faction_path(data: Any, index: int) -> str:
    """Errors in a faction file are named by its slug (``orks.ships[3]``) where it has one."""
    slug = data.get("slug") if isinstance(data, dict) else None
    return slug if isinstance(slug, str) else f"factions[{index}]"


def catalog_from_dicts(
    factions: list[Any], admirals: list[Any], refits: list[Any], version: str = "dev"
) -> Catalog:
    ranks = []
    for i, a in enumerate(admirals):
        ar = _reader(a, f"admirals[{i}]")
        ranks.append(
            AdmiralRank(
                slug=ar.text("slug", pattern=SLUG_RE),
                name=ar.text("name"),
                points=ar.whole_number("points", lo=0, hi=500),
                leadership_bonus=ar.whole_number("leadership_bonus", lo=0, hi=3),
                command_radius_cm=ar.whole_number("command_radius", lo=0, hi=100),
                rule=ar.text("rule"),
            )
        )
        ar.done()
    catalog = Catalog(
        version=version,
        factions=tuple(_faction(f, _faction_path(f, i)) for i, f in enumerate(factions)),
        admirals=tuple(ranks),
        refits=tuple(_upgrade(u, f"refits[{i}]", None) for i, u in enumerate(refits)),
    )
    _unique([f.slug for f in catalog.factions], "factions")
    _unique([a.slug for a in catalog.admirals], "admirals")
    # Ship and upgrade slugs are unique across the whole catalogue: a fleet file names a ship by
    # slug alone, and a foreign faction's ship must be recognised as such (faction.mismatch).
    _unique([s.slug for f in catalog.factions for s in f.ships], "ships")
    _unique(
        [u.slug for u in catalog.refits] + [u.slug for f in catalog.factions for u in f.upgrades],
        "upgrades",
    )
    return catalog


def load_catalog_dir(directory: Path) -> Catalog:
    """Read ``admirals.json``, ``refits.json`` and ``factions/*.json`` from a data folder."""

    def read(path: Path) -> Any:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise CatalogError(path.name, f"invalid JSON at line {exc.lineno}: {exc.msg}") from None

    faction_files = sorted((directory / "factions").glob("*.json"))
    digest = hashlib.sha256()
    for path in [directory / "admirals.json", directory / "refits.json", *faction_files]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return catalog_from_dicts(
        factions=[read(p) for p in faction_files],
        admirals=read(directory / "admirals.json"),
        refits=read(directory / "refits.json"),
        version=f"1+{digest.hexdigest()[:12]}",
    )


def composition_rule_from_dict(data: Any, path: str = "composition") -> CompositionRule:
    """A composition rule from its data form (``CompositionRule.to_dict``)."""
    return _composition_rule(data, path)
