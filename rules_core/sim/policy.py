"""How a side is played: every choice a player makes, asked of a :class:`Policy`.

The engine enforces the rules; the policy only chooses among legal options (and the engine
clamps whatever it returns to what the rules allow). :class:`StandardPolicy` is the sensible
player documented in docs/simulator.md: it closes to its best range, keeps the enemy in its
strongest arcs, focuses fire, picks special orders by situation and launches and reloads
ordnance. Register another with :func:`register_policy` and name it in ``SimOptions``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, cast

from mypy_extensions import mypyc_attr

from ..catalog import CraftRole
from ..damage import POINT_BLANK_CM, SpecialOrder
from . import advanced_movement as adv
from . import orders as o
from .api import POLICY_REGISTRY
from .factions import (
    AUSPEX_RANGE_CM,
    HOLOFIELD_RANGE_CM,
    HOLOFIELD_SAVE,
    NEAR_FRIEND_CM,
    TELEPORT_CM,
    has_teleport,
    holofield_save,
)
from .geometry import angle_diff, arc_of, segment_point_distance, sight_blocked
from .geometry import hypot as _hypot
from .gunnery import boarding_score_base, in_contact
from .movement import DEG45, DEG90, Limits, Plan, end_point, limits
from .state import BATTERY, FRONT, LANCE, LEFT, MARKER_RADIUS, REAR, RIGHT, RankedUnits, ShipSpec
from .terrain import mass_of, velocity_of

if TYPE_CHECKING:
    from .battle import Battle
    from .gunnery import Sighting
    from .state import Gun, Ordnance, Salvo, Ship, Terrain, Unit, Wave

_atan2: Final = math.atan2  # a C static for mypyc, not a look-up in math


# Compiled with mypyc (scripts/build_sim.py): a policy written in plain Python may still subclass
# these classes (tests do; so may a policy registered with register_policy).
@mypyc_attr(allow_interpreted_subclasses=True)
class Policy:
    """The decisions of one side. Subclass and override; every method has a safe default."""

    name = "base"

    def first_player(self, b: Battle, side: int) -> int:
        """The Command Phase winner chooses who activates first (§3)."""
        return side

    def reroll_initiative(self, b: Battle, side: int, die: int) -> bool:
        return die <= 3

    def next_unit(self, b: Battle, side: int, ready: list[Unit]) -> Unit:
        return ready[0]

    def wants_disengage(self, b: Battle, unit: Unit) -> bool:
        return False

    def wants_free_order(self, b: Battle, unit: Unit, lead: Ship) -> bool:
        return True

    def takes_faction_options(self) -> bool:
        """Whether the side takes what its faction rules offer at the player's word ("may"):
        the Teleport Assault (R-116), Naval Discipline's free order (R-117), Acts of Faith's
        re-roll (R-110), naming the grudge (R-118), Ere We Go's ram with no check (R-89) and
        Seeking Missiles' turn (R-119). A method, not a class attribute, so that a policy
        written in plain Python can override it."""
        return True

    def plan(
        self, b: Battle, unit: Unit, lead: Ship, may_order: bool, hesitant: bool
    ) -> tuple[SpecialOrder | None, Plan]:
        return None, Plan(lead.speed())

    def rejoin_plan(self, b: Battle, ship: Ship, lim: Limits) -> Plan:
        return Plan(lim.max_move)

    def manoeuvre(
        self, b: Battle, ship: Ship, order: SpecialOrder | None, hesitant: bool, ram: Ship | None
    ) -> adv.Manoeuvre:
        """Advanced movement (R-141): what to spend thrust on; by default, coast."""
        return adv.Manoeuvre(ram=ram)

    def gun_target(
        self, b: Battle, ship: Ship, gun: Gun, options: list[Sighting]
    ) -> Sighting | None:
        return options[0]

    def torpedo_heading(self, b: Battle, ship: Ship, tube: Ordnance) -> float | None:
        return None

    def detonate_salvo(self, b: Battle, salvo: Salvo, friend: Ship) -> bool:
        """Remote control (§12), asked at the start of a salvo's Drift move when its path would
        strike ``friend``, a ship of its own side (R-83): True detonates it harmlessly."""
        return False

    def launch_plan(self, b: Battle, ship: Ship, count: int) -> list[tuple[CraftRole, int, Ship]]:
        return []

    def craft_retarget(self, b: Battle, wave: Wave) -> Ship | None:
        return None

    def nova_target(
        self, b: Battle, ship: Ship, lo: float, hi: float
    ) -> tuple[float, float] | None:
        return None

    def slingshot_turn(self, b: Battle, ship: Ship) -> float:
        return 0.0

    def orbit_velocity(self, b: Battle, ship: Ship, lo: int, hi: int) -> int:
        """Seed 001 (R-132): the velocity to end the orbit manoeuvre at, from ``lo`` to ``hi``;
        3 stays in orbit, more slingshots out, less crashes. Stays while an enemy outside any
        orbit is within its guns' reach of the well's edge, else leaves when it can."""
        well = ship.orbit
        reach = ship.spec.gun_reach + (well.r if well is not None else 0.0)
        for e in b.sides[1 - ship.side]:
            if (
                e.on_table
                and (e.orbit is None or e.orbit.kind != "gravity_well")
                and _hypot(e.x - ship.x, e.y - ship.y) <= reach
            ):
                return 3 if lo <= 3 else lo
        return hi if hi > 3 else 3

    def orbit_exit(self, b: Battle, ship: Ship) -> float:
        """Seed 001 (R-132): the bearing (radians) from the well's centre along which a ship
        slingshots out: towards the nearest enemy, else straight on."""
        best = None
        best_d = 0.0
        for e in b.sides[1 - ship.side]:
            if e.on_table and e is not ship:
                d = _hypot(e.x - ship.x, e.y - ship.y)
                if best is None or d < best_d:
                    best, best_d = e, d
        if best is None or best_d < 1e-6:
            return ship.heading
        return _atan2(best.y - ship.y, best.x - ship.x)

    def wants_brace(self, b: Battle, ship: Ship, strength: int, kind: int) -> bool:
        return False

    def wants_scramble(self, b: Battle, ship: Ship, role: CraftRole | None, count: int) -> bool:
        """Interceptor Scramble (§10) against ``count`` incoming torpedoes (``role`` None) or
        attack craft of ``role``; the engine has checked the carrier may."""
        return True

    def board_target(self, b: Battle, ship: Ship) -> Ship | None:
        return None


class _BearingGun:
    """A gun in a :class:`_Profile`'s bearing table: its range, its weight, whether a battery."""

    __slots__ = ("range_cm", "weight", "battery")

    def __init__(self, range_cm: float, weight: float, battery: bool) -> None:
        self.range_cm = range_cm
        self.weight = weight
        self.battery = battery


class _Bearing:
    """The guns bearing on one combination of arc bits, and their summed weight."""

    __slots__ = ("weight", "guns")

    def __init__(self, weight: float, guns: list[_BearingGun]) -> None:
        self.weight = weight
        self.guns = guns


