"""The builder's layout: on an empty fleet the problems are one line and the first
Add button is on the first screen, at 1366×900 and at 1920×1080; on a laptop the ship list and
the roster are both in sight whichever the player scrolls: the ship list's column stays on the
screen (sticky) and scrolls on its own. With UPDATE_SCREENSHOTS=1 it retakes
docs/img/builder-compact-desktop.png and builder-compact-editor.png (1366×900)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}
DESKTOP = {"width": 1920, "height": 1080}


def screenshot(name: str) -> Path:
    """Where a screenshot goes: docs/img only when asked, so a test run leaves the tree as is."""
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        return Path(__file__).resolve().parents[2] / "docs" / "img" / name
    return Path(tempfile.gettempdir()) / f"fleetbuilder-{name}"


def start(page: Page, url: str, size: str = "armada") -> int:
    page.goto(url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option(size)
    page.get_by_role("button", name="Start building").click()
    page.wait_for_url("**/fleets/*/")
    page.wait_for_load_state("load")
    return int(page.url.rstrip("/").split("/")[-1])


def forty_ships(pk: int) -> None:
    """The benchmark's list of 40 ships (bench.armada_units: 20 units) in fleet ``pk``."""
    from fleetbuilder.catalog.loader import core_catalog
    from fleetbuilder.fleets.bench import armada_units
    from fleetbuilder.fleets.models import Fleet

    catalog = core_catalog()
    fleet = Fleet.objects.get(pk=pk)
    fleet.document = {**fleet.document, "units": armada_units(catalog, 40)}
    fleet.store(fleet.to_core(), catalog)
    fleet.save()


def in_view(page: Page, box: dict[str, Any] | None) -> bool:
    """Some of ``box`` is on the screen."""
    size = page.viewport_size
    assert box is not None and size is not None
    return box["y"] < size["height"] and box["y"] + box["height"] > 0


@pytest.mark.parametrize("viewport", [LAPTOP, DESKTOP], ids=["1366x900", "1920x1080"])
def test_an_empty_fleet_has_one_line_of_problems_and_its_first_add_on_the_first_screen(
    browser: Browser, live_catalog, viewport: dict[str, int]
) -> None:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    start(page, live_catalog.url)
    problems = page.locator("#fleet-problems")
    expect(problems).to_have_text("Problems: Add a capital ship to start")
    box = problems.bounding_box()
    assert box is not None and box["height"] < 50  # one line, not three cards
    assert page.evaluate("window.scrollY") == 0
    first = page.locator(".shiplist__row button").first
    expect(first).to_have_accessible_name("Add Cobra Destroyer")
    button = first.bounding_box()
    assert button is not None and button["y"] + button["height"] <= viewport["height"], button
    print(
        f"first Add button at {viewport['width']}×{viewport['height']}: "
        f"y = {button['y']:.0f}–{button['y'] + button['height']:.0f} px"
    )
    context.close()


def test_the_ship_list_and_the_roster_stay_in_sight_on_a_laptop(
    browser: Browser, live_catalog
) -> None:
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    forty_ships(start(page, live_catalog.url))
    page.reload()
    expect(page.locator("#unit-list > article")).to_have_count(20)
    page.screenshot(path=str(screenshot("builder-compact-desktop.png")))
    ships, roster = page.locator("#add-ships"), page.locator("#unit-list")
    # Side by side, both on the first screen.
    assert in_view(page, ships.bounding_box()) and in_view(page, roster.bounding_box())
    assert roster.bounding_box()["x"] + roster.bounding_box()["width"] <= ships.bounding_box()["x"]
    # Down the ship list to its last ship: the list scrolls in its column, the roster stays.
    side = page.locator(".builder__side")
    assert side.evaluate("e => e.scrollHeight > e.clientHeight")  # it has its own scroll
    last = page.locator(".shiplist__row button").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    assert side.evaluate("e => e.scrollTop") > 0
    expect(page.locator("#unit-0")).to_be_in_viewport()
    expect(page.locator("#fleet-meter")).to_be_in_viewport()
    # Down the roster to its last unit: the ship list's column stays on the screen.
    page.locator("#unit-19").scroll_into_view_if_needed()
    expect(page.locator("#unit-19")).to_be_in_viewport()
    expect(page.locator("#fleet-meter")).to_be_in_viewport()
    expect(last).to_be_in_viewport()
    # And the first ship of the list is one scroll of its column away, the roster staying.
    side.evaluate("e => { e.scrollTop = 0; }")
    expect(page.locator(".shiplist__row button").first).to_be_in_viewport()
    expect(page.locator("#unit-19")).to_be_in_viewport()
    # A squadron's editor open beside the list.
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#unit-1-edit").click()
    expect(page.locator("#unit-1.unit--open li.escort")).to_have_count(3)
    page.evaluate("window.scrollTo(0, 300)")
    page.wait_for_timeout(100)
    page.screenshot(path=str(screenshot("builder-compact-editor.png")))
    context.close()
