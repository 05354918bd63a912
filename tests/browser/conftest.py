"""Helpers for the browser tests: prices come from the loaded catalogue, never copied."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.timing import bound


def price(*slugs: str) -> int:
    """The summed price of these ships, faction upgrades, refits and admirals in the loaded
    catalogue: points are calibrated (docs/catalogue.md, Calibration) and may move again, so a
    test reads them instead of writing them in."""
    from fleetbuilder.catalog.loader import core_catalog

    catalog = core_catalog()
    items = {x.slug: x.points for f in catalog.factions for x in (*f.ships, *f.upgrades)}
    items.update({x.slug: x.points for x in (*catalog.refits, *catalog.admirals)})
    return sum(items[slug] for slug in slugs)


@pytest.fixture(autouse=True)
def _expect_waits_for_a_loaded_machine() -> None:
    """Playwright's ``expect`` waits 5 s by default; on a loaded machine (a PDF preview took
    6 s at load 8) that is stretched, as every wall-clock bound is (tests/support/timing.py),
    by the load when each test starts."""
    expect.set_options(timeout=bound(5_000))
