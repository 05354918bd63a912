"""Printable ship cards: a roster page, then one card per capital ship and per escort squadron.

    from rules_core.cards import render_cards
    pdf = render_cards(catalog, fleet, layout="a4", ink_saver=True, share_url=None)

The card's values come from the catalogue and the validator (points R-24, leadership R-25);
the card decisions the rules leave open are rulings R-60…R-69 in docs/rulings.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .markup import LAYOUTS
from .render import LayoutError, cards_html, render_cards

if TYPE_CHECKING:
    from .fetcher import AssetFetcher, RefusedURL


def __getattr__(name: str) -> Any:
    """The fetcher imports WeasyPrint (a second or more): only when something asks for it, so
    that importing the cards (every manage.py command does, through the URL checks) stays fast."""
    if name in ("AssetFetcher", "RefusedURL"):
        from . import fetcher

        return getattr(fetcher, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["LAYOUTS", "AssetFetcher", "LayoutError", "RefusedURL", "cards_html", "render_cards"]
