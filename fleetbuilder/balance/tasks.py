"""The balance round robin's Celery task: play one chunk of one pair and record it once.

A worker's part is ``ChunkedRun.play`` (``fleetbuilder.runs``): acknowledged late
like the simulator's chunks (settings: CELERY_TASK_*), so a chunk is never lost, and written
once, so it never counts twice.
"""

from __future__ import annotations

from fleetbuilder.celery import app

from .models import BalanceRun


@app.task(name="balance.play_chunk")
def play_chunk(run_id: int, pair: int, index: int) -> int:
    """Play chunk ``index`` of pair ``pair`` of balance run ``run_id``; returns the battles it
    added (0 if none)."""
    return BalanceRun.play(run_id, (pair, index))
