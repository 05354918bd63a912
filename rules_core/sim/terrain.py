"""Scenario terrain (R-80): section 13's asteroid belts, gas clouds, planets and debris fields,
and seed 001's void elements, placed with the battle's own dice in the no man's land between the
deployment zones. Every piece is a circle.

Seed 001's own rules live here too: velocity and Mass (R-130), debris fractures (R-131), orbit
round a gravity well — manoeuvres, crashing, slingshotting out (R-132) and firing from it
(R-133), ships exploding in orbit (R-134), and drifting bodies (R-135).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

from .. import damage
from ..catalog import ShipClass
from ..damage import SpecialOrder
from . import orders as o
from .geometry import hypot as _hypot
from .geometry import segment_first_contact, segment_point_distance
from .state import MARKER_RADIUS, Terrain

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Ship


SECTION13: Final = {  # d6 → (kind, radius cm)
    1: ("asteroids", 8.0),
    2: ("asteroids", 8.0),
    3: ("gas", 7.0),
    4: ("planet", 5.0),
    5: ("debris", 7.0),
    6: ("debris", 7.0),
}
VOID_AREA_R: Final = 5.5  # seed 001: areas 4–6" by 2–4" → a circle of the same area
GRAVITY_WELL_R: Final = 5.5  # 4–5" across
DRIFTING_BODY_R: Final = 2.5
VELOCITY_CM: Final = 5.0  # one point of seed 001 velocity is 5 cm a round
ORBIT_VELOCITY: Final = 3  # seed 001: below 3 a ship in orbit crashes, above 3 it slingshots out
WELL: Final = "gravity_well"
# Terrain options that play seed 001's void elements (and its rules: fractures, orbit …).
SEED001_TERRAINS: Final = ("void", "voidscape")
# Seed 001's Mass, from Void Command's class (R-130): small ships slip through debris easily.
MASS: Final = {
    ShipClass.ESCORT: 1,
    ShipClass.LIGHT_CRUISER: 2,
    ShipClass.CRUISER: 2,
    ShipClass.HEAVY_CRUISER: 3,
    ShipClass.BATTLECRUISER: 3,
    ShipClass.GRAND_CRUISER: 4,
    ShipClass.BATTLESHIP: 4,
}


def velocity_of(distance_cm: float) -> int:
    """Seed 001 velocity of a move of ``distance_cm``: whole 5 cm steps, rounded down (R-130)."""
    return int((distance_cm + 1e-6) // VELOCITY_CM)


def mass_of(ship: Ship) -> int:
    return MASS.get(ship.spec.ship_class, 2)


def in_well(ship: Ship) -> Terrain | None:
    """The gravity well the ship orbits (seed 001), if any; a planet's orbit (§13) is not one."""
    t = ship.orbit
    if t is not None and t.kind == WELL:
        return t
    return None


def well_edge(ship: Ship) -> float:
    """How far a ship's measurements start from its centre: the well's radius in orbit, since
    the well counts as its base and it sits at the centre (R-133), else nothing."""
    t = ship.orbit
    if t is not None and t.kind == WELL:
        return t.r
    return 0.0


def body_velocity(t: Terrain) -> int:
    return int(round(_hypot(t.vx, t.vy) / VELOCITY_CM))


# --- placing terrain -----------------------------------------------------------------------------


def _spot(b: Battle) -> tuple[float, float]:
    """A point in no man's land: at least 20 cm from the short edges and 40 cm from the long
    edges the fleets deploy on."""
    x = 20.0 + (b.dice.roll(100) - 0.5) / 100.0 * (b.width - 40.0)
    y = 40.0 + (b.dice.roll(100) - 0.5) / 100.0 * (b.depth - 80.0)
    return x, y


def _place_section13(b: Battle, count: int) -> None:
    planets = 0
    for _ in range(count):
        k, r = SECTION13[b.dice.d6()]
        if k == "planet":
            planets += 1
            if planets > 1:
                k, r = "asteroids", 8.0  # one planet a table
        x, y = _spot(b)
        b.terrain.append(Terrain(k, x, y, r))


