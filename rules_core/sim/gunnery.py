"""Shooting (§7, §11): who can be shot (range centre to centre, arcs, line of sight, the
closest ship of a squadron), volleys through :mod:`rules_core.damage`, damage spilling along an
escort squadron, the nova cannon with scatter, and boarding actions.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import TYPE_CHECKING, Final

from .. import damage
from ..damage import SpecialOrder
from . import orders as o
from .factions import (
    AUSPEX_RANGE_CM,
    DAKKA_CM,
    SHADOWFIELD_RANGE_CM,
    dakka_volley,
    grudge_of,
    holofield_save,
)
from .geometry import arc_of, sight_blocked, through_gas
from .geometry import hypot as _hypot
from .state import BATTERY, FRONT, LANCE, LEFT, REAR, RIGHT, SPECIAL, Gun
from .terrain import in_well

if TYPE_CHECKING:
    from ..dice import Dice
    from .battle import Battle
    from .state import Ship, Unit

_atan2: Final = math.atan2  # a C static for mypyc, not a look-up in math

NOVA_MIN_CM: Final = 30.0
LARGEST_RADIUS: Final = 3.0  # a 60 mm base
NOVA_HOLE_R: Final = 0.5  # the template's 1 cm centre hole
NOVA_TEMPLATE_R: Final = 5.0  # 10 cm across
ORDNANCE_ATTACKS: Final = {
    "torpedo": "strike home",
    "bombers": "score (4+)",
    "assault_boats": "get aboard (4+)",
}
KIND_NAMES: Final = {BATTERY: "battery", LANCE: "lance", SPECIAL: "special"}
# Seed 003: a randomly moving ship fires "with a +3 To-Hit die roll modifier in lieu of all
# other modifiers" — 3 worse on Void Command's roll-at-or-over d6 (R-143).
OUT_OF_CONTROL_TO_HIT: Final = -3


class Sighting:
    """An enemy ship the firer may shoot at, with the geometry every weapon needs."""

    __slots__ = ("ship", "dist", "arcs", "cover")

    def __init__(self, ship: Ship, dist: float, arcs: int, cover: bool) -> None:
        self.ship = ship
        self.dist = dist
        self.arcs = arcs
        self.cover = cover


_first: Final = itemgetter(0)


def sightings(b: Battle, firer: Ship) -> list[Sighting]:
    """Every enemy in sight within reach of the firer's guns, nearest first. Of an escort
    squadron only its closest ship in sight may be chosen (seed 002 FAQ, R-78); hulks are not
    targets (R-79)."""
    if b.seed001:
        return _orbit_sightings(b, firer)  # seed 001's gravity wells (R-133)
    out: list[Sighting] = []
    seen_units: list[Unit] = []  # squadrons that have their closest ship in sight
    fx, fy, hx, hy = firer.x, firer.y, firer.hx, firer.hy
    reach = firer.spec.gun_reach
    # The candidates nearest first, ties in table order (a stable sort by distance, done as
    # they come: few ships, and no tuples).
    dists: list[float] = []
    ships: list[Ship] = []
    x0, x1, y0, y1 = fx - reach, fx + reach, fy - reach, fy + reach
    for s in b.sides[1 - firer.side]:
        if s.on_table and x0 <= s.x <= x1 and y0 <= s.y <= y1:
            d = _hypot(s.x - fx, s.y - fy)
            if d <= reach:
                i = len(dists)
                while i > 0 and dists[i - 1] > d:
                    i -= 1
                dists.insert(i, d)
                ships.insert(i, s)
    terrain = b.terrain
    for k in range(len(ships)):
        s = ships[k]
        unit = s.unit
        squadron = unit.spec.is_squadron
        if squadron:
            taken = False
            for u in seen_units:
                if u is unit:
                    taken = True
                    break
            if taken:
                continue
        sx, sy = s.x, s.y
        if terrain and sight_blocked(terrain, fx, fy, sx, sy):
            continue
        if squadron:
            seen_units.append(unit)
        dist = dists[k]
        # geometry.arc_of, inlined (hot)
        dx = sx - fx
        dy = sy - fy
        fwd = dx * hx + dy * hy
        left = dy * hx - dx * hy
        if fwd == 0.0 and left == 0.0:
            arcs = FRONT | LEFT | RIGHT | REAR
        else:
            afwd = fwd if fwd >= 0.0 else -fwd
            aleft = left if left >= 0.0 else -left
            arcs = (
                (FRONT if fwd >= aleft else 0)
                | (REAR if -fwd >= aleft else 0)
                | (LEFT if left >= afwd else 0)
                | (RIGHT if -left >= afwd else 0)
            )
        out.append(Sighting(s, dist, arcs, bool(terrain) and b.in_cover(s)))
    return out


def _orbit_sightings(b: Battle, firer: Ship) -> list[Sighting]:
    """:func:`sightings` with seed 001's orbits (R-133): a ship orbiting a gravity well sits at
    its centre and the well counts as its base, so ranges are measured to and from the well's
    edge, and the well blocks no sight line to or from it. A ship in orbit fires in every
    direction, never at another ship in orbit, and its targets count as in cover. Gas clouds
    block no sight: a line through one puts the target in cover (seed 001, R-80)."""
    out: list[Sighting] = []
    seen_units: set[int] = set()
    fx, fy, hx, hy = firer.x, firer.y, firer.hx, firer.hy
    reach = firer.spec.gun_reach
    fw = in_well(firer)
    f_edge = fw.r if fw is not None else 0.0
    candidates = []
    for s in b.sides[1 - firer.side]:
        if not s.on_table:
            continue
        sw = in_well(s)
        if fw is not None and sw is not None:
            continue  # ships in orbit cannot fire at ships in orbit
        d = _hypot(s.x - fx, s.y - fy) - f_edge - (sw.r if sw is not None else 0.0)
        if d < 0.0:
            d = 0.0
        if d <= reach:
            candidates.append((d, s))
    if len(candidates) > 1:
        candidates.sort(key=_first)
    terrain = b.terrain
    for dist, s in candidates:
        squadron = s.unit.spec.is_squadron
        if squadron and id(s.unit) in seen_units:
            continue
        if terrain and sight_blocked(terrain, fx, fy, s.x, s.y, fw, in_well(s), False):
            continue
        if squadron:
            seen_units.add(id(s.unit))
        if fw is not None:
            out.append(Sighting(s, dist, FRONT | LEFT | RIGHT | REAR, True))
        else:
            out.append(
                Sighting(
                    s,
                    dist,
                    arc_of(fx, fy, hx, hy, s.x, s.y),
                    bool(terrain) and (b.in_cover(s) or through_gas(terrain, fx, fy, s.x, s.y)),
                )
            )
    return out


def out_of_control(b: Battle, ship: Ship) -> bool:
    """Seriously out of control under advanced movement (R-143)."""
    h = b.helms.get(ship) if b.advanced else None
    return h is not None and h.out_of_control


def gun_range(gun: Gun, order: SpecialOrder | None) -> float:
    """Lock On adds 15 cm to lances (§4, R-41); give ``None`` for a ship out of control, which
    may not lock on (R-143)."""
    if order == o.LOCK_ON and gun.kind == LANCE:
        return gun.range_cm + damage.LOCK_ON_LANCE_RANGE_CM
    return gun.range_cm


def gun_strength(ship: Ship, gun: Gun) -> int:
    """Crippled ships fire at half strength, rounded down (§9)."""
    return gun.strength // 2 if ship.target.hull <= ship.cripple_at else gun.strength


def fire_guns(
    b: Battle, ship: Ship, hesitant: bool, seen: list[Sighting] | None = None, skip: int = -1
) -> bool:
    """Every working gun of the ship fires at the target its side's policy picks (``seen``:
    the ship's :func:`sightings`, if the caller has them). Returns whether anything fired."""
    t = ship.target
    order = ship.order
    spec = ship.spec
    if not spec.guns:
        return False
    if seen is None:
        seen = sightings(b, ship)
    if not seen:
        return False
    policy = b.policies[ship.side]
    # damage.to_hit_modifier without cover, worked out once for every gun of the ship
    base_mod = damage.to_hit_modifier(order, hesitant=hesitant)
    lock_on = order == o.LOCK_ON
    wild = b.advanced and out_of_control(b, ship)
    if wild:  # R-143: -3 in lieu of every other modifier, and no lock-on
        base_mod = OUT_OF_CONTROL_TO_HIT
        lock_on = False
    fired = False
    grudge = grudge_of(b, ship.side) if spec.rules.grudge else None
    for gun in spec.guns:
        if not ship.on_table:
            break
        if gun.index == skip:
            continue  # given up for a Teleport Assault
        if t.criticals and t.weapon_disabled(gun.index):
            continue
        # gun_strength and gun_range, inlined (hot)
        strength = gun.strength // 2 if t.hull <= ship.cripple_at else gun.strength
        if strength <= 0:
            continue
        reach = (
            gun.range_cm + damage.LOCK_ON_LANCE_RANGE_CM
            if lock_on and gun.kind == LANCE
            else gun.range_cm
        )
        g_arcs = gun.arcs
        options = [s for s in seen if s.dist <= reach and s.arcs & g_arcs and s.ship.on_table]
        if not options:
            continue
        pick = policy.gun_target(b, ship, gun, options)
        if pick is None:
            continue
        mod = base_mod
        if not wild:  # out of control: none of these
            if pick.cover:
                mod -= 1  # cover: -1
            if (
                gun.kind == BATTERY
                and pick.dist > SHADOWFIELD_RANGE_CM
                and pick.ship.spec.rules.shadowfields
            ):
                mod -= 1  # Drukhari shadowfields
            if grudge is not None and pick.ship is grudge:
                mod += 1  # Ancestral Grudge
        volley(b, ship, gun, strength, pick, mod)
        fired = True
    if fired:
        ship.fired_round = b.round
    return fired


