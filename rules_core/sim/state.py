"""What a battle is made of: ships as the fleet fields them (specs, computed once per run) and
as they stand in one battle (state), units, markers, ordnance and terrain.

Specs are plain precomputed numbers so that the battle loop does no catalogue look-ups; state
objects use ``__slots__`` and plain floats. A ship's damage state is a
:class:`rules_core.damage.Target`, so every attack goes through the one damage resolver.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from ..catalog import (
    Arc,
    Catalog,
    CraftRole,
    ShipClass,
    ShipProfile,
    WeaponType,
    base_size_mm,
    turn_degrees,
)
from ..damage import Critical, SpecialOrder, Target
from ..fleet import Fleet, GameSize, ShipUnit
from ..validator import LEADERSHIP_CAP, ShipReport, validate
from .api import SimError
from .faction_rules import CHAOS_MARKS, FactionRules, harden, rules_for

# Arcs as bits, so "is the target in one of this weapon's arcs" is one AND.
FRONT: Final = 1
LEFT: Final = 2
RIGHT: Final = 4
REAR: Final = 8
ALL_ARCS: Final = FRONT | LEFT | RIGHT | REAR
ARC_BITS: Final = {
    Arc.FRONT: FRONT,
    Arc.LEFT: LEFT,
    Arc.RIGHT: RIGHT,
    Arc.REAR: REAR,
    Arc.ALL_AROUND: ALL_ARCS,
}

BATTERY: Final = 0  # gun kinds
LANCE: Final = 1
SPECIAL: Final = 2


class Rank(StrEnum):
    """The admiral ranks of the catalogue (``admirals.json`` slugs, §15), whose rules the
    simulator plays: the Fleet Captain's re-roll, the Commodore's 45 cm command radius, the
    Rear Admiral's free order (R-86), the Vice Admiral ignoring a Hesitant result, the Lord
    Admiral's +1 Ld."""

    FLEET_CAPTAIN = "fleet-captain"
    COMMODORE = "commodore"
    REAR_ADMIRAL = "rear-admiral"
    VICE_ADMIRAL = "vice-admiral"
    LORD_ADMIRAL = "lord-admiral"


GUN_KINDS: Final = {
    WeaponType.BATTERY: BATTERY,
    WeaponType.LANCE: LANCE,
    WeaponType.SPECIAL: SPECIAL,
}

MARKER_RADIUS: Final = 1.0  # blast markers, torpedo and attack-craft markers: 2 cm across (§2)

# Tables by game size (§2), width x depth in cm; fleets deploy along the long edges.
TABLE_SIZES: Final = {
    "patrol": (120.0, 120.0),
    "skirmish": (180.0, 120.0),
    "battle": (180.0, 120.0),
    "armada": (240.0, 120.0),
}


@dataclass(frozen=True, slots=True)
class Gun:
    """A battery, lance or special weapon as the battle loop reads it."""

    index: int  # index into the profile's weapons (for disabled-weapon criticals)
    name: str
    kind: int  # BATTERY | LANCE | SPECIAL
    arcs: int  # arc bits
    strength: int
    range_cm: float


@dataclass(frozen=True, slots=True)
class Ordnance:
    """Torpedo tubes, launch bays or a nova cannon."""

    index: int
    name: str
    type: WeaponType
    arcs: int
    strength: int
    range_cm: float


@dataclass(frozen=True, slots=True)
class ShipSpec:
    """One ship as its fleet fields it, every number the battle needs computed once."""

    side: int  # 0 = fleet A, 1 = fleet B
    unit: int
    index: int  # position in its unit
    slug: str
    name: str
    profile: ShipProfile
    ship_class: ShipClass
    is_escort: bool
    victory_points: int
    leadership: int  # effective Ld: upgrades, flagship and admiral included
    speed: float
    turns: int  # 45 or 90: by class, or a faction rule's own text
    hull: int
    shields: int
    armor: int
    turrets: int
    radius: float  # base radius in cm
    guns: tuple[Gun, ...]
    gun_reach: float  # the longest gun range (Lock On's +15 cm on lances), or base contact
    torpedoes: tuple[Ordnance, ...]
    bays: tuple[Ordnance, ...]
    launch_capacity: int
    craft: tuple[tuple[CraftRole, float], ...]  # roles this ship's bays launch, with speed
    nova: Ordnance | None
    aaf_dice: int  # All Ahead Full dice
    flagship: bool
    admiral: Rank | None  # the flagship's admiral
    command_radius: float  # cm, flagship only
    boarding_bonus: int  # Space Marines +2 (§11) and the faction rules' bonuses (R-89)
    faction: str
    rules: FactionRules  # the faction rules the simulator plays
    synapse: bool  # a Tyranid synapse ship
    armoured_prow: bool  # tagged armoured-prow (Imperial Navy, T'au prows)


