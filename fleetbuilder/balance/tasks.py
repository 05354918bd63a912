"""The balance round robin's Celery task: play one chunk of one pair and record it once.

Acknowledged late like the simulator's chunks (settings: CELERY_TASK_*), so a chunk is never
lost; ``BalanceRun.record_chunk`` writes it once, so it never counts twice.
"""

from __future__ import annotations

import logging
import socket
import time

from fleetbuilder.catalog import loader
from fleetbuilder.celery import app
from rules_core.balance import play_chunk as play_pair_battles
from rules_core.sim import SimError

from .models import BalanceRun

log = logging.getLogger("fleetbuilder.balance")
HOST = socket.gethostname()


@app.task(name="balance.play_chunk")
def play_chunk(run_id: int, pair: int, index: int) -> int:
    """Play chunk ``index`` of pair ``pair`` of balance run ``run_id``; returns the battles it
    added (0 if none)."""
    run = BalanceRun.objects.filter(pk=run_id).first()
    if run is None or run.is_done or (pair, index) not in set(run.all_chunks()):
        return 0
    if run.played_chunks.filter(pair=pair, index=index).exists():
        return 0  # delivered again after it was written
    catalog = loader.core_catalog()
    if catalog.version != run.catalog_version:
        run.fail(f"The catalogue changed during the run ({run.catalog_version} to "
                 f"{catalog.version}); start it again.")
        return 0
    rr = run.round_robin(catalog)
    start, stop = run.chunk_bounds(index)
    began = time.perf_counter()
    try:
        counts = play_pair_battles(catalog, rr.fleets, rr.pairs[pair], start, stop,
                                   rr.spec.options)
    except SimError as exc:
        log.warning("balance run %s: chunk %d/%d refused by the engine: %s", run.pk, pair,
                    index, exc)
        run.fail(f"The simulator cannot play these fleets: {exc}")
        return 0
    except Exception:
        log.exception("balance run %s: chunk %d/%d failed", run.pk, pair, index)
        run.fail(f"Pair {pair}, battles {start + 1}–{stop} failed; the error was logged.")
        return 0
    seconds = time.perf_counter() - began
    added = run.record_chunk(pair, index, counts, seconds, worker=HOST)
    log.info("balance run %s: chunk %d/%d finished in %.2f s (%s)", run.pk, pair, index,
             seconds, "recorded" if added else "already recorded or run stopped")
    return counts.battles if added else 0
