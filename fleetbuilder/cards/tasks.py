"""The cards' Celery task: render a big print into the shared PDF cache.

Bound to our Celery app, like the simulator's. Acknowledged late (settings: CELERY_TASK_*): a
job whose worker died is rendered again, which writes the same bytes under the same key.
"""

from __future__ import annotations

import logging
import time

from fleetbuilder.catalog import editions
from fleetbuilder.celery import app
from rules_core.cards import render_cards
from rules_core.fleet import parse_fleet

from . import pdfcache
from .models import PrintJob

log = logging.getLogger("fleetbuilder.cards")


@app.task(name="cards.render_print")
def render_print(job_id: int) -> bool:
    """Render print job ``job_id``; True when this call wrote its PDF."""
    job = PrintJob.objects.filter(pk=job_id).first()
    if job is None or job.is_done:
        return False
    if job.status == PrintJob.Status.QUEUED and not job.claim():
        return False
    log.info("print %s: %d cards (%s) started", job.public_id, job.cards, job.layout)
    began = time.perf_counter()
    try:
        fleet = parse_fleet(job.document)
        pdf = render_cards(editions.catalog_for(fleet.edition), fleet,  # its edition's
                           layout=job.layout, ink_saver=job.ink_saver,
                           share_url=job.share_url or None,
                           advanced_movement=job.advanced_movement)
    except Exception:
        log.exception("print %s: failed", job.public_id)
        job.fail("The cards could not be printed. The error was logged; print again, and if "
                 "it happens again please report it.")
        return False
    pdfcache.put(job.cache_key, pdf)
    seconds = time.perf_counter() - began
    job.finish(seconds)
    log.info("print %s: finished in %.2f s (%d KB)", job.public_id, seconds, len(pdf) // 1024)
    return True