@dataclass(frozen=True, slots=True)
class UnitSpec:
    side: int
    index: int
    name: str
    is_squadron: bool
    ships: tuple[ShipSpec, ...]


@dataclass(frozen=True, slots=True)
class FleetSpec:
    side: int
    name: str
    faction: str
    game_size: str
    units: tuple[UnitSpec, ...]
    total_vp: int
    allegiance: str = ""  # imperium, chaos or xenos (Hatred of the False Emperor, R-114)

    @property
    def ships(self) -> list[ShipSpec]:
        return [s for u in self.units for s in u.ships]


_SAILS: Final = ("Solar Sails",)  # the faction rule whose text sets the turn


def _dice_count(text: str) -> int:
    return int(text.split("d", 1)[0])


def fleet_spec(catalog: Catalog, fleet: Fleet, side: int) -> FleetSpec:
    """Everything the battle needs about one fleet, from the validator's report (R-34) and the
    catalogue. Raises :class:`SimError` for a fleet that cannot be played."""
    label = "A" if side == 0 else "B"
    if not fleet.units:
        raise SimError(f"Fleet {label} ({fleet.name or 'unnamed'}) has no units to play.")
    report = validate(fleet, catalog)
    faction = next((f for f in catalog.factions if f.slug == fleet.faction), None)
    craft_by_slug = {}
    for f in catalog.factions:
        for c in f.attack_craft:
            craft_by_slug[c.slug] = c
    admirals = {a.slug: a for a in catalog.admirals}
    units: list[UnitSpec] = []
    total_vp = 0
    for ui, (unit, unit_report) in enumerate(zip(fleet.units, report.units, strict=True)):
        ships = []
        for si, ship_report in enumerate(unit_report.ships):
            if ship_report.profile is None:
                raise SimError(
                    f"Fleet {label}: unit {ui + 1} names a ship the catalogue does "
                    f"not know ({ship_report.ship!r})."
                )
            ships.append(
                _ship_spec(
                    side,
                    ui,
                    si,
                    ship_report,
                    craft_by_slug,
                    admirals,
                    fleet.faction if faction is not None else "",
                )
            )
            total_vp += ship_report.victory_points
        if not ships:
            continue
        name = unit.name or (
            ships[0].name if isinstance(unit, ShipUnit) else f"{ships[0].name} squadron"
        )
        units.append(UnitSpec(side, len(units), name, not isinstance(unit, ShipUnit), tuple(ships)))
    if not units:
        raise SimError(f"Fleet {label} ({fleet.name or 'unnamed'}) has no ships to play.")
    # Unit indices above follow the file; squadrons emptied of ships are skipped, so re-index.
    # Units that share a name are numbered, so the log can tell them apart.
    counts = Counter(u.name for u in units)
    seen: Counter[str] = Counter()
    named = []
    for u in units:
        seen[u.name] += 1
        named.append(u.name if counts[u.name] == 1 else f"{u.name} {seen[u.name]}")
    units = [
        UnitSpec(u.side, i, named[i], u.is_squadron, tuple(_reindex(s, i) for s in u.ships))
        for i, u in enumerate(units)
    ]
    return FleetSpec(
        side,
        fleet.name or f"Fleet {label}",
        fleet.faction,
        fleet.game_size.value if fleet.game_size is not GameSize.CUSTOM else "custom",
        tuple(units),
        total_vp,
        faction.allegiance if faction is not None else "",
    )


