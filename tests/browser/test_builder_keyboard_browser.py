"""The compact roster by keyboard alone: Edit opens a unit's controls in place,
Escape closes them, focus stays on the unit that changed or moves to the next after a removal,
the live region says what happened, and rows after a removal are renumbered, not resent."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import price

pytestmark = pytest.mark.browser


def start(page: Page, url: str) -> None:
    page.goto(url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("skirmish")
    page.get_by_role("button", name="Start building").click()
    expect(page.get_by_text("No ships yet.")).to_be_visible()
    page.wait_for_load_state("load")  # htmx set up: a click before it would post the no-JS form


def press_add(page: Page, ship: str) -> None:
    rows = page.locator("#unit-list article")
    n = rows.count()
    page.get_by_role("button", name=f"Add {ship}", exact=True).focus()
    page.keyboard.press("Enter")
    expect(rows).to_have_count(n + 1)


def test_keyboard_only_build_with_focus_and_announcements(page: Page, live_catalog) -> None:
    start(page, live_catalog.url)
    announce = page.locator("#builder-announce")
    for ship in (
        "Lunar Class Cruiser",
        "Gothic Class Cruiser",
        "Dictator Class Cruiser",
        "Tyrant Class Cruiser",
    ):
        press_add(page, ship)
        # Focus stays on Add, so the player can add again at once.
        expect(page.get_by_role("button", name=f"Add {ship}", exact=True)).to_be_focused()
    cruisers = price(
        "lunar-class-cruiser",
        "gothic-class-cruiser",
        "dictator-class-cruiser",
        "tyrant-class-cruiser",
    )
    expect(announce).to_have_text(f"Added Tyrant Class Cruiser · {cruisers} of 1000 points")
    expect(announce).to_have_attribute("role", "status")

    # An escort: a squadron of one, then "+1" makes it 2× Sword Frigate.
    press_add(page, "Sword Frigate")
    plus = page.locator("#unit-4-plus")
    plus.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#unit-4-title")).to_contain_text("2× Sword Frigate")
    expect(plus).to_be_focused()
    sword = price("sword-class-frigate")
    expect(announce).to_have_text(
        f"Added Sword Frigate to Squadron 1 · {cruisers + 2 * sword} of 1000 points"
    )

    # Edit opens the Gothic's controls in place; an upgrade keeps focus in the unit.
    edit = page.locator("#unit-1-edit")
    edit.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#unit-1")).to_have_class("unit unit--ship unit--open")
    expect(edit).to_be_focused()
    expect(edit).to_have_attribute("aria-expanded", "true")
    page.locator("#unit-1-up-reinforced-hull").focus()
    page.keyboard.press("Space")
    expect(page.locator("#unit-1 .chips")).to_contain_text(
        f"Reinforced Hull +{price('reinforced-hull')}"
    )
    expect(page.locator("#unit-1-up-reinforced-hull")).to_be_checked()
    expect(page.locator("#unit-1-up-reinforced-hull")).to_be_focused()
    # Escape closes the editor and leaves focus on its Edit link.
    page.keyboard.press("Escape")
    expect(page.locator("#unit-1")).not_to_have_class("unit unit--ship unit--open")
    expect(page.locator("#unit-1-edit")).to_be_focused()
    expect(page.locator("#unit-1-edit")).to_have_text("Edit Gothic Class Cruiser")

    # Remove the Gothic (unit 1): focus goes to the next unit, the Dictator, now unit 1;
    # the rows after it were renumbered in the page and still edit the right unit.
    page.keyboard.press("Enter")
    expect(page.locator("#unit-1.unit--open")).to_have_count(1)
    page.get_by_role("button", name="Remove Gothic Class Cruiser").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#unit-list article")).to_have_count(4)
    expect(page.locator("#unit-1-edit")).to_be_focused()
    expect(page.locator("#unit-1-title")).to_have_text("Dictator Class Cruiser")
    left = cruisers - price("gothic-class-cruiser") + 2 * sword  # its upgrade went with it
    expect(announce).to_have_text(f"Removed Gothic Class Cruiser · {left} of 1000 points")
    ids = page.locator("#unit-list article").evaluate_all("rows => rows.map(r => r.id)")
    assert ids == ["unit-0", "unit-1", "unit-2", "unit-3"]
    # The renumbered squadron (was unit 4) adds to itself.
    page.locator("#unit-3-plus").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#unit-3-title")).to_contain_text("3× Sword Frigate")
    # The renumbered Tyrant (was unit 3) renames itself, not another unit.
    page.locator("#unit-2-edit").focus()
    page.keyboard.press("Enter")
    page.get_by_label("Ship name").fill("Light of Terra")
    page.keyboard.press("Enter")
    expect(page.locator("#unit-2-title")).to_contain_text("Light of Terra")
    expect(page.locator("#unit-2-title")).to_contain_text("Tyrant Class Cruiser")
    expect(page.locator("#fleet-meter [data-points]")).to_have_text(str(left + sword))

    # What the page shows is what was stored.
    page.reload()
    titles = page.locator("#unit-list article h3")
    expect(titles).to_have_text(
        [
            "Lunar Class Cruiser",
            "Dictator Class Cruiser",
            "Light of Terra Tyrant Class Cruiser",
            "Squadron 1 3× Sword Frigate",
        ]
    )
    # The Undo bar does not survive a reload.
    expect(page.locator(".undo-bar")).to_have_count(0)


def test_compact_rows_on_a_phone(browser, live_catalog) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    start(page, live_catalog.url)
    page.get_by_role("button", name="Add ships", exact=True).click()  # the ship list's side
    for ship in ("Lunar Class Cruiser", "Gothic Class Cruiser", "Sword Frigate"):
        press_add(page, ship)
    page.get_by_role("button", name="Roster", exact=True).click()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375
    row = page.locator("#unit-0").bounding_box()
    assert row is not None and row["height"] < 160  # a summary, not a wall of forms
    context.close()


def test_a_legal_skirmish_fleet_built_with_the_keyboard_alone(page: Page, live_catalog) -> None:
    """No mouse from the new-fleet form to a legal list: fields are reached by Tab, choices
    made by typing, buttons pressed with Enter."""
    page.goto(live_catalog.url + "/fleets/new/")
    page.locator("#id_name").focus()  # the form's first field, where Tab from the nav lands
    page.keyboard.press("Control+A")
    page.keyboard.type("Battlegroup Solar")
    # Tab on to the faction and game size; a closed <select> takes a typed name.
    page.keyboard.press("Tab")
    expect(page.get_by_label("Faction")).to_be_focused()
    page.keyboard.type("Imperial Navy")
    expect(page.get_by_label("Faction")).to_have_value("imperial-navy")
    size = page.get_by_label("Game size")
    while not size.evaluate("el => el === document.activeElement"):
        page.keyboard.press("Tab")
    page.keyboard.type("Skirmish")
    expect(size).to_have_value("skirmish")
    while page.evaluate("document.activeElement.textContent.trim()") != "Start building":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.get_by_text("No ships yet.")).to_be_visible()

    ships = (
        "Lunar Class Cruiser",
        "Gothic Class Cruiser",
        "Dictator Class Cruiser",
        "Tyrant Class Cruiser",
    )
    for ship in ships:
        press_add(page, ship)
    press_add(page, "Sword Frigate")
    page.locator("#unit-4-plus").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#unit-4-title")).to_contain_text("2× Sword Frigate")

    total = price(
        "lunar-class-cruiser",
        "gothic-class-cruiser",
        "dictator-class-cruiser",
        "tyrant-class-cruiser",
        "sword-class-frigate",
        "sword-class-frigate",
    )
    assert 750 <= total <= 1000  # the Skirmish band: the list is legal by its points
    expect(page.locator("#fleet-meter [data-points]")).to_have_text(str(total))
    expect(page.locator("#fleet-meter [data-verdict]")).to_have_text("Legal fleet")
    # Stored as shown: after a reload the same list is legal, the Lunar carrying the flag.
    page.reload()
    expect(page.locator("#fleet-meter [data-verdict]")).to_have_text("Legal fleet")
    expect(page.locator("#unit-list article")).to_have_count(5)
    expect(page.locator("#unit-0")).to_contain_text("Flagship")
