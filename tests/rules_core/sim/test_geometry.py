"""The simulator's own hypot (rules_core.sim.geometry.hypot, issue 14 item 9) gives what
math.hypot gives, bit for bit, so a battle plays the same whichever build runs."""

from __future__ import annotations

import math
import random

from rules_core import compiled
from rules_core.sim import geometry
from tests.environment import full_run

FRESH = compiled.refusal(compiled.DEFAULT_BUILD) is None


def _pairs(n: int) -> list[tuple[float, float]]:
    """Table distances, whole centimetres, the tiny and the huge, signs and zeros."""
    r = random.Random(14009)
    pairs: list[tuple[float, float]] = [
        (0.0, 0.0),
        (-0.0, 0.0),
        (0.0, -0.0),
        (3.0, 4.0),
        (-3.0, -4.0),
        (5e-324, 0.0),
        (1e-310, 3e-310),
        (1e308, 1e308),
        (math.inf, 1.0),
        (1.0, -math.inf),
        (math.nan, 2.0),
        (1e-300, 1.0),
        (1e300, 1.0),
        (0.5, 0.5),
        (1.0, 1.0),
        (2.0**27 + 1, 1.0),
    ]
    for i in range(n):
        k = i % 4
        if k == 0:  # anywhere on the largest table
            pairs.append((r.uniform(-240.0, 240.0), r.uniform(-120.0, 120.0)))
        elif k == 1:  # any scale
            pairs.append(
                (
                    r.uniform(-1, 1) * 10 ** r.uniform(-12, 12),
                    r.uniform(-1, 1) * 10 ** r.uniform(-12, 12),
                )
            )
        elif k == 2:  # whole centimetres: the exact squares where a rounding would show
            pairs.append((float(r.randint(-300, 300)), float(r.randint(-300, 300))))
        else:  # one coordinate on an axis
            pairs.append((r.uniform(-200.0, 200.0), r.choice((0.0, -0.0, 1e-12, 3.0))))
    return pairs


def _same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def test_the_algorithm_equals_math_hypot_bit_for_bit() -> None:
    # The algorithm as written, native in a compiled build and plain Python otherwise.
    ours = geometry.hypot_in_floats
    pairs = _pairs(1_000_000 if full_run() else 60_000)
    wrong = [
        (x, y, ours(x, y), math.hypot(x, y))
        for x, y in pairs
        if not _same(ours(x, y), math.hypot(x, y))
    ]
    assert wrong == []


def test_the_simulator_calls_the_native_hypot_only_when_compiled() -> None:
    if FRESH:
        assert geometry.hypot is not math.hypot
        assert geometry.hypot is geometry.hypot_in_floats
    else:  # interpreted, math.hypot is the faster of two equal answers
        assert geometry.hypot is math.hypot
    assert geometry.hypot(30.0, 40.0) == 50.0
