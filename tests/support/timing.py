"""Wall-clock bounds for the tests that guard against runaway work (a bomb that would take
minutes, a check that would hang), scaled to the machine's load: a busy machine gives a slower
pass, not a red suite. Speed goals themselves live in benchmark commands with ``--check``.

``TEST_TIME_SCALE`` (a factor, at least 1) overrides the scale; by default it is the load
average per core, when that is above 1.
"""

from __future__ import annotations

import os


def scale() -> float:
    given = os.environ.get("TEST_TIME_SCALE", "")
    if given:
        return max(1.0, float(given))
    try:
        load = os.getloadavg()[0]
    except OSError:  # not every platform reports it
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def bound(seconds: float) -> float:
    """``seconds`` on a quiet machine, stretched by :func:`scale` on a loaded one."""
    return seconds * scale()
