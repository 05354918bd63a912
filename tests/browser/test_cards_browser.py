"""A player prints their fleet's cards from the builder in Chromium and gets an A4 PDF."""

from __future__ import annotations

import subprocess

import pytest
from playwright.sync_api import Page, expect

from .conftest import price

pytestmark = pytest.mark.browser


def test_print_cards_from_the_builder(page: Page, live_catalog) -> None:
    page.goto(live_catalog.url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("skirmish")
    page.get_by_role("button", name="Start building").click()
    page.get_by_role("button", name="Add Lunar Class Cruiser", exact=True).click()
    expect(page.locator("#units article.unit")).to_have_count(1)

    page.get_by_role("link", name="Print cards").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Print cards")
    page.get_by_label("A4 sheets").check()
    page.get_by_label("Ink saver").check()
    with page.expect_download() as info:
        page.get_by_role("button", name="Download PDF").click()
    download = info.value
    assert download.suggested_filename == "untitled-fleet-cards.pdf"
    path = download.path()
    pdfinfo = subprocess.run(
        ["pdfinfo", str(path)], capture_output=True, text=True, check=True
    ).stdout
    assert "Pages:           2" in pdfinfo  # the roster, then a sheet with one card
    assert "(A4)" in pdfinfo
    text = subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Lunar Class Cruiser" in text and f"{price('lunar-class-cruiser')} pts" in text


def test_a_visitor_prints_a_shared_fleet_on_letter_sheets(browser, live_catalog) -> None:
    """Someone else's link: the same layout and ink-saver choice as the owner gets."""
    owner = browser.new_context().new_page()
    owner.goto(live_catalog.url + "/fleets/new/")
    owner.get_by_label("Faction").select_option("orks")
    owner.get_by_label("Game size").select_option("patrol")
    owner.get_by_label("Name", exact=True).fill("Da Kroozas")
    owner.get_by_role("button", name="Start building").click()
    owner.get_by_role("button", name="Add Ork Kill Kroozer", exact=True).click()
    expect(owner.locator("#units article.unit")).to_have_count(1)
    owner.get_by_role("link", name="Share", exact=True).click()
    owner.get_by_role("button", name="Make a link").click()
    share_url = owner.locator("#share-url").input_value()

    visitor_ctx = browser.new_context()
    visitor = visitor_ctx.new_page()
    visitor.goto(share_url)
    visitor.get_by_role("link", name="Print ship cards").click()
    expect(visitor.get_by_role("heading", level=1)).to_contain_text("Da Kroozas")
    visitor.get_by_label("US Letter sheets").check()
    visitor.get_by_label("Ink saver").check()
    with visitor.expect_download() as info:
        visitor.get_by_role("button", name="Download PDF").click()
    download = info.value
    assert download.suggested_filename == "da-kroozas-cards.pdf"
    pdfinfo = subprocess.run(
        ["pdfinfo", str(download.path())], capture_output=True, text=True, check=True
    ).stdout
    assert "(letter)" in pdfinfo and "Pages:           2" in pdfinfo
    text = subprocess.run(
        ["pdftotext", str(download.path()), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Ork Kill Kroozer" in text
    # The roster names its link, wrapped; pdftotext joins a line that ends in "-" to the next
    # without it, and a share id may hold "-" (base64url), so compare without hyphens.
    assert share_url.replace("-", "") in text.replace("\n", "").replace("-", "")
    visitor.get_by_role("link", name="Back to the shared fleet").click()
    expect(visitor).to_have_url(share_url)
    visitor_ctx.close()
