"""Sharing the simulator's queue fairly between clients (ruling R-98).

A *client* is a signed-in player's account, else the client address (``TRUSTED_PROXY_COUNT``
decides which): anonymous browsers at one address share its budget, whatever their cookies.

- **Work is counted in estimated CPU-seconds**, not runs: :func:`battle_seconds` from the two
  fleets' ship counts and the rounds a battle may last, times the battles.
- **A budget per client**: a client's unfinished runs may hold at most
  ``SIM_CLIENT_BUDGET_SECONDS`` of work still to play; a run that would pass it is refused
  with the reason (429), nothing kept.
- **Small work first**: each run's chunks go out at a priority that the client's queued work
  decides, this run included (:func:`priority`). Workers take higher priorities first (Redis
  priority queues, settings ``CELERY_BROKER_TRANSPORT_OPTIONS``), so a player with little
  queued is played as soon as a worker process finishes its current chunk, however much
  others have queued. Splitting big work into many small runs does not help: it is the
  client's total that counts.
- **Short chunks**: a run's chunk holds at most ``SIM_CHUNK_SECONDS`` of estimated work (and
  at most ``SIM_CHUNK_BATTLES`` battles), so a worker process is never held long by one.
"""

from __future__ import annotations

import math

from django.conf import settings

from rules_core import fleet as rf
from rules_core.sim import SimOptions

# Priorities as the Redis transport numbers them: 0 is taken first (settings: priority_steps).
SMALL, MEDIUM, LARGE = 0, 3, 6
STEPS = [SMALL, MEDIUM, LARGE]


def battle_seconds(fleet_a: rf.Fleet, fleet_b: rf.Fleet, options: SimOptions) -> float:
    """Estimated CPU-seconds of one battle on one core.

    Fitted, and rounded up, on the pure-Python engine on this project's 2-core machine
    (Dec 2026, 10 rounds): 13 v 9 ships 6 ms a battle, 27 v 21 20 ms, 42 v 42 40 ms, 140 v 42
    87 ms, 150 v 150 198 ms. Work grows with the ships on the table and with the pairs that may
    shoot at each other; a longer game may last longer (most end before their last round). The
    compiled engine is faster, so the estimate errs on the side of more work.
    """
    a, b = fleet_a.ship_count, fleet_b.ship_count
    ms = 0.3 * (a + b) + 0.0075 * a * b
    return ms / 1000 * math.sqrt(max(1.0, options.max_rounds / 10))


def run_seconds(per_battle: float, battles: int) -> float:
    return per_battle * battles


def chunk_battles(per_battle: float) -> int:
    """Battles a chunk of this run holds: ``SIM_CHUNK_SECONDS`` of work, at most
    ``SIM_CHUNK_BATTLES``, at least one."""
    most = max(1, int(settings.SIM_CHUNK_BATTLES))
    target = float(getattr(settings, "SIM_CHUNK_SECONDS", 1.0))
    return max(1, min(most, int(target / per_battle) if per_battle > 0 else most))


def priority(queued_seconds: float) -> int:
    """The priority of a run's chunks, from its client's queued work with this run's."""
    if queued_seconds <= float(getattr(settings, "SIM_SMALL_SECONDS", 30)):
        return SMALL
    if queued_seconds <= float(getattr(settings, "SIM_MEDIUM_SECONDS", 300)):
        return MEDIUM
    return LARGE


def budget() -> float:
    return float(getattr(settings, "SIM_CLIENT_BUDGET_SECONDS", 600))


def over_budget_message(queued: float, this_run: float) -> str:
    most = budget()
    if this_run > most:
        return (
            f"This run is too big: about {_cpu(this_run)} of simulator work, and one "
            f"player may queue at most {_cpu(most)} at a time. Ask for fewer battles."
        )
    return (
        f"You already have about {_cpu(queued)} of simulator work waiting, and this run "
        f"adds {_cpu(this_run)}; one player may queue at most {_cpu(most)} at a time. "
        "Wait for a run to finish, or cancel one, then start this one."
    )


def _cpu(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} CPU-second{'s' * (round(seconds) != 1)}"
    return f"{round(seconds / 60)} CPU-minutes"
