"""Resolving one attack on one ship, the way seed 000 (sections 7, 8, 9, 12) describes it.

The simulator calls these functions; :mod:`rules_core.odds` computes the same rules' exact
probabilities. Every roll goes through a :class:`~rules_core.dice.Dice`, in a fixed order so
that a scenario can be replayed with :class:`~rules_core.dice.RiggedDice`:

1. to-hit dice (gunnery), or turret dice then attack dice (ordnance);
2. one armor save per hit (batteries and explosion hits only, R-43);
3. one brace save per unsaved point if the target is braced (R-02, R-44);
4. shields absorb what they can unless suppressed (R-03, R-45) — no dice;
5. hull damage point by point: each point that leaves the ship afloat rolls a d6 for a critical
   hit, and on a 6 the 2d6 critical table and that result's own dice at once (R-46);
6. the point that takes the hull to 0 destroys the ship: 2d6 on the catastrophic damage table.

Ruling ids (R-nn) refer to docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final

from .catalog import Arc, ShipClass, ShipProfile, Weapon, WeaponType, crippled_threshold
from .dice import Dice

POINT_BLANK_CM: Final = 15  # up to and including 15 cm is point blank
BATTERY_POINT_BLANK: Final = 4
BATTERY_LONG_RANGE: Final = 5
LANCE_TO_HIT: Final = 4
LOCK_ON_LANCE_RANGE_CM: Final = 15
TURRET_TO_HIT: Final = 4
# bombers' damage roll and assault boats' critical roll
ORDNANCE_ATTACK_ROLL: Final = 4
BRACE_SAVE: Final = 4
CRITICAL_ON: Final = 6


# --- to hit --------------------------------------------------------------------------------


class SpecialOrder(StrEnum):
    ALL_AHEAD_FULL = "all_ahead_full"
    COME_TO_NEW_HEADING = "come_to_new_heading"
    BURN_RETROS = "burn_retros"
    LOCK_ON = "lock_on"
    RELOAD_ORDNANCE = "reload_ordnance"
    BRACE_FOR_IMPACT = "brace_for_impact"


ORDER_TO_HIT: Final = {
    SpecialOrder.COME_TO_NEW_HEADING: -1,
    SpecialOrder.BURN_RETROS: -1,
    SpecialOrder.LOCK_ON: +1,
}


def to_hit_modifier(
    order: SpecialOrder | None = None, *, hesitant: bool = False, cover: bool = False
) -> int:
    """The firing ship's total to-hit modifier (section 4, section 3, section 13; R-40, R-42).

    Cover is a single -1 however much terrain is involved (R-42).
    """
    modifier = ORDER_TO_HIT.get(order, 0) if order is not None else 0
    if hesitant:
        modifier -= 1
    if cover:
        modifier -= 1
    return modifier


def needed_to_hit(base: int, modifier: int) -> int:
    """The d6 score a to-hit roll needs: a natural 6 always hits, a natural 1 always misses
    (R-40), so the modified target number is clamped to 2..6."""
    return min(6, max(2, base - modifier))


def battery_base_to_hit(range_cm: float) -> int:
    """4+ at point blank (0-15 cm, 15 itself included), 5+ beyond (section 7, R-41)."""
    if range_cm < 0:
        raise ValueError(f"range cannot be negative ({range_cm} cm)")
    return BATTERY_POINT_BLANK if range_cm <= POINT_BLANK_CM else BATTERY_LONG_RANGE


def weapon_range(weapon: Weapon, *, lock_on: bool = False) -> int:
    """A weapon's maximum range: Lock On adds 15 cm to lances (section 4, R-41)."""
    if lock_on and weapon.type is WeaponType.LANCE:
        return weapon.range_cm + LOCK_ON_LANCE_RANGE_CM
    return weapon.range_cm


def turret_needed(blast_markers: int) -> int:
    """Turrets hit ordnance on 4+, -1 per blast marker in contact; a 6 always hits (R-51)."""
    return needed_to_hit(TURRET_TO_HIT, -blast_markers)


