"""The simulator's Celery task: play one chunk of a run's battles and record it once.

Acknowledged late and put back when the process playing it dies (settings: CELERY_TASK_*), so
a chunk is never lost; ``Matchup.record_chunk`` writes it once, so it never counts twice.
"""

from __future__ import annotations

import logging
import socket
import time

from fleetbuilder.celery import app
from rules_core.sim import SimError, simulate

from .models import Matchup

log = logging.getLogger("fleetbuilder.simulator")
HOST = socket.gethostname()


@app.task(name="simulator.play_chunk")
def play_chunk(matchup_id: int, index: int) -> int:
    """Play chunk ``index`` of run ``matchup_id``; returns the battles it added (0 if none)."""
    run = Matchup.objects.defer("tally").filter(pk=matchup_id).first()
    if run is None or run.is_done or not 0 <= index < run.chunks:
        return 0
    if run.played_chunks.filter(index=index).exists():
        return 0  # delivered again after it was written
    first, stop = run.chunk_bounds(index)
    log.info("simulator run %s: chunk %d (battles %d-%d) started", run.public_id, index,
             first + 1, stop)
    began = time.perf_counter()
    try:
        # Each side's ships from its own edition's catalogue.
        catalog_a, catalog_b = run.catalogs()  # SimError for an edition this server lacks
        tally = simulate(catalog_a, run.core_fleet("a"), run.core_fleet("b"),
                         battles=stop - first, seed=run.seed, options=run.sim_options,
                         first_index=first, catalog_b=catalog_b)
    except SimError as exc:  # a fleet the engine cannot play (e.g. the catalogue changed)
        log.warning("simulator run %s: chunk %d refused by the engine: %s", run.public_id,
                    index, exc)
        run.fail(f"The simulator cannot play these fleets: {exc}")
        return 0
    except Exception:
        log.exception("simulator run %s: chunk %d failed", run.public_id, index)
        run.fail(f"The simulator failed on battles {first + 1}–{stop}. The error was logged; "
                 "run again, and if it happens again please report this run's link.")
        return 0
    seconds = time.perf_counter() - began
    added = run.record_chunk(index, tally, seconds, worker=HOST)
    log.info("simulator run %s: chunk %d finished in %.2f s (%s)", run.public_id, index,
             seconds, "recorded" if added else "already recorded or run stopped")
    return tally.battles if added else 0