class _Profile:
    """What the standard policy needs to know about a ship, worked out once per spec."""

    __slots__ = (
        "arc_weight",
        "total",
        "best_range",
        "max_range",
        "battery_share",
        "carrier",
        "torpedoes",
        "guns",
        "half_speed",
        "bearing",
        "tactic_range",
        "tactic_pb",
        "close_in",
        "keep_near",
    )

    def __init__(self, spec: ShipSpec) -> None:
        arc_weight = {FRONT: 0.0, LEFT: 0.0, RIGHT: 0.0, REAR: 0.0}
        battery = lance = 0.0
        max_range = 0.0
        guns = []
        for g in spec.guns:
            w = g.strength * (1.4 if g.kind == LANCE else 1.0)
            guns.append((g.arcs, g.range_cm, w, g.kind == BATTERY))
            for bit in arc_weight:
                if g.arcs & bit:
                    arc_weight[bit] += w
            if g.kind == LANCE:
                lance += w
            else:
                battery += w
            max_range = max(max_range, g.range_cm)
        self.guns = tuple(guns)
        # For each combination of arc bits: the weight of the guns bearing there (summed in
        # profile order) and those guns (range, weight, battery), for the move scores.
        bearing: list[_Bearing] = []
        for bits in range(16):
            weight = 0.0
            bearing_guns: list[_BearingGun] = []
            for g_arcs, g_range, w, battery_gun in guns:
                if g_arcs & bits:
                    weight += w
                    bearing_guns.append(_BearingGun(g_range, w, battery_gun))
            bearing.append(_Bearing(weight, bearing_guns))
        self.bearing = bearing
        self.half_speed = spec.speed / 2.0
        self.arc_weight = arc_weight
        self.total = battery + lance
        self.battery_share = battery / self.total if self.total else 0.0
        self.carrier = spec.launch_capacity * 2.0 > self.total
        self.torpedoes = sum(t.strength for t in spec.torpedoes)
        if self.carrier:
            self.best_range = 40.0
        elif self.total == 0.0:
            self.best_range = 20.0
        elif self.battery_share >= 0.5:
            self.best_range = 15.0  # point blank: 4+ instead of 5+ (§7)
        else:
            lance_ranges = [g.range_cm for g in spec.guns if g.kind == LANCE]
            self.best_range = max(15.0, min(lance_ranges) - 5.0)
        self.max_range = max_range or 30.0
        # Faction tactics (docs/simulator.md, "Faction tactics"): the range a ship that plays
        # its faction's rules fights at instead (0: none), and the distance up to which its
        # batteries hit as at point blank there.
        rules = spec.rules
        self.tactic_range = 0.0
        self.tactic_pb = 15.0
        self.close_in = 0.0  # worth ending within this of the target (cm)
        # Keep within this of a friendly ship for a faction rule's command check (0: none): For
        # the Greater Good's +1 Ld, Mob Rule's re-roll. (Synapse, tried the same way,
        # gained nothing measurable.)
        self.keep_near = 0.0
        if rules.greater_good or rules.mob_rule:
            self.keep_near = NEAR_FRIEND_CM - KEEP_NEAR_SPARE_CM
        if has_teleport(spec):
            self.tactic_range = TELEPORT_CLOSE_CM  # close enough to send a strike team
            self.close_in = TELEPORT_CM
        elif rules.auspex and not self.carrier and self.battery_share >= 0.5:
            # Batteries hit on 4+ out to 30 cm: no need to close to 15 where the enemy does too.
            self.tactic_range = AUSPEX_STANDOFF_CM
            self.tactic_pb = AUSPEX_RANGE_CM


# How much better Lock On must look than a free move, as a share of the ship's whole firepower:
# a little worse as a rule (it may not turn), but worth a little when a faction rule makes its
# command check safe (Hatred, Naval Discipline).
LOCK_ON_SURE_BONUS: Final = 0.1
# What ending within reach of a Teleport Assault is worth, as a share of the ship's firepower.
CLOSE_IN_BONUS: Final = 0.1
# Ending out of reach of the friend a faction rule's check needs (For the Greater Good, Mob
# Rule, R-89): a share of the ship's firepower, in full this many cm beyond, and the margin kept
# inside the rule's range (the friend moves too).
KEEP_NEAR_COST: Final = 1.0
KEEP_NEAR_RAMP_CM: Final = 20.0
KEEP_NEAR_SPARE_CM: Final = 3.0
# Against holofields the fleet arrives inside 15 cm together, not one ship at a time to be
# shot by every Eldar gun in reach: each ship keeps within this of a friend, at the same cost.
HOLOFIELD_KEEP_NEAR_CM: Final = 20.0

# Boarding: board an enemy in base contact when the ship's hull + Ld + bonuses beat its
# own by this much; a ship closing to board ends this far inside base contact.
BOARD_MARGIN: Final = 3
# Ancestral Grudge's +1 to hit: 4+ instead of 5+ is half as many hits again.
GRUDGE_WEIGHT: Final = 1.5
CONTACT_SPARE_CM: Final = 0.5

# The weights of a move's end point (StandardPolicy._scores). A score is about "the share of
# the ship's firepower that bears on its target"; the other terms are set against that unit.
# A battery at point blank hits on 4+ rather than 5+ (R-41): worth a quarter more.
POINT_BLANK_FIRE: Final = 1.25
# Where point blank ends when no faction tactic moves it.
POINT_BLANK_RANGE_CM: Final = float(POINT_BLANK_CM)
# Facing the target with the strongest arcs, whether or not in range yet: a small tie-breaker
# that turns the ship towards it for the next round.
ARC_FACING: Final = 0.15
# Each cm off the ship's best range costs aggression / this: 60 cm off costs as much as the
# whole firepower bearing, so the ship closes without giving up a shot this round for it.
CLOSING_CM: Final = 60.0
# A torpedo salvo ready with the target in the front arc within 45 cm, the range the policy
# launches at: worth about a third of the guns' fire, enough to swing a close choice of heading.
TORPEDO_LINE: Final = 0.3
TORPEDO_LINE_CM: Final = 45.0
# Ending nearer a table edge than this costs (12 - margin) / 6, up to 2 at the edge: a ship
# near the edge has little room to manoeuvre next round and may be forced off the table.
EDGE_MARGIN_CM: Final = 12.0
EDGE_SLOPE_CM: Final = 6.0
# Off the table: never chosen while any other end point is on it.
OFF_TABLE: Final = -100.0
# The runway ahead of the bow must hold half the speed (the next minimum move) and this much
# more; short of it costs up to this penalty, as the ship would be forced off the table.
RUNWAY_SPARE_CM: Final = 10.0
RUNWAY_PENALTY: Final = 1.5
# Ending on (or against) a planet: ruled out whenever anything else is open, yet still above
# leaving the table.
IN_PLANET: Final = -50.0
# An asteroid belt risks damage on its test (§13); cover makes the ship harder to hit.
IN_ASTEROIDS: Final = -0.4
IN_COVER: Final = 0.1
# Seed 001's debris (R-131): a move through a field rolls a d6 a point of velocity (5 cm of the
# move), each at or under the ship's Mass a hull point lost with no save. Its expected cost, as
# the share of the ship's remaining hull it would lose, weighs this much: an escort (Mass 1, 1
# hull) crossing a field at 30 cm expects to lose all of it. (§13's cover still counts at the
# end point; the fractures come on the way.)
DEBRIS_FRACTURE_COST: Final = 1.0

# Faction tactics' ranges (centre to centre): Eldar stand off beyond the 15 cm inside which
# holofields fail; Grey Knights close inside Teleport Assault's 10 cm; Mechanicus battery ships
# hold inside Advanced Auspex's 30 cm but beyond the enemy's point blank.
INSIDE_HOLOFIELDS_CM: Final = HOLOFIELD_RANGE_CM - 2.0
# The average of an All Ahead Full die (a d6), as the policy weighs the order's move.
AAF_DIE_AVERAGE: Final = 3.5
TELEPORT_CLOSE_CM: Final = TELEPORT_CM - 3.0
AUSPEX_STANDOFF_CM: Final = AUSPEX_RANGE_CM - 6.0


_PROFILES: dict[int, tuple[ShipSpec, _Profile]] = {}


_NO_TERRAIN: list[_Piece] = []
# Shared by every search with no debris fields to weigh; never changed.
_NO_FLOATS: list[float] = []


def profile_of(spec: ShipSpec) -> _Profile:
    key = id(spec)
    hit = _PROFILES.get(key)
    if hit is None or hit[0] is not spec:
        if len(_PROFILES) > 1024:  # a long-running server sees many fleets: stay small
            _PROFILES.clear()
        hit = (spec, _Profile(spec))
        _PROFILES[key] = hit
    return hit[1]


_PLANET: Final = 0
_ASTEROIDS: Final = 1
_COVER: Final = 2


class _Piece:
    """A terrain piece as a move's score weighs it: centre, reach and kind (_PLANET …)."""

    __slots__ = ("x", "y", "reach", "kind")

    def __init__(self, x: float, y: float, reach: float, kind: int) -> None:
        self.x = x
        self.y = y
        self.reach = reach
        self.kind = kind