# --- critical hits -------------------------------------------------------------------------


class Critical(IntEnum):
    """The critical hit table of section 8, by its 2d6 roll."""

    SHIELDS_COLLAPSE = 2
    THRUSTERS_DAMAGED = 3
    ARMAMENT_DAMAGED = 4
    PROW_ARMAMENT_DAMAGED = 5
    STARBOARD_ARMAMENT_DAMAGED = 6
    PORT_ARMAMENT_DAMAGED = 7
    DORSAL_ARMAMENT_DAMAGED = 8
    FIRE = 9
    HULL_BREACH = 10
    BULKHEAD_COLLAPSE = 11
    BRIDGE_DESTROYED = 12

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title().replace("Fire", "Fire!")

    @property
    def repairable(self) -> bool:
        """Only Bridge Destroyed is permanent (section 8, R-47)."""
        return self is not Critical.BRIDGE_DESTROYED

    @property
    def lasting(self) -> bool:
        """Bulkhead Collapse (d3 damage now, R-49) and Shields Collapse (the shields lost now,
        back to full on a move clear of blast markers as §7 says, R-48) are events, not effects
        that stay."""
        return self not in (Critical.BULKHEAD_COLLAPSE, Critical.SHIELDS_COLLAPSE)


ARC_CRITICALS: Final = {
    Critical.PROW_ARMAMENT_DAMAGED: Arc.FRONT,
    Critical.STARBOARD_ARMAMENT_DAMAGED: Arc.RIGHT,
    Critical.PORT_ARMAMENT_DAMAGED: Arc.LEFT,
}


@dataclass(frozen=True, slots=True)
class CriticalHit:
    """One critical as taken: the table roll, the effect applied (``None`` when nothing more
    could happen, R-14, R-47) and, for Armament Damaged, the index of the weapon disabled."""

    roll: int
    effect: Critical | None
    weapon: int | None = None
    extra_damage: int = 0  # Bulkhead Collapse's d3


# --- catastrophic damage -------------------------------------------------------------------


class Catastrophe(StrEnum):
    DRIFTING_HULK = "drifting_hulk"
    BLAZING_WRECK = "blazing_wreck"
    PLASMA_DRIVE_OVERLOAD = "plasma_drive_overload"
    WARP_DRIVE_IMPLOSION = "warp_drive_implosion"
    CATASTROPHIC_EXPLOSION = "catastrophic_explosion"
    WARP_RIFT = "warp_rift"


_CATASTROPHE_BY_ROLL: Final = {
    2: Catastrophe.DRIFTING_HULK,
    3: Catastrophe.DRIFTING_HULK,
    4: Catastrophe.BLAZING_WRECK,
    5: Catastrophe.BLAZING_WRECK,
    6: Catastrophe.PLASMA_DRIVE_OVERLOAD,
    7: Catastrophe.PLASMA_DRIVE_OVERLOAD,
    8: Catastrophe.WARP_DRIVE_IMPLOSION,
    9: Catastrophe.WARP_DRIVE_IMPLOSION,
    10: Catastrophe.CATASTROPHIC_EXPLOSION,
    11: Catastrophe.CATASTROPHIC_EXPLOSION,
    12: Catastrophe.WARP_RIFT,
}
_EXPLOSION_RADIUS_D6: Final = {
    Catastrophe.PLASMA_DRIVE_OVERLOAD: 1,
    Catastrophe.WARP_DRIVE_IMPLOSION: 2,
    Catastrophe.CATASTROPHIC_EXPLOSION: 3,
    Catastrophe.WARP_RIFT: 4,
}


