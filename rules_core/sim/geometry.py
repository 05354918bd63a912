"""Table geometry in centimetres with plain floats: distances centre to centre (§7), arcs,
line of sight past terrain, and segment tests for ordnance and terrain contact.

Coordinates: x along the long table edge, y from fleet A's edge (0) to fleet B's (depth).
Headings are radians, counter-clockwise from +x, so "left" (port) is counter-clockwise.
"""

from __future__ import annotations

import math
from types import FunctionType
from typing import Any, Final

from .state import FRONT, LEFT, REAR, RIGHT

_math_hypot: Final = math.hypot  # a C static for mypyc, not a look-up in math
_atan2: Final = math.atan2  # a C static for mypyc, not a look-up in math

TAU: Final = 2 * math.pi
# Veltkamp's constant, 2**27 + 1: splits a double into two halves whose products are exact.
_SPLIT: Final = 134217729.0
_HYPOT_MIN: Final = 1e-300  # outside these, hypot() leaves the work to math.hypot
_HYPOT_MAX: Final = 1e300


def hypot(x: float, y: float) -> float:
    """``math.hypot(x, y)``, bit for bit, as CPython 3.11 computes it (``vector_norm`` in
    Modules/mathmodule.c: scale by a power of two, square and sum without loss, a square root,
    one differential correction) in plain float arithmetic.

    Compiled by mypyc this is native code with no boxing, about four times cheaper than the
    call into the math module, which was a tenth of a battle's time. Interpreted, the module's
    end rebinds the name to ``math.hypot`` itself, so pure Python pays nothing. That the two
    agree exactly is tested (tests/rules_core/sim/test_geometry.py): the simulator's results
    must not depend on the build."""
    ax = x if x >= 0.0 else -x
    ay = y if y >= 0.0 else -y
    m = ax if ax >= ay else ay
    if m == 0.0:
        return 0.0
    if not _HYPOT_MIN < m < _HYPOT_MAX:  # subnormal, huge, infinite or NaN
        return _math_hypot(x, y)
    # scale = 2**-e where m = f * 2**e with 0.5 <= f < 1 (frexp): exact scaling.
    scale = 1.0
    while m * scale >= 1.0:
        scale *= 0.5
    while m * scale < 0.5:
        scale *= 2.0
    # x² and y² as exact double-length products (Dekker), summed onto 1.0 exactly. Written
    # out three times (x², y², then h²) rather than called: a helper returning the two halves
    # cost 4 % more instructions a battle, compiled.
    v = ax * scale
    t = v * _SPLIT
    hi = t - (t - v)
    lo = v - hi
    p = hi * hi
    q = hi * lo + lo * hi
    z = p + q
    frac1 = p - z + q + lo * lo
    csum = 1.0 + z
    frac2 = (1.0 - csum) + z
    v = ay * scale
    t = v * _SPLIT
    hi = t - (t - v)
    lo = v - hi
    p = hi * hi
    q = hi * lo + lo * hi
    z = p + q
    frac1 += p - z + q + lo * lo
    s = csum + z
    frac2 += (csum - s) + z
    csum = s
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    # The correction: the residual of -h * h, exactly, then one Newton step.
    t = -h * _SPLIT
    hi = t - (t - -h)
    lo = -h - hi
    t = h * _SPLIT
    hi2 = t - (t - h)
    lo2 = h - hi2
    p = hi * hi2
    q = hi * lo2 + lo * hi2
    z = p + q
    frac1 += p - z + q + lo * lo2
    s = csum + z
    frac2 += (csum - s) + z
    csum = s
    h += (csum - 1.0 + (frac1 + frac2)) / (2.0 * h)
    return h / scale


def distance(ax: float, ay: float, bx: float, by: float) -> float:
    return hypot(bx - ax, by - ay)


