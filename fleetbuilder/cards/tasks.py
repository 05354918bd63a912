"""The cards' Celery task: a big print rendered into the shared PDF cache
(``QueuedRender.run``)."""

from __future__ import annotations

from fleetbuilder.celery import app

from .models import PrintJob


@app.task(name="cards.render_print")
def render_print(job_id: int) -> bool:
    """Render print job ``job_id``; True when this call wrote its PDF."""
    return PrintJob.run(job_id)
