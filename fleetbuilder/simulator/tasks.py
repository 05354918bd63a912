"""The simulator's Celery task: play one chunk of a run's battles and record it once.

A worker's part is ``ChunkedRun.play`` (``runs``): acknowledged late and put back when the
process playing it dies (settings: CELERY_TASK_*), so a chunk is never lost; it is written
once, so it never counts twice.
"""

from __future__ import annotations

from fleetbuilder.celery import app

from .models import Matchup


@app.task(name="simulator.play_chunk")
def play_chunk(matchup_id: int, index: int) -> int:
    """Play chunk ``index`` of run ``matchup_id``; returns the battles it added (0 if none)."""
    return Matchup.play(matchup_id, (index,), runs=Matchup.objects.defer("tally"))
