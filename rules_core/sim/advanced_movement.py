"""Advanced movement: seed 003's vector movement as an optional rules module (R-140 – R-149).

``SimOptions(movement="advanced")`` plays it. A ship keeps a velocity (in 5 cm steps) and a
course between rounds; each activation it spends thrust points to change its velocity, its
course (its heading, in seed 003's words) and its facing (where its bow and arcs point), then
moves its velocity along its course. The numbers come from Void Command's profile: thrust
rating from Speed, piloting skill from Ld (R-140). Spending more than the safe operating
thrust (SOT) risks losing control (R-142, R-143); only All Ahead Full pushes the plant
(R-144); ships that end together may collide, and rams use seed 003's collision damage table
(R-145, R-146); asteroids (R-147) and planets' interface zones and gravity (R-148) have their
own rolls. Seed 003's d10 is rolled as a d10.

The tables are module constants named for the seed's tables, so each test can quote its line.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from ..damage import Critical, SpecialOrder
from . import gunnery
from . import orders as o
from .geometry import hypot as _hypot
from .geometry import segment_first_contact
from .movement import _slingshot, _terrain_on_leg
from .terrain import VELOCITY_CM, debris_after_move, in_well, mass_of

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Ship, Terrain

_atan2: Final = math.atan2  # a C static for mypyc, not a look-up in math

MOVEMENTS: Final = ("standard", "advanced")
HEX_CM: Final = VELOCITY_CM  # one hex, one point of velocity: 5 cm (R-140, as seed 001's R-130)
STEP: Final = math.pi / 4  # one hexside of heading or facing is Void Command's 45° turn
SKILL_FROM_LD: Final = 3  # piloting skill level = Ld - 3
INTERFACE_CM: Final = HEX_CM  # a planet's interface zone: one hex outside its edge
GRAVITY_CM: Final = 15.0  # a planet's gravity reaches 15 cm beyond its edge
DIRECT: Final = math.pi / 8  # "directly" toward or away: within 22.5°

# Pushing the Plant Table (seed 003): row = the ship's current thrust rating (5+ is row 5),
# column = thrust points pushed (1–5). A number: roll that or less on a d10 to keep the plant
# whole; "A" (AUTO): the plant is damaged; "-" (NONE): that many cannot be pushed.
AUTO: Final = 0
NONE: Final = -1
PUSH_TABLE: Final = (
    (8, NONE, NONE, NONE, NONE),
    (8, AUTO, NONE, NONE, NONE),
    (8, 6, AUTO, NONE, NONE),
    (8, 6, 4, AUTO, NONE),
    (8, 6, 4, 2, AUTO),
)

# Random Movement Maneuver Table (seed 003, a d10) with its Thrust Cost Table: the cost by
# velocity 1–15 (row) and maneuver (column). The seed's maneuver names are lost but for 2
# (+1 velocity) and 6 (one hexside to the right); the others are ruled in R-143.
SLOW: Final = 1
FAST: Final = 2
FACE_R: Final = 3
FACE_L: Final = 4
TUMBLE: Final = 5
HEAD_R: Final = 6
HEAD_L: Final = 7
HEAD_RR: Final = 8
HEAD_LL: Final = 9
SPIN: Final = 10
MANEUVER_NAMES: Final = {
    SLOW: "loses 1 velocity",
    FAST: "gains 1 velocity",
    FACE_R: "yaws 45° to starboard",
    FACE_L: "yaws 45° to port",
    TUMBLE: "tumbles",
    HEAD_R: "veers 45° to starboard",
    HEAD_L: "veers 45° to port",
    HEAD_RR: "veers 90° to starboard",
    HEAD_LL: "veers 90° to port",
    SPIN: "spins in place",
}
_HEAD1: Final = (1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6)
_HEAD2: Final = (2, 2, 4, 4, 4, 6, 6, 6, 8, 8, 8, 10, 10, 10, 12)
RANDOM_COST: Final = tuple(
    (
        1,
        1 if v <= 6 else 2,
        1 if v == 1 else 2,
        2,
        3,
        _HEAD1[v - 1],
        _HEAD1[v - 1],
        _HEAD2[v - 1],
        _HEAD2[v - 1],
        3,
    )
    for v in range(1, 16)
)

# Asteroids (seed 003): the piloting roll's modifier by velocity.
ASTEROID_MODIFIER: Final = ((2, 0), (4, 1), (6, 2), (8, 3), (10, 4), (14, 5), (20, 6))  # 20+: +7
# Asteroids in motion (seed 003's optional rule, R-147).
ASTEROID_VELOCITY: Final = 1  # "the asteroid's velocity of 1"
ASTEROID_LIFE: Final = 200  # "An asteroid can suffer 200 damage points before being pulverized"
ASTEROID_CRASH: Final = 100  # "collision with one another (which will inflict 100 hits per
# collision)"
# The location of asteroid damage for a ship in random movement (d10).
ASTEROID_LOCATION: Final = (
    (4, "Forward"),
    (6, "Left Forward"),
    (8, "Right Forward"),
    (9, "Left Aft"),
    (10, "Right Aft"),
)
_LOCATION_BEARING: Final = {
    "Forward": 0.0,
    "Left Forward": math.pi / 3,
    "Right Forward": -math.pi / 3,
    "Left Aft": 2 * math.pi / 3,
    "Right Aft": -2 * math.pi / 3,
}

# Planets (seed 003): what a roll missed by means, as (effect, damage in hits); 8 or more burns
# up. ENTER: the ship goes on into the zone; BOUNCE: it bounces off.
ENTER: Final = "enters"
BOUNCE: Final = "bounces"
BURN: Final = "burns up"
FAILED_ENTRY: Final = (
    (ENTER, 5),
    (ENTER, 10),
    (ENTER, 15),
    (ENTER, 25),
    (BOUNCE, 10),
    (BOUNCE, 15),
    (BOUNCE, 25),
)
FAILED_BOUNCE: Final = (
    (BOUNCE, 5),
    (BOUNCE, 10),
    (BOUNCE, 15),
    (BOUNCE, 25),
    (ENTER, 10),
    (ENTER, 15),
    (ENTER, 25),
)

# Collision Damage Table (seed 003): 25 % less damage per point of the ram roll's
# differential; an unintentional collision 75 % less; at least 10 hits.
RAM_REACH: Final = 3  # the rammer's d10 must be within 3 of the target's
MIN_HITS: Final = 10
TONS_PER_MASS: Final = 10  # a ship's tonnage is its Mass × 10
HITS_PER_HULL: Final = 10  # 10 hits are 1 hull point, rounded up
FRONT_CONTACT: Final = "front"
REAR_CONTACT: Final = "rear"
INSTALLATION: Final = "installation"
LATE: Final = "late"  # a heading change made during the move, after ``late_at`` hexes


# --- conversions (R-140, R-141) --------------------------------------------------------------


def thrust_from_speed(speed_cm: float) -> int:
    """Thrust rating: Speed ÷ 5 cm, rounded down (R-141): a ship at rest reaches its Speed in
    one round."""
    return int((speed_cm + 1e-6) // HEX_CM)


def piloting_skill(leadership: int) -> int:
    """Piloting skill level: Ld − 3, at least 0 (R-140): Ld 8 is a skill of 5."""
    return max(0, leadership - SKILL_FROM_LD)


def safe_operating_thrust(thrust: int, leadership: int) -> int:
    """Seed 003: "the average of the ship's Thrust Rating and the pilot's Piloting Skill Level
    (rounded up)" (R-141)."""
    return (thrust + piloting_skill(leadership) + 1) // 2


