"""Sharing in Chromium: one player shares a fleet, another browser opens the link, forks it and
edits the copy; the original stays as it was, and once the link is off it is gone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import price

pytestmark = pytest.mark.browser

SHIPS = {
    "Lunar Class Cruiser": "lunar-class-cruiser",
    "Gothic Class Cruiser": "gothic-class-cruiser",
    "Dictator Class Cruiser": "dictator-class-cruiser",
}


def built_points() -> str:
    """The points of the fleet ``build`` makes, from the catalogue (a legal Patrol list)."""
    points = price(*SHIPS.values())
    assert 500 <= points <= 750
    return str(points)


def build(page: Page, url: str) -> None:
    page.goto(url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("patrol")
    page.get_by_label("Name", exact=True).fill("Gothic Sector Patrol")
    page.get_by_role("button", name="Start building").click()
    for n, ship in enumerate(SHIPS, start=1):
        page.get_by_role("button", name=f"Add {ship}", exact=True).click()
        expect(page.locator("#units article.unit")).to_have_count(n)


@pytest.mark.postgresql_too
def test_share_open_and_fork_in_another_browser(browser, live_catalog) -> None:
    owner_ctx = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    owner = owner_ctx.new_page()
    build(owner, live_catalog.url)
    expect(owner.locator("#fleet-meter [data-points]")).to_have_text(built_points())

    owner.get_by_role("link", name="Share", exact=True).click()
    expect(owner.get_by_role("heading", level=1)).to_contain_text("Gothic Sector Patrol")
    owner.get_by_role("button", name="Make a link").click()  # htmx swaps the link panel
    link = owner.locator("#share-url")
    expect(link).to_have_value(re.compile(r"/s/[A-Za-z0-9_-]{22}/$"))
    share_url = link.input_value()
    expect(owner.locator(".qr svg")).to_be_visible()
    owner.get_by_role("button", name="Copy link").click()
    expect(owner.get_by_role("button", name="Copied")).to_be_visible()
    assert owner.evaluate("navigator.clipboard.readText()") == share_url

    # Another browser, no account: reads the list, cannot edit it, forks it.
    visitor_ctx = browser.new_context()
    visitor = visitor_ctx.new_page()
    visitor.goto(share_url)
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Gothic Sector Patrol")
    expect(visitor.locator("[data-points]")).to_have_text(built_points())
    expect(visitor.locator("[data-verdict]")).to_have_text("Legal fleet")
    expect(visitor.locator("#unit-0")).to_contain_text("Flagship")
    expect(visitor.get_by_role("button", name="Remove")).to_have_count(0)
    expect(visitor.get_by_role("link", name="Edit in the builder")).to_have_count(0)
    visitor.get_by_role("button", name="Copy to my fleets").click()
    expect(visitor.get_by_text("A copy of the shared fleet is now in your fleets.")).to_be_visible()
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Gothic Sector Patrol")
    assert "/s/" not in visitor.url
    # The copy is the visitor's to change...
    visitor.get_by_role("button", name="Add Tyrant Class Cruiser", exact=True).click()
    expect(visitor.locator("#fleet-meter [data-points]")).to_have_text(
        str(int(built_points()) + price("tyrant-class-cruiser"))
    )
    # ...and the shared original did not move.
    visitor.goto(share_url)
    expect(visitor.locator("[data-points]")).to_have_text(built_points())

    # The owner turns the link off: the visitor's link is gone.
    owner.get_by_role("button", name="Turn the link off").click()
    expect(owner.get_by_text("The link is off.")).to_be_visible()
    response = visitor.goto(share_url)
    assert response is not None and response.status == 404
    owner_ctx.close()
    visitor_ctx.close()


def test_a_share_code_opens_in_a_fresh_browser(browser, live_catalog) -> None:
    owner_ctx = browser.new_context()
    owner = owner_ctx.new_page()
    build(owner, live_catalog.url)
    owner.get_by_role("link", name="Share", exact=True).click()
    code_url = owner.locator("#code-url").input_value()
    code = owner.locator("#code-only").input_value()
    assert code.startswith("v2.") and code_url.endswith(f"/fleets/code/{code}/")
    text = owner.locator("#share-text").input_value()
    assert f"* Lunar Class Cruiser [Flagship] · {price('lunar-class-cruiser')} pts" in text

    visitor_ctx = browser.new_context()
    visitor = visitor_ctx.new_page()
    visitor.goto(code_url)
    expect(visitor.get_by_text("Fleet from a share code")).to_be_visible()
    expect(visitor.locator("[data-points]")).to_have_text(built_points())
    # The code alone pasted into Import opens the same list.
    visitor.goto(live_catalog.url + "/fleets/import/")
    visitor.get_by_label("…or paste").fill(code)
    visitor.get_by_role("button", name="Check the fleet").click()
    expect(visitor.get_by_text("(from a share code)")).to_be_visible()
    expect(visitor.locator("[data-points]")).to_have_text(built_points())
    # The plain text pasted into Import comes back as the same list.
    visitor.goto(live_catalog.url + "/fleets/import/")
    visitor.get_by_label("…or paste").fill(text)
    visitor.get_by_role("button", name="Check the fleet").click()
    expect(visitor.get_by_text("(from a plain-text list)")).to_be_visible()
    visitor.get_by_role("button", name="Save to my fleets").click()
    expect(visitor.get_by_text("Imported “Gothic Sector Patrol”.")).to_be_visible()
    expect(visitor.locator("#fleet-meter [data-points]")).to_have_text(built_points())
    owner_ctx.close()
    visitor_ctx.close()


@pytest.mark.postgresql_too
def test_a_double_click_on_copy_makes_one_copy(browser, live_catalog) -> None:
    owner_ctx = browser.new_context()
    owner = owner_ctx.new_page()
    build(owner, live_catalog.url)
    owner.get_by_role("link", name="Share", exact=True).click()
    owner.get_by_role("button", name="Make a link").click()
    share_url = owner.locator("#share-url").input_value()
    # The owner's own shared page leads with editing, not copying.
    owner.goto(share_url)
    expect(owner.locator(".shared-actions > :first-child")).to_have_text("Edit in the builder")

    visitor_ctx = browser.new_context()
    visitor = visitor_ctx.new_page()
    visitor.goto(share_url)
    visitor.get_by_role("button", name="Copy to my fleets").dblclick()
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Gothic Sector Patrol")
    assert "/s/" not in visitor.url
    visitor.goto(live_catalog.url + "/fleets/")
    expect(visitor.locator(".library-table tbody tr")).to_have_count(1)
    owner_ctx.close()
    visitor_ctx.close()


def test_a_refused_line_is_selected_in_the_pasted_text(page, live_catalog) -> None:
    lines = ["Fleet: Typo Patrol", "Faction: Imperial Navy", "Game size: Patrol", ""]
    lines += ["* Lunar Class Cruiser"] * 12 + ["* Lunnar Class Cruiser", "* Lunar Class Cruiser"]
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(live_catalog.url + "/fleets/import/")
    page.get_by_label("…or paste").fill("\n".join(lines))
    page.get_by_role("button", name="Check the fleet").click()
    expect(page.get_by_role("alert")).to_contain_text("Line 17: No ship called 'Lunnar Class")
    box = page.get_by_label("…or paste")
    selected = box.evaluate("b => b.value.slice(b.selectionStart, b.selectionEnd)")
    assert selected == "* Lunnar Class Cruiser"
    assert box.evaluate("b => b.scrollTop") > 0  # scrolled down to it
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_a_long_one_word_name_never_widens_a_phone_page(page, live_catalog) -> None:
    base = live_catalog.url
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(base + "/fleets/new/")
    page.get_by_label("Faction").select_option("orks")
    page.get_by_label("Name", exact=True).fill("W" * 100)
    page.get_by_role("button", name="Start building").click()
    fleet_url = page.url
    page.goto(fleet_url + "share/")
    page.get_by_role("button", name="Make a link").click()
    share_url = page.locator("#share-url").input_value()
    for url in (
        fleet_url + "share/",
        share_url,
        share_url + "cards/",
        base + "/fleets/",
        base + "/cards/fleet/" + fleet_url.rstrip("/").split("/")[-1] + "/print/",
    ):
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, url
