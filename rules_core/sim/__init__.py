"""The quick skirmish simulator: whole battles under seed 000, many at a time.

    from rules_core.sim import SimOptions, simulate, play_battle, Tally, BattleResult

See docs/simulator.md for the rules it plays, the policy that plays each side and the rulings
(R-70 … R-89) it follows. No Django here.
"""

from .api import BattleResult, LogEntry, SimError, SimOptions
from .batch import Tally, play_battle, simulate, wilson
from .policy import POLICIES, CautiousPolicy, Policy, StandardPolicy, register_policy

__all__ = [
    "POLICIES",
    "BattleResult",
    "CautiousPolicy",
    "LogEntry",
    "Policy",
    "SimError",
    "SimOptions",
    "StandardPolicy",
    "Tally",
    "play_battle",
    "register_policy",
    "simulate",
    "wilson",
]