def volley(b: Battle, firer: Ship, gun: Gun, strength: int, pick: Sighting, mod: int) -> None:
    """One weapon system's volley at one ship; against an escort squadron, damage left over
    when the target is destroyed passes to the next closest escort in range and arc (R-78)."""
    target = pick.ship
    # §10: the brace reaction covers this volley, its carry-over along a squadron included
    react = (
        target.unit.activated_round < b.round  # else it cannot react
        and b.brace_reaction(target, strength, gun.kind)
    )
    dice = b.dice
    log_as = (
        (
            firer.side,
            f"{firer.label()} fires {gun.name} ({KIND_NAMES[gun.kind]} "
            f"{strength}) at {target.label()} ({pick.dist:.0f} cm"
            f"{', cover' if pick.cover else ''}, to-hit modifier {mod:+d}): ",
        )
        if b.logging
        else None
    )
    rules = target.spec.rules
    holo = holofield_save(target, pick.dist)
    prow = (
        rules.prows
        and target.spec.armoured_prow
        and arc_of(target.x, target.y, target.hx, target.hy, firer.x, firer.y) == FRONT
    )
    hit_range = pick.dist
    if gun.kind == BATTERY and firer.spec.rules.auspex and hit_range <= AUSPEX_RANGE_CM:
        hit_range = float(damage.POINT_BLANK_CM)  # Advanced Auspex: 4+ out to 30 cm
    if gun.kind == BATTERY and firer.spec.rules.dakka and pick.dist <= DAKKA_CM:
        report = b.attack(
            target,
            dakka_volley,
            strength,
            hit_range,
            dice,
            to_hit_mod=mod,
            holofields=holo,
            prow=prow,
            source=firer,
            log_as=log_as,
            react=react,
        )
    elif holo or prow:
        report = b.attack(
            target,
            screened_volley,
            gun.kind,
            strength,
            hit_range,
            dice,
            to_hit_mod=mod,
            holofields=holo,
            prow=prow,
            source=firer,
            log_as=log_as,
            react=react,
        )
    elif gun.kind == BATTERY:  # b.attack(target, damage.fire_batteries, …), called directly
        hidden = b.before_attack(target, firer, react, False)
        report = damage.fire_batteries(target.target, strength, hit_range, dice, to_hit_mod=mod)
        report = b.after_attack(target, report, hidden, firer, None, False, log_as, False)
    elif gun.kind == LANCE:  # b.attack(target, damage.fire_lances, …)
        hidden = b.before_attack(target, firer, react, False)
        report = damage.fire_lances(target.target, strength, dice, to_hit_mod=mod)
        report = b.after_attack(target, report, hidden, firer, None, False, log_as, False)
    else:
        report = b.attack(
            target,
            special_volley,
            strength,
            pick.dist,
            dice,
            to_hit_mod=mod,
            source=firer,
            log_as=log_as,
            react=react,
        )
    leftover = report.hull_damage + report.extra_damage - report.hull_lost
    if report.destroyed and leftover > 0 and target.unit.spec.is_squadron:
        reach = gun_range(gun, None if out_of_control(b, firer) else firer.order)
        nxt = _next_escort(b, firer, gun, target, reach)
        while nxt is not None and leftover > 0:
            r2 = b.attack(
                nxt,
                damage_points,
                leftover,
                dice,
                source=firer,
                log_as=(firer.side, f"  {leftover} damage carries on to {nxt.label()}: ")
                if b.logging
                else None,
                react=react,
            )
            leftover = r2.hull_damage + r2.extra_damage - r2.hull_lost if r2.destroyed else 0
            nxt = _next_escort(b, firer, gun, nxt, reach) if leftover > 0 else None


