"""The print page in Chromium: US Letter is chosen for an en-US browser, the page
is busy while the PDF is made, then the PDF downloads and the page says so."""

from __future__ import annotations

import re
import subprocess

import pytest
from playwright.sync_api import Browser, Route, expect

pytestmark = pytest.mark.browser


def test_the_print_page_is_busy_until_the_pdf_downloads(browser: Browser, live_catalog) -> None:
    context = browser.new_context(locale="en-US", accept_downloads=True)
    page = context.new_page()
    page.goto(live_catalog.url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_role("button", name="Start building").click()
    page.get_by_role("button", name="Add Lunar Class Cruiser", exact=True).click()
    expect(page.locator("#units article.unit")).to_have_count(1)
    page.get_by_role("link", name="Print cards").click()
    expect(page.get_by_label("US Letter sheets")).to_be_checked()  # from the browser's locale

    # The preview's page follows the options (one whole page, page 1 first).
    picture = page.locator("[data-print-preview] img")
    expect(picture).to_have_attribute(
        "data-page-url", re.compile(r"layout=letter\S*&preview=1&page=1$")
    )
    expect(picture).to_have_js_property("complete", True)
    assert picture.evaluate("img => img.naturalWidth") > 200
    page.get_by_label("Poker cards").check()
    expect(picture).to_have_attribute(
        "data-page-url", re.compile(r"layout=poker&movement=standard&preview=1&page=1$")
    )
    expect(picture).to_have_js_property("complete", True)
    expect(page.locator("[data-print-preview]")).not_to_have_class(re.compile("busy"))
    page.get_by_label("US Letter sheets").check()

    held: list[Route] = []
    page.route(
        lambda url: "/cards/fleet/" in url and "?" in url and "preview" not in url,
        lambda route: held.append(route),
    )
    page.get_by_role("button", name="Download PDF").click()
    button = page.get_by_role("button", name="Making the PDF…")
    expect(button).to_be_disabled()
    expect(page.locator("form[data-print-form]")).to_have_attribute("aria-busy", "true")
    expect(page.get_by_role("status").filter(has_text="Making the PDF")).to_be_visible()
    # The page shows itself busy as it sends the request; the route sees it a moment later
    # (route handlers run while Playwright waits, so wait here, a loaded run needed it).
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1 and "layout=letter" in held[0].request.url

    with page.expect_download() as info:
        held[0].continue_()
    download = info.value
    assert download.suggested_filename == "untitled-fleet-cards.pdf"
    expect(page.get_by_role("status")).to_have_text("Downloaded untitled-fleet-cards.pdf.")
    expect(page.get_by_role("button", name="Download PDF")).to_be_enabled()
    pdfinfo = subprocess.run(
        ["pdfinfo", str(download.path())], capture_output=True, text=True, check=True
    ).stdout
    assert "(letter)" in pdfinfo.lower()
    context.close()


def test_the_print_page_asks_for_one_render_at_a_time(browser: Browser, live_catalog) -> None:
    """R-96: card PDFs are made one at a time for an address (RATE_LIMIT_IN_FLIGHT, on by
    default), so the print page never asks for two at once: options changed quickly cost the
    last preview only, and the PDF waits for the preview being made. Nothing is refused."""
    from django.conf import settings

    assert settings.RATE_LIMIT_IN_FLIGHT == 1
    context = browser.new_context(locale="en-GB", accept_downloads=True)
    page = context.new_page()
    page.goto(live_catalog.url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_role("button", name="Start building").click()
    for _ in range(3):
        count = page.locator("#units article.unit").count()
        page.get_by_role("button", name="Add Lunar Class Cruiser", exact=True).click()
        expect(page.locator("#units article.unit")).to_have_count(count + 1)

    open_now: list[str] = []
    most = [0]
    answers: list[int] = []

    def sent(request) -> None:
        if "/cards/fleet/" in request.url and "?" in request.url:
            open_now.append(request.url)
            most[0] = max(most[0], len(open_now))

    def ended(request) -> None:
        if request.url in open_now:
            open_now.remove(request.url)
            response = request.response()
            answers.append(response.status if response else 0)

    page.on("request", sent)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    page.get_by_role("link", name="Print cards").click()
    picture = page.locator("[data-print-preview] img")
    # five changes of mind while the first preview is being made
    for label in ("Poker cards", "A4 sheets", "US Letter sheets", "Poker cards", "A4 sheets"):
        page.get_by_label(label).check()
    with page.expect_download() as info:
        page.get_by_role("button", name="Download PDF").click()
    assert info.value.suggested_filename == "untitled-fleet-cards.pdf"
    expect(picture).to_have_attribute("data-page-url", re.compile(r"layout=a4\S*&page=1$"))
    expect(page.locator("[data-print-preview]")).not_to_have_class(re.compile("busy"))
    expect(page.get_by_role("status")).to_have_text("Downloaded untitled-fleet-cards.pdf.")
    assert picture.evaluate("img => img.naturalWidth") > 200
    assert most[0] == 1, f"{most[0]} card requests at once"
    assert 429 not in answers and all(status == 200 for status in answers), answers
    # the page's own preview, at most one for the changes, and the PDF
    assert len(answers) <= 4, answers
    context.close()
