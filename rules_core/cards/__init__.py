"""Printable ship cards: a roster page, then one card per capital ship and per escort squadron.

    from rules_core.cards import render_cards
    pdf = render_cards(catalog, fleet, layout="a4", ink_saver=True, share_url=None)

The card's values come from the catalogue and the validator (points R-24, leadership R-25);
the card decisions the rules leave open are rulings R-60…R-69 in docs/rulings.md.
"""

from .fetcher import AssetFetcher, RefusedURL
from .markup import LAYOUTS
from .render import LayoutError, cards_html, render_cards

__all__ = ["LAYOUTS", "AssetFetcher", "LayoutError", "RefusedURL", "cards_html", "render_cards"]
