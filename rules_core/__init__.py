"""Void Command's rules as pure Python: catalogue values, validation, dice, odds, simulation.

Nothing in this package imports Django.
"""

from __future__ import annotations

from . import compiled as _compiled

# The simulator's mypyc build (scripts/build_sim.py) lives in build/mypyc/, outside the sources,
# and is loaded only when its manifest matches these sources byte for byte (rules_core.compiled).
_compiled.install()
