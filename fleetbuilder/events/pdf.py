"""An event's every list as one PDF: a cover page, then each submitted list's roster exactly as
the cards print it (``rules_core.cards``), under the event's edition, bound together.

As the battle pack does (``battlepack.pdf``): one WeasyPrint document for the cover (its own
template and stylesheet) and one per roster (the cards' stylesheet, plus the page's margin
boxes naming the player, the verdict at submission and the edition), whose pages are written
out as one PDF.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string

from fleetbuilder.battlepack.pdf import css_string
from fleetbuilder.catalog import editions
from rules_core import fleet as rf
from rules_core.cards.markup import document_html
from rules_core.cards.model import build_cards, build_roster
from rules_core.catalog import Catalog
from rules_core.validator import catalog_index, validate

if TYPE_CHECKING:
    from weasyprint import CSS, Document

    from .models import EventPack

COVER_CSS = Path(__file__).resolve().parent / "pack.css"
MARGIN_FONT = 'font: 7pt "DejaVu Sans", sans-serif; color: #444;'

# WeasyPrint is imported only when a pack is made, as rules_core.cards does.


@lru_cache(maxsize=1)
def _cards_css() -> CSS:
    from weasyprint import CSS

    from rules_core.cards.fetcher import AssetFetcher
    from rules_core.cards.render import STYLESHEET

    return CSS(filename=str(STYLESHEET), url_fetcher=AssetFetcher())


def edition_title(pack: EventPack) -> str:
    info = pack.event.edition_info
    return info.title if info is not None else f"Edition {pack.event.edition}"


def verdict_words(row: dict[str, Any]) -> str:
    """The verdict the list had when it was submitted, with its problem codes (R-172)."""
    if row["legal"]:
        return "Legal"
    codes = ", ".join(row["problems"])
    return f"Not legal: {codes}" if codes else "Not legal"


def cover_rows(pack: EventPack, catalog: Catalog) -> list[dict[str, Any]]:
    """Each player for the cover's table, in the dashboard's order."""
    names = catalog_index(catalog)
    rows = []
    for row in pack.lists:
        faction = names.factions.get(row["faction"])
        fleet = rf.parse_fleet(row["document"]) if row["document"] is not None else None
        rows.append(
            {
                **row,
                "fleet": (fleet.name or "Untitled Fleet") if fleet else "",
                "faction_name": faction.name if faction else row["faction"],
                "verdict": verdict_words(row) if fleet else "",
                "submitted": (
                    datetime.fromisoformat(row["submitted_at"]) if row["submitted_at"] else None
                ),
            }
        )
    return rows


def cover_html(pack: EventPack, catalog: Catalog) -> str:
    event = pack.event
    return render_to_string(
        "events/pack_cover.html",
        {
            "event": event,
            "edition": edition_title(pack),
            "band": event.band,
            "size": rf.GameSize(event.game_size).label,
            "rows": cover_rows(pack, catalog),
            "lists": len(pack.submitted),
        },
    )


def _cover(pack: EventPack, catalog: Catalog) -> Document:
    from weasyprint import CSS, HTML

    from rules_core.cards.fetcher import AssetFetcher

    return HTML(string=cover_html(pack, catalog), url_fetcher=AssetFetcher()).render(
        stylesheets=[CSS(string=COVER_CSS.read_text(encoding="utf-8"))]
    )


def margin_css(pack: EventPack, row: dict[str, Any], number: int) -> str:
    """The roster's margin boxes, on each of its pages: whose list it is and where it sits in
    the pack at the top; the verdict at submission (with its codes), the time and the edition
    at the bottom."""
    event = pack.event
    submitted = datetime.fromisoformat(row["submitted_at"]).astimezone(event.zone)
    top = f"List {number} of {len(pack.submitted)} · {event.name}"
    when = (
        f"Submitted {submitted:%a} {submitted.day} {submitted:%b %Y, %H:%M} "
        f"({event.time_zone}) · {edition_title(pack)}"
    )
    player = f"Player: {row['player']}"
    # No cards follow the roster here: their (empty) sheet would be a blank page.
    return (
        ".cards { display: none; }\n"
        f"@page a4-roster {{ margin-top: 18mm;"
        f" @top-left {{ content: {css_string(player)};"
        f' font: bold 11pt "DejaVu Sans", sans-serif; vertical-align: bottom;'
        f" padding-bottom: 3mm; }}"
        f" @top-right {{ content: {css_string(top)}; {MARGIN_FONT} vertical-align: bottom;"
        f" padding-bottom: 3mm; text-align: right; }}"
        f" @bottom-left {{ content: {css_string(when)}; {MARGIN_FONT} }}"
        f" @bottom-right {{ content: {css_string(verdict_words(row))}; {MARGIN_FONT}"
        f" text-align: right; }} }}"
    )


def _roster(catalog: Catalog, pack: EventPack, row: dict[str, Any], number: int) -> Document:
    """One list's roster page(s) as the cards print it, without the cards."""
    from weasyprint import CSS, HTML

    from rules_core.cards.fetcher import ASSETS, AssetFetcher

    fleet = rf.parse_fleet(row["document"])
    report = validate(fleet, catalog)
    roster = build_roster(catalog, fleet, report, build_cards(catalog, fleet, report))
    source = document_html(roster, [], layout="a4", ink_saver=False)
    return HTML(string=source, base_url=ASSETS.as_uri() + "/", url_fetcher=AssetFetcher()).render(
        stylesheets=[_cards_css(), CSS(string=margin_css(pack, row, number))]
    )


def render_event_pack(
    pack: EventPack, progress: Callable[[int], Any] = lambda stage: None
) -> bytes:
    """The pack's PDF, every roster under the event's edition; ``progress(stage)`` is told as
    each part starts (1: the cover, then one per roster, then the binding)."""
    catalog = editions.catalog_for(pack.event.edition)
    progress(1)
    cover = _cover(pack, catalog)
    pages = list(cover.pages)
    for number, row in enumerate(pack.submitted, start=1):
        progress(1 + number)
        pages += _roster(catalog, pack, row, number).pages
    progress(len(pack.submitted) + 2)
    pdf: bytes = cover.copy(pages).write_pdf()
    return pdf
