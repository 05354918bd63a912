"""The Content-Security-Policy in a real browser: building a fleet breaks no rule of it, and the
points meter (drawn in SVG, not with style attributes) still shows the points to scale."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.markup_only]

# Runs before any page script, outside the page's policy: records every refusal.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def test_building_a_fleet_breaks_no_csp_rule_and_the_meter_is_to_scale(
    page: Page, live_catalog
) -> None:
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(RECORD_VIOLATIONS)

    response = page.goto(live_catalog.url + "/fleets/new/")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("skirmish")
    page.get_by_role("button", name="Start building").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Untitled Fleet")
    page.evaluate("window.__sameDocument = true")

    # The ship filter answers Enter without reloading the page (no onsubmit attribute).
    search = page.locator("[data-ship-filter] input[type=search]")
    expect(search).to_be_visible()
    search.fill("lunar")
    search.press("Enter")
    page.get_by_role("button", name="Add Lunar Class Cruiser", exact=True).click()
    meter = page.locator("#fleet-meter")
    expect(meter.locator("[data-points]")).not_to_have_text("0")
    points = int(meter.locator("[data-points]").inner_text())
    assert page.evaluate("window.__sameDocument") is True  # htmx swapped, nothing reloaded

    # Skirmish: 750–1000 points on a meter running to 1200.
    bars = meter.locator(".meter__bars").bounding_box()
    band = meter.locator(".meter__band").bounding_box()
    fill = meter.locator(".meter__fill").bounding_box()
    assert bars and band and fill and bars["width"] > 100
    assert fill["x"] == pytest.approx(bars["x"], abs=1)
    assert fill["width"] == pytest.approx(bars["width"] * points / 1200, abs=1.5)
    assert band["x"] - bars["x"] == pytest.approx(bars["width"] * 750 / 1200, abs=1.5)
    assert band["width"] == pytest.approx(bars["width"] * 250 / 1200, abs=1.5)
    assert fill["height"] == pytest.approx(bars["height"] / 2, abs=1)

    # htmx was told not to inject its indicator <style>, and app.css has its rules.
    assert page.evaluate("document.querySelectorAll('style').length") == 0
    assert page.evaluate(
        "[...document.styleSheets].some(s => [...s.cssRules].some("
        "r => r.selectorText === '.htmx-indicator'))"
    )

    assert page.evaluate("window.__csp") == []
    assert [m for m in console if "Content Security Policy" in m] == []

    # The check would have seen one: a style attribute added now is refused and reported.
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    page.wait_for_function("window.__csp.length > 0")
    assert page.evaluate("window.__csp")[0].startswith("style-src")
