"""Movement (§5): minimum move, turns by class (R-11), special orders' limits, All Ahead Full
(R-16), terrain on the way (§13, R-80), gravity slingshot, leaving the table, ramming (§11).

A :class:`Plan` says how far to go and how much to turn; :func:`limits` says what the rules
allow this activation, and :func:`move_ship` carries a plan out, clamped to the limits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..damage import SpecialOrder
from . import orders as o
from .geometry import hypot as _hypot
from .geometry import segment_first_contact, segment_point_distance
from .terrain import (
    WELL,
    body_velocity,
    debris_after_move,
    debris_roll,
    enter_orbit,
    moving_away,
    velocity_of,
)

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Ship, Terrain


DEG45: Final = math.pi / 4
DEG90: Final = math.pi / 2
SLINGSHOT_CM: Final = 10.0  # §5: ending within 10 cm of a planet
COHERENCY_CM: Final = 10.0  # §6


# The hot value classes keep their dataclass (fields, eq, repr) but write their own __init__:
# mypyc compiles that one, where the generated one would run as interpreted Python.
@dataclass(slots=True, init=False)
class Plan:
    """A move: ``distance`` cm in all, turning ``turn`` radians (positive = to port) once the
    minimum move is done (at the start when the order lets the ship turn at any point)."""

    distance: float
    turn: float
    ram: Ship | None  # a ramming attempt's target (§11)

    def __init__(self, distance: float, turn: float = 0.0, ram: Ship | None = None) -> None:
        self.distance = distance
        self.turn = turn
        self.ram = ram


@dataclass(slots=True, init=False)
class Limits:
    min_move: float
    max_move: float
    max_turn: float  # radians
    turn_anywhere: bool  # Come to New Heading / Burn Retros: turn at any point (so: first)

    def __init__(
        self, min_move: float, max_move: float, max_turn: float, turn_anywhere: bool
    ) -> None:
        self.min_move = min_move
        self.max_move = max_move
        self.max_turn = max_turn
        self.turn_anywhere = turn_anywhere


def in_terrain(b: Battle, ship: Ship, kind: str) -> Terrain | None:
    """The piece of ``kind`` the ship is in: any part of its base over it (R-138)."""
    x, y = ship.x, ship.y
    for t in b.terrain:
        reach = t.r + ship.radius
        if t.kind == kind and -reach <= x - t.x <= reach and _hypot(x - t.x, y - t.y) <= reach:
            return t
    return None


def _open_space(terrain: list[Any]) -> bool:
    """No piece a moving ship can meet on its way (debris fields and gas clouds only slow it
    down at the start of a move or hide it, §13)."""
    for t in terrain:
        if t.moves:
            return False
    return True


def limits(
    b: Battle, ship: Ship, order: SpecialOrder | None, hesitant: bool, bonus: float = 0.0
) -> Limits:
    """What the rules allow this activation (§4, §5, §3).

    Minimum move is half the current speed for every ship (R-76); a ship starting in a debris
    field has half speed (§13, R-80). Turns by class: a capital ship one 45° turn, an escort up
    to two (90°) (R-11). Hesitant: the
    minimum move exactly and at most 45°. Lock On: the minimum move, no turn. All Ahead Full:
    +bonus cm, at most 45°. Come to New Heading: 0 cm minimum, up to 90° at any point. Burn
    Retros: any distance from 0, up to 45° at any point.
    """
    speed = ship.speed()
    if b.terrain and in_terrain(b, ship, "debris") is not None:
        speed = float(int(speed) // 2)
    half = speed / 2.0
    spec = ship.spec
    if not hesitant and order is None and not spec.rules.solar_sails:  # the common case
        return Limits(half, speed, DEG90 if spec.turns >= 90 else DEG45, False)
    turn = DEG90 if spec.turns >= 90 else DEG45
    if spec.rules.solar_sails:
        # Eldar Solar Sails: no minimum move, up to 90° at any point of the move.
        if hesitant:
            return Limits(0.0, 0.0, DEG45, True)
        if order == o.LOCK_ON:
            return Limits(0.0, 0.0, 0.0, False)
        if order == o.AAF:
            return Limits(0.0, speed + bonus, DEG45, True)
        if order == o.BURN_RETROS:
            return Limits(0.0, speed, DEG45, True)
        return Limits(0.0, speed, DEG90, True)
    if hesitant:
        return Limits(half, half, min(turn, DEG45), False)
    if order == o.LOCK_ON:
        return Limits(half, half, 0.0, False)
    if order == o.AAF:
        return Limits(half, speed + bonus, DEG45, False)
    if order == o.NEW_HEADING:
        return Limits(0.0, speed, DEG90, True)
    if order == o.BURN_RETROS:
        return Limits(0.0, speed, DEG45, True)
    return Limits(half, speed, turn, False)


def end_point(ship: Ship, plan: Plan, lim: Limits) -> tuple[float, float, float]:
    """Where a plan ends (x, y, heading), ignoring terrain and table edges: used by policies to
    weigh candidate moves and by :func:`move_ship` for the path."""
    d = min(max(plan.distance, lim.min_move), lim.max_move)
    turn = max(-lim.max_turn, min(lim.max_turn, plan.turn))
    h0 = ship.heading
    if lim.turn_anywhere:
        h1 = h0 + turn
        return ship.x + d * math.cos(h1), ship.y + d * math.sin(h1), h1
    first = min(lim.min_move, d)
    x = ship.x + first * ship.hx
    y = ship.y + first * ship.hy
    h1 = h0 + turn
    rest = d - first
    return x + rest * math.cos(h1), y + rest * math.sin(h1), h1


def move_ship(b: Battle, ship: Ship, plan: Plan, lim: Limits) -> None:
    """Carry out a plan: the path is checked leg by leg for planets (destroyed), gravity wells
    (the ship stops in orbit), asteroid belts (Ld check or d3 damage) and the table edge (the
    ship disengages). Then slingshot, blast markers and shields."""
    d = min(max(plan.distance, lim.min_move), lim.max_move)
    turn = max(-lim.max_turn, min(lim.max_turn, plan.turn))
    ship.turned = abs(turn) > 1e-9
    ship.orbit = None
    ship.velocity = velocity_of(d)  # seed 001
    sx0, sy0 = ship.x, ship.y
    if plan.ram is None and (not b.terrain or _open_space(b.terrain)):
        # The common case, open space: straight, turn, straight, checking the table edge.
        if lim.turn_anywhere:
            if turn:
                ship.face(ship.heading + turn)
            first, rest = d, 0.0
        else:
            first = lim.min_move if lim.min_move < d else d
            rest = d - first
        x, y = ship.x + first * ship.hx, ship.y + first * ship.hy
        ship.x, ship.y = x, y
        if not (0.0 <= x <= b.width and 0.0 <= y <= b.depth):
            b.leave_table(ship)
            return
        mx, my = x, y
        if rest > 0.0 or (turn and not lim.turn_anywhere):
            if turn and not lim.turn_anywhere:
                ship.face(ship.heading + turn)
            x, y = x + rest * ship.hx, y + rest * ship.hy
            ship.x, ship.y = x, y
            if not (0.0 <= x <= b.width and 0.0 <= y <= b.depth):
                b.leave_table(ship)
                return
        if b.seed001 and b.terrain:  # debris fractures
            debris_after_move(b, ship, [(sx0, sy0), (mx, my), (x, y)], ship.velocity)
            if not ship.on_table:
                return
        b.settle(ship)
        return
    if lim.turn_anywhere:
        legs = [(turn, d)]
    else:
        first = min(lim.min_move, d)
        legs = [(0.0, first), (turn, d - first)]
    crossed: set[int] = set()
    path = [(sx0, sy0)]
    for leg_turn, length in legs:
        if leg_turn:
            ship.face(ship.heading + leg_turn)
        if length <= 0.0:
            continue
        x0, y0 = ship.x, ship.y
        x1, y1 = x0 + length * ship.hx, y0 + length * ship.hy
        if plan.ram is not None and plan.ram.on_table:
            hit = segment_first_contact(
                x0, y0, x1, y1, plan.ram.x, plan.ram.y, ship.radius + plan.ram.radius
            )
            if hit is not None:
                ship.x = x0 + (x1 - x0) * hit
                ship.y = y0 + (y1 - y0) * hit
                b.ram(ship, plan.ram)
                if not ship.on_table:
                    return
                x1, y1 = ship.x, ship.y  # the ram ends the move in contact
                plan.ram = None
                length = 0.0
                break
        if b.terrain and not _terrain_on_leg(b, ship, x0, y0, x1, y1, crossed, path):
            if ship.on_table and b.seed001:
                debris_after_move(b, ship, path, ship.velocity)
            return
        ship.x, ship.y = x1, y1
        path.append((x1, y1))
        if not b.on_table(x1, y1):
            b.leave_table(ship)
            return
    if b.terrain and b.seed001:
        debris_after_move(b, ship, path, ship.velocity)
        if not ship.on_table:
            return
    if b.terrain:
        _slingshot(b, ship)
    b.settle(ship)


def _terrain_on_leg(
    b: Battle,
    ship: Ship,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    crossed: set[int],
    path: list[tuple[float, float]],
) -> bool:
    """Terrain met on one leg of the move. Returns False when the move ends here (the ship
    was destroyed or stopped in orbit); ``path`` then ends where it stopped."""
    lo_x, hi_x = (x0, x1) if x0 <= x1 else (x1, x0)
    lo_y, hi_y = (y0, y1) if y0 <= y1 else (y1, y0)
    for t in b.terrain:
        if not t.moves:
            continue
        reach = t.r + ship.radius
        if t.x + reach < lo_x or t.x - reach > hi_x or t.y + reach < lo_y or t.y - reach > hi_y:
            continue  # the leg passes nowhere near it
        if t.kind in ("planet", "gravity_well"):
            hit = segment_first_contact(x0, y0, x1, y1, t.x, t.y, reach)
            if hit is None or (hit == 0.0 and moving_away(x0, y0, x1, y1, t)):
                continue  # a ship leaving a well's or planet's edge is not caught again
            if t.kind == "planet":
                b.log(ship.side, f"{ship.label()} collides with the {t.name} and is lost.")
                b.remove_destroyed(ship, catastrophe=None)
                return False
            # the moment its base touches a gravity well the ship stops, in orbit.
            path.append((x0 + (x1 - x0) * hit, y0 + (y1 - y0) * hit))
            enter_orbit(b, ship, t)
            b.settle(ship)
            return False
        if t.kind == "drifting_body" and id(t) not in crossed:
            # crossing or ending on a drifting body rolls as for a debris field, at the
            # higher velocity, the ship's or the body's.
            if segment_point_distance(x0, y0, x1, y1, t.x, t.y) <= reach:
                crossed.add(id(t))
                debris_roll(
                    b, ship, max(ship.velocity, body_velocity(t)), t, f"against the {t.name}"
                )
                if not ship.on_table:
                    return False
            continue
        if t.kind == "asteroids" and id(t) not in crossed:
            if segment_point_distance(x0, y0, x1, y1, t.x, t.y) <= t.r:
                crossed.add(id(t))
                b.asteroid_hazard(ship, t)
                if not ship.on_table:
                    return False
    return True


def _slingshot(b: Battle, ship: Ship) -> None:
    """§5: ending within 10 cm of a planet allows one free 90° turn; the policy picks it."""
    for t in b.terrain:
        if t.kind not in ("planet", "gravity_well"):
            continue
        if _hypot(ship.x - t.x, ship.y - t.y) - t.r <= SLINGSHOT_CM:
            if ship.orbit is None and t.kind != WELL:
                ship.orbit = t  # within 10 cm of a planet's edge: in orbit; a gravity
                # well's orbit needs contact
            turn = b.policies[ship.side].slingshot_turn(b, ship)
            if turn:
                turn = max(-DEG90, min(DEG90, turn))
                ship.face(ship.heading + turn)
                b.log(
                    ship.side,
                    f"{ship.label()} slingshots round the {t.name}, turning "
                    f"{abs(math.degrees(turn)):.0f}°.",
                )
            return


def check_coherency(b: Battle, ships: list[Ship]) -> None:
    """§6: every escort must end within 10 cm of another member; one that does not is out of
    coherency (no firing, hesitant, rejoins next activation)."""
    if len(ships) < 2:
        for s in ships:
            s.out_of_coherency = False
        return
    for s in ships:
        ok = False
        for other in ships:
            if other is not s and _hypot(other.x - s.x, other.y - s.y) <= COHERENCY_CM:
                ok = True
                break
        if s.out_of_coherency != (not ok) and b.logging:
            b.log(s.side, f"{s.label()} {'rejoins its squadron' if ok else 'breaks coherency'}.")
        s.out_of_coherency = not ok
