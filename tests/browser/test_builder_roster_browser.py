"""The roster without friction in Chromium: Remove on the row, with Undo in sight;
the admiral applied as soon as it is chosen, its points a chip on the row; the fleet's name
typed over its placeholder; a copy called "Copy of …"; "Add to my fleet" on a ship page
confirmed on the builder it opens."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import price

pytestmark = pytest.mark.browser


def start(page: Page, url: str) -> str:
    page.goto(url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("skirmish")
    page.get_by_role("button", name="Start building").click()
    page.wait_for_url("**/fleets/*/")
    page.wait_for_load_state("load")
    return page.url


def add(page: Page, ship: str) -> None:
    rows = page.locator("#unit-list > article")
    n = rows.count()
    page.get_by_role("button", name=f"Add {ship}", exact=True).click()
    expect(rows).to_have_count(n + 1)


def settled(page: Page) -> None:
    """Wait until no htmx request is on its way (a click meanwhile is dropped: hx-sync)."""
    page.wait_for_function("!document.querySelector('.htmx-request, .htmx-settling')")


def test_remove_from_the_row_undo_and_the_admiral_on_change(page: Page, live_catalog) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    start(page, live_catalog.url)
    for ship in ("Lunar Class Cruiser", "Gothic Class Cruiser", "Dictator Class Cruiser"):
        add(page, ship)
    # Remove, on the row itself: no editor to open first.
    page.locator("#unit-1").get_by_role("button", name="Remove Gothic Class Cruiser").click()
    expect(page.locator("#unit-list > article")).to_have_count(2)
    expect(page.locator("#unit-1-edit")).to_be_focused()  # the next unit
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_in_viewport()
    undo.click()
    expect(page.locator("#unit-1-title")).to_have_text("Gothic Class Cruiser")
    settled(page)

    # The admiral: chosen, applied; no Set button to find.
    page.locator("#unit-0-edit").click()
    lunar = page.locator("#unit-0")
    expect(lunar.get_by_role("button", name="Set admiral")).to_have_count(0)
    lunar.get_by_label("Admiral").focus()
    lunar.get_by_label("Admiral").select_option("commodore")
    chip = lunar.locator(".chip--admiral")
    expect(chip).to_have_text(f"Admiral: Commodore +{price('commodore')}")
    expect(lunar.locator(".unit__summary .pts")).to_have_text(
        f"{price('lunar-class-cruiser', 'commodore')} pts"
    )
    expect(lunar.get_by_label("Admiral")).to_be_focused()


def test_the_name_is_typed_over_its_placeholder_and_a_copy_says_so(
    page: Page, live_catalog
) -> None:
    start(page, live_catalog.url)
    page.get_by_text("Fleet settings").click()
    name = page.get_by_label("Name")
    expect(name).to_have_value("")
    expect(name).to_have_attribute("placeholder", "Untitled Fleet")
    name.click()
    page.keyboard.type("Gothic Patrol")
    expect(name).to_have_value("Gothic Patrol")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Gothic Patrol")
    page.get_by_role("button", name="Duplicate").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Copy of Gothic Patrol")


def test_add_to_my_fleet_from_a_ship_page_is_confirmed(page: Page, live_catalog) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    builder = start(page, live_catalog.url)
    add(page, "Lunar Class Cruiser")
    page.goto(live_catalog.url + "/ships/imperial-navy/gothic-class-cruiser/")
    page.get_by_role("link", name="Add to my fleet").click()
    page.get_by_role("button", name="Add to Untitled Fleet").click()
    assert page.url == builder
    message = page.get_by_role("status").filter(has_text="Added Gothic Class Cruiser")
    expect(message).to_have_text(
        re.compile(r"^Added Gothic Class Cruiser · \d+ of 1000 points in “Untitled Fleet”\.$")
    )
    expect(message).to_be_in_viewport()
    expect(page.locator("#unit-1-title")).to_have_text("Gothic Class Cruiser")
