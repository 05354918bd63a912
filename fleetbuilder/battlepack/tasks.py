"""The battle pack's Celery task: a pack rendered into the shared PDF cache
(``QueuedRender.run``)."""

from __future__ import annotations

from fleetbuilder.celery import app

from .models import BattlePack


@app.task(name="battlepack.render_pack")
def render_pack(pack_id: int) -> bool:
    """Render battle pack ``pack_id``; True when this call wrote its PDF."""
    return BattlePack.run(pack_id)