def _scoring_terrain(
    terrain: list[Terrain],
    planet_margin: float,
    x: float = 0.0,
    y: float = 0.0,
    spread: float = -1.0,
) -> list[_Piece]:
    """The pieces that weigh on a move's score, in table order, as (x, y, reach, kind): planets
    within their radius + ``planet_margin``, asteroid belts and other cover within theirs.
    With ``spread`` >= 0, only pieces that can reach a point within ``spread`` cm of (x, y)."""
    out: list[_Piece] = []
    for t in terrain:
        kind = t.kind
        if kind == "planet":
            reach, code = t.r + planet_margin, _PLANET
        elif kind == "asteroids":
            reach, code = t.r, _ASTEROIDS
        elif t.gives_cover:
            reach, code = t.r, _COVER
        else:
            continue
        if spread >= 0.0:
            far = reach + spread
            if not (-far <= t.x - x <= far and -far <= t.y - y <= far):
                continue
        out.append(_Piece(t.x, t.y, reach, code))
    return out


def _hit_chance(kind: int, dist: float, armor: int) -> float:
    if kind == LANCE:
        return 0.5
    hit = 0.5 if dist <= 15.0 else 1.0 / 3.0
    return hit * (armor - 1) / 6.0


class _Scorer:
    """How good it is to end a move at a point, against one target (the hot path: every
    constant worked out once per search, plain floats, no tuples).

    The weights (named and explained beside ``POINT_BLANK_FIRE``): firepower that would bear
    on the target (arcs and ranges, point blank counted more), a little for the strongest
    arcs facing it, distance from the ship's best range, a torpedo line, table edges and
    room ahead of the bow (the next minimum move), planets, asteroid belts and cover."""

    __slots__ = (
        "tx",
        "ty",
        "bearing",
        "inv_total",
        "best_range",
        "point_blank",
        "close_in",
        "closing",
        "width",
        "depth",
        "need",
        "fire_factor",
        "torpedo_ready",
        "near",
        "keep_near",
        "surely_near",
        "surely_far",
        "anchor_xs",
        "anchor_ys",
        "sx",
        "sy",
        "debris_xs",
        "debris_ys",
        "debris_reach",
        "fracture_cost",
    )

    def __init__(
        self,
        policy: StandardPolicy,
        b: Battle,
        ship: Ship,
        p: _Profile,
        target: Ship,
        fire_factor: float,
        torpedo_ready: bool,
        near: list[_Piece],
    ) -> None:
        self.tx = target.x
        self.ty = target.y
        self.bearing = p.bearing
        self.inv_total = 1.0 / p.total if p.total else 0.0
        best_range = p.best_range
        point_blank = POINT_BLANK_RANGE_CM
        close_in = 0.0
        if policy.faction_tactics:
            if p.tactic_range > 0.0:
                best_range, point_blank, close_in = p.tactic_range, p.tactic_pb, p.close_in
            if (
                target.spec.rules.holofields
                and not target.target.crippled
                and best_range > INSIDE_HOLOFIELDS_CM
            ):
                # Holofields ignore hits on 2+ beyond 15 cm, 5+ within: close inside.
                best_range = INSIDE_HOLOFIELDS_CM
        self.best_range = best_range
        self.point_blank = point_blank
        self.close_in = close_in
        self.closing = policy.aggression / CLOSING_CM
        self.width = b.width
        self.depth = b.depth
        self.need = p.half_speed + RUNWAY_SPARE_CM
        self.fire_factor = fire_factor
        self.torpedo_ready = torpedo_ready
        self.near = near
        # The friends a faction rule's check needs near (StandardPolicy._anchors), if any.
        # Or, against holofields, the friends the fleet arrives with.
        keep_near = p.keep_near
        if not keep_near and policy.faction_tactics and target.spec.rules.holofields:
            keep_near = HOLOFIELD_KEEP_NEAR_CM
        self.keep_near = keep_near
        # Squared, a hair inside: a friend nearer than this is within keep_near by any rounding.
        self.surely_near = keep_near * keep_near * (1.0 - 1e-9)
        # Squared, a hair outside the ramp's end: a friend farther than this costs the whole
        # KEEP_NEAR_COST by any rounding, so its distance need not be taken.
        far = keep_near + KEEP_NEAR_RAMP_CM
        self.surely_far = far * far * (1.0 + 1e-9)
        xs: list[float] = []
        ys: list[float] = []
        if policy.faction_tactics and keep_near:
            policy._anchors(b, ship, xs, ys)
        self.anchor_xs = xs
        self.anchor_ys = ys
        # Seed 001's debris fields (R-131), where its rules are played: what crossing one costs.
        self.sx = ship.x
        self.sy = ship.y
        self.debris_xs = _NO_FLOATS
        self.debris_ys = _NO_FLOATS
        self.debris_reach = _NO_FLOATS
        self.fracture_cost = 0.0
        if b.seed001 and b.terrain:
            dxs: list[float] = []
            dys: list[float] = []
            reach: list[float] = []
            for t in b.terrain:
                if t.kind == "debris":
                    dxs.append(t.x)
                    dys.append(t.y)
                    reach.append(t.r + ship.radius)
            if dxs:
                self.debris_xs = dxs
                self.debris_ys = dys
                self.debris_reach = reach
                hull = ship.target.hull
                if hull > 0:
                    self.fracture_cost = DEBRIS_FRACTURE_COST * mass_of(ship) / 6.0 / hull

    def at(self, x: float, y: float, hx: float, hy: float) -> float:
        """The score of ending at (x, y) heading (hx, hy)."""
        dx = self.tx - x
        dy = self.ty - y
        dist = _hypot(dx, dy)
        fwd = dx * hx + dy * hy
        left = dy * hx - dx * hy
        afwd = fwd if fwd >= 0.0 else -fwd
        aleft = left if left >= 0.0 else -left
        bits = (
            (FRONT if fwd >= aleft else 0)
            | (REAR if -fwd >= aleft else 0)
            | (LEFT if left >= afwd else 0)
            | (RIGHT if -left >= afwd else 0)
        )
        bearing = self.bearing[bits]
        point_blank = self.point_blank
        fire = 0.0
        for g in bearing.guns:
            if g.range_cm >= dist:
                w = g.weight
                fire += w * POINT_BLANK_FIRE if g.battery and dist <= point_blank else w
        score = (fire * self.fire_factor + ARC_FACING * bearing.weight) * self.inv_total
        diff = dist - self.best_range
        score -= (diff if diff >= 0.0 else -diff) * self.closing
        if dist <= self.close_in:
            score += CLOSE_IN_BONUS
        xs = self.anchor_xs
        if xs:
            ys = self.anchor_ys
            keep_near = self.keep_near
            surely_near = self.surely_near
            nearest = 1e18  # the least squared distance
            for i in range(len(xs)):
                ax = xs[i] - x
                ay = ys[i] - y
                d2 = ax * ax + ay * ay
                if d2 < nearest:
                    nearest = d2
                    if d2 < surely_near:
                        break  # a friend within reach: no cost, whatever the others
            if nearest >= self.surely_far:
                score -= KEEP_NEAR_COST  # every friend beyond the ramp
            elif nearest >= surely_near:
                gap = 1e9
                for i in range(len(xs)):
                    d = _hypot(xs[i] - x, ys[i] - y)
                    if d < gap:
                        gap = d
                if gap > keep_near:
                    over = (gap - keep_near) / KEEP_NEAR_RAMP_CM
                    score -= KEEP_NEAR_COST * (over if over < 1.0 else 1.0)
        dxs = self.debris_xs
        if dxs:
            sx = self.sx
            sy = self.sy
            velocity = velocity_of(_hypot(x - sx, y - sy))  # R-130, as the move sets it
            if velocity > 0:
                dys = self.debris_ys
                dreach = self.debris_reach
                crossed = 0
                for i in range(len(dxs)):
                    if segment_point_distance(sx, sy, x, y, dxs[i], dys[i]) <= dreach[i]:
                        crossed += 1
                score -= crossed * velocity * self.fracture_cost
        if self.torpedo_ready and bits & FRONT and dist <= TORPEDO_LINE_CM:
            score += TORPEDO_LINE
        width = self.width
        depth = self.depth
        margin = width - x
        if x < margin:
            margin = x
        if y < margin:
            margin = y
        if depth - y < margin:
            margin = depth - y
        if margin < EDGE_MARGIN_CM:
            if margin < 0.0:
                return OFF_TABLE
            score -= (EDGE_MARGIN_CM - margin) / EDGE_SLOPE_CM
        need = self.need
        if margin < need:  # else the runway ahead is at least the margin: no penalty
            runway = (width - x) / hx if hx > 1e-9 else -x / hx if hx < -1e-9 else 1e9
            if hy > 1e-9:
                r = (depth - y) / hy
                if r < runway:
                    runway = r
            elif hy < -1e-9:
                r = -y / hy
                if r < runway:
                    runway = r
            if runway < need:
                score -= RUNWAY_PENALTY * (need - runway) / need
        for t in self.near:
            ddx = x - t.x
            reach = t.reach
            if ddx > reach or ddx < -reach:
                continue  # beyond the piece's reach along x alone
            if _hypot(ddx, y - t.y) <= reach:
                if t.kind == _PLANET:
                    score = IN_PLANET
                    break
                score += IN_ASTEROIDS if t.kind == _ASTEROIDS else IN_COVER
        return score