def heading_cost(velocity: int) -> int:
    """Seed 003: one hexside (45°, R-140) of heading costs velocity ÷ 3, rounded down, + 1."""
    return max(0, velocity) // 3 + 1


def sot_target(sot: int, spent: int) -> int:
    """The SOT saving roll: "subtracts the number of additional Thrust Points needed from the
    SOT, then he must roll a number equal to or less than that target" (d10, R-142)."""
    return sot - max(0, spent - sot)


def push_target(thrust: int, extra: int) -> int:
    """The Pushing the Plant Table: the d10 score to keep the plant whole, :data:`AUTO` (it is
    damaged) or :data:`NONE` (that many points cannot be pushed) (R-144)."""
    if extra <= 0:
        return 10
    if thrust <= 0 or extra > 5:
        return NONE
    return PUSH_TABLE[min(thrust, 5) - 1][extra - 1]


def random_cost(velocity: int, maneuver: int) -> int:
    """The Random Movement Thrust Cost Table: velocity 0 reads row 1, above 15 row 15."""
    return RANDOM_COST[min(max(velocity, 1), 15) - 1][maneuver - 1]


def asteroid_modifier(velocity: int) -> int:
    for top, mod in ASTEROID_MODIFIER:
        if velocity <= top:
            return mod
    return 7


def asteroid_location(roll: int) -> str:
    for top, name in ASTEROID_LOCATION:
        if roll <= top:
            return name
    return "Forward"


def failed_table_row(table: tuple[tuple[str, int], ...], margin: int) -> tuple[str, int]:
    """What a planet roll missed by ``margin`` (1 or more) does: (effect, hits)."""
    if margin >= 8:
        return BURN, 0
    return table[margin - 1]


def hits_to_hull(hits: int) -> int:
    """Seed 003's hits as Void Command hull points: 10 hits a point, rounded up (R-140)."""
    return (max(0, hits) + HITS_PER_HULL - 1) // HITS_PER_HULL


def collision_hits(
    mass: int,
    v_rammer: int,
    v_target: int,
    contact: str,
    differential: int = 0,
    unintentional: bool = False,
) -> int:
    """The Collision Damage Table in hits (R-146): the rammer's tonnage × a velocity factor —
    (rammer − target) ÷ 3 through the target's rear, (rammer + target) ÷ 3 through its front,
    rammer ÷ 3 against an installation (an asteroid), each rounded down, at least 1 — less
    25 % a point of differential (75 % unintentional), never under 10 hits."""
    if contact == REAR_CONTACT:
        factor = (v_rammer - v_target) // 3
    elif contact == FRONT_CONTACT:
        factor = (v_rammer + v_target) // 3
    else:
        factor = v_rammer // 3
    factor = max(1, factor)
    quarters = 1 if unintentional else 4 - min(3, max(0, differential))
    hits = mass * TONS_PER_MASS * factor * quarters // 4
    return max(MIN_HITS, hits)


def contact_side(target: Ship, x: float, y: float) -> str:
    """Which of the target's halves a ship at (x, y) strikes: seed 003's three front hexsides
    are the bearings within 90° of the bow (R-146)."""
    dx, dy = x - target.x, y - target.y
    return FRONT_CONTACT if dx * target.hx + dy * target.hy >= 0.0 else REAR_CONTACT


# --- a ship's helm -----------------------------------------------------------------------------


class Helm:
    """A ship's vector between rounds: velocity (5 cm steps) and course (radians); whether it
    is seriously out of control; thrust points lost to pushing the plant; the enemy it reached
    to ram this round, rammed at the end of all movement and combat (R-146)."""

    __slots__ = ("velocity", "course", "out_of_control", "plant_lost", "ram")

    def __init__(self, velocity: int, course: float) -> None:
        self.velocity = velocity
        self.course = course
        self.out_of_control = False
        self.plant_lost = 0
        self.ram: Ship | None = None


