"""The events' Celery task: an organiser's print of every list rendered into the shared PDF
cache (``QueuedRender.run``)."""

from __future__ import annotations

from fleetbuilder.celery import app

from .models import EventPack


@app.task(name="events.render_event_pack")
def render_event_pack(pack_id: int) -> bool:
    """Render event pack ``pack_id``; True when this call wrote its PDF."""
    return EventPack.run(pack_id)
