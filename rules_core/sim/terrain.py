"""Scenario terrain (R-80): section 13's asteroid belts, gas clouds, planets and debris fields,
or seed 001's void elements mapped onto them, placed with the battle's own dice in the no man's
land between the deployment zones. Every piece is a circle.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .geometry import segment_point_distance
from .state import MARKER_RADIUS, Terrain

if TYPE_CHECKING:
    from .battle import Battle

SECTION13 = {  # d6 → (kind, radius cm)
    1: ("asteroids", 8.0), 2: ("asteroids", 8.0), 3: ("gas", 7.0), 4: ("planet", 5.0),
    5: ("debris", 7.0), 6: ("debris", 7.0),
}
VOID_AREA_R = 5.5  # seed 001: areas 4–6" by 2–4" → a circle of the same area
GRAVITY_WELL_R = 5.5  # 4–5" across
DRIFTING_BODY_R = 2.5
VELOCITY_CM = 5.0  # one point of seed 001 velocity is 5 cm a round


def _spot(b: Battle) -> tuple[float, float]:
    """A point in no man's land: at least 20 cm from the short edges and 40 cm from the long
    edges the fleets deploy on."""
    x = 20.0 + (b.dice.roll(100) - 0.5) / 100.0 * (b.width - 40.0)
    y = 40.0 + (b.dice.roll(100) - 0.5) / 100.0 * (b.depth - 80.0)
    return x, y


def place_terrain(b: Battle, kind: str) -> None:
    if kind == "section13":
        count = b.dice.d3() + 2
        planets = 0
        for _ in range(count):
            k, r = SECTION13[b.dice.d6()]
            if k == "planet":
                planets += 1
                if planets > 1:
                    k, r = "asteroids", 8.0  # one planet a table
            x, y = _spot(b)
            b.terrain.append(Terrain(k, x, y, r))
    elif kind == "void":
        count = b.dice.d3() + 1
        for _ in range(count):
            roll = b.dice.d6()
            if roll == 1:
                b.terrain.append(Terrain("gravity_well", *_spot(b), GRAVITY_WELL_R))
            elif roll in (2, 3):
                for _ in range(roll - 1):
                    b.terrain.append(Terrain("debris", *_spot(b), VOID_AREA_R,
                                             name="debris field"))
            elif roll in (4, 5):
                for _ in range(roll - 3):
                    b.terrain.append(Terrain("gas", *_spot(b), VOID_AREA_R, name="gas cloud"))
            else:
                x, y = _spot(b)
                speed = (b.dice.roll(5) - 1) * VELOCITY_CM  # velocity 0–4
                clock = b.dice.d12()
                angle = math.pi / 2 - clock * math.pi / 6
                b.terrain.append(Terrain("drifting_body", x, y, DRIFTING_BODY_R,
                                         speed * math.cos(angle), speed * math.sin(angle),
                                         name="drifting body"))
    if b.logging and b.terrain:
        b.log(None, "Terrain: " + "; ".join(f"{t.name} at ({t.x:.0f}, {t.y:.0f}), "
                                            f"{2 * t.r:.0f} cm across" for t in b.terrain))


def drift_bodies(b: Battle) -> None:
    """Seed 001 (R-80): drifting bodies move along their vector in the Drift; a ship crossed
    rolls as for an asteroid belt, a salvo passed over is destroyed, a body whose centre leaves
    the table is gone."""
    for t in list(b.terrain):
        if t.kind != "drifting_body" or (t.vx == 0.0 and t.vy == 0.0):
            continue
        x0, y0 = t.x, t.y
        x1, y1 = x0 + t.vx, y0 + t.vy
        for salvo in list(b.salvos):
            if segment_point_distance(x0, y0, x1, y1, salvo.x, salvo.y) <= t.r + MARKER_RADIUS:
                b.salvos.remove(salvo)
                b.log(salvo.side, f"A torpedo salvo from {salvo.launcher.label()} is smashed "
                      f"by the drifting body.")
        for side in b.sides:
            for s in side:
                if s.on_table and segment_point_distance(x0, y0, x1, y1, s.x, s.y) \
                        <= t.r + s.radius:
                    b.asteroid_hazard(s, t)
        t.x, t.y = x1, y1
        if not b.on_table(x1, y1):
            b.terrain.remove(t)