def _next_escort(b: Battle, firer: Ship, gun: Gun, after: Ship, reach: float) -> Ship | None:
    best = None
    best_d = 0.0
    for s in after.unit.ships:
        if not s.on_table:
            continue
        d = _hypot(s.x - firer.x, s.y - firer.y)
        if d > reach or not arc_of(firer.x, firer.y, firer.hx, firer.hy, s.x, s.y) & gun.arcs:
            continue
        if b.terrain and sight_blocked(b.terrain, firer.x, firer.y, s.x, s.y, gas=not b.seed001):
            continue
        if best is None or d < best_d:
            best, best_d = s, d
    return best


def special_volley(
    target: damage.Target, strength: int, range_cm: float, dice: Dice, *, to_hit_mod: int = 0
) -> damage.AttackReport:
    """A ``special`` weapon rolls as a battery (4+/5+ by range) and its hits ignore shields
    (docs/catalogue.md); armor saves apply."""
    need = damage.needed_to_hit(damage.battery_base_to_hit(range_cm), to_hit_mod)
    report = damage.AttackReport("special", dice=strength)
    report.hits = damage.count_at_least(dice, strength, need)
    return damage.resolve_damage(
        target, report.hits, dice, report, armor_save=True, shields=False, blast_marker=True
    )


def screened_volley(
    target: damage.Target,
    kind: int,
    strength: int,
    range_cm: float,
    dice: Dice,
    *,
    to_hit_mod: int = 0,
    holofields: int = 0,
    prow: bool = False,
) -> damage.AttackReport:
    """A volley at a ship with a screen between the to-hit roll and the resolver (R-89):
    an armoured prow facing the firer ignores the volley's first hit; Eldar holofields ignore
    each hit on ``holofields`` or more (:func:`factions.holofield_save`; 0: none). What gets
    through goes on as the weapon's hits would: batteries with armor saves and shields, special
    weapons with armor saves and no shields, lances as damage."""
    base = damage.LANCE_TO_HIT if kind == LANCE else damage.battery_base_to_hit(range_cm)
    need = damage.needed_to_hit(base, to_hit_mod)
    hits = damage.count_at_least(dice, strength, need)
    through = hits
    prow_saved = 1 if prow and through else 0
    through -= prow_saved
    holo_saved = damage.count_at_least(dice, through, holofields) if holofields else 0
    through -= holo_saved
    report = damage.AttackReport(KIND_NAMES[kind], dice=strength)
    damage.resolve_damage(
        target,
        through,
        dice,
        report,
        armor_save=kind != LANCE,
        shields=kind != SPECIAL,
        blast_marker=True,
    )
    report.hits = hits
    report.attack = f"{KIND_NAMES[kind]}:screened:{prow_saved}:{holo_saved}"
    return report