def _reindex(spec: ShipSpec, unit: int) -> ShipSpec:
    if spec.unit == unit:
        return spec
    from dataclasses import replace

    return replace(spec, unit=unit)


def _ship_spec(
    side: int,
    unit: int,
    index: int,
    report: ShipReport,
    craft_by_slug: dict[str, Any],
    admirals: dict[str, Any],
    faction: str,
) -> ShipSpec:
    p = report.profile
    assert p is not None
    fx = report.effects
    guns = []
    torpedoes = []
    bays = []
    nova = None
    for i, w in enumerate(p.weapons):
        arcs = 0
        for a in w.arcs:
            arcs |= ARC_BITS[a]
        if w.type in GUN_KINDS:
            guns.append(Gun(i, w.name, GUN_KINDS[w.type], arcs, w.strength, float(w.range_cm)))
        elif w.type is WeaponType.TORPEDO:
            torpedoes.append(Ordnance(i, w.name, w.type, arcs, w.strength, float(w.range_cm)))
        elif w.type is WeaponType.LAUNCH_BAY:
            bays.append(Ordnance(i, w.name, w.type, arcs, w.strength, float(w.range_cm)))
        elif w.type is WeaponType.NOVA_CANNON and nova is None:
            nova = Ordnance(i, w.name, w.type, arcs, w.strength, float(w.range_cm))
    capacity = sum(b.strength for b in bays)
    if bays:
        capacity = max(1, capacity + fx.get("launch_capacity", 0))
    craft = tuple(
        (craft_by_slug[c].role, float(craft_by_slug[c].speed_cm))
        for c in p.attack_craft
        if c in craft_by_slug
    )
    admiral = admirals.get(report.admiral.slug) if report.admiral is not None else None
    rules = rules_for(faction)
    hull = max(1, p.hull + fx.get("hull", 0))
    shields = max(0, p.shields + fx.get("shields", 0))
    # R-10 on the upgraded values; a ship whose profile is on a large base keeps it.
    radius = max(base_size_mm(p.ship_class, shields, hull), p.base_mm) / 20.0
    return ShipSpec(
        side=side,
        unit=unit,
        index=index,
        slug=p.slug,
        name=p.name,
        profile=p,
        ship_class=p.ship_class,
        is_escort=p.is_escort,
        victory_points=report.victory_points,
        leadership=min(LEADERSHIP_CAP, report.leadership or p.leadership),
        speed=float(max(0, p.speed_cm + fx.get("speed", 0))),
        turns=turn_degrees(p.ship_class, _SAILS if rules.solar_sails else ()),
        hull=hull,
        shields=shields,
        armor=min(6, max(2, p.armor + fx.get("armor", 0))),
        turrets=max(0, p.turrets + fx.get("turrets", 0)),
        radius=radius,
        guns=tuple(guns),
        gun_reach=max(
            [g.range_cm + (15.0 if g.kind == LANCE else 0.0) for g in guns] + [radius + 3.0]
        ),  # at least base contact, for boarding
        torpedoes=tuple(torpedoes),
        bays=tuple(bays),
        launch_capacity=capacity,
        craft=craft,
        nova=nova,
        aaf_dice=_dice_count(p.all_ahead_full),
        flagship=report.is_flagship,
        admiral=Rank(admiral.slug) if admiral is not None else None,
        command_radius=float(admiral.command_radius_cm if admiral is not None else 30),
        boarding_bonus=rules.boarding + (1 if rules.marks and CHAOS_MARKS & set(p.tags) else 0),
        faction=faction,
        rules=rules,
        synapse=any(r.lower().startswith("synapse") for r in p.special_rules),
        armoured_prow="armoured-prow" in p.tags,
    )


# --- one battle's state --------------------------------------------------------------------------


_TAU: Final = 2 * math.pi


