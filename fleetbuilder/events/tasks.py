"""The events' Celery task: render an organiser's pack of every list into the shared PDF cache.

Acknowledged late (settings: CELERY_TASK_*), as the battle packs are: a pack whose worker died
is rendered again, which writes the same bytes under the same key.
"""

from __future__ import annotations

import logging
import time

from fleetbuilder.cards import pdfcache
from fleetbuilder.celery import app

from . import pdf as pack_pdf
from .models import EventPack

log = logging.getLogger("fleetbuilder.events")


@app.task(name="events.render_event_pack")
def render_event_pack(pack_id: int) -> bool:
    """Render event pack ``pack_id``; True when this call wrote its PDF."""
    pack = EventPack.objects.select_related("event").filter(pk=pack_id).first()
    if pack is None or pack.is_done:
        return False
    if pack.status == EventPack.Status.QUEUED and not pack.claim():
        return False
    log.info("event pack %s: %d lists of event %s started", pack.public_id,
             len(pack.submitted), pack.event.pk)
    began = time.perf_counter()
    try:
        pdf = pack_pdf.render_event_pack(pack, progress=pack.advance)
    except Exception:
        log.exception("event pack %s: failed", pack.public_id)
        pack.fail("The lists could not be printed. The error was logged; ask again, and if it "
                  "happens again please report it.")
        return False
    pdfcache.put(pack.cache_key, pdf)
    seconds = time.perf_counter() - began
    pack.finish(seconds)
    log.info("event pack %s: finished in %.2f s (%d KB)", pack.public_id, seconds,
             len(pdf) // 1024)
    return True