def damage_points(
    target: damage.Target,
    points: int,
    dice: Dice,
    *,
    attack: str = "damage",
    shields: bool = True,
    blast_marker: bool = True,
) -> damage.AttackReport:
    """Damage that needs no to-hit roll and allows no armor save (R-43): spill-over, ramming,
    nova cannon, asteroids; brace, shields and hull as the resolver does them. Boarding passes
    ``shields=False`` (§11)."""
    report = damage.AttackReport(attack, hits=points)
    return damage.resolve_damage(
        target, points, dice, report, armor_save=False, shields=shields, blast_marker=blast_marker
    )


def describe(r: damage.AttackReport) -> str:
    """An attack report in a player's words."""
    parts = []
    if r.attack in ORDNANCE_ATTACKS:
        if r.intercepted:
            parts.append(f"{r.intercepted} shot down by turrets")
        parts.append(f"{r.hits} {ORDNANCE_ATTACKS[r.attack]}")
    elif r.dice:
        parts.append(f"{r.hits} hit{'s' if r.hits != 1 else ''} from {r.dice} dice")
        if ":screened:" in r.attack:
            _, _, prow, holo = r.attack.split(":")
            if prow != "0":
                parts.append("1 ignored by the armoured prow")
            if holo != "0":
                parts.append(f"{holo} ignored by holofields")
    elif r.hits:
        parts.append(f"{r.hits} {'hits' if r.attack in ('hits', 'explosion') else 'damage'}")
    if r.armor_saves:
        parts.append(f"{r.armor_saves} saved by armor")
    if r.brace_saves:
        parts.append(f"{r.brace_saves} saved by bracing")
    if r.shields_absorbed:
        parts.append(f"{r.shields_absorbed} absorbed by shields")
    if r.hull_lost:
        parts.append(f"{r.hull_lost} hull lost")
    for c in r.criticals:
        if c.effect is not None:
            parts.append(
                f"critical: {c.effect.label}"
                + (f" (+{c.extra_damage} damage)" if c.extra_damage else "")
            )
        elif c.roll == 0:
            parts.append("a critical hit ignored (Auramite Hulls)")
    if r.became_crippled:
        parts.append("CRIPPLED")
    if r.destroyed:
        parts.append("DESTROYED")
    if not parts:
        return "no effect."
    return ", ".join(parts) + "."


