"""axe-core finds no accessibility violation on any page a player reaches: the
builder with a fleet that has problems and an open unit editor, the catalogue, sharing, print
options, the simulator's form and a results page, gunnery, balance and the account pages.

axe-core comes from the npm registry (tests/package.json, installed by scripts/test). It is
injected from disk with Playwright's add_script_tag; only these tests' browser contexts bypass
the Content-Security-Policy to let it in (the pages themselves keep theirs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.support.liveserver import between_requests

pytestmark = [pytest.mark.browser, pytest.mark.markup_only]

AXE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"
PASSWORD = "Ironclad-Lunar-1138"


def axe_context(browser: Browser, **kwargs) -> BrowserContext:
    if not AXE.exists():
        pytest.fail(f"axe-core not found at {AXE}: run scripts/test (npm ci in tests/)")
    return browser.new_context(bypass_csp=True, **kwargs)


def violations(page: Page) -> list[str]:
    """axe's violations on the page as it stands, one line per rule with its nodes."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(" ") + " :: " + n.failureSummary
                                        .replace(/\\s+/g, " ").slice(0, 300))}));
    }""")
    return [
        f"{page.url} [{v['id']}] ({v['impact']}) {v['help']}\n    " + "\n    ".join(v["nodes"])
        for v in found
    ]


class Walk:
    """Visits pages and gathers every violation, so that one run reports them all."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def check(self, page: Page) -> None:
        page.wait_for_load_state("networkidle")
        self.found += violations(page)

    def assert_clean(self) -> None:
        assert not self.found, "axe-core violations:\n" + "\n".join(self.found)


def build_fleet_with_problems(page: Page, base: str) -> None:
    page.goto(base + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("skirmish")
    page.get_by_role("button", name="Start building").click()
    # On a phone the ship list is one side of a switch, shown by builder.js.
    page.wait_for_load_state("load")
    switch = page.locator("#builder-switch")
    if switch.is_visible():
        switch.get_by_role("button", name="Add ships").click()
    for n, ship in enumerate(("Lunar Class Cruiser", "Sword Frigate"), start=1):
        page.get_by_role("button", name=f"Add {ship}", exact=True).click()
        expect(page.locator("#unit-list article")).to_have_count(n)
    if switch.is_visible():
        switch.get_by_role("button", name="Roster").click()
    # Under the band and a squadron of one: the problems panel lists them.
    expect(page.locator("#fleet-problems li")).not_to_have_count(0)


def test_builder_share_and_print_pages_have_no_axe_violations(
    browser: Browser, live_catalog
) -> None:
    base = live_catalog.url
    walk = Walk()
    context = axe_context(browser)
    page = context.new_page()

    page.goto(base + "/fleets/new/")
    walk.check(page)
    build_fleet_with_problems(page, base)
    walk.check(page)
    page.locator("#unit-0-edit").click()
    expect(page.locator("#unit-0")).to_have_class("unit unit--ship unit--flagship unit--open")
    page.locator("#unit-1-edit").click()
    expect(page.locator("#unit-1 .unit__editor")).to_be_visible()
    walk.check(page)
    builder_url = page.url

    page.get_by_role("link", name="Share", exact=True).click()
    page.get_by_role("button", name="Make a link").click()
    link = page.locator("#share-url")
    expect(link).not_to_have_value("")
    walk.check(page)
    share_url = link.input_value()
    code_url = page.locator("#code-url").input_value()

    page.goto(builder_url)
    page.get_by_role("link", name="Print cards").click()
    walk.check(page)
    page.goto(builder_url)
    page.get_by_role("button", name="Duplicate").click()  # a green message on the copy
    expect(page.locator(".message--success")).to_be_visible()
    walk.check(page)
    page.goto(base + "/fleets/import/")
    walk.check(page)
    page.goto(base + "/fleets/")
    walk.check(page)

    visitor = axe_context(browser).new_page()
    visitor.goto(share_url)
    walk.check(visitor)
    visitor.goto(code_url)
    walk.check(visitor)
    visitor.context.close()
    context.close()
    walk.assert_clean()


def test_catalogue_gunnery_balance_and_account_pages_have_no_axe_violations(
    browser: Browser, live_catalog
) -> None:
    base = live_catalog.url
    walk = Walk()
    context = axe_context(browser)
    page = context.new_page()
    for path in (
        "/",
        "/ships/",
        "/ships/imperial-navy/",
        "/ships/imperial-navy/lunar-class-cruiser/",
        "/rules/",
        "/gunnery/",
        "/balance/",
        "/editions/",
        "/editions/6/",
        "/editions/1/",
        "/editions/5/?against=nothing",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/this-page-is-not-here/",
    ):
        page.goto(base + path)
        walk.check(page)

    page.goto(base + "/accounts/signup/")
    page.get_by_label("Username").fill("axe_admiral")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    for path in ("/accounts/", "/accounts/password/", "/fleets/", "/fleets/trash/"):
        page.goto(base + path)
        walk.check(page)
    context.close()
    walk.assert_clean()


def test_simulator_form_and_results_have_no_axe_violations(
    browser: Browser, live_catalog, held_chunks, settings
) -> None:
    from fleetbuilder.simulator.tasks import play_chunk

    settings.SIM_CHUNK_BATTLES = 10
    walk = Walk()
    context = axe_context(browser)
    page = context.new_page()
    page.goto(live_catalog.url + "/simulator/")
    walk.check(page)
    page.locator("#side-a").get_by_label("Faction").select_option("tau-empire")
    page.locator("#side-a").get_by_label("Game size").select_option("patrol")
    page.locator("#side-b").get_by_label("Faction").select_option("necrons")
    page.locator("#side-b").get_by_label("Game size").select_option("patrol")
    page.get_by_label("Battles").fill("10")
    page.get_by_role("button", name="Run the battles").click()
    expect(page.locator("[data-run-status]")).to_be_visible()
    walk.check(page)  # waiting for a worker
    while held_chunks:
        with between_requests():
            play_chunk(*held_chunks.pop(0))
    expect(page.locator("#sim-status")).to_have_text("Finished: 10 battles played.", timeout=10_000)
    walk.check(page)
    context.close()
    walk.assert_clean()


def test_axe_sees_a_violation_when_there_is_one(browser: Browser, live_catalog) -> None:
    """The check can fail: an image without a text alternative is reported."""
    context = axe_context(browser)
    page = context.new_page()
    page.goto(live_catalog.url + "/gunnery/")
    page.evaluate(
        "document.querySelector('main').insertAdjacentHTML('beforeend',"
        " '<img src=\"/static/none.png\">')"
    )
    found = violations(page)
    assert any("[image-alt]" in line for line in found), json.dumps(found)
    context.close()


def test_the_dark_scheme_on_a_phone_has_no_axe_violations(browser: Browser, live_catalog) -> None:
    """The same checks in the dark colour scheme, 375 px wide: the builder, a ship, gunnery."""
    base = live_catalog.url
    walk = Walk()
    context = axe_context(browser, color_scheme="dark", viewport={"width": 375, "height": 800})
    page = context.new_page()
    build_fleet_with_problems(page, base)
    page.locator("#unit-0-edit").click()
    expect(page.locator("#unit-0 .unit__editor")).to_be_visible()
    walk.check(page)
    page.get_by_text("Menu", exact=True).click()  # the navigation's menu, open
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    walk.check(page)
    for path in (
        "/",
        "/ships/imperial-navy/lunar-class-cruiser/",
        "/gunnery/",
        "/rules/",
        "/editions/",
        "/editions/6/",
    ):
        page.goto(base + path)
        walk.check(page)
    context.close()
    walk.assert_clean()