@dataclass(frozen=True, slots=True)
class CatastrophicDamage:
    """The catastrophic damage table's result (R-56). The simulator places terrain and markers
    and resolves the explosion with :meth:`roll_radius`, :meth:`roll_hits` and
    :func:`resolve_hits`."""

    roll: int
    result: Catastrophe

    @property
    def explodes(self) -> bool:
        return self.result in _EXPLOSION_RADIUS_D6

    @property
    def leaves_debris_field(self) -> bool:
        return self.result is Catastrophe.DRIFTING_HULK

    @property
    def leaves_blast_marker(self) -> bool:
        return self.result is Catastrophe.BLAZING_WRECK

    @property
    def removes_blast_markers(self) -> bool:
        return self.result is Catastrophe.PLASMA_DRIVE_OVERLOAD

    @property
    def leaves_gas_cloud(self) -> bool:
        return self.result is Catastrophe.WARP_RIFT

    def roll_radius(self, dice: Dice, ship_class: ShipClass) -> int:
        """Explosion radius in cm with the class modifier of R-12 (escorts -1d6, minimum 0;
        grand cruisers and battleships +1d6). 0 when the ship does not explode."""
        count = _EXPLOSION_RADIUS_D6.get(self.result, 0)
        if not count:
            return 0
        radius = sum(dice.d6() for _ in range(count))
        if ship_class is ShipClass.ESCORT:
            radius -= dice.d6()
        elif ship_class in (ShipClass.GRAND_CRUISER, ShipClass.BATTLESHIP):
            radius += dice.d6()
        return max(0, radius)

    def roll_hits(self, dice: Dice) -> int:
        """Hits each ship in the radius takes (armor saves allowed, R-43)."""
        if self.result is Catastrophe.PLASMA_DRIVE_OVERLOAD:
            return 1
        if self.result is Catastrophe.WARP_DRIVE_IMPLOSION:
            return dice.d3()
        if self.result is Catastrophe.CATASTROPHIC_EXPLOSION:
            return dice.d6()
        if self.result is Catastrophe.WARP_RIFT:
            return dice.two_d6()
        return 0


def roll_catastrophic_damage(dice: Dice) -> CatastrophicDamage:
    roll = dice.two_d6()
    return CatastrophicDamage(roll, _CATASTROPHE_BY_ROLL[roll])


# --- the target ----------------------------------------------------------------------------