# --- the nova cannon (§11) -----------------------------------------------------------------------


def fire_nova(b: Battle, ship: Ship, hesitant: bool) -> bool:
    """May fire only if the ship did not turn this activation and is not crippled. The aim
    point is 30–150 cm away in the front arc; a d12 scatters it (12: on target, 1–11 a clock
    direction with 12 o'clock the line of fire, R-81) by 2d6 cm. Ships under the centre hole
    take d6 damage, under the ring 1 damage — friend or foe; damage, so no armor save (R-43)."""
    nova = ship.spec.nova
    if nova is None or ship.turned or ship.crippled:
        return False
    if ship.target.criticals and ship.target.weapon_disabled(nova.index):
        return False
    aim = b.policies[ship.side].nova_target(b, ship, NOVA_MIN_CM, nova.range_cm)
    if aim is None:
        return False
    ax, ay = aim
    clock = b.dice.d12()
    text = f"{ship.label()} fires its nova cannon"
    if clock != 12:
        dist = float(b.dice.d6() + b.dice.d6())
        line = _atan2(ay - ship.y, ax - ship.x)
        angle = line - clock * (math.pi / 6)  # clockwise from 12 o'clock
        ax += dist * math.cos(angle)
        ay += dist * math.sin(angle)
        text += f": scatters {dist:.0f} cm towards {clock} o'clock"
    else:
        text += ": on target"
    if b.logging:
        b.log(ship.side, text + ".")
    ship.fired_round = b.round
    for s in [s for side in b.sides for s in side if s.on_table]:
        d = _hypot(s.x - ax, s.y - ay)
        if d <= s.radius + NOVA_HOLE_R:
            points = b.dice.d6()
        elif d <= s.radius + NOVA_TEMPLATE_R:
            points = 1
        else:
            continue
        save = holofield_save(s, _hypot(s.x - ship.x, s.y - ship.y))
        if save:
            points -= damage.count_at_least(b.dice, points, save)
            if points <= 0:
                b.log(ship.side, f"  {s.label()}'s holofields turn the nova blast aside.")
                continue
        b.attack(
            s,
            damage_points,
            points,
            b.dice,
            attack="nova",
            source=ship,
            log_as=(ship.side, f"  the nova blast hits {s.label()} for {points}: ")
            if b.logging
            else None,
        )
    return True