def _place_void(b: Battle, count: int) -> None:
    """``count`` rolls on seed 001's 1D6 table."""
    for _ in range(count):
        roll = b.dice.d6()
        if roll == 1:
            b.terrain.append(Terrain(WELL, *_spot(b), GRAVITY_WELL_R))
        elif roll in (2, 3):
            for _ in range(roll - 1):
                b.terrain.append(Terrain("debris", *_spot(b), VOID_AREA_R, name="debris field"))
        elif roll in (4, 5):
            for _ in range(roll - 3):
                b.terrain.append(Terrain("gas", *_spot(b), VOID_AREA_R, name="gas cloud"))
        else:
            x, y = _spot(b)
            speed = (b.dice.roll(5) - 1) * VELOCITY_CM  # velocity 0–4
            clock = b.dice.d12()
            angle = math.pi / 2 - clock * math.pi / 6
            b.terrain.append(
                Terrain(
                    "drifting_body",
                    x,
                    y,
                    DRIFTING_BODY_R,
                    speed * math.cos(angle),
                    speed * math.sin(angle),
                    name="drifting body",
                )
            )


def place_terrain(b: Battle, kind: str) -> None:
    """``section13``: d3+2 pieces of §13; ``void``: d3+1 rolls on seed 001's table;
    ``voidscape`` (the preview's default, R-136): d3+1 pieces of §13, then d3 rolls on seed
    001's table."""
    if kind == "section13":
        _place_section13(b, b.dice.d3() + 2)
    elif kind == "void":
        _place_void(b, b.dice.d3() + 1)
    elif kind == "voidscape":
        _place_section13(b, b.dice.d3() + 1)
        _place_void(b, b.dice.d3())
    if b.logging and b.terrain:
        b.log(
            None,
            "Terrain: "
            + "; ".join(
                f"{t.name} at ({t.x:.0f}, {t.y:.0f}), {2 * t.r:.0f} cm across" for t in b.terrain
            ),
        )


# --- fractures (R-131) ---------------------------------------------------------------------------


def fracture_damage(target: damage.Target, points: int, dice: Any) -> damage.AttackReport:
    """A fracture is 1 hull point lost: no armor save, shields do not stop it; each point rolls
    for a critical (§8: seed 001's "test criticality") and places a blast marker (R-131)."""
    report = damage.AttackReport("fractures", hits=points)
    return damage.resolve_damage(
        target, points, dice, report, armor_save=False, shields=False, blast_marker=True
    )


def fractures(b: Battle, ship: Ship, count: int, what: str, x: float, y: float) -> None:
    if count <= 0 or not ship.on_table:
        return
    b.attack(
        ship,
        fracture_damage,
        count,
        b.dice,
        source_xy=(x, y),
        log_as=(
            ship.side,
            f"{ship.label()} takes {count} fracture{'s' if count != 1 else ''} {what}: ",
        )
        if b.logging
        else None,
    )


def debris_roll(b: Battle, ship: Ship, velocity: int, t: Terrain, what: str) -> None:
    """Seed 001: 1D6 per point of velocity; each result at or below the ship's Mass is a
    fracture (R-131)."""
    if velocity <= 0 or not ship.on_table:
        return
    mass = mass_of(ship)
    count = 0
    for _ in range(velocity):
        if b.dice.d6() <= mass:
            count += 1
    if count:
        fractures(b, ship, count, what, t.x, t.y)
    elif b.logging:
        b.log(
            ship.side, f"{ship.label()} comes through {what} unharmed ({velocity} d6, Mass {mass})."
        )


def debris_after_move(
    b: Battle, ship: Ship, path: list[tuple[float, float]], velocity: int
) -> None:
    """After a ship moves (seed 001, R-131): one roll for each debris field any part of its
    base passed through or into, at the velocity of its move."""
    if velocity <= 0 or len(path) < 2:
        return
    for t in list(b.terrain):
        if t.kind != "debris" or not ship.on_table:
            continue
        reach = t.r + ship.radius
        for i in range(len(path) - 1):
            (x0, y0), (x1, y1) = path[i], path[i + 1]
            if segment_point_distance(x0, y0, x1, y1, t.x, t.y) <= reach:
                debris_roll(b, ship, velocity, t, f"in the {t.name}")
                break


# --- orbit round a gravity well (R-132, R-133, R-134) ----------------------------------------


def enter_orbit(b: Battle, ship: Ship, well: Terrain) -> None:
    """Seed 001: the ship stops the moment its base touches the well and is placed inside it
    (at its centre); it keeps the velocity of its move (R-132)."""
    ship.x, ship.y = well.x, well.y
    ship.orbit = well
    b.log(
        ship.side,
        f"{ship.label()} is caught by the {well.name} and enters orbit at "
        f"velocity {ship.velocity}.",
    )


