"""The analysis's Celery task: play one chunk of one variant and record it once.

A worker's part is ``ChunkedRun.play`` (``fleetbuilder.runs``): acknowledged late and
put back if its process dies (the simulator's CELERY_TASK_* settings), and written once, so a
chunk delivered twice counts once.
"""

from __future__ import annotations

from fleetbuilder.celery import app

from .models import Analysis


@app.task(name="analysis.play_chunk")
def play_analysis_chunk(analysis_id: int, variant: int, index: int) -> int:
    """Play chunk ``index`` of variant ``variant``; returns the battles it added (0 if none)."""
    return Analysis.play(analysis_id, (variant, index))
