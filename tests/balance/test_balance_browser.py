"""The Balance page in Chromium: read without JavaScript on a phone (nothing overflows, the
matrix scrolls in its own box), and the site's header still fits on one row on a wide screen."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser


def publish() -> None:
    call_command(
        "balance",
        "--size",
        "skirmish",
        "--battles",
        "2",
        "--factions",
        "orks,necrons,tau-empire,craftworld-eldar",
        "--publish",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )


def test_without_javascript_on_a_phone(browser: Browser, live_catalog) -> None:
    publish()
    context = browser.new_context(java_script_enabled=False, viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.goto(live_catalog.url + "/")
    page.get_by_text("Menu", exact=True).click()  # a phone's navigation folds into a menu
    page.get_by_role("link", name="Balance", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Balance")
    matrix = page.get_by_role("table", name="Every pair")
    expect(matrix.locator("td.heat:not(.heat-self)")).to_have_count(12)
    expect(page.get_by_role("table", name="Against the field").locator("tbody tr")).to_have_count(4)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    context.close()


@pytest.mark.parametrize("width", [1280, 1366, 1440])
def test_the_header_fits_with_the_balance_link(page: Page, live_catalog, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 700})
    page.goto(live_catalog.url + "/balance/")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    expect(page.get_by_role("link", name="Sign up")).to_be_in_viewport()
