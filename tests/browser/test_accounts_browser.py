"""A visitor builds a fleet, signs up, finds it in Saved Fleets, deletes it and restores it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import price

pytestmark = pytest.mark.browser

PASSWORD = "Ironclad-Lunar-1138"


def start_fleet(page: Page, base: str, name: str, faction: str = "imperial-navy") -> None:
    page.goto(base + "/fleets/new/")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Faction").select_option(faction)
    page.get_by_label("Game size").select_option("skirmish")
    page.get_by_role("button", name="Start building").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    page.wait_for_load_state("load")  # htmx set up: a click before it would post the no-JS form


@pytest.mark.postgresql_too
def test_a_fleet_built_before_signing_up_is_kept_deleted_and_restored(
    page: Page, live_catalog
) -> None:
    base = live_catalog.url
    start_fleet(page, base, "Gothic Patrol")
    page.get_by_role("button", name="Add Lunar Class Cruiser", exact=True).click()
    lunar = str(price("lunar-class-cruiser"))
    expect(page.locator("#fleet-meter [data-points]")).to_have_text(lunar)
    start_fleet(page, base, "Waaagh Gitsmasha", faction="orks")

    # Sign up from the header; the page says the fleets will come along.
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Sign up").click()
    expect(page.locator(".lead")).to_contain_text("The 2 fleets you built in this browser")
    page.get_by_label("Username").fill("rhaine")
    page.get_by_label("Email").fill("rhaine@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()

    # Back on the builder (the page sign-up started from), told the fleets moved.
    expect(page.get_by_role("heading", level=1)).to_have_text("Waaagh Gitsmasha")
    expect(
        page.get_by_text("2 fleets built in this browser are now saved in your account.")
    ).to_be_visible()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text("rhaine")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Saved Fleets").click()
    table = page.locator(".library-table")
    gothic = table.locator("tr", has_text="Gothic Patrol")
    expect(gothic).to_contain_text("Imperial Navy")
    expect(gothic).to_contain_text("Skirmish")
    expect(gothic).to_contain_text(lunar)
    expect(gothic).to_contain_text("Not legal")

    # Live search narrows the list without a page load, and the URL follows.
    page.evaluate("window.__sameDocument = true")
    page.get_by_label("Search by name").fill("gitsmasha")
    expect(table.locator("tbody tr")).to_have_count(1)
    expect(table).to_contain_text("Waaagh Gitsmasha")
    expect(page).to_have_url(f"{base}/fleets/?q=gitsmasha")  # no empty or default parameters
    page.get_by_label("Search by name").fill("")
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(page).to_have_url(f"{base}/fleets/")
    page.get_by_label("Faction").select_option("imperial-navy")
    expect(table.locator("tbody tr")).to_have_count(1)
    expect(page).to_have_url(f"{base}/fleets/?faction=imperial-navy")
    page.get_by_label("Faction").select_option("")
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(page).to_have_url(f"{base}/fleets/")
    # Back steps to the faction chosen before (the menus add history entries; typing does not).
    page.go_back()
    expect(page).to_have_url(f"{base}/fleets/?faction=imperial-navy")
    expect(table.locator("tbody tr")).to_have_count(1)
    page.go_forward()
    expect(page).to_have_url(f"{base}/fleets/")
    expect(table.locator("tbody tr")).to_have_count(2)
    faction = page.get_by_label("Faction")
    expect(faction.locator("option[value=imperial-navy]")).to_have_text("Imperial Navy (1)")

    # Rename and delete in place; Undo is offered at once.
    gothic.locator("summary", has_text="Rename").click()
    expect(gothic.get_by_label("New name")).to_be_focused()  # type the new name at once
    page.keyboard.press("Escape")  # changed my mind
    expect(gothic.get_by_label("New name")).to_be_hidden()
    expect(gothic.locator("summary", has_text="Rename")).to_be_focused()
    page.keyboard.press("Enter")
    expect(gothic.get_by_label("New name")).to_be_focused()
    page.keyboard.type("Battlefleet Gothic")  # replaces the selected old name
    page.keyboard.press("Enter")
    results = page.locator("#library-results")
    expect(results.get_by_text("Renamed to “Battlefleet Gothic”.")).to_be_visible()
    expect(page.get_by_role("status")).to_have_text("Renamed to “Battlefleet Gothic”. 2 fleets.")
    page.get_by_role("button", name="Delete Battlefleet Gothic").click()
    expect(page.locator(".undo-bar")).to_contain_text("“Battlefleet Gothic” is in the trash.")
    expect(table.locator("tbody tr")).to_have_count(1)
    expect(page.get_by_role("button", name="Undo")).to_be_focused()  # Enter takes it back
    # The faction menu counts what is left: no Imperial Navy fleet now.
    expect(faction.locator("option")).to_have_text(["All factions", "Orks (1)"])
    assert page.evaluate("window.__sameDocument") is True

    # Restore it from the trash page instead.
    page.get_by_role("link", name="Trash (1)").click()
    trash = page.locator(".library-table")
    expect(trash.locator("tbody tr")).to_have_count(1)
    expect(trash).to_contain_text("Battlefleet Gothic")
    page.get_by_role("button", name="Restore Battlefleet Gothic").click()
    expect(page.get_by_text("“Battlefleet Gothic” is back in your saved fleets.")).to_be_visible()
    expect(page.get_by_text("The trash is empty.")).to_be_visible()
    page.get_by_role("link", name="Saved Fleets").first.click()
    expect(page.locator(".library-table tbody tr")).to_have_count(2)
    page.get_by_role("link", name="Battlefleet Gothic", exact=True).click()
    expect(page.locator("#fleet-meter [data-points]")).to_have_text(lunar)


@pytest.mark.postgresql_too
def test_delete_forever_from_the_trash_asks_first(page: Page, live_catalog) -> None:
    base = live_catalog.url
    start_fleet(page, base, "Doomed Draft")
    page.get_by_role("button", name="Delete", exact=True).click()  # from the builder page
    expect(page.locator(".undo-bar")).to_contain_text("“Doomed Draft” is in the trash.")
    page.get_by_role("link", name="Trash (1)").click()
    page.get_by_role("link", name="Delete Doomed Draft forever").click()
    expect(page.get_by_role("heading", name="Delete “Doomed Draft” forever?")).to_be_visible()
    page.get_by_role("link", name="Keep it").click()
    expect(page.locator(".library-table")).to_contain_text("Doomed Draft")
    page.get_by_role("link", name="Delete Doomed Draft forever").click()
    # The question's page again, loaded (a loaded run once looked for its form too early).
    expect(page.get_by_role("heading", name="Delete “Doomed Draft” forever?")).to_be_visible()
    # Sent twice (an impatient second click): the page sends it once, so no "not found".
    sent = page.evaluate("""() => {
        const form = document.querySelector("form[data-submit-once]");
        const seen = [];
        window.addEventListener("submit", (e) => seen.push(e.defaultPrevented));
        form.requestSubmit();
        form.requestSubmit();
        return seen;
    }""")
    assert sent == [False, True]
    expect(page.get_by_text("“Doomed Draft” is deleted forever.")).to_be_visible()
    expect(page.get_by_text("The trash is empty.")).to_be_visible()


def test_saved_fleets_on_a_phone(page: Page, live_catalog) -> None:
    """At 375 px each fleet is a card whose every button is on screen."""
    base = live_catalog.url
    page.set_viewport_size({"width": 375, "height": 800})
    start_fleet(page, base, "A Fleet With A Rather Long Name For A Phone Screen")
    page.goto(base + "/fleets/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    card = page.locator(".library-table tbody tr").first
    for label in ("Open A Fleet", "Rename A Fleet", "Duplicate A Fleet", "Delete A Fleet"):
        control = card.get_by_label(label, exact=False)
        expect(control).to_be_visible()
        box = control.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