@dataclass(init=False)
class Target:
    """A ship's state as attacks see it. ``shields`` is the current value; ``criticals`` holds
    the lasting critical effects, one entry per copy (R-47)."""

    hull: int
    max_hull: int
    armor: int
    shields: int
    max_shields: int | None
    turrets: int
    blast_markers: int
    braced: bool
    weapons: tuple[Weapon, ...]
    criticals: list[CriticalHit]
    name: str
    # Faction rules the simulator plays on the ship (rules_core/sim/factions.py):
    brace_rerolls: int  # failed brace saves it may still re-roll (Acts of Faith, R-110)
    critical_ward: bool  # each critical ignored on a 6 (Auramite Hulls, R-112)
    bulkhead_relief: int  # Bulkhead Collapse deals d3 minus this (Void Armour, R-118)

    # Written out rather than generated (the defaults are the fields' own): the simulator makes
    # one per ship and battle, and mypyc compiles this __init__ (a dataclass's generated one
    # runs as interpreted Python).
    def __init__(
        self,
        hull: int,
        max_hull: int,
        armor: int,
        shields: int = 0,
        max_shields: int | None = None,
        turrets: int = 0,
        blast_markers: int = 0,
        braced: bool = False,
        weapons: tuple[Weapon, ...] = (),
        criticals: list[CriticalHit] | None = None,
        name: str = "",
        brace_rerolls: int = 0,
        critical_ward: bool = False,
        bulkhead_relief: int = 0,
    ) -> None:
        self.hull = hull
        self.max_hull = max_hull
        self.armor = armor
        self.shields = shields
        self.max_shields = max_shields
        self.turrets = turrets
        self.blast_markers = blast_markers
        self.braced = braced
        self.weapons = weapons
        self.criticals = [] if criticals is None else criticals
        self.name = name
        self.brace_rerolls = brace_rerolls
        self.critical_ward = critical_ward
        self.bulkhead_relief = bulkhead_relief
        self._cripple_for = -1  # the max hull _cripple_at was worked out for (see ``crippled``)
        self._cripple_at: int | None = None
        if self.max_shields is None:
            self.max_shields = self.shields
        if self.max_hull < 1 or not 0 <= self.hull <= self.max_hull:
            raise ValueError(f"hull {self.hull} of {self.max_hull} is not a ship's hull")
        if not 2 <= self.armor <= 6:
            raise ValueError(f"armor is a save of 2 to 6, not {self.armor}")
        if min(self.shields, self.turrets, self.blast_markers) < 0:
            raise ValueError("shields, turrets and blast markers cannot be negative")

    @classmethod
    def from_profile(cls, profile: ShipProfile, *, name: str = "") -> Target:
        return cls(
            hull=profile.hull,
            max_hull=profile.hull,
            armor=profile.armor,
            shields=profile.shields,
            turrets=profile.turrets,
            weapons=profile.weapons,
            name=name or profile.name,
        )

    @property
    def destroyed(self) -> bool:
        return self.hull <= 0

    @property
    def crippled_at(self) -> int | None:
        """R-09: crippled at or below floor(max hull / 2); a 1-hull ship never is."""
        if self._cripple_for != self.max_hull:  # asked often: the threshold is remembered
            self._cripple_at = crippled_threshold(self.max_hull)
            self._cripple_for = self.max_hull
        return self._cripple_at

    @property
    def crippled(self) -> bool:
        threshold = self.crippled_at
        return threshold is not None and self.hull <= threshold

    @property
    def shields_suppressed(self) -> bool:
        return self.blast_markers > 0

    def count(self, effect: Critical) -> int:
        n = 0
        for c in self.criticals:
            if c.effect is effect:
                n += 1
        return n

    def has(self, effect: Critical) -> bool:
        for c in self.criticals:
            if c.effect is effect:
                return True
        return False

    @property
    def fires(self) -> int:
        return self.count(Critical.FIRE)

    @property
    def hull_breaches(self) -> int:
        """Each breach is -1 to command checks (section 8: cumulative)."""
        return self.count(Critical.HULL_BREACH)

    @property
    def effective_turrets(self) -> int:
        """Crippling and Dorsal Armament Damaged each halve turrets, rounding down each time;
        copies of the critical do not halve again (R-50)."""
        turrets = self.turrets
        if self.crippled:
            turrets //= 2
        if self.has(Critical.DORSAL_ARMAMENT_DAMAGED):
            turrets //= 2
        return turrets

    def weapon_disabled(self, index: int) -> bool:
        """Armament Damaged names a weapon (R-14); an arc critical disables every weapon whose
        arcs include that arc, all-around mounts excepted (R-57)."""
        weapon = self.weapons[index]
        for c in self.criticals:
            if c.effect is Critical.ARMAMENT_DAMAGED and c.weapon == index:
                return True
            arc = ARC_CRITICALS.get(c.effect) if c.effect is not None else None
            if arc is not None and arc in weapon.arcs and Arc.ALL_AROUND not in weapon.arcs:
                return True
        return False

    def leave_blast_markers(self) -> None:
        """The ship ended its move clear of every blast marker: "Restore all Shields to full"
        (section 7), after a Shields Collapse too (R-48)."""
        self.blast_markers = 0
        self.shields = self.max_shields or 0

    def repair(self, effect: Critical) -> None:
        """Remove one copy of a repairable critical (sections 8 and R-47)."""
        if not effect.repairable:
            raise ValueError(f"{effect.label} cannot be repaired")
        for i, c in enumerate(self.criticals):
            if c.effect is effect:
                del self.criticals[i]
                return
        raise ValueError(f"the ship has no {effect.label} to repair")