class Trace:
    """Where one move has taken a ship so far and what it has met: seed 001's debris is rolled
    once for each field over the whole move (R-131), drifting bodies and asteroid belts once
    each (R-135, R-147), however many hexes of random movement the move is made of."""

    __slots__ = ("path", "crossed")

    def __init__(self, ship: Ship) -> None:
        self.path = [(ship.x, ship.y)]
        self.crossed: set[int] = set()


class Manoeuvre:
    """What a ship spends its thrust on this activation, in the order it spends it: the
    velocity change, then ``turns`` hexsides of course (45° each, positive = to port), then
    ``facing`` hexsides of facing relative to the new course, all before it moves; then, after
    ``late_at`` hexes of its move, ``late_turns`` hexsides of course (seed 003: "Marcos moves
    four hexes forward and then makes a heading change", R-141); ``push`` points pushed from
    the plant (R-144); ``ram`` the enemy it means to ram (§11)."""

    __slots__ = ("dv", "turns", "facing", "push", "ram", "late_turns", "late_at")

    def __init__(
        self,
        dv: int = 0,
        turns: int = 0,
        facing: int = 0,
        push: int = 0,
        ram: Ship | None = None,
        late_turns: int = 0,
        late_at: int = 0,
    ) -> None:
        self.dv = dv
        self.turns = turns
        self.facing = facing
        self.push = push
        self.ram = ram
        self.late_turns = late_turns
        self.late_at = late_at


