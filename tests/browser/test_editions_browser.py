"""A list built under an older edition, by keyboard alone (R-162): the builder's banner
says what the newest edition changes, Update moves the list there and Undo brings it back, focus
following the player, the live region saying what happened; axe finds nothing on the way, nor
on the side-by-side comparison."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_axe_browser import Walk, axe_context

pytestmark = pytest.mark.browser

LUNAR = "lunar-class-cruiser"


def _price(edition: int, slug: str) -> int:
    from fleetbuilder.catalog import editions

    catalog = editions.catalog_for(edition)
    return next(s.points for f in catalog.factions for s in f.ships if s.slug == slug)


def _start_on_edition_1(page: Page, base: str) -> None:
    from fleetbuilder.catalog import editions
    from fleetbuilder.fleets.models import Fleet

    page.goto(base + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("skirmish")
    page.get_by_role("button", name="Start building").click()
    page.wait_for_load_state("load")
    page.get_by_role("button", name="Add Lunar Class Cruiser", exact=True).click()
    expect(page.locator("#unit-list article")).to_have_count(1)
    # As if the list had been built under the original conversion, edition 1.
    fleet = Fleet.objects.get()
    fleet.apply(editions.catalog_for(1), list(fleet.to_core().units), edition=1)
    page.reload()


def _tab_to(page: Page, selector: str, limit: int = 60) -> None:
    target = page.locator(selector)
    for _ in range(limit):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            return
    pytest.fail(f"{selector} is not reachable with Tab")


def test_update_and_undo_an_edition_by_keyboard_with_axe_clean(
    browser: Browser, live_catalog
) -> None:
    base = live_catalog.url
    context = axe_context(browser)
    page = context.new_page()
    walk = Walk()
    _start_on_edition_1(page, base)
    old, new = _price(1, LUNAR), _price(7, LUNAR)
    banner = page.locator("#fleet-edition")
    expect(banner).to_contain_text("Built under edition 1")
    expect(banner).to_contain_text(f"this list costs {new} (was {old}")
    expect(banner).to_contain_text(f"Lunar Class Cruiser: {old} → {new}")
    walk.check(page)

    page.locator("body").focus()
    _tab_to(page, "#edition-update")
    page.keyboard.press("Enter")
    announce = page.locator("#builder-announce")
    expect(announce).to_contain_text(f"Updated to edition 7: {new} points (was {old})")
    expect(page.locator("#edition-undo")).to_be_focused()
    expect(page.locator("#fleet-meter")).to_contain_text(str(new))
    expect(banner).to_contain_text("Built under Edition 7")
    walk.check(page)

    page.keyboard.press("Enter")  # Undo, where focus was left
    expect(announce).to_contain_text(f"Back on edition 1: {old} points (was {new})")
    expect(page.locator("#edition-update")).to_be_focused()
    expect(page.locator("#fleet-meter")).to_contain_text(str(old))

    # Side by side: the comparison page, reached from the banner.
    page.get_by_role("link", name="Side by side").click()
    expect(page.locator("table.compare-table tfoot")).to_contain_text(f"{old}")
    expect(page.locator("table.compare-table tfoot")).to_contain_text(f"{new}")
    walk.check(page)
    walk.assert_clean()
    context.close()