@dataclass(init=False)
class AttackReport:
    """What one attack did. ``hull_damage`` counts the attack's own points that reached the hull
    (damage past the last hull point included); ``hull_lost`` what the hull actually lost,
    Bulkhead Collapse's extra damage included."""

    attack: str
    dice: int
    hits: int
    intercepted: int
    armor_saves: int
    brace_saves: int
    shields_absorbed: int
    hull_damage: int
    extra_damage: int
    hull_lost: int
    criticals: list[CriticalHit]
    blast_markers_placed: int
    became_crippled: bool
    destroyed: bool
    catastrophe: CatastrophicDamage | None

    # Written out rather than generated: the simulator makes one per attack, and mypyc compiles
    # this __init__ (a dataclass's generated one runs as interpreted Python).
    def __init__(
        self,
        attack: str,
        dice: int = 0,
        hits: int = 0,
        intercepted: int = 0,
        armor_saves: int = 0,
        brace_saves: int = 0,
        shields_absorbed: int = 0,
        hull_damage: int = 0,
        extra_damage: int = 0,
        hull_lost: int = 0,
        criticals: list[CriticalHit] | None = None,
        blast_markers_placed: int = 0,
        became_crippled: bool = False,
        destroyed: bool = False,
        catastrophe: CatastrophicDamage | None = None,
    ) -> None:
        self.attack = attack
        self.dice = dice
        self.hits = hits
        self.intercepted = intercepted
        self.armor_saves = armor_saves
        self.brace_saves = brace_saves
        self.shields_absorbed = shields_absorbed
        self.hull_damage = hull_damage
        self.extra_damage = extra_damage
        self.hull_lost = hull_lost
        self.criticals = [] if criticals is None else criticals
        self.blast_markers_placed = blast_markers_placed
        self.became_crippled = became_crippled
        self.destroyed = destroyed
        self.catastrophe = catastrophe


# --- resolution ----------------------------------------------------------------------------


def _check_target(target: Target) -> None:
    if target.destroyed:
        raise ValueError("the target is already destroyed")


def count_at_least(dice: Dice, n: int, score: int) -> int:
    """How many of ``n`` d6 score ``score`` or more, rolled one after another (a dice object's
    own ``count_at_least`` when it has one: the same rolls, faster)."""
    if n <= 0:
        return 0
    fast: Callable[[int, int], int] | None = getattr(dice, "count_at_least", None)
    if fast is not None:
        return fast(n, score)
    return sum(1 for _ in range(n) if dice.d6() >= score)


def roll_critical(target: Target, dice: Dice) -> CriticalHit:
    """Roll 2d6 on the critical hit table and apply the result to ``target``.

    A repeat of a critical that cannot be repaired applies the next higher result instead, and
    there is none above Bridge Destroyed (R-47). Repairable criticals stack. Bulkhead Collapse
    rolls its d3 here; the caller applies that damage (R-49).
    """
    if target.critical_ward and dice.d6() == 6:
        return CriticalHit(0, None)  # Auramite Hulls: the critical is ignored
    roll = dice.two_d6()
    effect: Critical | None = Critical(roll)
    while effect is not None and not effect.repairable and target.has(effect):
        effect = Critical(effect + 1) if effect < Critical.BRIDGE_DESTROYED else None
    if effect is None:
        return CriticalHit(roll, None)
    if effect is Critical.BULKHEAD_COLLAPSE:
        return CriticalHit(roll, effect, extra_damage=dice.d3() - target.bulkhead_relief)
    weapon = None
    if effect is Critical.ARMAMENT_DAMAGED:
        working = [i for i in range(len(target.weapons)) if not target.weapon_disabled(i)]
        if not working:  # nothing left to disable
            return CriticalHit(roll, None)
        weapon = working[dice.roll(len(working)) - 1]
    if effect is Critical.SHIELDS_COLLAPSE:
        target.shields = 0  # an event: nothing stays to repair
        return CriticalHit(roll, effect)
    hit = CriticalHit(roll, effect, weapon=weapon)
    target.criticals.append(hit)
    return hit


