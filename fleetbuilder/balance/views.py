"""The Balance page: the newest published round robin of each setting, as a heat map.

The page's own part changes only when a table is published, so it is rendered once per
(published table, the list of settings, build) and kept in the shared cache, without the
request (nothing per visitor gets in); the thin per-visitor shell is rendered around it, as the
catalogue pages do (``fleetbuilder.catalog.pagecache``). Colours come from classes (the CSP
allows no inline style), every cell shows its number, and a legend names the bands.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from fleetbuilder.catalog import editions, pagecache
from rules_core.balance import TERRAIN_LABELS

from .models import BalanceTable, setting_label

log = logging.getLogger("fleetbuilder.balance")

TEMPLATE = "balance/balance.html"
EMPTY_TEMPLATE = "balance/empty.html"
DEFAULT_SETTING = ("skirmish", "standard", "none")
PAGE_TTL = 7 * 24 * 60 * 60
_ROOT = Path(__file__).resolve().parents[2]

# Colour bands of a score (the row faction's): edges on the figures. (upper bound,
# inclusive?) per band, from the bottom; the last band takes the rest.
BANDS: tuple[tuple[float, bool, str], ...] = (
    (0.15, False, "under 15 %"),
    (0.20, False, "15 % to under 20 %"),
    (0.35, False, "20 % to under 35 %"),
    (0.45, False, "35 % to under 45 %"),
    (0.55, True, "45 % to 55 %"),
    (0.65, True, "over 55 % to 65 %"),
    (0.80, True, "over 65 % to 80 %"),
    (0.85, True, "over 80 % to 85 %"),
    (1.00, True, "over 85 %"),
)


def heat_band(score: float) -> int:
    """The colour band (0–8) of a score: 4 is even, 0 and 8 beyond 85/15."""
    for i, (edge, inclusive, _) in enumerate(BANDS):
        if score < edge or (inclusive and score == edge):
            return i
    return len(BANDS) - 1


@functools.cache
def build_id() -> str:
    """What besides the table decides the page: the catalogue pages' build (static manifest
    included), this app's code and its templates."""
    digest = hashlib.sha256(pagecache.build_id().encode())
    sources = sorted((_ROOT / "templates" / "balance").glob("*.html"))
    sources += sorted(Path(__file__).resolve().parent.glob("*.py"))
    for path in sources:
        try:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()[:16]


def _link(size: str, policy: str, terrain: str) -> str:
    return (
        reverse("balance:page")
        + "?"
        + urlencode({"size": size, "policy": policy, "terrain": terrain})
    )


def _pct(x: float) -> int:
    return round(100 * x)


def table_context(table: BalanceTable, choices: list[BalanceTable]) -> dict[str, Any]:
    result = table.result
    rows = sorted(result["factions"], key=lambda r: (-r["score"], r["slug"]))
    matrix = result["matrix"]
    heat_rows = []
    for r in rows:
        cells: list[dict[str, Any]] = []
        for c in rows:
            if c["slug"] == r["slug"]:
                cells.append({"self": True})
                continue
            score = matrix[r["slug"]][c["slug"]]
            cells.append({"pct": _pct(score), "band": heat_band(score), "against": c["short"]})
        heat_rows.append(
            {
                "faction": r,
                "cells": cells,
                "pct": _pct(r["score"]),
                "band": heat_band(r["score"]),
                "ci": [_pct(v) for v in r["score_ci95"]],
            }
        )
    summary = result["summary"]
    names = {r["slug"]: r["short"] for r in rows}
    lop = summary.get("most_lopsided")
    lopsided = (
        None
        if not lop
        else {
            "faction": names.get(lop["faction"], lop["faction"]),
            "against": names.get(lop["against"], lop["against"]),
            "pct": _pct(lop["score"]),
        }
    )
    edition = None
    if table.edition is not None:
        try:
            edition = editions.get(table.edition)
        except editions.UnknownEdition:  # a table loaded before its edition: its number only
            log.warning(
                "balance table %s names edition %s, not published here", table.pk, table.edition
            )
    return {
        "table": table,
        "edition": edition,
        "result": result,
        "rows": rows,
        "heat_rows": heat_rows,
        "summary": summary,
        "pairs_share_pct": _pct(summary["pairs_within_35_65_share"]),
        "side_a_pct": _pct(summary["side_a_score"]),
        "lopsided": lopsided,
        "setting_label": setting_label(table.size, table.policy, table.terrain),
        "terrain_label": TERRAIN_LABELS.get(table.terrain, table.terrain),
        "legend": [{"band": i, "label": label} for i, (_, _, label) in enumerate(BANDS)],
        "choices": [
            {
                "label": setting_label(*t.setting),
                "url": _link(*t.setting),
                "current": t.pk == table.pk,
                "created": t.created,
            }
            for t in choices
        ],
    }


def _cache_key(table: BalanceTable, choices: list[BalanceTable]) -> str:
    # Ids with their times: an id a rolled-back publish left free is never a stale hit.
    def mark(t: BalanceTable) -> str:
        return f"{t.pk}@{t.created.isoformat()}@{t.edition}"

    raw = f"{build_id()}\n{mark(table)}\n" + ",".join(mark(t) for t in choices)
    return "balance:page:" + hashlib.sha256(raw.encode()).hexdigest()[:40]


@require_GET
def balance_page(request: HttpRequest) -> HttpResponse:
    choices = sorted(
        BalanceTable.objects.newest_per_setting(),
        key=lambda t: (
            BalanceTable.SIZE_ORDER.index(t.size) if t.size in BalanceTable.SIZE_ORDER else 9,
            t.setting,
        ),
    )
    if not choices:
        return render(request, EMPTY_TEMPLATE)
    by_setting = {t.setting: t for t in choices}
    asked = (
        request.GET.get("size", ""),
        request.GET.get("policy", ""),
        request.GET.get("terrain", ""),
    )
    if any(asked):
        chosen = by_setting.get(asked)
        if chosen is None:
            raise Http404("No balance table has been published for that setting.")
    else:
        chosen = by_setting.get(DEFAULT_SETTING) or max(choices, key=lambda t: (t.created, t.pk))
    key = _cache_key(chosen, choices)
    try:
        blocks = cache.get(key)
    except Exception:
        log.warning("cache unavailable for %s", key, exc_info=True)
        blocks = None
    if not isinstance(blocks, dict):
        table = BalanceTable.objects.get(pk=chosen.pk)
        blocks = pagecache.render_blocks(TEMPLATE, table_context(table, choices))
        try:
            cache.set(key, blocks, PAGE_TTL)
        except Exception:
            log.warning("cache unavailable for %s", key, exc_info=True)
    page = {name: mark_safe(value) for name, value in blocks.items()}
    return render(request, pagecache.SHELL_TEMPLATE, {"page": page})
