"""Cards to PDF with WeasyPrint: the document's HTML, the print stylesheet, the asset fetcher."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from rules_core.catalog import Catalog
from rules_core.fleet import Fleet
from rules_core.validator import ValidationReport, validate

from .markup import LAYOUTS, document_html
from .model import build_cards, build_roster

if TYPE_CHECKING:
    from weasyprint import CSS, HTML

    from .fetcher import AssetFetcher

# This package's folder, as fetcher.ASSETS; the fetcher module imports WeasyPrint, so it is
# imported only when a PDF is made (manage.py commands stay fast).
ASSETS = Path(__file__).resolve().parent
STYLESHEET = ASSETS / "cards.css"
UA_STYLESHEET = ASSETS / "ua.css"


class LayoutError(ValueError):
    """A layout the cards do not know."""


@lru_cache(maxsize=1)
def _stylesheet() -> CSS:
    from weasyprint import CSS

    from .fetcher import AssetFetcher

    # Parsed once per process; its url()s resolve against this package and go through the
    # same fetcher rules as the document's.
    return CSS(filename=str(STYLESHEET), url_fetcher=AssetFetcher())


@lru_cache(maxsize=1)
def _ua_stylesheet() -> CSS:
    from weasyprint import CSS

    from .fetcher import AssetFetcher

    return CSS(filename=str(UA_STYLESHEET), url_fetcher=AssetFetcher())


@lru_cache(maxsize=1)
def _cards_html_class() -> type[HTML]:
    """WeasyPrint's HTML with the cards' own user-agent stylesheet (ua.css): the HTML defaults
    of the elements the cards use, not of every element HTML has. WeasyPrint asks its document
    for the UA stylesheets; were it ever to stop asking, the cards would print the same with
    the full one, only slower."""
    from weasyprint import HTML

    class CardsHTML(HTML):  # type: ignore[misc]
        def _ua_stylesheets(self, forms: bool = False) -> list[CSS]:
            return [_ua_stylesheet()]

    return CardsHTML


def cards_html(
    catalog: Catalog,
    fleet: Fleet,
    *,
    layout: str = "poker",
    ink_saver: bool = False,
    share_url: str | None = None,
    report: ValidationReport | None = None,
    advanced_movement: bool = False,
) -> str:
    """The document's HTML (no stylesheet): the roster, then one card per unit;
    ``advanced_movement`` adds each ship's thrust rating and SOT (R-141)."""
    if layout not in LAYOUTS:
        raise LayoutError(f"unknown layout {layout!r}: choose {', '.join(LAYOUTS)}")
    report = report if report is not None else validate(fleet, catalog)
    cards = build_cards(catalog, fleet, report)
    roster = build_roster(catalog, fleet, report, cards, share_url)
    return document_html(
        roster, cards, layout=layout, ink_saver=ink_saver, advanced_movement=advanced_movement
    )


def render_cards(
    catalog: Catalog,
    fleet: Fleet,
    *,
    layout: str = "poker",
    ink_saver: bool = False,
    share_url: str | None = None,
    report: ValidationReport | None = None,
    fetcher: AssetFetcher | None = None,
    advanced_movement: bool = False,
) -> bytes:
    """The fleet's roster and ship cards as a PDF.

    ``layout`` is ``poker`` (a 63 × 88 mm page per card), ``a4`` or ``letter`` (nine cards a
    sheet, with cut marks). An illegal fleet prints too; its roster says why it is not legal.
    ``fetcher`` (a fresh :class:`AssetFetcher` by default) records what the document asked for.
    """
    from .fetcher import AssetFetcher

    source = cards_html(
        catalog,
        fleet,
        layout=layout,
        ink_saver=ink_saver,
        share_url=share_url,
        report=report,
        advanced_movement=advanced_movement,
    )
    document = _cards_html_class()(
        string=source, base_url=ASSETS.as_uri() + "/", url_fetcher=fetcher or AssetFetcher()
    )
    pdf: bytes = document.write_pdf(stylesheets=[_stylesheet()])
    return pdf
