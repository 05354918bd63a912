"""A player building a legal Skirmish fleet from an empty page in Chromium, then breaking it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import price

pytestmark = pytest.mark.browser


def open_editor(page: Page, label: str) -> None:
    """Open a unit's controls in place (its Edit link) and wait for them."""
    page.get_by_role("link", name=f"Edit {label}", exact=True).click()
    expect(page.get_by_role("link", name=f"Done {label}", exact=True)).to_be_visible()


def add(page: Page, ship: str) -> None:
    count = page.locator("#units article.unit").count()
    page.get_by_role("button", name=f"Add {ship}", exact=True).click()
    expect(page.locator("#units article.unit")).to_have_count(count + 1)


def test_build_a_legal_skirmish_fleet_then_break_it(page: Page, live_catalog) -> None:
    page.goto(live_catalog.url + "/")
    page.get_by_role("link", name="Builder", exact=True).click()
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("skirmish")
    page.get_by_role("button", name="Start building").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Untitled Fleet")
    expect(page.get_by_text("No ships yet.")).to_be_visible()
    builder_url = page.url
    meter = page.locator("#fleet-meter")
    problems = page.locator("#fleet-problems")
    expect(meter).to_contain_text("Not legal")

    # Every edit below is an htmx request: the page itself never reloads.
    page.evaluate("window.__sameDocument = true")

    for ship in (
        "Dictator Class Cruiser",
        "Lunar Class Cruiser",
        "Tyrant Class Cruiser",
        "Gothic Class Cruiser",
    ):
        add(page, ship)
    cruisers = price(
        "dictator-class-cruiser",
        "lunar-class-cruiser",
        "tyrant-class-cruiser",
        "gothic-class-cruiser",
    )
    expect(meter.locator("[data-points]")).to_have_text(str(cruisers))
    expect(page.locator("#unit-0")).to_contain_text("Flagship")

    # A squadron: create it (its controls open at once), then put two escorts in it.
    page.get_by_role("button", name="New squadron").click()
    squadron = page.locator("#unit-4")
    expect(squadron.get_by_label("Add escort")).to_be_focused()
    expect(squadron).to_contain_text("No escorts yet.")
    for _ in range(2):
        n = squadron.locator("li.escort").count()
        squadron.get_by_label("Add escort").select_option("sword-class-frigate")
        squadron.get_by_role("button", name="Add to squadron").click()
        expect(page.locator("#unit-4 li.escort")).to_have_count(n + 1)
    expect(squadron).not_to_contain_text("No escorts yet.")

    # The flagship moves to the Lunar, and a Commodore takes command there.
    lunar = page.locator("#unit-1")
    open_editor(page, "Lunar Class Cruiser")
    lunar.get_by_role("button", name="Make flagship").click()
    expect(lunar.get_by_label("Admiral")).to_be_focused()  # the button made way for the select
    expect(lunar.locator(".badge--flag")).to_be_visible()
    # The row's mark follows the flag (only the pieces of the open editor were redrawn).
    expect(lunar).to_have_class(re.compile(r"\bunit--flagship\b"))
    expect(page.locator("#unit-0")).not_to_have_class(re.compile(r"\bunit--flagship\b"))
    expect(lunar.locator("[data-leadership]")).to_have_text("9")
    lunar.get_by_label("Admiral").select_option("commodore")  # applies on change
    expect(page.locator("#unit-1 [data-leadership]")).to_have_text("10")  # 8 + 1 + 1

    # An upgrade, offered only where allowed; the reason is given for the others.
    gothic = page.locator("#unit-3")
    open_editor(page, "Gothic Class Cruiser")
    gothic.get_by_label("Reinforced Hull").check()
    expect(page.locator("#unit-3 .chips")).to_contain_text("Reinforced Hull")
    expect(gothic.get_by_label("Expanded Launch Bays")).to_be_disabled()
    expect(gothic).to_contain_text("needs a ship with a launch bay")
    page.locator("#unit-4").get_by_text("Upgrades these escorts cannot take").click()
    expect(page.locator("#unit-4 .refused")).to_contain_text("Reinforced Hull is for")

    open_editor(page, "Dictator Class Cruiser")
    page.locator("#unit-0").get_by_label("Ship name").fill("Emperor's Wrath")
    page.locator("#unit-0").get_by_role("button", name="Rename").click()
    expect(page.locator("#unit-0 h3")).to_contain_text("Emperor's Wrath")

    # The cruisers, two escorts, the Commodore and the upgrade: in the band, legal.
    total = cruisers + price(
        "sword-class-frigate", "sword-class-frigate", "commodore", "reinforced-hull"
    )
    assert 750 <= total <= 1000  # the scenario is a legal Skirmish fleet
    expect(meter.locator("[data-points]")).to_have_text(str(total))
    expect(meter.locator("[data-verdict]")).to_have_text("Legal fleet")
    expect(problems).to_contain_text("No problems")
    assert page.evaluate("window.__sameDocument") is True
    assert page.url == builder_url

    # Break it: an escort leaves its squadron, which is now too small.
    page.locator("#unit-4-ship-1").get_by_role("button", name="Remove Sword Frigate").click()
    expect(page.locator(".undo-bar")).to_contain_text("Removed Sword Frigate")
    expect(page.locator("#builder-announce")).to_have_text(
        f"Removed Sword Frigate from Squadron 1 · {total - price('sword-class-frigate')} "
        "of 1000 points"
    )
    expect(meter.locator("[data-verdict]")).to_have_text("Not legal")
    problem = problems.locator('[data-code="squadron.too_small"]')
    expect(problem).to_contain_text("This squadron has 1 escort")
    problem.get_by_role("link", name="Squadron 1").click()
    assert page.url.endswith("#unit-4")

    # Undo puts it back, and the fleet is legal again.
    page.get_by_role("button", name="Undo").click()
    expect(meter.locator("[data-verdict]")).to_have_text("Legal fleet")
    assert page.evaluate("window.__sameDocument") is True

    # Closing the tab loses nothing: a fresh load shows the same fleet.
    page.goto(builder_url)
    expect(page.locator("#unit-0 h3")).to_contain_text("Emperor's Wrath")
    expect(meter.locator("[data-points]")).to_have_text(str(total))
    expect(page.locator("#fleet-meter [data-verdict]")).to_have_text("Legal fleet")