# --- boarding (§11) ------------------------------------------------------------------------------


def boarding_score_base(b: Battle, ship: Ship, against: Ship | None = None) -> int:
    """Current hull + Ld (R-82: the ship's own Ld, Bridge Destroyed 6) + Space Marines +2 and
    the other faction bonuses (R-89), crippled -2 (§11)."""
    t = ship.target
    ld = o.BRIDGE_DESTROYED_LD if t.has(damage.Critical.BRIDGE_DESTROYED) else ship.spec.leadership
    score = t.hull + ld + ship.spec.boarding_bonus
    if against is not None and against.spec.faction == "archenemy":
        score += ship.spec.rules.boarding_vs_chaos
    if t.crippled:
        score -= 2
    return score


def board(b: Battle, ship: Ship, enemy: Ship) -> None:
    """Both roll 1d6 + hull + Ld (+ modifiers); the winner deals the difference as damage that
    ignores shields (§11). Each point rolls for a critical like any hull damage (R-46), which
    is the boarding critical roll (R-82). A draw does nothing."""
    a_roll = b.dice.d6()
    e_roll = b.dice.d6()
    a_score = a_roll + boarding_score_base(b, ship, enemy)
    e_score = e_roll + boarding_score_base(b, enemy, ship)
    text = (
        f"{ship.label()} boards {enemy.label()}: {a_score} (rolled {a_roll}) against "
        f"{e_score} (rolled {e_roll})"
    )
    ship.fired_round = b.round
    if a_score == e_score:
        if b.logging:
            b.log(ship.side, text + ": the boarders are beaten back, no damage.")
        return
    winner, loser = (ship, enemy) if a_score > e_score else (enemy, ship)
    points = abs(a_score - e_score)
    b.attack(
        loser,
        damage_points,
        points,
        b.dice,
        attack="boarding",
        shields=False,
        blast_marker=False,
        source=winner,
        log_as=(ship.side, text + f": {loser.label()} takes {points} damage: ")
        if b.logging
        else None,
    )


def in_contact(a: Ship, c: Ship) -> bool:
    if a.orbit is not None and c.orbit is not None and in_well(a) and in_well(c):
        return False  # seed 001: ships in orbit are never in contact with each other
    return _hypot(a.x - c.x, a.y - c.y) <= a.radius + c.radius + 1e-6
