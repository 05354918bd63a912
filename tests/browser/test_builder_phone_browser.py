"""The builder on a 390×844 phone: a switch shows the roster or the ship list,
keeping the focus on it and each one's scroll; every control is a 44 px tap target; a squadron's
editor is compact (under one screen for three escorts, was 1.3); a 40-ship roster is at most
three screens; axe finds nothing on either side of the switch in either colour scheme. With
UPDATE_SCREENSHOTS=1 it retakes docs/img/builder-compact-phone.png."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_axe_browser import Walk, axe_context
from .test_builder_layout_browser import forty_ships, start

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
IMG = (
    Path(__file__).resolve().parents[2] / "docs" / "img" / "builder-compact-phone.png"
    if os.environ.get("UPDATE_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir()) / "fleetbuilder-builder-compact-phone.png"
)

# Every control on the screen under 44×44 px (a box counts with its label, which ticks it).
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'main a[href], main button, main input:not([type=hidden]), main select, main summary, '
    + '[data-fleet-bar] a')]
  .filter(e => e.checkVisibility())
  .map(e => {
    let r = e.getBoundingClientRect();
    const label = e.type === 'checkbox' && e.labels && e.labels[0];
    if (label) {
      const l = label.getBoundingClientRect();
      r = {width: Math.max(r.width, l.width), height: Math.max(r.height, l.height)};
    }
    return [e.id || e.textContent.trim().slice(0, 40), Math.round(r.width),
            Math.round(r.height)];
  })
  .filter(([name, w, h]) => w < 44 || h < 44)"""


def phone(browser: Browser, **kwargs) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **kwargs)
    return context.new_page()


def test_the_switch_shows_one_side_and_keeps_focus_and_scroll(
    browser: Browser, live_catalog
) -> None:
    page = phone(browser)
    forty_ships(start(page, live_catalog.url))
    page.reload()
    roster_tab = page.get_by_role("button", name="Roster", exact=True)
    ships_tab = page.get_by_role("button", name="Add ships", exact=True)
    expect(roster_tab).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#units")).to_be_visible()
    expect(page.locator("#add-ships")).to_be_hidden()

    # Deep in the roster, the switch is still at the top of the screen.
    page.locator("#unit-12").scroll_into_view_if_needed()
    expect(ships_tab).to_be_in_viewport()
    roster_at = page.evaluate("window.scrollY")
    ships_tab.click()
    expect(ships_tab).to_be_focused()
    expect(ships_tab).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#units")).to_be_hidden()
    expect(page.locator("#add-ships h2")).to_be_in_viewport()  # its top, under the switch
    # Down the list, add a battleship; the list stays.
    last = page.locator(".shiplist__row button").last
    last.scroll_into_view_if_needed()
    ships_at = page.evaluate("window.scrollY")
    last.click()
    expect(page.locator("[data-fleet-bar] .fleet-bar__flash")).to_contain_text("Added")
    expect(last).to_be_in_viewport()
    # Back to the roster where it was, and to the list where it was.
    roster_tab.click()
    expect(roster_tab).to_be_focused()
    assert page.evaluate("window.scrollY") == roster_at
    expect(page.locator("#unit-12")).to_be_in_viewport()
    ships_tab.click()
    assert abs(page.evaluate("window.scrollY") - ships_at) <= 1
    expect(last).to_be_in_viewport()
    # The bar's verdict links to the problems: it shows the roster's side.
    page.locator("[data-fleet-bar] .fleet-bar__verdict").click()
    expect(roster_tab).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#fleet-problems")).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()


def test_tap_targets_a_compact_editor_and_forty_ships_in_three_screens(
    browser: Browser, live_catalog
) -> None:
    page = phone(browser)
    forty_ships(start(page, live_catalog.url))
    page.reload()
    expect(page.locator("#unit-list > article")).to_have_count(20)
    height = page.evaluate("document.documentElement.scrollHeight")
    print(
        f"40 ships (20 units) on a 390×844 phone: {height} px, "
        f"{height / PHONE['height']:.2f} screens"
    )
    assert height <= 3 * PHONE["height"]
    assert page.evaluate(SMALL_TARGETS) == []
    page.screenshot(path=str(IMG))

    # A squadron of three, open: under one screen, its controls 44 px too.
    page.locator("#unit-1-edit").click()
    squadron = page.locator("#unit-1.unit--open")
    expect(squadron.locator("li.escort")).to_have_count(3)
    box = squadron.bounding_box()
    assert box is not None and box["height"] < PHONE["height"], box
    print(f"an open squadron of three: {box['height']:.0f} px")
    assert page.evaluate(SMALL_TARGETS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.get_by_role("button", name="Add ships", exact=True).click()
    expect(page.locator("#add-ships")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_both_sides_of_the_switch_have_no_axe_violations(
    browser: Browser, live_catalog, scheme: str
) -> None:
    walk = Walk()
    context = axe_context(
        browser, color_scheme=scheme, viewport=PHONE, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    start(page, live_catalog.url, "skirmish")
    page.get_by_role("button", name="Add ships", exact=True).click()
    for ship in ("Lunar Class Cruiser", "Sword Frigate"):
        page.get_by_role("button", name=f"Add {ship}", exact=True).click()
        expect(page.locator("[data-fleet-bar] .fleet-bar__flash")).to_contain_text(ship)
    walk.check(page)
    page.get_by_role("button", name="Roster", exact=True).click()
    page.locator("#unit-1-edit").click()
    expect(page.locator("#unit-1 .unit__editor")).to_be_visible()
    walk.check(page)
    context.close()
    walk.assert_clean()