def test_builder_works_without_javascript(browser, live_catalog) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_catalog.url + "/fleets/new/")
    page.get_by_label("Faction").select_option("orks")
    page.get_by_role("button", name="Start building").click()
    page.get_by_role("button", name=re.compile(r"^Add ")).first.click()
    expect(page.locator("#units article.unit")).to_have_count(1)
    page.locator("#unit-0").get_by_role("link", name=re.compile("^Edit")).click()
    page.locator("#unit-0").get_by_role("button", name=re.compile("^Remove")).first.click()
    expect(page.get_by_role("button", name="Undo")).to_be_visible()
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#units article.unit")).to_have_count(1)
    context.close()


def test_another_visitor_cannot_see_the_fleet(browser, page: Page, live_catalog) -> None:
    page.goto(live_catalog.url + "/fleets/new/")
    page.get_by_role("button", name="Start building").click()
    url = page.url
    stranger = browser.new_context()
    response = stranger.new_page().goto(url)
    assert response is not None and response.status == 404
    stranger.close()


def start_imperial_skirmish(page: Page, url: str) -> str:
    page.goto(url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("skirmish")
    page.get_by_role("button", name="Start building").click()
    expect(page.get_by_text("No ships yet.")).to_be_visible()
    page.wait_for_load_state("load")  # htmx set up: a click before it would post the no-JS form
    return page.url


@pytest.mark.postgresql_too
def test_quick_clicks_on_add_in_one_tab_all_land(page: Page, live_catalog) -> None:
    start_imperial_skirmish(page, live_catalog.url)
    conflicts: list[int] = []
    page.on("response", lambda r: conflicts.append(r.status) if r.status == 409 else None)
    add = page.get_by_role("button", name="Add Lunar Class Cruiser", exact=True)
    for _ in range(5):  # as fast as Chromium clicks: each waits its turn (hx-sync), none races
        add.click(delay=0, no_wait_after=True)
    expect(page.locator("#units article.unit")).to_have_count(5)
    expect(page.locator("#fleet-meter [data-points]")).to_have_text(
        str(5 * price("lunar-class-cruiser"))
    )
    expect(page.locator("#fleet-version")).to_have_value("6")
    expect(page.locator("#units .alert")).to_have_count(0)
    assert conflicts == []
    # What the page shows is what was stored.
    page.reload()
    expect(page.locator("#units article.unit")).to_have_count(5)


@pytest.mark.postgresql_too
def test_an_edit_from_a_tab_left_behind_is_refused_and_the_tab_refreshed(
    page: Page, live_catalog
) -> None:
    url = start_imperial_skirmish(page, live_catalog.url)
    for ship in ("Lunar Class Cruiser", "Gothic Class Cruiser", "Dauntless Class Light Cruiser"):
        add(page, ship)
    first = page
    open_editor(first, "Gothic Class Cruiser")

    # A second tab of the same browser removes the Lunar: every unit moves up one place.
    second = page.context.new_page()
    second.goto(url)
    open_editor(second, "Lunar Class Cruiser")
    second.get_by_role("button", name="Remove Lunar Class Cruiser").click()
    expect(second.locator("#units article.unit")).to_have_count(2)
    expect(second.locator("#fleet-meter [data-points]")).to_have_text(
        str(price("gothic-class-cruiser", "dauntless-class-light-cruiser"))
    )

    # The first tab still shows the Lunar at 0 and the Gothic at 1; it removes the Gothic.
    # (A player switches to it; a tab behind another gets no animation frames, and Playwright
    # waits for those before it clicks: seconds a click.)
    first.bring_to_front()
    first.get_by_role("button", name="Remove Gothic Class Cruiser").click()
    alert = first.locator("#units").get_by_role("alert")
    expect(alert).to_have_text(
        "This fleet changed in another tab. It has been refreshed; make your change again."
    )
    # Nothing was removed; the roster, the meter and the version are the fleet's as it is.
    units = first.locator("#units article.unit h3")
    expect(units).to_have_count(2)
    expect(units.nth(0)).to_contain_text("Gothic Class Cruiser")
    expect(units.nth(1)).to_contain_text("Dauntless Class Light Cruiser")
    expect(first.locator("#fleet-meter [data-points]")).to_have_text(
        second.locator("#fleet-meter [data-points]").inner_text()
    )
    expect(first.locator("#fleet-version")).to_have_value(
        second.locator("#fleet-version").input_value()
    )

    # Made again on the refreshed roster, the edit goes through.
    open_editor(first, "Gothic Class Cruiser")
    first.get_by_role("button", name="Remove Gothic Class Cruiser").click()
    expect(units).to_have_count(1)
    expect(units.nth(0)).to_contain_text("Dauntless Class Light Cruiser")
    expect(alert).to_have_count(0)
    second.reload()
    expect(second.locator("#units article.unit")).to_have_count(1)
    second.close()


@pytest.mark.postgresql_too
def test_without_javascript_a_stale_edit_returns_to_the_refreshed_builder(
    browser, live_catalog
) -> None:
    context = browser.new_context(java_script_enabled=False)
    first, second = context.new_page(), context.new_page()
    # Each tab is brought to the front as a player switches to it (a tab behind another gets
    # no animation frames, and Playwright waits for those before it clicks: seconds a click).
    first.bring_to_front()
    url = start_imperial_skirmish(first, live_catalog.url)
    for ship in ("Lunar Class Cruiser", "Gothic Class Cruiser"):
        first.get_by_role("button", name=f"Add {ship}", exact=True).click()
    first.get_by_role("link", name="Edit Gothic Class Cruiser").click()
    second.bring_to_front()
    second.goto(url)
    second.get_by_role("link", name="Edit Lunar Class Cruiser").click()
    second.get_by_role("button", name="Remove Lunar Class Cruiser").click()
    first.bring_to_front()
    first.get_by_role("button", name="Remove Gothic Class Cruiser").click()
    expect(first.get_by_role("alert")).to_contain_text("This fleet changed in another tab.")
    expect(first.locator("#units article.unit")).to_have_count(1)
    expect(first.locator("#units article.unit h3")).to_contain_text("Gothic Class Cruiser")
    context.close()
