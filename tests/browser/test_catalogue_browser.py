"""A player browsing the catalogue and the rules in headless Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import price

pytestmark = pytest.mark.browser


def test_home_to_ship_types_to_faction_to_ship(page: Page, live_catalog) -> None:
    page.goto(live_catalog.url + "/")
    page.get_by_role("link", name="Ship Types").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ship Types")
    page.get_by_role("link", name="Imperial Navy").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Imperial Navy")
    page.get_by_role("link", name="Lunar Class Cruiser").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lunar Class Cruiser")
    statline = page.get_by_label("Stat line")
    expect(statline).to_contain_text("Cruiser")
    expect(statline).to_contain_text(str(price("lunar-class-cruiser")))
    expect(statline).to_contain_text("20 cm")
    expect(statline).to_contain_text("5+")
    expect(statline).to_contain_text("crippled at 4 hull or fewer")
    expect(page.get_by_role("img", name="Fires left").first).to_be_visible()


@pytest.mark.markup_only
def test_ship_filter_narrows_the_list(page: Page, live_catalog) -> None:
    page.goto(live_catalog.url + "/ships/imperial-navy/")
    box = page.get_by_label("Filter ships")
    expect(box).to_be_visible()  # revealed by the script; hidden without JavaScript
    box.fill("lunar")
    expect(page.get_by_role("link", name="Lunar Class Cruiser")).to_be_visible()
    expect(page.get_by_role("link", name="Emperor Class Battleship")).to_be_hidden()
    expect(page.locator("#ship-filter-status")).to_have_text("1 ship shown")
    box.fill("zzzz")
    expect(page.get_by_text("No ships match that filter.")).to_be_visible()


@pytest.mark.markup_only
def test_rules_search_filters_sections_and_announces_matches(page: Page, live_catalog) -> None:
    page.goto(live_catalog.url + "/rules/")
    sections = page.locator(".rules-section")
    total = sections.count()
    assert total >= 18
    box = page.get_by_label("Search the rules")
    box.fill("bulkhead")
    expect(page.locator("#critical-hits")).to_be_visible()
    expect(page.locator("#fleet-sizes")).to_be_hidden()
    expect(page.locator("#rules-search-status")).to_have_text(re.compile(r"^1 section matches$"))
    # Inside the critical hit table only the matching row is left.
    rows = page.locator("#critical-hits tbody tr:visible")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Bulkhead Collapse")
    box.fill("no-such-rule-anywhere")
    expect(page.get_by_text("No rules match your search.")).to_be_visible()
    expect(page.locator("#rules-search-status")).to_have_text("0 sections match")
    box.fill("")
    expect(page.locator(".rules-section:visible")).to_have_count(total)


@pytest.mark.markup_only
@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/ships/",
        "/ships/imperial-navy/",
        "/ships/imperial-navy/emperor-class-battleship/",
        "/rules/",
    ],
)
def test_phone_width_has_no_horizontal_overflow(page: Page, live_catalog, path: str) -> None:
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(live_catalog.url + path)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{path} is {overflow}px wider than the phone"


@pytest.mark.markup_only
def test_dark_mode_changes_the_background(page: Page, live_catalog) -> None:
    background = "getComputedStyle(document.body).backgroundColor"
    page.emulate_media(color_scheme="light")
    page.goto(live_catalog.url + "/rules/")
    light = page.evaluate(background)
    page.emulate_media(color_scheme="dark")
    dark = page.evaluate(background)
    assert light != dark
    rgb = [int(n) for n in re.findall(r"\d+", dark)[:3]]
    assert sum(rgb) < 150, f"dark background should be dark, got {dark}"
