"""A player previews a matchup in Chromium: from a fleet they built to a finished run with its
charts and one battle's log, the page following the workers' progress; and the same without
JavaScript on a phone, the page refreshing itself.

The run's chunks are held when queued and played here, by the test, while the page waits: the
page must show the progress as it comes (tests/production/ plays them on real workers)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.liveserver import between_requests

pytestmark = pytest.mark.browser


def play_all_queued(held: list[tuple[int, int]]) -> None:
    from fleetbuilder.simulator.tasks import play_chunk

    while held:
        with between_requests():
            play_chunk(*held.pop(0))


@pytest.mark.postgresql_too
def test_preview_a_built_fleet_against_a_sample_and_read_the_results(
    page: Page, live_catalog, held_chunks, settings
) -> None:
    settings.SIM_CHUNK_BATTLES = 10
    page.goto(live_catalog.url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("patrol")
    page.get_by_role("button", name="Start building").click()
    for ship in ("Dictator Class Cruiser", "Lunar Class Cruiser"):
        count = page.locator("#units article.unit").count()
        page.get_by_role("button", name=f"Add {ship}", exact=True).click()
        expect(page.locator("#units article.unit")).to_have_count(count + 1)
    points = page.locator("#fleet-meter [data-points]").inner_text()

    page.get_by_role("link", name="Preview matchup").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Matchup preview")
    side_a, side_b = page.locator("#side-a"), page.locator("#side-b")
    expect(side_a.get_by_label("One of your fleets")).to_be_checked()
    expect(side_a.get_by_label("Your fleet", exact=True)).to_contain_text("Untitled Fleet")
    expect(side_b.get_by_label("A sample fleet")).to_be_checked()
    # A rival built to the fleet's points; the player picks Orks instead.
    expect(side_b.get_by_label("Faction")).to_have_value("archenemy")
    expect(side_b.get_by_label("Points")).to_have_value(points)
    # only the chosen source's fields show
    expect(side_b.get_by_label("Your fleet", exact=True)).to_be_hidden()
    side_b.get_by_label("Faction").select_option("orks")
    page.get_by_label("Battles").fill("30")
    page.get_by_label("Seed").fill("5")

    polls: list[str] = []
    page.on(
        "request",
        lambda r: polls.append(r.url) if r.headers.get("hx-target") == "sim-run" else None,
    )
    page.get_by_role("button", name="Run the battles").click()
    expect(page.locator("[data-run-status]")).to_contain_text("Waiting for a simulator worker")
    expect(page.get_by_role("button", name="Cancel run")).to_be_visible()
    assert len(held_chunks) == 3
    from fleetbuilder.simulator.tasks import play_chunk

    with between_requests():
        play_chunk(*held_chunks.pop(0))
    expect(page.locator("label[for=sim-progress-bar]")).to_have_text("Played 10 of 30 battles")
    play_all_queued(held_chunks)
    expect(page.locator("#sim-status")).to_have_text("Finished: 30 battles played.", timeout=10_000)
    assert len(polls) >= 2  # the page followed the run by itself
    expect(page.locator("#sim-progress-bar")).to_have_count(0)

    expect(page.get_by_role("heading", level=1)).to_contain_text("Untitled Fleet")
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        f"Orks {points}-point Fleet (sample)"
    )
    expect(page.locator("[data-seed]")).to_have_text("5")
    wins = page.locator("#stat-a-wins")
    expect(wins).to_have_text(re.compile(r"^\d{1,3}\.\d\s%$"))
    expect(page.locator("[data-verdict]")).to_be_visible()
    expect(page.get_by_role("img", name=re.compile("Wins, draws and losses"))).to_be_visible()
    expect(page.locator("#ships-a tbody tr")).to_have_count(2)  # the Dictator and the Lunar

    log = page.locator("#battle-log")
    expect(log.locator("[data-battle-outcome]")).to_contain_text("Battle 1:")
    page.evaluate("window.__sameDocument = true")
    log.get_by_role("link", name="Next battle").click()
    expect(log.locator("[data-battle-outcome]")).to_contain_text("Battle 2:")
    assert page.url.endswith("?battle=2")
    log.get_by_role("spinbutton", name="Battle").fill("17")
    log.get_by_role("button", name="Show").click()
    expect(log.locator("[data-battle-outcome]")).to_contain_text("Battle 17:")
    assert page.evaluate("window.__sameDocument") is True  # swapped in place by htmx

    # The same seed again: a new run, the same numbers.
    first_wins = wins.inner_text()
    first_url = page.url.split("?")[0]
    page.get_by_role("button", name="Run again with the same seed").click()
    expect(page.locator("[data-run-status]")).to_be_visible()
    play_all_queued(held_chunks)
    expect(page.locator("#sim-status")).to_have_text("Finished: 30 battles played.", timeout=10_000)
    assert page.url.split("?")[0] != first_url
    expect(page.locator("#stat-a-wins")).to_have_text(first_wins)


def test_without_javascript_the_page_refreshes_itself_until_the_run_ends(
    browser: Browser, live_catalog, held_chunks, settings
) -> None:
    settings.SIM_CHUNK_BATTLES = 4
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 375, "height": 800}
    )  # and on a phone
    page = context.new_page()
    page.goto(live_catalog.url + "/simulator/")
    page.locator("#side-a").get_by_label("Faction").select_option("tau-empire")
    page.locator("#side-a").get_by_label("Game size").select_option("patrol")
    page.locator("#side-b").get_by_label("Faction").select_option("necrons")
    page.locator("#side-b").get_by_label("Game size").select_option("patrol")
    page.get_by_label("Battles").fill("8")
    page.get_by_role("button", name="Run the battles").click()
    expect(page.locator("label[for=sim-progress-bar]")).to_have_text("Played 0 of 8 battles")
    from fleetbuilder.simulator.tasks import play_chunk

    with between_requests():
        play_chunk(*held_chunks.pop(0))
    expect(page.locator("label[for=sim-progress-bar]")).to_have_text(
        "Played 4 of 8 battles", timeout=10_000
    )
    play_all_queued(held_chunks)
    expect(page.locator("#sim-status")).to_have_text("Finished: 8 battles played.", timeout=10_000)
    expect(page.locator("#stat-b-wins")).to_be_visible()
    expect(page.locator("#battle-log [data-battle-outcome]")).to_contain_text("Battle 1:")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing overflows
    page.get_by_role("spinbutton", name="Battle").fill("4")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#battle-log [data-battle-outcome]")).to_contain_text("Battle 4:")
    assert page.url.endswith("?battle=4#battle-log")
    context.close()
