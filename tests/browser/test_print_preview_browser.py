"""The print page's preview in Chromium: one whole page, large enough to read,
as a print dialog shows it (it was a 376 × 244 px strip of thumbnails); Previous and Next turn
the pages, a new layout starts again at page 1, and the page is axe clean in both schemes.
Screenshots go to the temporary folder."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_axe_browser import axe_context, violations

pytestmark = pytest.mark.browser


def _print_url() -> str:
    from fleetbuilder.catalog import loader
    from fleetbuilder.fleets.models import Fleet
    from rules_core.sample_fleets import sample_fleet

    catalog = loader.core_catalog()
    fleet = Fleet.from_core(
        sample_fleet(catalog, "imperial-navy", "patrol"), catalog, owner_token="printer"
    )
    fleet.share()
    return f"{fleet.share_url_path()}cards/"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_preview_shows_a_whole_page_to_read(
    browser: Browser, live_catalog, scheme: str
) -> None:
    context = axe_context(
        browser, color_scheme=scheme, locale="en-GB", viewport={"width": 1366, "height": 900}
    )
    page = context.new_page()
    page.goto(live_catalog.url + _print_url())
    preview = page.locator("[data-print-preview]")
    picture = preview.locator("img")
    expect(preview).to_contain_text("Preview: page 1 of 2")  # the roster, one A4 sheet
    expect(picture).to_have_js_property("complete", True)
    expect(preview).not_to_have_class(re.compile("busy"))
    assert picture.evaluate("img => img.naturalHeight") == 1800
    shown = picture.bounding_box()
    assert shown is not None and shown["width"] >= 700, shown  # a sheet the column's width
    previous = preview.get_by_role("button", name="Previous page")
    following = preview.get_by_role("button", name="Next page")
    expect(previous).to_be_disabled()
    following.click()
    expect(picture).to_have_attribute("data-page-url", re.compile(r"&page=2$"))
    expect(preview).to_contain_text("Preview: page 2 of 2")
    expect(following).to_be_disabled()
    expect(preview).not_to_have_class(re.compile("busy"))
    expect(picture).to_have_js_property("complete", True)
    page.wait_for_load_state("networkidle")
    found = violations(page)
    assert not found, "\n".join(found)
    page.screenshot(
        path=str(Path(tempfile.gettempdir()) / f"fleetbuilder-print-{scheme}.png"), full_page=True
    )
    page.get_by_label("Poker cards").check()  # a new layout starts at its page 1
    expect(picture).to_have_attribute("data-page-url", re.compile(r"layout=poker\S*&page=1$"))
    expect(preview).to_contain_text(re.compile(r"Preview: page 1 of \d+"))
    expect(picture).to_have_js_property("complete", True)
    card = picture.bounding_box()
    assert card is not None and card["width"] >= 400, card
    context.close()
