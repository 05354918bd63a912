"""PDFs kept in the shared cache: card prints, keyed on everything that decides their bytes,
and the battle packs and event packs rendered on the task queue (``renderjobs``), which print
cards too and so key on the cards' build as well.

The key is a hash of the fleet document (canonical JSON), the layout, the options (ink saver,
share link, advanced movement's thrust and SOT), the catalogue version
(``pagecache.catalogue_version``: a catalogue reload changes every card) and the cards' build
(a hash of ``rules_core/cards``' code, stylesheet and assets, and of the advanced movement
module whose thrust and SOT they print, so a deploy that changes what cards say or how they
look changes every key). WeasyPrint writes the same bytes for the same input, so the key is
also the PDF's strong ETag.

The PDFs live in Django's default cache (Redis in production, shared by every process and every
host; per process in tests) for ``PDF_TTL``; an old key just ages out. A cache that is down
costs a render, never an error.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.core.cache import cache

from fleetbuilder.catalog.pagecache import catalogue_version
from rules_core import cards

log = logging.getLogger(__name__)

PDF_TTL = 24 * 60 * 60
PREFIX = "cards:pdf:"
CARDS_DIR = Path(cards.__file__).resolve().parent
# The cards print thrust and SOT as this module computes them. Its source, not the
# module's __file__: the simulator's modules may be imported compiled (build_sim).
ADVANCED_MOVEMENT = CARDS_DIR.parent / "sim" / "advanced_movement.py"


@dataclass(frozen=True)
class PrintOptions:
    layout: str
    ink_saver: bool
    share_url: str | None
    advanced_movement: bool = False  # each ship's thrust rating and SOT on its card


@lru_cache(maxsize=1)
def cards_build() -> str:
    """A hash of the cards' code, templates, stylesheet and assets: the same in every process of
    a deploy (computed from the files, so nothing about it is kept that another process needs)."""
    digest = hashlib.sha256()
    for path in sorted(CARDS_DIR.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".css", ".svg", ".html"):
            digest.update(path.relative_to(CARDS_DIR).as_posix().encode())
            digest.update(path.read_bytes())
    digest.update(ADVANCED_MOVEMENT.read_bytes())
    return digest.hexdigest()[:16]


def document_hash(document: dict[str, Any]) -> str:
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def pdf_key(document: dict[str, Any], options: PrintOptions) -> str:
    parts = [
        document_hash(document),
        options.layout,
        "ink" if options.ink_saver else "",
        options.share_url or "",
        catalogue_version(),
        cards_build(),
    ]
    if options.advanced_movement:  # standard prints keep the keys they had
        parts.append("movement=advanced")
    return PREFIX + hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def etag(key: str) -> str:
    return f'"{key.removeprefix(PREFIX)[:40]}"'


def get(key: str) -> bytes | None:
    try:
        pdf = cache.get(key)
    except Exception:
        log.warning("cache unavailable reading %s", key, exc_info=True)
        return None
    return pdf if isinstance(pdf, bytes) else None


def put(key: str, pdf: bytes) -> None:
    try:
        cache.set(key, pdf, PDF_TTL)
    except Exception:
        log.warning("cache unavailable writing %s", key, exc_info=True)
