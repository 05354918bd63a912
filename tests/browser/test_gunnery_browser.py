"""A player using the gunnery calculator in headless Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser


def test_changing_the_range_updates_the_odds_without_a_reload(page: Page, live_catalog) -> None:
    page.goto(live_catalog.url + "/gunnery/")
    page.evaluate("window.sameDocument = 'yes'")
    result = page.locator("#gunnery-result")

    page.get_by_label("Faction").select_option(label="Imperial Navy")
    expect(page.locator("#id_attacker optgroup")).to_have_count(1)  # the select was refreshed
    page.get_by_label("Attacking ship").select_option("lunar-class-cruiser")
    expect(result).to_contain_text("Lunar Class Cruiser:")
    weapon = page.get_by_label("Weapon", exact=True)
    port_battery = weapon.locator("option", has_text="Port Weapons Battery").get_attribute("value")
    weapon.select_option(port_battery)
    expect(result).to_contain_text("Lunar Class Cruiser: Port Weapons Battery")
    page.get_by_label("Target ship").select_option("murder-class-cruiser")
    expect(result).to_contain_text("against Murder Class Cruiser")

    range_box = page.get_by_label("Range (cm)")
    range_box.fill("10")
    expect(result).to_contain_text("at 10 cm")
    point_blank = page.locator("#stat-mean").inner_text()
    range_box.fill("20")  # across 15 cm: batteries need 5+ instead of 4+ (R-41)
    expect(result).to_contain_text("at 20 cm")
    expect(page.locator("#stat-mean")).not_to_have_text(point_blank)
    assert float(page.locator("#stat-mean").inner_text()) < float(point_blank)

    assert page.evaluate("window.sameDocument") == "yes"  # no page load happened
    expect(page).to_have_url(re.compile(r"range_cm=20"))  # the address is the link
    link = page.get_by_label("Link to this calculation").input_value()
    assert "range_cm=20" in link and "attacker=lunar-class-cruiser" in link


def test_without_javascript_the_form_submits_and_the_page_renders(
    browser: Browser, live_catalog
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_catalog.url + "/gunnery/")
    page.get_by_label("Strength").fill("12")
    page.get_by_label("Range (cm)").fill("45")
    page.get_by_role("button", name="Calculate").click()
    expect(page).to_have_url(re.compile(r"strength=12"))
    expect(page.locator("#gunnery-result")).to_contain_text("strength 12, at 45 cm")
    expect(page.get_by_role("img", name=re.compile("Hull damage from"))).to_be_visible()
    page.get_by_label("Strength").fill("99")
    page.get_by_role("button", name="Calculate").click()
    expect(page.get_by_role("alert")).to_contain_text("Strength")
    context.close()