def moving_away(x0: float, y0: float, x1: float, y1: float, t: Terrain) -> bool:
    """Whether a path starting in contact with ``t`` heads away from its centre (a ship or
    body slingshotted or bounced off a well is not caught again on its way out)."""
    return (x1 - x0) * (x0 - t.x) + (y1 - y0) * (y0 - t.y) >= 0.0


def orbit_manoeuvre(b: Battle, ship: Ship, order: SpecialOrder | None) -> None:
    """Seed 001's orbit manoeuvres (R-132): Drift, Accelerate (+1 a burn) or Flip and Burn
    (−1 a burn); one burn an activation, two on All Ahead Full, none on Lock On. Below 3 the
    ship must accelerate to at least 3 if it can; at 3 it may Drift or Accelerate; above 3 it
    may not go below 3. The policy picks within those bounds."""
    v = ship.velocity
    burns = 0 if order == o.LOCK_ON else (2 if order == o.AAF else 1)
    hi = v + burns
    if v < ORBIT_VELOCITY:
        lo = min(hi, ORBIT_VELOCITY)
    elif v == ORBIT_VELOCITY:
        lo = v
    else:
        lo = max(ORBIT_VELOCITY, v - burns)
    want = b.policies[ship.side].orbit_velocity(b, ship, lo, hi)
    new = max(lo, min(hi, int(want)))
    if new != v and b.logging:
        b.log(
            ship.side,
            f"{ship.label()} {'accelerates' if new > v else 'flips and burns'} "
            f"in orbit: velocity {v} → {new}.",
        )
    ship.velocity = new
    _steer(b, ship, None)


def _steer(b: Battle, ship: Ship, course: float | None) -> None:
    """Under advanced movement a ship's vector is its helm (R-141): an orbit manoeuvre sets
    its velocity, and a slingshot its course too (R-132), so its next move goes on from there."""
    h = b.helms.get(ship)
    if h is not None:
        h.velocity = ship.velocity
        if course is not None:
            h.course = course % (2 * math.pi)


def check_orbits(b: Battle, ships: list[Ship]) -> None:
    """Seed 001's orbit check after the ship's action (R-132): below velocity 3 it crashes
    (destroyed, no catastrophic damage: no explosion, wreck or marker); at 3 it stays; above 3
    it slingshots out, in base contact with the well and facing straight away from its centre,
    at one more velocity."""
    for s in ships:
        well = in_well(s)
        if well is None or not s.on_table:
            continue
        if s.velocity < ORBIT_VELOCITY:
            b.log(
                s.side,
                f"{s.label()} falls out of orbit at velocity {s.velocity} and "
                f"crashes into the {well.name}.",
            )
            b.remove_destroyed(s, None)
        elif s.velocity > ORBIT_VELOCITY:
            bearing = b.policies[s.side].orbit_exit(b, s)
            out = well.r + s.radius + 0.01
            s.orbit = None
            s.x, s.y = well.x + out * math.cos(bearing), well.y + out * math.sin(bearing)
            s.face(bearing)
            s.velocity += 1
            _steer(b, s, bearing)  # "its vector facing directly away"
            b.log(
                s.side,
                f"{s.label()} slingshots out of the {well.name} at velocity "
                f"{s.velocity}, heading {math.degrees(s.heading) % 360:.0f}°.",
            )
            if not b.on_table(s.x, s.y):
                b.leave_table(s)
                continue
            b.settle(s)


def orbit_explosion(b: Battle, ship: Ship) -> None:
    """Seed 001, Exploding in Orbit (R-134): every other ship orbiting the same well rolls 1D6;
    a result above its Mass is 1 fracture. §8's blast is resolved as well (seed 000 wins)."""
    well = in_well(ship)
    if well is None:
        return
    for side in b.sides:
        for s in side:
            if s is ship or not s.on_table or s.orbit is not well:
                continue
            roll = b.dice.d6()
            if roll > mass_of(s):
                fractures(
                    b,
                    s,
                    1,
                    f"from the wreck of {ship.label()} falling into the "
                    f"{well.name} (rolled {roll})",
                    well.x,
                    well.y,
                )


# --- drifting bodies (R-135, R-137) --------------------------------------------------------------


def wreck_drifts(b: Battle, ship: Ship) -> None:
    """Seed 001: "When ships explode they also become drifting bodies and they keep whatever
    vector and velocity they had previously" (R-137): the ship's base, where it was, drifting
    at its velocity (R-130) along its vector — its helm's course under advanced movement, else
    the way it last moved (its bow). Not from a gravity well's orbit (R-134)."""
    if in_well(ship) is not None:
        return
    h = b.helms.get(ship)
    course = h.course if h is not None else ship.heading
    speed = ship.velocity * VELOCITY_CM
    b.terrain.append(
        Terrain(
            "drifting_body",
            ship.x,
            ship.y,
            ship.radius,
            speed * math.cos(course),
            speed * math.sin(course),
            name=f"wreck of {ship.name}",
        )
    )
    b.log(ship.side, f"{ship.label()} becomes a drifting body at velocity {ship.velocity}.")


