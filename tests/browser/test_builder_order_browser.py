"""Reordering units (Move up / Move down by keyboard, drag by pointer) and upgrade boxes toggled
by keyboard, in Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import price

pytestmark = pytest.mark.browser


def start_with(page: Page, url: str, ships: list[str]) -> None:
    page.goto(url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_role("button", name="Start building").click()
    page.wait_for_load_state("load")  # htmx set up: a click before it would post the no-JS form
    rows = page.locator("#unit-list article")
    for n, ship in enumerate(ships, start=1):
        page.get_by_role("button", name=f"Add {ship}", exact=True).click()
        expect(rows).to_have_count(n)


def titles(page: Page) -> list[str]:
    return page.locator("#unit-list article h3").all_inner_texts()


def test_move_up_and_down_by_keyboard_keeps_focus_on_the_moved_unit(
    page: Page, live_catalog
) -> None:
    start_with(
        page,
        live_catalog.url,
        ["Lunar Class Cruiser", "Gothic Class Cruiser", "Dictator Class Cruiser"],
    )
    announce = page.locator("#builder-announce")
    page.get_by_role("button", name="Move up Dictator Class Cruiser").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#unit-1-title")).to_have_text("Dictator Class Cruiser")
    expect(page.locator("#unit-1-up")).to_be_focused()
    expect(announce).to_have_text(
        re.compile(r"^Moved Dictator Class Cruiser to place 2 of 3 · \d+ of 1000 points$")
    )
    page.keyboard.press("Enter")  # again: to the top, where Move up is hidden
    expect(page.locator("#unit-0-title")).to_have_text("Dictator Class Cruiser")
    expect(page.locator("#unit-0-down")).to_be_focused()
    page.keyboard.press("Enter")  # and down one
    expect(page.locator("#unit-1-title")).to_have_text("Dictator Class Cruiser")
    expect(page.locator("#unit-1-down")).to_be_focused()
    assert titles(page) == ["Lunar Class Cruiser", "Dictator Class Cruiser", "Gothic Class Cruiser"]
    page.reload()  # kept across a reload
    assert titles(page) == ["Lunar Class Cruiser", "Dictator Class Cruiser", "Gothic Class Cruiser"]


def test_drag_a_unit_by_its_handle(page: Page, live_catalog) -> None:
    start_with(
        page,
        live_catalog.url,
        [
            "Lunar Class Cruiser",
            "Gothic Class Cruiser",
            "Dictator Class Cruiser",
            "Tyrant Class Cruiser",
        ],
    )
    # The page at its end, the four rows on the screen (the problems are above them now).
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    handle = page.locator("#unit-3-handle").bounding_box()
    target = page.locator("#unit-0").bounding_box()
    assert handle and target
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 40, target["y"] + target["height"] * 0.4, steps=8)
    expect(page.locator("#unit-0")).to_have_class(
        "unit unit--ship unit--flagship unit--drop-before"
    )
    page.mouse.up()
    expect(page.locator("#unit-0-title")).to_have_text("Tyrant Class Cruiser")
    assert titles(page) == [
        "Tyrant Class Cruiser",
        "Lunar Class Cruiser",
        "Gothic Class Cruiser",
        "Dictator Class Cruiser",
    ]
    expect(page.locator("#builder-announce")).to_contain_text(
        "Moved Tyrant Class Cruiser to place 1 of 4"
    )
    page.reload()
    assert titles(page) == [
        "Tyrant Class Cruiser",
        "Lunar Class Cruiser",
        "Gothic Class Cruiser",
        "Dictator Class Cruiser",
    ]


def test_toggle_upgrades_by_keyboard_with_barred_ones_greyed(page: Page, live_catalog) -> None:
    start_with(page, live_catalog.url, ["Gothic Class Cruiser", "Sword Frigate"])
    page.locator("#unit-1-plus").click()
    expect(page.locator("#unit-1-title")).to_contain_text("2× Sword Frigate")
    meter = page.locator("#fleet-meter [data-points]")
    base = int(meter.inner_text())

    page.locator("#unit-0-edit").focus()
    page.keyboard.press("Enter")
    bays = page.get_by_label("Expanded Launch Bays")
    expect(bays).to_be_disabled()  # the Gothic has no launch bay
    expect(page.locator("#unit-0-up-expanded-launch-bays-why")).to_have_text(
        "Expanded Launch Bays needs a ship with a launch bay; Gothic Class Cruiser has none."
    )
    turrets = page.locator("#unit-0-up-extra-turrets")
    turrets.focus()
    page.keyboard.press("Space")
    expect(turrets).to_be_checked()
    expect(turrets).to_be_focused()
    turrets_price = price("extra-turrets")
    expect(meter).to_have_text(str(base + turrets_price))
    expect(page.locator("#builder-announce")).to_have_text(
        f"Extra Turrets fitted to Gothic Class Cruiser · {base + turrets_price} of 1000 points"
    )
    page.keyboard.press("Space")  # and off again
    expect(turrets).not_to_be_checked()
    expect(meter).to_have_text(str(base))
    page.keyboard.press("Escape")
    expect(page.locator("#unit-0-edit")).to_have_attribute("aria-expanded", "false")

    # Squadron-wide: one box fits it to both escorts.
    page.locator("#unit-1-edit").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#unit-1-edit")).to_have_attribute("aria-expanded", "true")
    wide = page.locator("#unit-1-all-extra-turrets")
    wide.focus()
    page.keyboard.press("Space")
    expect(wide).to_be_checked()
    expect(wide).to_be_focused()
    expect(meter).to_have_text(str(base + 20))
    expect(page.locator("#unit-1-ship-0-up-extra-turrets")).to_be_checked()
    expect(page.locator("#unit-1-ship-1-up-extra-turrets")).to_be_checked()
    expect(page.locator("#unit-1 .chips")).to_contain_text("Extra Turrets ×2 +20")


def test_the_variant_list_follows_the_chosen_faction_and_the_form_remembers(
    page: Page, live_catalog
) -> None:
    page.goto(live_catalog.url + "/fleets/new/")
    variant = page.get_by_label("Variant")
    page.get_by_label("Faction").select_option("orks")
    groups = variant.locator("optgroup:not([hidden])")
    expect(groups).to_have_count(1)
    expect(groups).to_have_attribute("label", "Orks")
    page.get_by_label("Faction").select_option("imperial-navy")
    expect(variant.locator("optgroup:not([hidden])")).to_have_attribute("label", "Imperial Navy")
    variant.select_option("gothic-sector-fleet")
    page.get_by_label("Faction").select_option("orks")  # another faction's variant is cleared
    expect(variant).to_have_value("")
    page.get_by_label("Game size").select_option("battle")
    page.get_by_role("button", name="Start building").click()
    expect(page.get_by_text("No ships yet.")).to_be_visible()
    page.goto(live_catalog.url + "/fleets/new/")  # the last faction and size are kept
    expect(page.get_by_label("Faction")).to_have_value("orks")
    expect(page.get_by_label("Game size")).to_have_value("battle")