class Ship:
    """A ship in one battle."""

    __slots__ = (
        "spec",
        "side",
        "unit",
        "target",
        "x",
        "y",
        "heading",
        "hx",
        "hy",
        "radius",
        "on_table",
        "destroyed",
        "disengaged",
        "hulk",
        "crippled_when_left",
        "torpedoes_ready",
        "bays_ready",
        "order",
        "braced_round",
        "hesitant_next",
        "fired_round",
        "damaged_round",
        "turned",
        "no_launch_round",
        "orbit",
        "out_of_coherency",
        "name",
        "cripple_at",
        "base_speed",
        "velocity",
    )

    def __init__(self, spec: ShipSpec, unit: Unit) -> None:
        self.spec = spec
        self.side = spec.side
        self.unit = unit
        self.name = spec.name
        self.target = Target(
            hull=spec.hull,
            max_hull=spec.hull,
            armor=spec.armor,
            shields=spec.shields,
            turrets=spec.turrets,
            weapons=spec.profile.weapons,
            name=spec.name,
        )
        if spec.rules.hardy:
            harden(self.target, spec)
        self.x = 0.0
        self.y = 0.0
        self.heading = 0.0
        self.hx = 1.0
        self.hy = 0.0
        self.radius = spec.radius
        self.base_speed = int(spec.speed)  # whole cm, before crippling and criticals
        threshold = self.target.crippled_at
        self.cripple_at = -1 if threshold is None else threshold
        self.on_table = True
        self.destroyed = False
        self.disengaged = False
        self.hulk = False  # destroyed and left as a drifting hulk (FAQ scoring)
        self.crippled_when_left = False
        self.torpedoes_ready = bool(spec.torpedoes)
        self.bays_ready = bool(spec.bays)
        self.order: SpecialOrder | None = None  # the special order of this round's activation
        self.braced_round = 0  # braced until the end of this round (§4, §10)
        self.hesitant_next = False  # next activation is hesitant (brace, flagship lost)
        self.fired_round = 0  # last round it fired its weapons
        self.damaged_round = 0  # last round it took damage
        self.turned = False  # turned during this activation (nova cannon)
        self.no_launch_round = 0  # Interceptor Scramble: no launches this round (§10)
        self.orbit: Terrain | None = None  # the planet/gravity well it orbits, if any
        self.velocity = 0  # seed 001 velocity: its last move in 5 cm steps, or in orbit
        self.out_of_coherency = False

    def face(self, heading: float) -> None:
        self.heading = h = heading % _TAU
        self.hx = math.cos(h)  # mypyc: a C call on the unboxed float
        self.hy = math.sin(h)

    @property
    def crippled(self) -> bool:
        return self.target.hull <= self.cripple_at

    @property
    def hull(self) -> int:
        return self.target.hull

    def speed(self) -> float:
        """Speed after crippling and Thrusters Damaged, each halving and rounding down (§9,
        R-50)."""
        speed = self.base_speed
        t = self.target
        if t.hull <= self.cripple_at:
            speed //= 2
        if t.criticals and t.has(Critical.THRUSTERS_DAMAGED):
            speed //= 2
        return float(speed)

    def label(self) -> str:
        """How the log names the ship: its unit's name, or for an escort its class and place in
        the squadron ("Sword Frigate 2", "Sword Frigate 2 of Blade Squadron")."""
        unit = self.unit
        if unit.spec.is_squadron:
            own = f"{self.name} {self.spec.index + 1}"
            default = f"{unit.spec.ships[0].name} squadron"
            return own if unit.spec.name == default else f"{own} of the {unit.spec.name}"
        return unit.spec.name


class RankedUnits:
    """A side's units in the order its policy activates them this round (from ``next`` on)."""

    __slots__ = ("round", "units", "next")

    def __init__(self, round_: int, units: list[Unit]) -> None:
        self.round = round_
        self.units = units
        self.next = 0  # the first that may still be waiting


