"""The battle pack as one PDF: the quick reference (its own print page), then each fleet's
roster and cards exactly as the cards print them (``rules_core.cards``), bound together.

Three WeasyPrint documents, each with its own stylesheet and page rules, whose pages are
written out as one PDF (``Document.copy``), so the cards keep their layout and the reference
keeps its paper size. Each fleet's roster and cards are made with its own edition's catalogue,
and every page says which edition that is (R-163): the reference's heading for both, and a
footer on each fleet's own pages.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string

from rules_core.cards import cards_html
from rules_core.catalog import Catalog

from .reference import quick_reference

if TYPE_CHECKING:
    from weasyprint import CSS, Document

    from .models import BattlePack

REFERENCE_CSS = Path(__file__).resolve().parent / "reference.css"
TABLE_LABELS = {
    "patrol": "Patrol, 120 × 120 cm",
    "skirmish": "Skirmish, 180 × 120 cm",
    "battle": "Battle, 180 × 120 cm",
    "armada": "Armada, 240 × 120 cm",
}


# WeasyPrint (and the cards' fetcher, built on it) is imported only when a pack is made, as
# rules_core.cards does: nothing that merely imports this module loads it.


@lru_cache(maxsize=1)
def _cards_css() -> CSS:
    from weasyprint import CSS

    from rules_core.cards.fetcher import AssetFetcher
    from rules_core.cards.render import STYLESHEET

    return CSS(filename=str(STYLESHEET), url_fetcher=AssetFetcher())


def reference_html(pack: BattlePack) -> str:
    ref = quick_reference(pack.terrain, pack.movement)
    return render_to_string(
        "battlepack/reference.html",
        {
            "pack": pack,
            "sections": ref.sections,
            "terrain_words": ref.terrain_words,
            "paper": "A4" if pack.paper == "a4" else "letter",
        },
    )


def _reference(pack: BattlePack) -> Document:
    from weasyprint import CSS, HTML

    from rules_core.cards.fetcher import AssetFetcher

    css = CSS(
        string=REFERENCE_CSS.read_text(encoding="utf-8").replace(
            "PAPER", "A4" if pack.paper == "a4" else "letter"
        )
    )
    return HTML(string=reference_html(pack), url_fetcher=AssetFetcher()).render(stylesheets=[css])


def css_string(text: str) -> str:
    """``text`` as a CSS string literal, every character but letters, digits and spaces
    written as a hex escape: a fleet's name can hold anything (R-94), quotes included."""
    return (
        '"'
        + "".join(
            c if (c.isascii() and c.isalnum()) or c == " " else f"\\{ord(c):x} " for c in text
        )
        + '"'
    )


def footer_css(pack: BattlePack, side: str) -> str:
    """A footer on each of a fleet's pages, in the bottom margin: which fleet, and the edition
    its roster and cards were made with (R-163). On the card sheets it is short, to sit
    between the cut marks; on the roster it names the fleet and the edition in full."""
    edition = pack.edition_words(side)
    label = pack.label_a if side == "a" else pack.label_b
    short = f"Fleet {side.upper()} · {edition.label}"
    full = f"Fleet {side.upper()}: {label} · {edition.title}"
    style = 'font: 6pt "DejaVu Sans", sans-serif; color: #555; vertical-align: middle;'
    return (
        f"@page {{ @bottom-center {{ content: {css_string(short)}; {style} }} }}\n"
        f"@page {pack.paper}-roster {{ @bottom-center {{ content: {css_string(full)}; }} }}"
    )


def _cards(catalog: Catalog, pack: BattlePack, side: str) -> Document:
    from weasyprint import CSS, HTML

    from rules_core.cards.fetcher import ASSETS, AssetFetcher

    source = cards_html(
        catalog,
        pack.core_fleet(side),
        layout=pack.paper,
        share_url=(pack.share_a if side == "a" else pack.share_b) or None,
        advanced_movement=pack.movement == "advanced",
    )
    return HTML(string=source, base_url=ASSETS.as_uri() + "/", url_fetcher=AssetFetcher()).render(
        stylesheets=[_cards_css(), CSS(string=footer_css(pack, side))]
    )


def render_pack(pack: BattlePack, progress: Callable[[int], Any] = lambda stage: None) -> bytes:
    """The pack's PDF, each fleet made with its own edition's catalogue (R-163);
    ``progress(stage)`` is told as each part starts (models.STAGES)."""
    progress(1)
    reference = _reference(pack)
    progress(2)
    fleet_a = _cards(pack.catalog("a"), pack, "a")
    progress(3)
    fleet_b = _cards(pack.catalog("b"), pack, "b")
    progress(4)
    pages = [*reference.pages, *fleet_a.pages, *fleet_b.pages]
    pdf: bytes = reference.copy(pages).write_pdf()
    return pdf