def apply_hull_damage(target: Target, points: int, dice: Dice, report: AttackReport) -> None:
    """Take ``points`` off the hull one at a time (R-46): a point that leaves the ship afloat
    rolls a d6 and on a 6 a critical (whose Bulkhead Collapse adds d3 more points, R-49); the
    point that reaches 0 destroys the ship, rolls catastrophic damage and ends the attack."""
    if points <= 0:
        return
    was_crippled = target.crippled
    pending = points
    d6 = dice.d6
    while pending > 0 and target.hull > 0:
        pending -= 1
        target.hull -= 1
        report.hull_lost += 1
        if target.hull <= 0:
            report.destroyed = True
            report.catastrophe = roll_catastrophic_damage(dice)
            break
        if d6() >= CRITICAL_ON:
            hit = roll_critical(target, dice)
            report.criticals.append(hit)
            extra = braced_through(target, hit.extra_damage, dice, report)
            pending += extra
            report.extra_damage += extra
    if not was_crippled and target.crippled and not target.destroyed:
        report.became_crippled = True


def braced_through(target: Target, points: int, dice: Dice, report: AttackReport) -> int:
    """Damage of the ship's own (Bulkhead Collapse, Fire) meets its brace save too: "a 4+
    invulnerable save against all damage this turn" (section 4, R-44). Returns the points that
    get through; no armor save, and shields do not take them (R-49, R-55)."""
    if not target.braced or points <= 0:
        return points
    saved = count_at_least(dice, points, BRACE_SAVE)
    if target.brace_rerolls and saved < points:
        saved += _brace_reroll(target, points - saved, dice, False)
    report.brace_saves += saved
    return points - saved


def resolve_damage(
    target: Target,
    points: int,
    dice: Dice,
    report: AttackReport,
    *,
    armor_save: bool,
    shields: bool,
    blast_marker: bool,
) -> AttackReport:
    """Hits or damage after the to-hit stage: armor (hits only, R-43), brace (R-02, R-44),
    shields (R-03, R-45), hull (R-46), then the attack's blast marker (R-45).

    Public so that callers with their own to-hit stage (the simulator's special weapons and
    screens) resolve the rest exactly as the named attacks do; fills in and returns ``report``.
    """
    if armor_save and points > 0:
        saved = count_at_least(dice, points, target.armor)
        report.armor_saves = saved
        points -= saved
    if target.braced and points > 0:
        saved = count_at_least(dice, points, BRACE_SAVE)
        if target.brace_rerolls and saved < points:
            saved += _brace_reroll(target, points - saved, dice, shields)
        report.brace_saves = saved
        points -= saved
    if shields and not target.blast_markers:
        absorbed = min(points, target.shields)
        target.shields -= absorbed
        report.shields_absorbed = absorbed
        points -= absorbed
    report.hull_damage = points
    apply_hull_damage(target, points, dice, report)
    if blast_marker and not target.destroyed and (report.shields_absorbed or report.hull_lost):
        target.blast_markers += 1
        report.blast_markers_placed = 1
    return report


def _brace_reroll(target: Target, failed: int, dice: Dice, shields: bool) -> int:
    """Acts of Faith (R-110): one failed brace save re-rolled, once, when a failure would get
    past the shields to the hull. Returns 1 if the re-roll saves."""
    if failed <= (target.shields if shields and not target.blast_markers else 0):
        return 0
    target.brace_rerolls -= 1
    return 1 if dice.d6() >= BRACE_SAVE else 0


def fire_batteries(
    target: Target, strength: int, range_cm: float, dice: Dice, *, to_hit_mod: int = 0
) -> AttackReport:
    """A weapon battery's volley (section 7): to hit 4+ / 5+ by range, then armor saves."""
    if target.hull <= 0:
        _check_target(target)
    if range_cm < 0:
        battery_base_to_hit(range_cm)  # raises
    base = BATTERY_POINT_BLANK if range_cm <= POINT_BLANK_CM else BATTERY_LONG_RANGE
    need = base - to_hit_mod
    need = 6 if need > 6 else 2 if need < 2 else need  # needed_to_hit, inlined (hot)
    report = AttackReport("battery", dice=strength)
    report.hits = count_at_least(dice, strength, need)
    return resolve_damage(
        target, report.hits, dice, report, armor_save=True, shields=True, blast_marker=True
    )