def _first_well(
    b: Battle, t: Terrain, x0: float, y0: float, x1: float, y1: float
) -> tuple[float, Terrain] | None:
    best: tuple[float, Terrain] | None = None
    for w in b.terrain:
        if w.kind != WELL and w.kind != "planet":
            continue
        hit = segment_first_contact(x0, y0, x1, y1, w.x, w.y, w.r + t.r)
        if hit is None or (hit == 0.0 and moving_away(x0, y0, x1, y1, w)):
            continue
        if best is None or hit < best[0]:
            best = (hit, w)
    return best


def _clear_end(
    b: Battle, t: Terrain, x1: float, y1: float, ux: float, uy: float
) -> tuple[float, float]:
    """Seed 001: a body that would end on a ship or another body moves on along its vector
    until it is clear (1 cm steps, at most 20 cm)."""
    for _ in range(20):
        blocked = False
        for side in b.sides:
            for s in side:
                if (
                    s.on_table
                    and in_well(s) is None
                    and _hypot(s.x - x1, s.y - y1) < t.r + s.radius
                ):
                    blocked = True
        for other in b.terrain:
            if (
                other is not t
                and other.kind == "drifting_body"
                and _hypot(other.x - x1, other.y - y1) < t.r + other.r
            ):
                blocked = True
        if not blocked:
            break
        x1 += ux
        y1 += uy
    return x1, y1


def drift_bodies(b: Battle) -> None:
    """Seed 001 (R-80, R-135): drifting bodies move along their vector in the Drift, in the
    order placed. A salvo passed over is destroyed; a ship crossed rolls as for a debris field
    at the higher velocity, its own or the body's; a body ending on a ship or body moves on until
    clear. A body meeting a gravity well (or a planet) falls in at velocity 1–2, or stops at its
    edge with its vector reversed and one more velocity at 3+; either way every ship orbiting it
    rolls as for a debris field at the higher of its velocity and the body's final one. A body
    whose centre leaves the table is gone."""
    for t in list(b.terrain):
        if t.kind != "drifting_body" or (t.vx == 0.0 and t.vy == 0.0):
            continue
        if t not in b.terrain:
            continue
        speed = _hypot(t.vx, t.vy)
        ux, uy = t.vx / speed, t.vy / speed
        x0, y0 = t.x, t.y
        x1, y1 = _clear_end(b, t, x0 + t.vx, y0 + t.vy, ux, uy)
        met = _first_well(b, t, x0, y0, x1, y1)
        if met is not None:
            x1, y1 = x0 + (x1 - x0) * met[0], y0 + (y1 - y0) * met[0]
        for salvo in list(b.salvos):
            if segment_point_distance(x0, y0, x1, y1, salvo.x, salvo.y) <= t.r + MARKER_RADIUS:
                b.salvos.remove(salvo)
                b.log(
                    salvo.side,
                    f"A torpedo salvo from {salvo.launcher.label()} is smashed by the {t.name}.",
                )
        v_body = body_velocity(t)
        for side in b.sides:
            for s in side:
                if (
                    s.on_table
                    and in_well(s) is None
                    and segment_point_distance(x0, y0, x1, y1, s.x, s.y) <= t.r + s.radius
                ):
                    debris_roll(b, s, max(s.velocity, v_body), t, f"from the {t.name}")
        t.x, t.y = x1, y1
        if met is not None:
            well = met[1]
            if v_body <= 2:
                b.terrain.remove(t)
                final = v_body
                b.log(None, f"The {t.name} falls into the {well.name}.")
            else:
                final = v_body + 1
                scale = final * VELOCITY_CM / speed
                t.vx, t.vy = -t.vx * scale, -t.vy * scale
                b.log(None, f"The {t.name} bounces off the {well.name} at velocity {final}.")
            for side in b.sides:
                for s in side:
                    if s.on_table and s.orbit is well:
                        debris_roll(
                            b,
                            s,
                            max(s.velocity, final),
                            t,
                            f"from the {t.name} meeting the {well.name}",
                        )
        elif not b.on_table(x1, y1):
            b.terrain.remove(t)