def arc_of(x: float, y: float, hx: float, hy: float, tx: float, ty: float) -> int:
    """The arc bits of the point (tx, ty) seen from a ship at (x, y) heading (hx, hy) (§7).

    Each arc is 90°: front within 45° of the prow, rear within 45° of the stern, left and right
    between. A point exactly on the line between two arcs is in both (R-71); the ship's own
    centre is in every arc.
    """
    dx = tx - x
    dy = ty - y
    fwd = dx * hx + dy * hy
    left = dy * hx - dx * hy
    if fwd == 0.0 and left == 0.0:
        return FRONT | LEFT | RIGHT | REAR
    bits = 0
    aleft = left if left >= 0.0 else -left
    if fwd >= aleft:
        bits |= FRONT
    if -fwd >= aleft:
        bits |= REAR
    afwd = fwd if fwd >= 0.0 else -fwd
    if left >= afwd:
        bits |= LEFT
    if -left >= afwd:
        bits |= RIGHT
    return bits


def bearing(x: float, y: float, tx: float, ty: float) -> float:
    return _atan2(ty - y, tx - x)


def angle_diff(a: float, b: float) -> float:
    """b - a folded into (-pi, pi]."""
    d = (b - a) % TAU
    return d - TAU if d > math.pi else d


def segment_point_distance(
    ax: float, ay: float, bx: float, by: float, px: float, py: float
) -> float:
    """Shortest distance from point P to the segment AB."""
    dx = bx - ax
    dy = by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return hypot(px - ax, py - ay)
    t = ((px - ax) * dx + (py - ay) * dy) / length2
    if t < 0.0:
        t = 0.0
    elif t > 1.0:
        t = 1.0
    return hypot(px - ax - t * dx, py - ay - t * dy)


def segment_first_contact(
    ax: float, ay: float, bx: float, by: float, px: float, py: float, r: float
) -> float | None:
    """How far along AB (0..1) a point moving from A to B first comes within ``r`` of P, or
    None if it never does."""
    dx = bx - ax
    dy = by - ay
    fx = ax - px
    fy = ay - py
    a = dx * dx + dy * dy
    c = fx * fx + fy * fy - r * r
    if c <= 0.0:
        return 0.0
    if a == 0.0:
        return None
    b = 2.0 * (fx * dx + fy * dy)
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return None
    t = (-b - math.sqrt(disc)) / (2.0 * a)
    return t if 0.0 <= t <= 1.0 else None


def sight_blocked(
    terrain: list[Any],
    ax: float,
    ay: float,
    bx: float,
    by: float,
    ignore: object = None,
    ignore2: object = None,
    gas: bool = True,
) -> bool:
    """Line of sight is centre to centre (§7); a gas cloud, planet, gravity well or drifting
    body across the line blocks it, shooter or target inside one included (R-80). ``ignore``
    and ``ignore2``: the gravity wells the shooter and the target orbit, which block nothing
    for them (seed 001, R-133). ``gas`` False: gas clouds block nothing (seed 001 makes them
    cover instead, :func:`through_gas`)."""
    lo_x, hi_x = (ax, bx) if ax <= bx else (bx, ax)
    lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
    for t in terrain:
        if not t.blocks_sight or t is ignore or t is ignore2 or (not gas and t.kind == "gas"):
            continue
        r = t.r
        if t.x + r < lo_x or t.x - r > hi_x or t.y + r < lo_y or t.y - r > hi_y:
            continue  # the line passes nowhere near it
        if segment_point_distance(ax, ay, bx, by, t.x, t.y) <= r:
            return True
    return False


def through_gas(terrain: list[Any], ax: float, ay: float, bx: float, by: float) -> bool:
    """Seed 001: "If line of sight passes through a gas cloud, including when the shooter or
    the target is inside it, the target counts as in cover" (R-80)."""
    for t in terrain:
        if t.kind == "gas" and segment_point_distance(ax, ay, bx, by, t.x, t.y) <= t.r:
            return True
    return False


# The algorithm itself, whichever build runs (tests/rules_core/sim/test_geometry.py holds it to
# math.hypot, bit for bit).
hypot_in_floats: Final = hypot
# Interpreted, math.hypot itself is faster than hypot() above, and the same: modules that
# ``from .geometry import hypot`` get it. (Compiled, their calls are bound to the native function
# at build time, so this rebinding changes nothing for them.)
if type(hypot) is FunctionType:
    globals()["hypot"] = math.hypot
