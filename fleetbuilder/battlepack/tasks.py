"""The battle pack's Celery task: render a pack into the shared PDF cache.

Acknowledged late (settings: CELERY_TASK_*): a pack whose worker died is rendered again, which
writes the same bytes under the same key.
"""

from __future__ import annotations

import logging
import time

from fleetbuilder.cards import pdfcache
from fleetbuilder.celery import app

from . import pdf as pack_pdf
from .models import BattlePack

log = logging.getLogger("fleetbuilder.battlepack")


@app.task(name="battlepack.render_pack")
def render_pack(pack_id: int) -> bool:
    """Render battle pack ``pack_id``; True when this call wrote its PDF."""
    pack = BattlePack.objects.filter(pk=pack_id).first()
    if pack is None or pack.is_done:
        return False
    if pack.status == BattlePack.Status.QUEUED and not pack.claim():
        return False
    log.info("battle pack %s: %s vs %s (%s) started", pack.public_id, pack.label_a,
             pack.label_b, pack.paper)
    began = time.perf_counter()
    try:
        pdf = pack_pdf.render_pack(pack, progress=pack.advance)
    except Exception:
        log.exception("battle pack %s: failed", pack.public_id)
        pack.fail("The battle pack could not be made. The error was logged; ask again, and if "
                  "it happens again please report it.")
        return False
    pdfcache.put(pack.cache_key, pdf)
    seconds = time.perf_counter() - began
    pack.finish(seconds)
    log.info("battle pack %s: finished in %.2f s (%d KB)", pack.public_id, seconds,
             len(pdf) // 1024)
    return True

