"""Helpers for the browser tests: prices come from the loaded catalogue, never copied."""

from __future__ import annotations


def price(*slugs: str) -> int:
    """The summed price of these ships, faction upgrades, refits and admirals in the loaded
    catalogue: points are calibrated (docs/catalogue.md, Calibration) and may move again, so a
    test reads them instead of writing them in."""
    from fleetbuilder.catalog.loader import core_catalog

    catalog = core_catalog()
    items = {x.slug: x.points for f in catalog.factions for x in (*f.ships, *f.upgrades)}
    items.update({x.slug: x.points for x in (*catalog.refits, *catalog.admirals)})
    return sum(items[slug] for slug in slugs)