def fire_lances(target: Target, strength: int, dice: Dice, *, to_hit_mod: int = 0) -> AttackReport:
    """A lance volley: 4+ at any range with the firer's modifiers (R-40), no armor save."""
    _check_target(target)
    need = needed_to_hit(LANCE_TO_HIT, to_hit_mod)
    report = AttackReport("lance", dice=strength)
    report.hits = count_at_least(dice, strength, need)
    return resolve_damage(
        target, report.hits, dice, report, armor_save=False, shields=True, blast_marker=True
    )


def resolve_hits(target: Target, hits: int, dice: Dice, *, attack: str = "hits") -> AttackReport:
    """Hits that need no to-hit roll but allow armor saves: explosions (R-43, R-56)."""
    _check_target(target)
    report = AttackReport(attack, hits=hits)
    return resolve_damage(
        target, hits, dice, report, armor_save=True, shields=True, blast_marker=True
    )


def _turrets_fire(target: Target, incoming: int, dice: Dice, report: AttackReport) -> int:
    """Turret dice against incoming ordnance: each hit removes one (R-51). Returns survivors."""
    need = turret_needed(target.blast_markers)
    removed = min(incoming, count_at_least(dice, target.effective_turrets, need))
    report.intercepted = removed
    return incoming - removed


def torpedo_salvo(target: Target, torpedoes: int, dice: Dice) -> AttackReport:
    """A salvo contacts the ship: turrets, then 1 damage per torpedo (no armor save, R-43),
    brace, shields, hull (section 12)."""
    _check_target(target)
    report = AttackReport("torpedo", dice=torpedoes)
    report.hits = _turrets_fire(target, torpedoes, dice, report)
    return resolve_damage(
        target, report.hits, dice, report, armor_save=False, shields=True, blast_marker=True
    )


def bomber_attack(target: Target, bombers: int, dice: Dice) -> AttackReport:
    """Bombers: turrets, then 4+ each for 1 damage ignoring shields, no blast marker (R-52)."""
    _check_target(target)
    report = AttackReport("bombers", dice=bombers)
    survivors = _turrets_fire(target, bombers, dice, report)
    report.hits = count_at_least(dice, survivors, ORDNANCE_ATTACK_ROLL)
    return resolve_damage(
        target, report.hits, dice, report, armor_save=False, shields=False, blast_marker=False
    )


def assault_boat_attack(
    target: Target, boats: int, dice: Dice, *, need: int = ORDNANCE_ATTACK_ROLL
) -> AttackReport:
    """Assault boats: turrets, then 4+ each (``need``: 3+ for Astartes Orbital Assault, R-111)
    for a critical hit, no hull damage of their own (R-53); a Bulkhead Collapse still deals its
    d3 (R-49)."""
    _check_target(target)
    report = AttackReport("assault_boats", dice=boats)
    survivors = _turrets_fire(target, boats, dice, report)
    report.hits = count_at_least(dice, survivors, need)
    for _ in range(report.hits):
        if target.destroyed:
            break
        hit = roll_critical(target, dice)
        report.criticals.append(hit)
        extra = braced_through(target, hit.extra_damage, dice, report)
        if extra:
            report.extra_damage += extra
            apply_hull_damage(target, extra, dice, report)
    return report


def resolve_fires(target: Target, dice: Dice) -> AttackReport:
    """End Phase: each Fire deals 1 hull damage (no armor save, no shields; a braced ship's
    brace save, R-44), which may cause criticals; a ship that took fire damage gains one blast
    marker (R-55)."""
    _check_target(target)
    report = AttackReport("fire", hits=target.fires)
    report.hull_damage = braced_through(target, target.fires, dice, report)
    apply_hull_damage(target, report.hull_damage, dice, report)
    if report.hull_lost and not target.destroyed:
        target.blast_markers += 1
        report.blast_markers_placed = 1
    return report