@dataclass(slots=True, eq=False)
class Memo:
    """What a battle remembers from one step to a later one for its policies and the faction
    rules; a list holds one entry for each side."""

    # StandardPolicy.focus: the round and the fleet's priority target that round.
    focus: list[tuple[int, Ship] | None] = field(default_factory=lambda: [None, None])
    # StandardPolicy.next_unit: the round's activation order, ranked once a round.
    activation_order: list[RankedUnits | None] = field(default_factory=lambda: [None, None])
    # Ancestral Grudge: the enemy ship the Kin have named, for the rest of the battle.
    grudge: list[Ship | None] = field(default_factory=lambda: [None, None])
    # Naval Discipline: the round its one free order was last taken.
    naval_discipline_round: list[int | None] = field(default_factory=lambda: [None, None])
    # Power from Pain: the last round of each ship's +1 Ld.
    pain_until: dict[Ship, int] = field(default_factory=dict)
    # The order and plan faction_actions.command_step asked the policy for, with its round,
    # kept for the activation that follows the check.
    kept_plans: dict[Unit, tuple[int, tuple[Any, ...]]] = field(default_factory=dict)


class Unit:
    __slots__ = ("spec", "side", "ships", "activated_round", "disengaging", "lost_when_left")
    # ``alive`` is asked in every activation: a plain loop is the quickest way to answer it.

    def __init__(self, spec: UnitSpec) -> None:
        self.spec = spec
        self.side = spec.side
        self.ships = [Ship(s, self) for s in spec.ships]
        self.activated_round = 0
        self.disengaging = False  # FAQ: a squadron with a disengaged escort tries to leave
        self.lost_when_left = -1  # escorts destroyed when its first one disengaged

    def note_disengaging(self) -> None:
        """A ship of the unit disengages: an escort squadron's FAQ score counts the escorts
        destroyed before its first one left (seed 002, R-88)."""
        if self.lost_when_left < 0:
            n = 0
            for s in self.ships:
                if s.destroyed:
                    n += 1
            self.lost_when_left = n

    def alive_ships(self) -> list[Ship]:
        return [s for s in self.ships if s.on_table]

    @property
    def alive(self) -> bool:
        for s in self.ships:
            if s.on_table:
                return True
        return False


class BlastMarker:
    __slots__ = ("x", "y", "born")

    def __init__(self, x: float, y: float, born: int) -> None:
        self.x = x
        self.y = y
        self.born = born


class Salvo:
    """A torpedo salvo on the table (§12)."""

    __slots__ = ("side", "x", "y", "hx", "hy", "count", "launcher", "fresh")

    def __init__(
        self, side: int, x: float, y: float, hx: float, hy: float, count: int, launcher: Ship
    ) -> None:
        self.side = side
        self.x = x
        self.y = y
        self.hx = hx
        self.hy = hy
        self.count = count
        self.launcher = launcher
        self.fresh = True


class Wave:
    """Attack craft of one role launched together, flying at a designated target (§12)."""

    __slots__ = ("side", "role", "x", "y", "count", "target", "carrier", "speed")

    def __init__(
        self,
        side: int,
        role: CraftRole,
        x: float,
        y: float,
        count: int,
        target: Ship,
        carrier: Ship,
        speed: float,
    ) -> None:
        self.side = side
        self.role = role
        self.x = x
        self.y = y
        self.count = count
        self.target = target  # an enemy for bombers and boats; the carrier itself for CAP
        self.carrier = carrier
        self.speed = speed


MOVE_TERRAIN: Final = frozenset({"planet", "gravity_well", "asteroids", "drifting_body"})


class Terrain:
    """A terrain piece as a circle (R-80): kind is "asteroids", "gas", "planet", "debris",
    "gravity_well" or "drifting_body"."""

    __slots__ = ("kind", "x", "y", "r", "vx", "vy", "name", "blocks_sight", "gives_cover", "moves")

    def __init__(
        self,
        kind: str,
        x: float,
        y: float,
        r: float,
        vx: float = 0.0,
        vy: float = 0.0,
        name: str = "",
    ) -> None:
        self.kind = kind
        self.x = x
        self.y = y
        self.r = r
        self.vx = vx
        self.vy = vy
        self.name = name or kind.replace("_", " ")
        # What the piece does, worked out once (a piece never changes kind):
        self.blocks_sight = kind in ("gas", "planet", "gravity_well", "drifting_body")
        self.gives_cover = kind in ("asteroids", "debris")
        self.moves = kind in MOVE_TERRAIN  # met on the way by a moving ship (§13)