@mypyc_attr(allow_interpreted_subclasses=True)
class StandardPolicy(Policy):
    """A sensible player (docs/simulator.md)."""

    name = "standard"
    aggression = 1.0  # multiplies the wish to close in
    # Play the faction tactics of docs/simulator.md ("Faction tactics"); UnawarePolicy does not.
    faction_tactics = True

    # --- targets -----------------------------------------------------------------------------

    def focus(self, b: Battle, side: int) -> Ship | None:
        """The fleet's priority target this round: the enemy ship worth most per point of
        protection left, nearest the fleet's centre, crippled ones first."""
        cache = b.memo.focus[side]
        if cache is not None and cache[0] == b.round and cache[1].on_table:
            return cache[1]
        friends = b.friends(side)
        enemies = b.enemies(side)
        if not friends or not enemies:
            return None
        grudge = None
        if self.faction_tactics and friends[0].spec.rules.grudge:
            # Ancestral Grudge: every Votann gun hits the grudge ship at +1, about half
            # as many hits again as at 5+: it weighs that much more as a target.
            grudge = b.memo.grudge[side]
        cx = sum(s.x for s in friends) / len(friends)
        cy = sum(s.y for s in friends) / len(friends)
        best = None
        best_score = -1.0
        for e in enemies:
            t = e.target
            toughness = t.hull + (0 if t.blast_markers else t.shields) + 1
            score = e.spec.victory_points / toughness
            if t.hull <= e.cripple_at:
                score *= 1.5
            if e is grudge:
                score *= GRUDGE_WEIGHT
            score /= 1.0 + _hypot(e.x - cx, e.y - cy) / 40.0
            if score > best_score:
                best, best_score = e, score
        if best is not None:
            b.memo.focus[side] = (b.round, best)
        return best

    def objective(self, b: Battle, ship: Ship) -> Ship | None:
        """The ship this one manoeuvres against: the focus target if it is within reach this
        round or next, else the nearest enemy."""
        x, y = ship.x, ship.y
        nearest = None
        best = 1e18
        for e in b.sides[1 - ship.side]:
            if e.on_table:
                dx = e.x - x
                dy = e.y - y
                d2 = dx * dx + dy * dy
                if d2 < best:
                    nearest, best = e, d2
        if nearest is None:
            return None
        focus = self.focus(b, ship.side)
        if focus is not None and focus is not nearest:
            p = profile_of(ship.spec)
            if _hypot(focus.x - ship.x, focus.y - ship.y) <= p.max_range + ship.speed() * 1.5:
                return focus
        return nearest

    # --- activation order and disengaging ----------------------------------------------------

    def first_player(self, b: Battle, side: int) -> int:
        """A fleet with Solar Sails (no minimum move, 90° at any point) lets the enemy activate
        first while the fleets are still closing: it sees where the enemy goes before it
        commits. Once an enemy ship could end its move within 15 cm of one of its ships this
        round (its Speed, All Ahead Full's average and 15 cm: inside the holofields), it
        activates first, to strike before it is struck. A fleet facing Solar Sails plays the
        same order: the Eldar first until one of its ships could end within 15 cm of theirs."""
        if self.faction_tactics:
            mine = b.friends(side)
            theirs = b.enemies(side)
            if mine and mine[0].spec.rules.solar_sails:
                return side if _in_striking_reach(mine, theirs) else 1 - side
            if theirs and theirs[0].spec.rules.solar_sails:
                # Against Solar Sails the same order of play: while none of its ships could
                # end within 15 cm of an Eldar ship this round, let the Eldar commit first.
                return side if _in_striking_reach(theirs, mine) else 1 - side
        return side

    def next_unit(self, b: Battle, side: int, ready: list[Unit]) -> Unit:
        """Units nearest the enemy go first (they can shoot now; the rest can react later)."""
        cached = b.memo.activation_order[side]
        if cached is None or cached.round != b.round:
            # Ranked once a round, from where the units stand when the round's activations
            # begin: close enough, and cheap.
            enemies = b.enemies(side)
            # Sorted by (distance², unit index) as they come (no tuples; the keys are unique).
            ranked: list[Unit] = []
            keys: list[float] = []
            indices: list[int] = []
            for u in ready:
                for s in u.ships:
                    if s.on_table:
                        break
                x, y = s.x, s.y
                best = 1e18
                for e in enemies:
                    dx = e.x - x
                    dy = e.y - y
                    d2 = dx * dx + dy * dy
                    if d2 < best:
                        best = d2
                index = u.spec.index
                i = len(ranked)
                while i > 0 and (
                    keys[i - 1] > best or (keys[i - 1] == best and indices[i - 1] > index)
                ):
                    i -= 1
                ranked.insert(i, u)
                keys.insert(i, best)
                indices.insert(i, index)
            cached = RankedUnits(b.round, ranked)
            b.memo.activation_order[side] = cached
        rnd = b.round
        order = cached.units
        # The first still waiting; units passed over have activated or are gone for good this
        # round, so the search picks up where the last one stopped.
        for i in range(cached.next, len(order)):
            u = order[i]
            if u.activated_round < rnd and u.alive:
                cached.next = i
                return u
        cached.next = len(order)
        return ready[0]

    def wants_disengage(self, b: Battle, unit: Unit) -> bool:
        """A crippled capital ship with a third of its hull or less, facing more firepower than
        it can take, tries to jump out (R-87 keeps its half points for the enemy either way)."""
        if unit.spec.is_squadron:
            return False
        ship = unit.ships[0]
        t = ship.target
        if not t.crippled or t.hull * 3 > t.max_hull:
            return False
        threat = 0.0
        for e in b.enemies(ship.side):
            d = _hypot(e.x - ship.x, e.y - ship.y)
            p = profile_of(e.spec)
            if d <= p.max_range + 10.0:
                threat += p.total * 0.25
        return threat >= t.hull + 1

    # --- movement and orders -----------------------------------------------------------------

    def _scores(
        self,
        b: Battle,
        ship: Ship,
        p: _Profile,
        target: Ship,
        points: Sequence[tuple[float, float, float, float]],
        fire_factor: float,
        torpedo_ready: bool,
        near: list[_Piece] | None = None,
    ) -> list[float]:
        """How good it is to end a move at each of ``points`` (x, y, hx, hy), against ``target``
        (:meth:`_Scorer.at`; ``near``: the terrain pieces that may weigh, all by default)."""
        if near is None:  # the pieces that may weigh (:func:`_scoring_terrain`)
            near = _scoring_terrain(b.terrain, ship.radius + 2.0) if b.terrain else []
        scorer = _Scorer(self, b, ship, p, target, fire_factor, torpedo_ready, near)
        return [scorer.at(x, y, hx, hy) for x, y, hx, hy in points]

    def _anchors(self, b: Battle, ship: Ship, xs: list[float], ys: list[float]) -> None:
        """Where the friends stand that ``ship`` keeps near for its check (For the Greater Good,
        Mob Rule: any ship not of its own squadron, whose mates keep formation with it anyway),
        appended to ``xs`` and ``ys``; none when the rule holds whatever it does."""
        unit = ship.unit
        if unit.spec.is_squadron:
            for s in unit.ships:
                if s is not ship and s.on_table:
                    return  # a squadron mate is always near
        for s in b.sides[ship.side]:
            if s.on_table and s.unit is not unit:
                xs.append(s.x)
                ys.append(s.y)

    def _best_move(
        self,
        b: Battle,
        ship: Ship,
        p: _Profile,
        target: Ship,
        lim: Limits,
        fire_factor: float,
        torpedo_ready: bool,
    ) -> tuple[float, Plan]:
        """The best of the moves the limits allow, in two stages: the best turn at full
        distance, then the best distance on that heading."""
        lo, hi = lim.min_move, lim.max_move
        mt = lim.max_turn
        # The turns tried: none, or -mt, 0, mt, or -mt, -mt/2, 0, mt/2, mt (in that order).
        n_turns = 1 if mt <= 0.0 else 3 if mt <= DEG45 + 1e-9 else 5
        x0, y0, h0 = ship.x, ship.y, ship.heading
        hx0, hy0 = ship.hx, ship.hy
        anywhere = lim.turn_anywhere
        # End points as movement.end_point computes them: the minimum move straight ahead
        # first, then the turn (or the turn first when the order allows it anywhere).
        if anywhere:
            bx, by, first = x0, y0, 0.0
        else:
            first = lo if lo < hi else hi
            bx, by = x0 + first * hx0, y0 + first * hy0
        rest = hi - first
        # Every end point lies within ``hi`` of the ship: terrain beyond that cannot weigh.
        near = (
            _scoring_terrain(b.terrain, ship.radius + 2.0, x0, y0, hi + 1.0)
            if b.terrain
            else _NO_TERRAIN
        )
        scorer = _Scorer(self, b, ship, p, target, fire_factor, torpedo_ready, near)
        best = 0.0
        best_turn = 0.0
        c = hx0
        s = hy0
        for j in range(n_turns):
            if n_turns == 1:
                turn = 0.0
            elif n_turns == 3:
                turn = -mt if j == 0 else 0.0 if j == 1 else mt
            else:
                turn = (
                    -mt
                    if j == 0
                    else -mt / 2.0
                    if j == 1
                    else 0.0
                    if j == 2
                    else mt / 2.0
                    if j == 3
                    else mt
                )
            # Straight on is the ship's own heading vector (cos and sin of the same angle).
            if turn:
                tc = math.cos(h0 + turn)
                ts = math.sin(h0 + turn)
            else:
                tc = hx0
                ts = hy0
            v = scorer.at(bx + rest * tc, by + rest * ts, tc, ts)
            if j == 0 or v > best:  # the first of the best
                best, best_turn, c, s = v, turn, tc, ts
        best_d = hi
        if hi - lo >= 0.5:
            n_ds = 1 if hi - lo < 8.0 else 2  # lo, then (lo + hi) / 2
            for k in range(n_ds):
                d = lo if k == 0 else (lo + hi) / 2.0
                if anywhere:
                    v = scorer.at(x0 + d * c, y0 + d * s, c, s)
                else:
                    f = lo if lo < d else d
                    v = scorer.at(x0 + f * hx0 + (d - f) * c, y0 + f * hy0 + (d - f) * s, c, s)
                if v > best:
                    best, best_d = v, d
        return best, Plan(best_d, best_turn)

    def plan(
        self, b: Battle, unit: Unit, lead: Ship, may_order: bool, hesitant: bool
    ) -> tuple[SpecialOrder | None, Plan]:
        target = self.objective(b, lead)
        if target is None:
            return None, Plan(lead.speed() / 2.0)
        p = profile_of(lead.spec)
        torp = lead.torpedoes_ready and not hesitant
        lim = limits(b, lead, None, hesitant)
        if (
            self.faction_tactics
            and lead.spec.rules.boarding
            and not lead.spec.rules.dakka
            and not unit.spec.is_squadron
        ):
            boarding = self._boarding_plan(b, lead, lim)
            if boarding is not None:
                return None, boarding
        dist = _hypot(target.x - lead.x, target.y - lead.y)
        if dist - lim.max_move > p.max_range + 15.0 and not b.terrain:
            # Out of reach whatever it does: head for the target, as far as it may go.
            turn = angle_diff(lead.heading, _atan2(target.y - lead.y, target.x - lead.x))
            plan = Plan(lim.max_move, max(-lim.max_turn, min(lim.max_turn, turn)))
            x, y, h = end_point(lead, plan, lim)
            # no terrain here: nothing for the scorer to look up
            score = _Scorer(self, b, lead, p, target, 1.0, torp, _NO_TERRAIN).at(
                x, y, math.cos(h), math.sin(h)
            )
        else:
            score, plan = self._best_move(b, lead, p, target, lim, 1.0, torp)
        if not may_order:
            return None, plan
        reach = p.max_range + lead.speed()
        # Reload when ordnance is spent and nothing is in gun range yet, or for a carrier.
        spent = (lead.spec.torpedoes and not lead.torpedoes_ready) or (
            lead.spec.bays and not lead.bays_ready
        )
        if spent and (p.carrier or p.torpedoes > p.total or dist > p.max_range + 5.0):
            return o.RELOAD, plan
        rules = lead.spec.rules
        # Far away: All Ahead Full closes the gap (no shooting lost, nothing in range).
        # The plan is weighed at the dice's average; a better roll is not used beyond it, a
        # worse one stops short. Only if that ends somewhere better than a normal move.
        if dist > reach + 10.0 and not p.carrier and not b.advanced:
            # (under advanced movement every ship may push the plant and the order adds no
            # dice, R-144: it would only forbid firing)
            aaf = limits(b, lead, o.AAF, False, AAF_DIE_AVERAGE * lead.spec.aaf_dice)
            aaf_score, aplan = self._best_move(b, lead, p, target, aaf, 0.0, False)
            if aaf_score > score:
                return o.AAF, aplan
        # Brace when the ship is in real danger: crippled, in the enemy's guns.
        if lead.crippled and self._threat(b, lead) >= lead.target.hull:
            return o.BRACE, plan
        # Lock On if the target is already where the guns bear without turning.
        lock = limits(b, lead, o.LOCK_ON, False)
        lock_plan = Plan(lock.min_move, 0.0)
        # movement.end_point of that plan: the minimum move straight ahead, no turn
        d = lock.min_move
        near = _scoring_terrain(b.terrain, lead.radius + 2.0) if b.terrain else _NO_TERRAIN
        lock_score = _Scorer(self, b, lead, p, target, 1.25, torp, near).at(
            lead.x + d * lead.hx, lead.y + d * lead.hy, lead.hx, lead.hy
        )
        lock_bonus = -0.02
        if self.faction_tactics and (
            (rules.hatred and b.specs[1 - lead.side].allegiance == "imperium")
            or (
                rules.naval_discipline
                and not unit.spec.is_squadron
                and b.memo.naval_discipline_round[lead.side] != b.round
                and o.in_command_radius(b, lead)
            )
        ):
            # Hatred of the False Emperor re-rolls a failed check for Lock On; Naval
            # Discipline takes it with no check: either way the ship is rarely hesitant.
            lock_bonus = LOCK_ON_SURE_BONUS
        choices = [(score, None, plan), (lock_score + lock_bonus, o.LOCK_ON, lock_plan)]
        # Come to New Heading when the target is further off the bow than a normal turn.
        off_bow = abs(angle_diff(lead.heading, _atan2(target.y - lead.y, target.x - lead.x)))
        if off_bow > lim.max_turn + DEG45:
            cth = limits(b, lead, o.NEW_HEADING, False)
            cth_score, cth_plan = self._best_move(b, lead, p, target, cth, 0.85, torp)
            choices.append((cth_score - 0.1, o.NEW_HEADING, cth_plan))
        # Burn Retros to hold a stand-off range when the enemy is already close.
        if (p.carrier or p.best_range >= 25.0) and dist < p.best_range + lim.min_move:
            br = limits(b, lead, o.BURN_RETROS, False)
            br_score, br_plan = self._best_move(b, lead, p, target, br, 0.85, torp)
            choices.append((br_score - 0.1, o.BURN_RETROS, br_plan))
        best = choices[0]
        for c in choices:  # the first of the best, as max() picks
            if c[0] > best[0]:
                best = c
        ram = self._ram_target(b, lead, target, lim)
        if ram is not None and best[1] is None:
            return None, Plan(lim.max_move, 0.0, ram=ram)
        return best[1], best[2]

    def _boarding_plan(self, b: Battle, ship: Ship, lim: Limits) -> Plan | None:
        """A fleet with a boarding bonus (R-89: Astartes +2, Grey Knights +2, Custodes +3,
        Sororitas +1) closes to base contact with an enemy it would board this activation
        (:meth:`board_target`'s margin of 3), the most valuable first: boarding damage ignores
        shields and the bonus counts in full (R-82). Not the Orks (+1): at point blank their
        gunz re-roll 1s to hit (Dakka, R-120), so they fire them (docs/simulator.md)."""
        best = None
        best_vp = -1
        for e in b.sides[1 - ship.side]:
            if not e.on_table or e.spec.victory_points <= best_vp:
                continue
            reach = ship.radius + e.radius - CONTACT_SPARE_CM
            if _hypot(e.x - ship.x, e.y - ship.y) > lim.max_move + reach:
                continue
            if boarding_score_base(b, ship, e) - boarding_score_base(b, e, ship) < BOARD_MARGIN:
                continue
            plan = _contact_plan(ship, e.x, e.y, reach, lim)
            if plan is not None:
                best, best_vp = plan, e.spec.victory_points
        return best

    def manoeuvre(
        self, b: Battle, ship: Ship, order: SpecialOrder | None, hesitant: bool, ram: Ship | None
    ) -> adv.Manoeuvre:
        """Advanced movement (R-141 – R-149): every velocity change, course change (up to three
        hexsides either way) and facing change (up to two) the thrust pays for, the pushed
        points included (any order but a hesitant ship's, R-144), and course changes of one or
        two hexsides during the move (halfway, or a hex before its end), scored where each ends
        as a normal move is, less the risks: losing control past the SOT (its chance × 3 of a
        score), an asteroid belt crossed or moving onto the ship (the piloting roll's chance to
        fail × 1.5), a damaged plant (× 0.6), a course that would leave the table even braking
        hard next round, and a planet's interface zone and gravity."""
        h = adv.helm(b, ship)
        target = self.objective(b, ship)
        if target is None:
            return adv.Manoeuvre(-h.velocity)
        p = profile_of(ship.spec)
        v0 = h.velocity
        thrust = adv.thrust_rating(b, ship)
        cap = adv.allowed(b, ship, order, hesitant)
        push_max = 0
        if not hesitant:
            while push_max < 5 and adv.push_target(thrust, push_max + 1) > adv.AUTO:
                push_max += 1
        sot = adv.ship_sot(b, ship)
        lock = order == o.LOCK_ON
        turns = (0,) if lock else (-3, -2, -1, 0, 1, 2, 3)
        facings = (0,) if lock else (-2, -1, 0, 1, 2)
        lates = () if lock else (-2, -1, 1, 2)
        fire = 0.0 if order in (o.AAF, o.RELOAD) else 1.0
        torp = ship.torpedoes_ready and not hesitant
        cos, sin = math.cos, math.sin
        width, depth = b.width, b.depth
        planets = [t for t in b.terrain if t.kind == "planet"]
        belts = [t for t in b.terrain if t.kind == "asteroids"]
        skill = adv.skill_of(b, ship)
        pts: list[tuple[float, float, float, float]] = []
        extra: list[float] = []
        moves: list[adv.Manoeuvre] = []

        def leg_risk(x0: float, y0: float, x: float, y: float, v: int) -> float:
            risk = 0.0
            for t in planets:
                if (
                    segment_point_distance(x0, y0, x, y, t.x, t.y)
                    <= t.r + ship.radius + adv.INTERFACE_CM
                ):
                    risk += 3.0
            for t in belts:  # the piloting roll: its chance to fail
                if segment_point_distance(x0, y0, x, y, t.x, t.y) <= t.r:
                    miss = 1.0 - max(0.0, min(1.0, (skill - adv.asteroid_modifier(v)) / 10.0))
                    risk += miss * 1.5
            return risk

        def rams(x0: float, y0: float, x: float, y: float) -> bool:
            return (
                ram is not None
                and ram.on_table
                and segment_point_distance(x0, y0, x, y, ram.x, ram.y) <= ship.radius + ram.radius
            )

        def end_risk(x: float, y: float, course: float, v: int) -> float:
            # next round, braking as hard as a hesitant ship may (half its thrust), it still
            # moves this far along the course; the two rounds after, as far again
            cx, cy = cos(course), sin(course)
            coast = max(0, v - thrust // 2) * adv.HEX_CM
            nx, ny = x + coast * cx, y + coast * cy
            risk = 0.0
            if not (0.0 <= nx <= width and 0.0 <= ny <= depth):
                risk += 5.0
            else:
                coast2 = max(0, v - 2 * (thrust // 2)) * adv.HEX_CM + 5.0
                fx, fy = nx + coast2 * cx, ny + coast2 * cy
                if not (0.0 <= fx <= width and 0.0 <= fy <= depth):
                    risk += 1.0
            risk += 0.05 * max(0, v - 2 * max(thrust, 1))
            for t in planets:
                gap = _hypot(x - t.x, y - t.y) - t.r - ship.radius
                if gap <= adv.INTERFACE_CM + adv.HEX_CM:
                    risk += 3.0
                elif gap <= adv.GRAVITY_CM:
                    risk += 0.3
            for t in belts:  # a moving belt that will move onto the ship
                if (
                    (t.vx or t.vy)
                    and _hypot(x - t.x, y - t.y) > t.r
                    and _hypot(x - t.x - t.vx, y - t.y - t.vy) <= t.r
                ):
                    miss = 1.0 - max(0.0, min(1.0, (skill - adv.asteroid_modifier(v + 1)) / 10.0))
                    risk += miss * 1.5
            return risk

        def add(cost: int, risk: float, x: float, y: float, bow: int, m: adv.Manoeuvre) -> None:
            if cost > cap + push_max:
                return
            r = risk
            if cost > sot:
                target_roll = adv.sot_target(sot, cost)
                r += 3.0 * (1.0 - max(0.0, min(1.0, target_roll / 10.0)))
            pushed = max(0, cost - cap)
            if pushed:
                keep = adv.push_target(thrust, pushed)
                r += 0.6 * (1.0 - max(0.0, keep) / 10.0) + 0.05
            m.push = pushed
            face = ship.heading + bow * adv.STEP
            pts.append((x, y, cos(face), sin(face)))
            extra.append(r)
            moves.append(m)

        for dv in range(-v0, cap + push_max + 1):
            v = v0 + dv
            dist = v * adv.HEX_CM
            step = adv.heading_cost(v)
            base = abs(dv) if not (dv < 0 and order == o.BURN_RETROS) else 0
            free = step if order == o.NEW_HEADING else 0  # the first 45° of course
            splits = sorted({j for j in (v // 2, v - 1) if j >= 1}) if v >= 2 else []
            for k in turns:
                course = h.course + k * adv.STEP
                cx, cy = cos(course), sin(course)
                x, y = ship.x + dist * cx, ship.y + dist * cy
                risk = leg_risk(ship.x, ship.y, x, y, v) + end_risk(x, y, course, v)
                if rams(ship.x, ship.y, x, y):
                    risk -= 2.0
                kt = abs(k) * step - (free if k else 0)
                for f in facings:
                    add(base + kt + abs(f), risk, x, y, k + f, adv.Manoeuvre(dv, k, f, 0, ram))
                # Seed 003: "Marcos moves four hexes forward and then makes a heading change"
                for j in splits:
                    x1, y1 = ship.x + j * adv.HEX_CM * cx, ship.y + j * adv.HEX_CM * cy
                    r1 = leg_risk(ship.x, ship.y, x1, y1, v)
                    rest = (v - j) * adv.HEX_CM
                    for k2 in lates:
                        c2 = course + k2 * adv.STEP
                        x2, y2 = x1 + rest * cos(c2), y1 + rest * sin(c2)
                        cost = base + kt + abs(k2) * step - (free if k2 and not k else 0)
                        r2 = r1 + leg_risk(x1, y1, x2, y2, v) + end_risk(x2, y2, c2, v)
                        if rams(ship.x, ship.y, x1, y1) or rams(x1, y1, x2, y2):
                            r2 -= 2.0
                        add(cost, r2, x2, y2, k + k2, adv.Manoeuvre(dv, k, 0, 0, ram, k2, j))
        if not moves:
            return adv.Manoeuvre(ram=ram)
        scores = self._scores(b, ship, p, target, pts, fire, torp)
        best = 0
        best_score = scores[0] - extra[0]
        for i in range(1, len(scores)):
            sc = scores[i] - extra[i]
            if sc > best_score:
                best, best_score = i, sc
        return moves[best]

    def _threat(self, b: Battle, ship: Ship) -> float:
        threat = 0.0
        for e in b.enemies(ship.side):
            p = profile_of(e.spec)
            if _hypot(e.x - ship.x, e.y - ship.y) <= p.max_range + e.speed() / 2:
                threat += p.total * 0.25
        return threat

    def _ram_target(self, b: Battle, ship: Ship, target: Ship, lim: Limits) -> Ship | None:
        """Ram only a much weaker enemy dead ahead and within reach (§11)."""
        if ship.spec.is_escort:
            return None
        d = _hypot(target.x - ship.x, target.y - ship.y)
        if d > lim.max_move + ship.radius + target.radius:
            return None
        if not arc_of(ship.x, ship.y, ship.hx, ship.hy, target.x, target.y) & FRONT:
            return None
        if ship.target.hull < 3 * target.target.hull or ship.target.armor > target.target.armor:
            return None
        # Only if the straight line passes over the target.
        fwd = (target.x - ship.x) * ship.hx + (target.y - ship.y) * ship.hy
        side = abs((target.y - ship.y) * ship.hx - (target.x - ship.x) * ship.hy)
        if fwd <= 0 or side > ship.radius + target.radius:
            return None
        return target

    def rejoin_plan(self, b: Battle, ship: Ship, lim: Limits) -> Plan:
        mates = [s for s in ship.unit.ships if s is not ship and s.on_table]
        if not mates:
            return Plan(lim.max_move)
        m = min(mates, key=lambda s: _hypot(s.x - ship.x, s.y - ship.y))
        want = angle_diff(ship.heading, _atan2(m.y - ship.y, m.x - ship.x))
        return Plan(lim.max_move, want)

    def wants_free_order(self, b: Battle, unit: Unit, lead: Ship) -> bool:
        return not unit.spec.is_squadron  # the Rear Admiral's order goes to a capital ship

    # --- shooting ----------------------------------------------------------------------------

    def gun_target(
        self, b: Battle, ship: Ship, gun: Gun, options: list[Sighting]
    ) -> Sighting | None:
        """Focus fire: the fleet's focus target when this gun bears on it (unless its holofields
        stand, beyond 15 cm); else the target where the volley does most harm per point of
        protection left."""
        focus = self.focus(b, ship.side)
        grudge = (
            b.memo.grudge[ship.side] if self.faction_tactics and ship.spec.rules.grudge else None
        )
        best = None
        best_score = -1.0
        aware = self.faction_tactics
        for opt in options:
            e = opt.ship
            # Holofields ignore five hits in six beyond 15 cm: there the focus target
            # gives way to whichever target the volley hurts most, the share the holofields
            # let through counted (a tactic for every fleet, docs/simulator.md).
            save = holofield_save(e, opt.dist) if aware else 0
            if e is focus and save != HOLOFIELD_SAVE:
                return opt
            t = e.target
            chance = _hit_chance(gun.kind, opt.dist, t.armor)
            if save:
                chance *= (save - 1) / 6.0
            if e is grudge:
                chance *= GRUDGE_WEIGHT
            protection = t.hull + (0 if t.blast_markers else t.shields)
            score = chance * e.spec.victory_points / (protection + 1)
            if t.hull <= e.cripple_at:
                score *= 1.3
            if score > best_score:
                best, best_score = opt, score
        return best

    def torpedo_heading(self, b: Battle, ship: Ship, tube: Ordnance) -> float | None:
        """At a capital ship (else an escort) in the tubes' arc within 45 cm, leading it by half
        its speed along its heading, if the aim stays in the arc."""
        best = None
        best_key = None
        for e in b.enemies(ship.side):
            d = _hypot(e.x - ship.x, e.y - ship.y)
            if d > 45.0 or d < 3.0:
                continue
            ax = e.x + e.hx * e.speed() * 0.5
            ay = e.y + e.hy * e.speed() * 0.5
            if not arc_of(ship.x, ship.y, ship.hx, ship.hy, ax, ay) & tube.arcs:
                continue
            if b.terrain and sight_blocked(b.terrain, ship.x, ship.y, ax, ay):
                continue
            if _friend_in_lane(b, ship, ax, ay):
                continue  # torpedoes strike whatever they contact, friends too
            key = (e.spec.is_escort, d)
            if best_key is None or key < best_key:
                best, best_key = (ax, ay), key
        if best is None:
            return None
        return _atan2(best[1] - ship.y, best[0] - ship.x)

    def launch_plan(self, b: Battle, ship: Ship, count: int) -> list[tuple[CraftRole, int, Ship]]:
        """Fighters to screen the carrier when the enemy has ordnance and none screen it yet;
        the rest as bombers (else assault boats) at the focus target within 60 cm."""
        roles = {role for role, _ in ship.spec.craft}
        plan: list[tuple[CraftRole, int, Ship]] = []
        enemy_ordnance = any(e.spec.torpedoes or e.spec.bays for e in b.enemies(ship.side))
        has_cap = any(w.carrier is ship and w.role is CraftRole.FIGHTER for w in b.waves)
        left = count
        if CraftRole.FIGHTER in roles and enemy_ordnance and not has_cap:
            n = max(1, count // 2) if (roles - {CraftRole.FIGHTER}) else count
            plan.append((CraftRole.FIGHTER, n, ship))
            left -= n
        if left > 0:
            target = self._craft_target(b, ship, 60.0)
            role = (
                CraftRole.BOMBER
                if CraftRole.BOMBER in roles
                else CraftRole.ASSAULT_BOAT
                if CraftRole.ASSAULT_BOAT in roles
                else None
            )
            if target is not None and role is not None:
                plan.append((role, left, target))
            elif CraftRole.FIGHTER in roles and not has_cap and not plan:
                plan.append((CraftRole.FIGHTER, left, ship))
        return plan

    def _craft_target(self, b: Battle, ship: Ship, reach: float) -> Ship | None:
        focus = self.focus(b, ship.side)
        if focus is not None and _hypot(focus.x - ship.x, focus.y - ship.y) <= reach:
            return focus
        near = [e for e in b.enemies(ship.side) if _hypot(e.x - ship.x, e.y - ship.y) <= reach]
        if not near:
            return None
        return max(near, key=lambda e: (not e.spec.is_escort, e.spec.victory_points))

    def craft_retarget(self, b: Battle, wave: Wave) -> Ship | None:
        near = [e for e in b.enemies(wave.side) if _hypot(e.x - wave.x, e.y - wave.y) <= 40.0]
        if not near:
            return None
        return min(near, key=lambda e: _hypot(e.x - wave.x, e.y - wave.y))

    def nova_target(
        self, b: Battle, ship: Ship, lo: float, hi: float
    ) -> tuple[float, float] | None:
        """The most valuable enemy 30–150 cm away in the front arc, with no friend within 10 cm
        of it (the template and its scatter hit friends too)."""
        best = None
        for e in b.enemies(ship.side):
            d = _hypot(e.x - ship.x, e.y - ship.y)
            if not lo <= d <= hi:
                continue
            if not arc_of(ship.x, ship.y, ship.hx, ship.hy, e.x, e.y) & FRONT:
                continue
            if any(_hypot(f.x - e.x, f.y - e.y) < 10.0 for f in b.friends(ship.side)):
                continue
            if best is None or e.spec.victory_points > best.spec.victory_points:
                best = e
        return None if best is None else (best.x, best.y)

    def slingshot_turn(self, b: Battle, ship: Ship) -> float:
        target = self.objective(b, ship)
        if target is None:
            return 0.0
        want = angle_diff(ship.heading, _atan2(target.y - ship.y, target.x - ship.x))
        return max(-DEG90, min(DEG90, want))

    def wants_brace(self, b: Battle, ship: Ship, strength: int, kind: int) -> bool:
        """Brace (§10) against an attack whose expected damage would cripple or destroy a
        capital ship, and only if its own guns have nothing in reach this round anyway or the
        ship would otherwise be destroyed. Escorts: :meth:`escorts_brace`."""
        if ship.spec.is_escort:
            return self.escorts_brace(b, ship, strength, kind)
        t = ship.target
        per_die = 0.5 if kind == LANCE else 0.6 if kind < 0 else 0.25
        expected = strength * per_die - (0 if t.blast_markers else t.shields)
        if expected >= t.hull:
            return True
        if t.crippled or t.crippled_at is None or t.hull - expected > t.crippled_at:
            return False
        p = profile_of(ship.spec)
        return not any(
            _hypot(e.x - ship.x, e.y - ship.y) <= p.max_range + ship.speed()
            for e in b.enemies(ship.side)
        )

    def escorts_brace(self, b: Battle, ship: Ship, strength: int, kind: int) -> bool:
        """An escort squadron braces (§10, giving up its activation) against an attack expected
        to destroy half of it or more (damage carries on along the squadron, R-78), or to destroy
        the escort attacked when the squadron has nothing in reach this round anyway."""
        t = ship.target
        per_die = 0.5 if kind == LANCE else 0.6 if kind < 0 else 0.25
        expected = strength * per_die - (0 if t.blast_markers else t.shields)
        if expected < t.hull:
            return False
        hull = 0
        for s in ship.unit.ships:
            if s.on_table:
                hull += s.target.hull
        if expected >= (hull + 1) // 2:
            return True
        p = profile_of(ship.spec)
        return not any(
            _hypot(e.x - ship.x, e.y - ship.y) <= p.max_range + ship.speed()
            for e in b.enemies(ship.side)
        )

    def detonate_salvo(self, b: Battle, salvo: Salvo, friend: Ship) -> bool:
        """A salvo about to strike one of its own ships is detonated (R-121)."""
        return True

    def wants_scramble(self, b: Battle, ship: Ship, role: CraftRole | None, count: int) -> bool:
        """Scramble (it costs the carrier its launch this round) against a torpedo salvo that
        would get past turrets and shields to the hull; against attack craft when one fewer
        matters (a wave of two or fewer) or the carrier has nothing to send its own craft at."""
        t = ship.target
        if role is None:
            turrets = t.effective_turrets * 0.5
            return count - turrets - (0 if t.blast_markers else t.shields) >= 1.0
        return count <= 2 or self._craft_target(b, ship, 60.0) is None

    def board_target(self, b: Battle, ship: Ship) -> Ship | None:
        """Board an enemy in base contact when ship's hull + Ld beats it by 3 or more."""
        x, y = ship.x, ship.y
        touching = [
            e
            for e in b.sides[1 - ship.side]
            if e.on_table
            and x - 8.0 < e.x < x + 8.0
            and y - 8.0 < e.y < y + 8.0
            and in_contact(ship, e)
        ]
        if not touching:
            return None
        best = None
        for e in touching:
            if boarding_score_base(b, ship, e) - boarding_score_base(b, e, ship) >= BOARD_MARGIN:
                if best is None or e.spec.victory_points > best.spec.victory_points:
                    best = e
        return best


@mypyc_attr(allow_interpreted_subclasses=True)
class CautiousPolicy(StandardPolicy):
    """Stands off at the longest range its guns reach and braces readily."""

    name = "cautious"
    aggression = 0.5

    def wants_brace(self, b: Battle, ship: Ship, strength: int, kind: int) -> bool:
        if ship.spec.is_escort:
            return self.escorts_brace(b, ship, strength, kind)
        t = ship.target
        return strength * 0.4 >= max(1, t.hull // 2)


@mypyc_attr(allow_interpreted_subclasses=True)
class UnawarePolicy(StandardPolicy):
    """A player who ignores the fleet's faction rules: the standard policy
    without its faction tactics, who never takes the options those rules offer at the player's
    word (:meth:`Policy.takes_faction_options`). The yardstick the tactics are measured
    against (tools/policy_tactics.py mirror). Rules that apply by themselves (holofields,
    Torpedo Doctrine's 10, a boarding bonus …) still apply."""

    name = "unaware"
    faction_tactics = False

    def takes_faction_options(self) -> bool:
        return False


POLICIES = cast("dict[str, type[Policy]]", POLICY_REGISTRY)  # the one registry (api.py)


def register_policy(name: str, cls: type[Policy]) -> None:
    """Make a policy available by name (``SimOptions(policy_a=name)``)."""
    POLICIES[name] = cls


register_policy("standard", StandardPolicy)
register_policy("cautious", CautiousPolicy)


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]()
    except KeyError:
        raise ValueError(f"unknown policy {name!r}") from None


_CONTACT_TURNS: dict[float, list[float]] = {}


def _contact_turns(mt: float) -> list[float]:
    """The turns :func:`_contact_plan` tries, least first: eighths of ``mt`` either way (kept
    per ``mt``: a ship's limit is one of a few angles)."""
    turns = _CONTACT_TURNS.get(mt) if mt else None  # 0.0 and -0.0 are one key: not kept
    if turns is None:
        steps = 8
        turns = sorted({mt * k / steps for k in range(-steps, steps + 1)}, key=abs)
        if mt:
            _CONTACT_TURNS[mt] = turns
    return turns


def _contact_plan(ship: Ship, tx: float, ty: float, reach: float, lim: Limits) -> Plan | None:
    """A move the limits allow that ends with the ship's centre within ``reach`` of (tx, ty),
    turning as little as it can (movement.end_point's path: the minimum move straight ahead,
    then the turn, unless the order lets it turn first); None if there is none."""
    lo, hi = lim.min_move, lim.max_move
    first = 0.0 if lim.turn_anywhere else min(lo, hi)
    bx, by = ship.x + first * ship.hx, ship.y + first * ship.hy
    for turn in _contact_turns(lim.max_turn):
        ux, uy = math.cos(ship.heading + turn), math.sin(ship.heading + turn)
        vx, vy = tx - bx, ty - by
        along = vx * ux + vy * uy
        perp = abs(vx * uy - vy * ux)
        if perp > reach:
            continue
        s = max(0.0, along - math.sqrt(reach * reach - perp * perp))
        d = first + s
        if d < lo:
            d, s = lo, lo - first
        if d > hi:
            continue
        if _hypot(bx + s * ux - tx, by + s * uy - ty) <= reach + 1e-6:
            return Plan(d, turn)
    return None


def _in_striking_reach(eldar: list[Ship], others: list[Ship]) -> bool:
    """Whether one of ``others`` could end its move this round within the holofields' 15 cm
    of one of the ``eldar`` ships: its Speed and the average of its All Ahead Full dice."""
    for e in others:
        reach = e.speed() + AAF_DIE_AVERAGE * e.spec.aaf_dice + HOLOFIELD_RANGE_CM
        reach2 = reach * reach
        for s in eldar:
            dx = e.x - s.x
            dy = e.y - s.y
            if dx * dx + dy * dy <= reach2:
                return True
    return False


def _friend_in_lane(b: Battle, ship: Ship, ax: float, ay: float) -> bool:
    """Whether a friendly ship's base lies across the torpedo lane from ``ship`` to the aim
    point (a salvo strikes the first ship it touches, R-83)."""
    for f in b.sides[ship.side]:
        if (
            f is not ship
            and f.on_table
            and segment_point_distance(ship.x, ship.y, ax, ay, f.x, f.y) <= f.radius + MARKER_RADIUS
        ):
            return True
    return False
