"""The analysis's Celery task: play one chunk of one variant and record it once.

Acknowledged late and put back if its process dies (the simulator's CELERY_TASK_* settings);
``Analysis.record_chunk`` writes it once, so a chunk delivered twice counts once.
"""

from __future__ import annotations

import logging
import socket
import time

from fleetbuilder.celery import app
from rules_core.sim import SimError
from rules_core.sim.batch import fleet_specs
from rules_core.sim.battle import Battle, battle_dice
from rules_core.whatif import half_points

from .models import Analysis

log = logging.getLogger("fleetbuilder.analysis")
HOST = socket.gethostname()


def play_range(analysis: Analysis, variant: int, first: int, stop: int
               ) -> tuple[str, list[int], list[int]]:
    """Battles ``first … stop-1`` of one variant: half-points, and each side's VP.

    Battle ``i`` takes the dice of (seed, i) whatever the variant: common random numbers.
    The variant plays the fleet's edition, the opponent its own (R-163).
    """
    a, b = fleet_specs(analysis.catalog("a"), analysis.variant_fleet(variant),
                       analysis.core_opponent(), catalog_b=analysis.catalog("b"))
    options = analysis.sim_options
    scores, vp_a, vp_b = [], [], []
    for i in range(first, stop):
        result = Battle(a, b, battle_dice(analysis.seed, i), options).play()
        scores.append(str(half_points(result.winner)))
        vp_a.append(int(result.vp["a"]))
        vp_b.append(int(result.vp["b"]))
    return "".join(scores), vp_a, vp_b


@app.task(name="analysis.play_chunk")
def play_analysis_chunk(analysis_id: int, variant: int, index: int) -> int:
    """Play chunk ``index`` of variant ``variant``; returns the battles it added (0 if none)."""
    run = Analysis.objects.filter(pk=analysis_id).first()
    if run is None or run.is_done or not 0 <= variant < run.variant_count \
            or not 0 <= index < run.chunks:
        return 0
    if run.played_chunks.filter(variant=variant, index=index).exists():
        return 0  # delivered again after it was written
    first, stop = run.chunk_bounds(index)
    began = time.perf_counter()
    try:
        scores, vp_a, vp_b = play_range(run, variant, first, stop)
    except SimError as exc:
        log.warning("analysis %s: variant %d refused by the engine: %s", run.public_id,
                    variant, exc)
        run.fail(f"The simulator cannot play {run.variants[variant]['label']}: {exc}")
        return 0
    except Exception:
        log.exception("analysis %s: variant %d chunk %d failed", run.public_id, variant, index)
        run.fail("The simulator failed on one of the variants. The error was logged; run "
                 "again, and if it happens again please report this analysis's link.")
        return 0
    seconds = time.perf_counter() - began
    added = run.record_chunk(variant, index, scores, vp_a, vp_b, seconds, worker=HOST)
    log.info("analysis %s: variant %d chunk %d finished in %.2f s (%s)", run.public_id,
             variant, index, seconds, "recorded" if added else "already recorded or stopped")
    return len(scores) if added else 0