def helm(b: Battle, ship: Ship) -> Helm:
    """The ship's helm, made at deployment: velocity half its thrust rating rounded down,
    course its facing (R-141)."""
    h = b.helms.get(ship)
    if h is None:
        h = Helm(thrust_from_speed(ship.speed()) // 2, ship.heading)
        b.helms[ship] = h
        ship.velocity = h.velocity
    return h


def thrust_rating(b: Battle, ship: Ship) -> int:
    """The current thrust rating: current Speed (crippling and Thrusters Damaged halve it) ÷ 5,
    less the points lost to pushing the plant (R-141, R-144)."""
    return max(0, thrust_from_speed(ship.speed()) - helm(b, ship).plant_lost)


def pilot_ld(ship: Ship) -> int:
    """The Ld a ship's piloting skill comes from: its effective profile Ld (R-25), 6 with
    Bridge Destroyed; no blast-marker, crippling or command-radius modifiers (R-140)."""
    if ship.target.criticals and ship.target.has(Critical.BRIDGE_DESTROYED):
        return o.BRIDGE_DESTROYED_LD
    return ship.spec.leadership


def ship_sot(b: Battle, ship: Ship) -> int:
    return safe_operating_thrust(thrust_rating(b, ship), pilot_ld(ship))


def skill_of(b: Battle, ship: Ship) -> int:
    return piloting_skill(pilot_ld(ship))


def d10(b: Battle) -> int:
    return int(b.dice.roll(10))


def costs(m: Manoeuvre, velocity: int, order: SpecialOrder | None) -> list[tuple[str, int]]:
    """The thrust each part of a manoeuvre costs, in the order spent (R-141, R-149): velocity
    1 a point (nothing to slow down on Burn Retros), each hexside of course at the new
    velocity's heading cost (the first free on Come to New Heading), each of facing 1, then
    each hexside of course during the move ("late") at the same heading cost."""
    out: list[tuple[str, int]] = []
    if m.dv:
        out.append(("speed", 0 if m.dv < 0 and order == o.BURN_RETROS else abs(m.dv)))
    v = max(0, velocity + m.dv)
    free = order == o.NEW_HEADING
    for _ in range(abs(m.turns)):
        out.append(("course", 0 if free else heading_cost(v)))
        free = False
    for _ in range(abs(m.facing)):
        out.append(("facing", 1))
    for _ in range(abs(m.late_turns)):
        out.append((LATE, 0 if free else heading_cost(v)))
        free = False
    return out


def allowed(b: Battle, ship: Ship, order: SpecialOrder | None, hesitant: bool) -> int:
    """The most thrust a ship may spend this activation before pushing: its thrust rating, half
    of it (rounded down) when hesitant (R-149)."""
    t = thrust_rating(b, ship)
    return t // 2 if hesitant else t


def legal(
    b: Battle, ship: Ship, m: Manoeuvre, order: SpecialOrder | None, hesitant: bool
) -> Manoeuvre:
    """The manoeuvre trimmed to what the rules allow (R-149): Lock On neither turns nor
    yaws; any ship but a hesitant one may push the plant (seed 003: "he may push the
    powerplant", R-144), never more than the table allows; a heading change during the move
    comes after at most the whole velocity; parts that cannot be paid for are dropped from
    the last."""
    h = helm(b, ship)
    out = Manoeuvre(
        max(m.dv, -h.velocity), m.turns, m.facing, m.push, m.ram, m.late_turns, m.late_at
    )
    if order == o.LOCK_ON:
        out.turns = out.facing = out.late_turns = 0
    out.late_at = max(0, min(out.late_at, h.velocity + out.dv)) if out.late_turns else 0
    thrust = thrust_rating(b, ship)
    if hesitant:
        out.push = 0
    elif out.push > 0:
        while out.push > 0 and push_target(thrust, out.push) == NONE:
            out.push -= 1
    cap = allowed(b, ship, order, hesitant) + out.push
    while sum(c for _, c in costs(out, h.velocity, order)) > cap:
        if out.late_turns:
            out.late_turns -= 1 if out.late_turns > 0 else -1
        elif out.facing:
            out.facing -= 1 if out.facing > 0 else -1
        elif out.turns:
            out.turns -= 1 if out.turns > 0 else -1
        elif out.dv:
            out.dv -= 1 if out.dv > 0 else -1
        else:
            break
    spent = sum(c for _, c in costs(out, h.velocity, order))
    out.push = max(0, min(out.push, spent - allowed(b, ship, order, hesitant)))
    return out


# --- the move ----------------------------------------------------------------------------------


def move(b: Battle, ship: Ship, m: Manoeuvre, order: SpecialOrder | None, hesitant: bool) -> None:
    """One ship's movement under the module: recovery or random movement when out of control
    (R-143), gravity's pull on the velocity (R-148), pushing the plant (R-144), the thrust
    spent with the SOT roll where it is exceeded (R-142), then the move along the course with
    what it meets on the way."""
    h = helm(b, ship)
    ship.orbit = None
    ship.turned = False
    _gravity_velocity(b, ship, h)
    start_heading = ship.heading
    trace = Trace(ship)
    if h.out_of_control:
        if d10(b) <= skill_of(b, ship):
            h.out_of_control = False
            b.log(ship.side, f"{ship.label()} regains control.")
        else:
            b.log(ship.side, f"{ship.label()} is still out of control.")
            begin = h.velocity
            drifted = random_movement(b, ship, h, thrust_rating(b, ship), begin, trace)
            if ship.on_table and in_well(ship) is None:
                _travel(b, ship, h, max(0, begin - drifted) * HEX_CM, None, trace)
            ship.turned = abs(ship.heading - start_heading) > 1e-9
            return
    m = legal(b, ship, m, order, hesitant)
    thrust = thrust_rating(b, ship)
    if m.push > 0:
        push_plant(b, ship, h, thrust, m.push)
    sot = ship_sot(b, ship)
    parts = costs(m, h.velocity, order)
    total = 0
    for _, c in parts:
        total += c
    spent = 0
    lost_at = -1  # the part at which control was lost
    lost_cost = 0
    begin = -1  # the velocity the ship moves at, fixed before it moves
    moved = 0  # hexes moved before a heading change during the move
    sign_t = 1 if m.turns > 0 else -1
    sign_f = 1 if m.facing > 0 else -1
    sign_l = 1 if m.late_turns > 0 else -1
    for i, (kind, c) in enumerate(parts):
        if kind == LATE and begin < 0:
            # Seed 003: "Marcos moves four hexes forward and then makes a heading change"
            begin = h.velocity
            moved = min(m.late_at, begin)
            if moved:
                _travel(b, ship, h, moved * HEX_CM, m.ram, trace, last=False)
                if (
                    not ship.on_table
                    or in_well(ship) is not None
                    or (m.ram is not None and h.ram is m.ram)
                ):
                    ship.turned = abs(ship.heading - start_heading) > 1e-9
                    return  # gone, in orbit, or in contact to ram: the leg ended the move
        if spent <= sot < spent + c and total > sot:
            target = sot_target(sot, total)
            roll = d10(b)
            if roll > target:
                lost_at, lost_cost = i, c
                b.log(
                    ship.side,
                    f"{ship.label()} spends {total} thrust against an SOT of {sot}"
                    f" and loses control (rolled {roll}, needed {target} or less).",
                )
                break
            b.log(
                ship.side,
                f"{ship.label()} exceeds its SOT of {sot} and holds it "
                f"(rolled {roll}, needed {target} or less).",
            )
        spent += c
        if kind == "speed":
            h.velocity = max(0, h.velocity + m.dv)
        elif kind == "course" or kind == LATE:
            turn = (sign_t if kind == "course" else sign_l) * STEP
            h.course = (h.course + turn) % (2 * math.pi)
            ship.face(ship.heading + turn)  # the bow turns with the course
        else:
            ship.face(ship.heading + sign_f * STEP)
    if begin < 0:
        begin = h.velocity
    drifted = 0
    if lost_at >= 0:
        h.out_of_control = True
        # "each hex moved also counts against the movement limit of the beginning velocity"
        drifted = random_movement(b, ship, h, lost_cost, begin - moved, trace)
    if ship.on_table and in_well(ship) is None:
        _travel(b, ship, h, max(0, begin - moved - drifted) * HEX_CM, m.ram, trace)
    ship.turned = abs(ship.heading - start_heading) > 1e-9


def push_plant(b: Battle, ship: Ship, h: Helm, thrust: int, extra: int) -> bool:
    """Pushing the plant: the points are always had; on a failed roll the plant loses a
    quarter of its original thrust, rounded up, for the rest of the battle (R-144). Returns
    whether the plant held."""
    target = push_target(thrust, extra)
    if target == AUTO:
        ok = False
        roll = 0
    else:
        roll = d10(b)
        ok = roll <= target
    if ok:
        b.log(
            ship.side,
            f"{ship.label()} pushes the plant for {extra} thrust (rolled {roll}, "
            f"needed {target} or less).",
        )
        return True
    loss = (thrust_from_speed(ship.base_speed) + 3) // 4
    h.plant_lost += loss
    b.log(
        ship.side,
        f"{ship.label()} pushes the plant for {extra} thrust and damages it: "
        f"thrust −{loss} for the rest of the battle"
        + (f" (rolled {roll}, needed {target} or less)." if target != AUTO else "."),
    )
    return False


def random_movement(
    b: Battle, ship: Ship, h: Helm, points: int, begin: int, trace: Trace | None = None
) -> int:
    """Seriously out of control (R-143): maneuvers rolled on the d10 table and paid from
    ``points`` at the current velocity; one the points left cannot pay for makes the ship drift
    one hex while a new one is rolled, never more hexes than its beginning velocity. Returns
    the hexes drifted. The drift is part of the move ``trace`` follows: its debris is rolled
    when the move ends (R-131), or here when the drift is the whole move (no ``trace``)."""
    whole = trace is None
    if trace is None:
        trace = Trace(ship)
    left = points
    drifted = 0
    while left > 0 and ship.on_table and in_well(ship) is None:
        maneuver = d10(b)
        cost = random_cost(h.velocity, maneuver)
        if cost > left:
            if drifted >= begin:
                break
            drifted += 1
            _travel(b, ship, h, HEX_CM, None, trace, last=False)
            continue
        left -= cost
        _random_maneuver(ship, h, maneuver)
        b.log(ship.side, f"{ship.label()} {MANEUVER_NAMES[maneuver]} out of control.")
    if whole and ship.on_table and in_well(ship) is None:
        _debris(b, ship, trace)
    return drifted


def _random_maneuver(ship: Ship, h: Helm, maneuver: int) -> None:
    if maneuver == SLOW:
        h.velocity = max(0, h.velocity - 1)
    elif maneuver == FAST:
        h.velocity += 1
    elif maneuver in (FACE_R, FACE_L):
        ship.face(ship.heading + (-STEP if maneuver == FACE_R else STEP))
    elif maneuver in (HEAD_R, HEAD_L, HEAD_RR, HEAD_LL):
        turn = STEP if maneuver in (HEAD_R, HEAD_L) else 2 * STEP
        if maneuver in (HEAD_R, HEAD_RR):
            turn = -turn
        h.course = (h.course + turn) % (2 * math.pi)
        ship.face(ship.heading + turn)


def _debris(b: Battle, ship: Ship, trace: Trace) -> None:
    """Seed 001 after a ship moves: one roll for each debris field the whole move passed
    through or into (R-131)."""
    if b.seed001 and b.terrain and ship.on_table:
        debris_after_move(b, ship, trace.path, ship.velocity)


def _travel(
    b: Battle,
    ship: Ship,
    h: Helm,
    distance: float,
    ram: Ship | None,
    trace: Trace,
    last: bool = True,
) -> None:
    """Move ``distance`` cm along the course: a ram target met stops the ship in contact
    (R-146), a planet's interface zone is rolled for on the way (R-148), then the rest of the
    terrain as the standard move meets it (planets, wells, bodies; asteroids by R-147), and the
    table edge (R-76). ``trace`` follows the whole move; the ``last`` leg ends it, and seed
    001's debris is rolled then, once for the move (R-131), as it is when the ship stops in
    orbit."""
    ship.velocity = h.velocity  # seed 001 velocity follows the helm
    if distance <= 0.0:
        if last:
            _end_move(b, ship, h, trace)
        elif ship.on_table:
            b.settle(ship)
        return
    x0, y0 = ship.x, ship.y
    cx, cy = math.cos(h.course), math.sin(h.course)
    x1, y1 = x0 + distance * cx, y0 + distance * cy
    path = trace.path
    if ram is not None and ram.on_table:
        hit = segment_first_contact(x0, y0, x1, y1, ram.x, ram.y, ship.radius + ram.radius)
        if hit is not None:
            ship.x, ship.y = x0 + (x1 - x0) * hit, y0 + (y1 - y0) * hit
            path.append((ship.x, ship.y))
            h.ram = ram  # seed 003: "the attempt takes place at the end of all movement and
            # combat" (R-146)
            b.log(ship.side, f"{ship.label()} closes on {ram.label()} to ram it.")
            _debris(b, ship, trace)
            if ship.on_table:
                b.settle(ship)
            return
    if b.terrain:
        bounce = _interface_on_leg(b, ship, h, x0, y0, x1, y1, distance)
        if not ship.on_table:
            return
        if bounce is not None:
            # the ship bounced at (bx, by) and goes on along its new course
            bx, by, rest = bounce
            ship.x, ship.y = bx, by
            path.append((bx, by))
            cx, cy = math.cos(h.course), math.sin(h.course)
            x0, y0, x1, y1 = bx, by, bx + rest * cx, by + rest * cy
        if not _terrain_on_leg(b, ship, x0, y0, x1, y1, trace.crossed, path):
            _debris(b, ship, trace)  # stopped in orbit: the move ends here
            if ship.on_table and in_well(ship) is not None:
                h.velocity = ship.velocity
            return
    path.append((x1, y1))
    ship.x, ship.y = x1, y1
    if not b.on_table(x1, y1):
        b.leave_table(ship)
        return
    if last:
        _end_move(b, ship, h, trace)
    else:
        b.settle(ship)


def _end_move(b: Battle, ship: Ship, h: Helm, trace: Trace) -> None:
    """Where the move ends: seed 001's debris for the whole move (R-131), §13's slingshot near a
    planet (its free turn turns the course too), then blast markers and shields."""
    if b.terrain:
        _debris(b, ship, trace)
        if not ship.on_table:
            return
        before = ship.heading
        _slingshot(b, ship)
        if ship.heading != before:
            h.course = (h.course + ship.heading - before) % (2 * math.pi)
    b.settle(ship)


# --- collisions (R-145, R-146) ---------------------------------------------------------------


def collide(b: Battle, rammer: Ship, target: Ship, hits: int, what: str) -> None:
    """Both ships take the same damage (seed 003: "inflicted on the colliding armour facings of
    both ships"), as damage: no armor save, brace and shields apply (R-43); both before either
    explodes, in initiative order (§8, as R-77)."""
    points = hits_to_hull(hits)
    b.log(rammer.side, f"{what}: {hits} hits, {points} damage to each.")
    reports = []
    for s in (rammer, target):
        other = target if s is rammer else rammer
        report = b.attack(
            s, gunnery.damage_points, points, b.dice, attack="collision", source=other, defer=True
        )
        reports.append((s, report))
        b.log(s.side, f"  {s.label()}: " + gunnery.describe(report))
    first = ("a", "b").index(b.initiative[-1]) if b.initiative else rammer.side
    reports.sort(key=lambda sr: sr[0].side != first)
    for s, report in reports:
        if report.destroyed and s.on_table:
            b.remove_destroyed(s, report.catastrophe)


def ram_attempt(b: Battle, ship: Ship, enemy: Ship) -> None:
    """A ram under the module (R-146): rammer and target roll a d10 each; within 3 of each
    other the ships collide, the differential reducing the damage 25 % a point."""
    mine, theirs = d10(b), d10(b)
    diff = abs(mine - theirs)
    if diff > RAM_REACH:
        b.log(
            ship.side,
            f"{ship.label()} tries to ram {enemy.label()} and misses (rolled "
            f"{mine} against {theirs}).",
        )
        return
    contact = contact_side(enemy, ship.x, ship.y)
    hits = collision_hits(
        mass_of(ship), helm(b, ship).velocity, helm(b, enemy).velocity, contact, differential=diff
    )
    collide(
        b,
        ship,
        enemy,
        hits,
        f"{ship.label()} rams {enemy.label()} through its {contact} "
        f"(rolled {mine} against {theirs})",
    )


def in_ram_contact(a: Ship, t: Ship) -> bool:
    return _hypot(a.x - t.x, a.y - t.y) <= a.radius + t.radius + 1e-6


def resolve_rams(b: Battle) -> list[tuple[Ship, Ship]]:
    """Seed 003: "assuming it makes it into the ram hex, the attempt takes place at the end of
    all movement and combat" (R-146): each ram a ship reached this round, in fleet order, if
    both ships are still on the table and in base contact. Returns the pairs that tried."""
    tried = []
    for side in b.sides:
        for s in side:
            h = b.helms.get(s)
            if h is None or h.ram is None:
                continue
            target, h.ram = h.ram, None
            if not (s.on_table and target.on_table):
                continue
            tried.append((s, target))
            if not in_ram_contact(s, target):
                b.log(s.side, f"{target.label()} has slipped away from {s.label()}'s ram.")
                continue
            ram_attempt(b, s, target)
    return tried


def accidental_collisions(b: Battle, rams: list[tuple[Ship, Ship]] | None = None) -> None:
    """After all movement and combat (the start of the End Phase), every two ships whose bases
    touch or overlap ("the same hex", R-145) roll a d10 each; equal rolls collide. The faster is the
    rammer (the first on a tie); the damage is an unintentional collision's (R-145)."""
    ships = [s for side in b.sides for s in side if s.on_table and in_well(s) is None]
    for i in range(len(ships)):
        s = ships[i]
        for j in range(i + 1, len(ships)):
            t = ships[j]
            if not (s.on_table and t.on_table):
                continue
            if _hypot(s.x - t.x, s.y - t.y) > s.radius + t.radius:
                continue
            if rams and ((s, t) in rams or (t, s) in rams):
                continue  # "When neither unit is attempting to ram the other"
            ra, rb = d10(b), d10(b)
            if ra != rb:
                continue
            rammer, target = (s, t) if helm(b, s).velocity >= helm(b, t).velocity else (t, s)
            contact = contact_side(target, rammer.x, rammer.y)
            hits = collision_hits(
                mass_of(rammer),
                helm(b, rammer).velocity,
                helm(b, target).velocity,
                contact,
                unintentional=True,
            )
            collide(b, rammer, target, hits, f"{rammer.label()} and {target.label()} collide")


# --- asteroids (R-147) -------------------------------------------------------------------------


def asteroid_roll(b: Battle, ship: Ship, t: Terrain, moving_belt: bool = False) -> None:
    """Entering an asteroid belt: a d10 plus the velocity modifier at or under the piloting
    skill passes; else damage as ramming an installation with the front (R-147). A ship out of
    control rolls where it is struck (the blast marker's side). A belt in motion that moves
    onto the ship (``moving_belt``) adds its velocity of 1 to the ship's for the modifier and
    strikes the side it came from; with asteroids in motion the belt takes the same hits."""
    h = helm(b, ship)
    mod = asteroid_modifier(h.velocity + (ASTEROID_VELOCITY if moving_belt else 0))
    skill = skill_of(b, ship)
    roll = d10(b)
    if roll + mod <= skill:
        b.log(
            ship.side,
            f"{ship.label()} threads the {t.name} (rolled {roll} + {mod}, skill {skill}).",
        )
        return
    hits = collision_hits(mass_of(ship), h.velocity, 0, INSTALLATION)
    if moving_belt:
        side = "the side it came from"
        sx, sy = ship.x - 2.0 * t.vx, ship.y - 2.0 * t.vy
    else:
        side = "Forward"
        if h.out_of_control:
            side = asteroid_location(d10(b))
        angle = ship.heading + _LOCATION_BEARING[side]
        sx, sy = ship.x + 10.0 * math.cos(angle), ship.y + 10.0 * math.sin(angle)
    points = hits_to_hull(hits)
    b.attack(
        ship,
        gunnery.damage_points,
        points,
        b.dice,
        attack="asteroids",
        source_xy=(sx, sy),
        log_as=(
            ship.side,
            f"{ship.label()} strikes an asteroid ({side}; rolled {roll} + "
            f"{mod}, skill {skill}) for {hits} hits, {points} damage: ",
        )
        if b.logging
        else None,
    )
    if b.asteroids_moving:
        _wear(b, t, hits, reroll=True)


# --- asteroids in motion (seed 003's optional rule, R-147) -------------------------------------


def asteroid_direction(roll: int) -> float:
    """A d6 direction of travel, as the course of a hex map's six sides: 1 toward fleet B's
    long edge, then clockwise seen from above with fleet A's edge nearest, 60° apart."""
    return (math.pi / 2 - (roll - 1) * math.pi / 3) % (2 * math.pi)


def _aim(t: Terrain, roll: int) -> None:
    a = asteroid_direction(roll)
    t.vx, t.vy = HEX_CM * math.cos(a), HEX_CM * math.sin(a)


def set_asteroids_moving(b: Battle) -> None:
    """Seed 003: "Before the game begins, simply roll a six-sided die to determine the
    direction of travel of the entire field for the rest of the game": one d6 for every
    asteroid belt on the table (R-147)."""
    belts = [t for t in b.terrain if t.kind == "asteroids"]
    if not belts:
        return
    roll = int(b.dice.d6())
    for t in belts:
        _aim(t, roll)
    b.log(
        None,
        f"The asteroids drift 5 cm a round toward {roll} on the d6 "
        f"({math.degrees(asteroid_direction(roll)):.0f}°).",
    )


def _wear(b: Battle, t: Terrain, hits: int, reroll: bool) -> None:
    """The hits a belt takes: at 200 it is pulverized and removed; a belt that survives a
    collision rolls a new direction at its next move (R-147)."""
    if t not in b.terrain:
        return
    total = b.asteroid_hits.get(t, 0) + hits
    b.asteroid_hits[t] = total
    if total >= ASTEROID_LIFE:
        b.terrain.remove(t)
        if t in b.asteroid_reroll:
            b.asteroid_reroll.remove(t)
        b.log(None, f"The {t.name} is pulverized ({total} hits).")
    elif reroll and t not in b.asteroid_reroll:
        b.asteroid_reroll.append(t)


def move_asteroids(b: Battle) -> None:
    """Seed 003: "At the end of each Movement Phase, move each asteroid one hex in the
    direction of its arrow" (R-147): at the start of the End Phase, before gravity, each belt
    in placement order rolls a new direction if a collision asked for one, then moves 5 cm; a
    ship whose centre it newly covers makes the asteroid roll with 1 added to its velocity for
    the modifier ("If a collision happens, the ship takes damage on the side from which the
    asteroid came"). Then belts that have come to overlap collide: 100 hits each, and new
    directions at their next move, rolled again there while they would all go the same way.
    A belt whose centre leaves the table is gone."""
    if not b.asteroids_moving:
        return
    belts = [t for t in b.terrain if t.kind == "asteroids" and (t.vx or t.vy)]
    if not belts:
        return
    again = b.asteroid_reroll
    b.asteroid_reroll = []
    rolls: list[int] = []
    for t in belts:
        if t in again:
            roll = int(b.dice.d6())
            rolls.append(roll)
            _aim(t, roll)
    if len(rolls) >= 2 and len(set(rolls)) == 1:
        b.asteroid_reroll = [t for t in again if t in b.terrain]  # "new directions must be
        # rolled in the next turn"
    before = {id(t): (t.x, t.y) for t in belts}
    for t in belts:
        if t not in b.terrain:
            continue
        t.x += t.vx
        t.y += t.vy
        for side in b.sides:
            for s in side:
                if not s.on_table or in_well(s) is not None:
                    continue
                x0, y0 = before[id(t)]
                if _hypot(s.x - x0, s.y - y0) > t.r >= _hypot(s.x - t.x, s.y - t.y):
                    asteroid_roll(b, s, t, moving_belt=True)
        if not b.on_table(t.x, t.y):
            b.terrain.remove(t)
            b.log(None, f"The {t.name} drifts off the table.")
    belts = [t for t in belts if t in b.terrain]
    for i in range(len(belts)):
        for j in range(i + 1, len(belts)):
            p, q = belts[i], belts[j]
            if p not in b.terrain or q not in b.terrain:
                continue
            (px, py), (qx, qy) = before[id(p)], before[id(q)]
            if _hypot(p.x - q.x, p.y - q.y) < p.r + q.r <= _hypot(px - qx, py - qy):
                b.log(None, f"The {p.name} and the {q.name} collide.")
                _wear(b, p, ASTEROID_CRASH, reroll=True)
                _wear(b, q, ASTEROID_CRASH, reroll=True)


# --- planets (R-148) ---------------------------------------------------------------------------


def _gap(ship: Ship, t: Terrain, x: float, y: float) -> float:
    return _hypot(x - t.x, y - t.y) - t.r - ship.radius


def zone_modifier(b: Battle, ship: Ship) -> int:
    """The interface roll's modifiers: random movement +2, +1 per 10 % of hull lost, +1 per
    25 % of thrust lost (+4 at thrust 0: the plant disabled) (R-148)."""
    t = ship.target
    mod = 2 if helm(b, ship).out_of_control else 0
    if t.max_hull:
        mod += (t.max_hull - t.hull) * 10 // t.max_hull
    full = thrust_from_speed(ship.base_speed)
    now = thrust_rating(b, ship)
    if full > 0:
        mod += 4 if now <= 0 else (full - now) * 4 // full
    return mod


def interface_roll(b: Battle, ship: Ship, t: Terrain, bounce: bool) -> str:
    """Entering or bouncing off a planet's interface zone: d10 + modifiers at or under the
    piloting skill + 4 succeeds; else the Failed Entry or Failed Bounce Table by the margin
    (R-148). Returns ENTER, BOUNCE or BURN (the ship is then destroyed)."""
    chance = skill_of(b, ship) + 4
    roll = d10(b)
    total = roll + zone_modifier(b, ship)
    if total <= chance:
        effect = BOUNCE if bounce else ENTER
        b.log(
            ship.side,
            f"{ship.label()} {effect} the {t.name}'s interface zone (rolled "
            f"{roll}, {total} against {chance}).",
        )
        return effect
    effect, hits = failed_table_row(FAILED_BOUNCE if bounce else FAILED_ENTRY, total - chance)
    if effect == BURN:
        b.log(
            ship.side,
            f"{ship.label()} burns up in the {t.name}'s atmosphere (rolled {roll}, "
            f"{total} against {chance}).",
        )
        b.remove_destroyed(ship, catastrophe=None)
        return BURN
    points = hits_to_hull(hits)
    b.attack(
        ship,
        gunnery.damage_points,
        points,
        b.dice,
        attack="interface",
        source_xy=(ship.x + ship.hx, ship.y + ship.hy),
        log_as=(
            ship.side,
            f"{ship.label()} {effect} the {t.name}'s interface zone badly "
            f"(rolled {roll}, {total} against {chance}): {hits} hits, "
            f"{points} damage: ",
        )
        if b.logging
        else None,
    )
    return effect if ship.on_table else BURN


def bow_on_course(ship: Ship, h: Helm) -> bool:
    """Seed 003: "To enter the zone, the ship's heading and facing must be the same" (R-148)."""
    off = (ship.heading - h.course + math.pi) % (2 * math.pi) - math.pi
    return abs(off) < 1e-6


def _bounce_course(ship: Ship, h: Helm, t: Terrain, x: float, y: float) -> None:
    """A bounce off the zone at (x, y): the course is reflected off it (so turned at most
    180°, velocity unchanged), the bow turning with it (R-148)."""
    nx, ny = x - t.x, y - t.y
    n = _hypot(nx, ny) or 1.0
    nx, ny = nx / n, ny / n
    cx, cy = math.cos(h.course), math.sin(h.course)
    dot = cx * nx + cy * ny
    rx, ry = cx - 2.0 * dot * nx, cy - 2.0 * dot * ny
    turn = _atan2(ry, rx) - h.course
    h.course = _atan2(ry, rx) % (2 * math.pi)
    ship.face(ship.heading + turn)


def _interface_on_leg(
    b: Battle, ship: Ship, h: Helm, x0: float, y0: float, x1: float, y1: float, distance: float
) -> tuple[float, float, float] | None:
    """The first planet whose interface zone the leg enters from outside: the ship rolls —
    to bounce if going on would touch the planet, else to enter (the policy's choice; a ship
    out of control cannot bounce on purpose); a ship whose bow is off its course cannot enter
    and rolls to bounce. A bounce turns the course away from the planet (a reflection, so at
    most 180°, R-148) at that point; returns (x, y, distance left)."""
    for t in b.terrain:
        if t.kind != "planet":
            continue
        if _gap(ship, t, x0, y0) <= INTERFACE_CM:
            continue  # already inside the zone: no new roll
        hit = segment_first_contact(x0, y0, x1, y1, t.x, t.y, t.r + ship.radius + INTERFACE_CM)
        if hit is None:
            continue
        bx, by = x0 + (x1 - x0) * hit, y0 + (y1 - y0) * hit
        touches = segment_first_contact(x0, y0, x1, y1, t.x, t.y, t.r + ship.radius) is not None
        want_bounce = (touches and not h.out_of_control) or not bow_on_course(ship, h)
        effect = interface_roll(b, ship, t, want_bounce)
        if not ship.on_table:
            return None
        if effect != BOUNCE:
            return None
        _bounce_course(ship, h, t, bx, by)
        return bx, by, distance * (1.0 - hit)
    return None


def _gravity_velocity(b: Battle, ship: Ship, h: Helm) -> None:
    """Seed 003: "ships traveling directly toward the ground increase their velocity by 1 at
    the beginning of each turn; ships traveling directly away from the ground decrease their
    velocity by 1" — within a planet's gravity, directly being within 22.5° (R-148)."""
    if not b.terrain or h.velocity <= 0:
        return
    for t in b.terrain:
        if t.kind != "planet" or _gap(ship, t, ship.x, ship.y) > GRAVITY_CM:
            continue
        to = _atan2(t.y - ship.y, t.x - ship.x)
        off = abs((h.course - to + math.pi) % (2 * math.pi) - math.pi)
        if off <= DIRECT:
            h.velocity += 1
        elif off >= math.pi - DIRECT:
            h.velocity -= 1
        return


def gravity_pull(b: Battle) -> None:
    """At the end of all movement every ship within a planet's gravity (15 cm of its edge) is
    moved one hex (5 cm) toward its centre; into the interface zone it makes the entry roll
    (the bounce roll when its bow is off its course: a bounce keeps it at the zone's edge,
    its course reflected), onto the planet it is lost (§13) (R-148)."""
    if not b.terrain:
        return
    for side in b.sides:
        for s in side:
            if not s.on_table or s.orbit is not None and in_well(s) is not None:
                continue
            for t in b.terrain:
                if t.kind != "planet":
                    continue
                gap = _gap(s, t, s.x, s.y)
                if gap > GRAVITY_CM:
                    continue
                d = _hypot(s.x - t.x, s.y - t.y) or 1.0
                step = min(HEX_CM, max(0.0, gap))
                ux, uy = (s.x - t.x) / d, (s.y - t.y) / d
                s.x -= ux * step
                s.y -= uy * step
                b.log(s.side, f"{s.label()} is pulled {step:.0f} cm toward the {t.name}.")
                new_gap = gap - step
                if gap > INTERFACE_CM >= new_gap:
                    h = helm(b, s)
                    bounce = not bow_on_course(s, h)
                    if interface_roll(b, s, t, bounce) == BOUNCE and s.on_table:
                        # it bounces off the zone's edge, the way it came
                        edge = d - gap + INTERFACE_CM + 0.01
                        s.x, s.y = t.x + ux * edge, t.y + uy * edge
                        _bounce_course(s, h, t, s.x, s.y)
                        new_gap = INTERFACE_CM + 0.01
                if s.on_table and new_gap <= 0.0:
                    b.log(s.side, f"{s.label()} falls onto the {t.name} and is lost.")
                    b.remove_destroyed(s, catastrophe=None)
                break


def end_of_movement(b: Battle) -> None:
    """The End Phase's first step under the module: asteroids in motion, gravity, the rams
    reached this round, then accidental collisions (R-145 – R-148)."""
    move_asteroids(b)
    gravity_pull(b)
    accidental_collisions(b, resolve_rams(b))
