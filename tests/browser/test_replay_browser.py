"""A player watches one battle of a run in Chromium: from the results page's link to the map,
stepped through with the keyboard alone (arrows, a round's digit, Home/End, Space to play and
pause), the log line of each step highlighted; a link to a step opens that step again; without
JavaScript each round is a still map. With UPDATE_SCREENSHOTS=1 it writes docs/img/replay.png."""

from __future__ import annotations

import json
import os
import re
import tempfile
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

# The screenshot goes to docs/img only when asked (UPDATE_SCREENSHOTS=1), so a test run leaves
# the work tree as it found it.
IMG = (Path(__file__).resolve().parents[2] / "docs" / "img" / "replay.png"
       if os.environ.get("UPDATE_SCREENSHOTS") == "1"
       else Path(tempfile.gettempdir()) / "fleetbuilder-replay.png")


def _run(catalog, battles: int = 3, seed: int = 20261201):
    from fleetbuilder.simulator.models import Matchup
    from rules_core.sample_fleets import sample_fleet
    from rules_core.sim import SimOptions

    a = sample_fleet(catalog, "imperial-navy", "skirmish")
    b = sample_fleet(catalog, "archenemy", "skirmish")
    sources = {"a": {"kind": "sample", "label": f"{a.name} (sample)"},
               "b": {"kind": "sample", "label": f"{b.name} (sample)"}}
    return Matchup.start(fleet_a=a, fleet_b=b, sources=sources,
                         options=SimOptions(terrain="section13"), seed=seed, battles=battles,
                         owner=None, owner_token="someone-else")


def _steps(url: str) -> list[dict]:
    with urllib.request.urlopen(url) as response:
        return json.load(response)["steps"]


def _map_state(page: Page) -> list[list[str | None]]:
    """What the map shows of each ship on the table (place, turn, class, hull bar, title), and
    of the markers, ordnance, terrain and shots."""
    return page.evaluate("""() => {
      const svg = document.querySelector('.replay .rmap');
      const ships = [...svg.querySelectorAll('[data-ship]')]
        .filter(g => g.getAttribute('display') !== 'none')
        .map(g => [g.dataset.ship, g.getAttribute('transform'), g.getAttribute('class'),
                   g.querySelector('.rship__body').getAttribute('transform'),
                   String(parseFloat(g.querySelector('.rship__hullbar').getAttribute('width'))),
                   g.querySelector('title').textContent]);
      const layers = ['markers', 'ordnance', 'terrain', 'volleys']
        .map(n => [n, svg.querySelector(`[data-layer=${n}]`).children.length]);
      return [...ships, ...layers];
    }""")


def test_step_through_a_battle_with_the_keyboard(page: Page, live_catalog) -> None:
    from fleetbuilder.catalog import loader

    run = _run(loader.core_catalog())
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.set_viewport_size({"width": 1280, "height": 900})

    page.goto(f"{live_catalog.url}/simulator/m/{run.public_id}/?battle=2")
    page.get_by_role("link", name="Watch battle 2 on the map").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Battle 2:")
    base = f"{live_catalog.url}/simulator/m/{run.public_id}/battles/2/"
    steps = _steps(base + "replay.json")
    n = len(steps)

    player = page.locator("[data-replay]")
    expect(player).to_have_attribute("data-ready", "")
    expect(page.locator("[data-replay-rounds]")).to_be_hidden()  # the stills are for no-JS
    where = page.locator("[data-where]")
    current = page.locator("[data-log] [aria-current=step]")
    expect(where).to_have_text(f"set-up · step 1 of {n}")
    expect(current).to_have_text(re.compile(re.escape(steps[0]["t"])))

    page.locator("body").click(position={"x": 5, "y": 5})  # focus on the page, not a control
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(where).to_contain_text(f"step 4 of {n}")
    expect(current).to_have_attribute("data-step", "3")
    expect(current).to_contain_text(steps[3]["t"])
    page.keyboard.press("ArrowLeft")
    expect(current).to_have_attribute("data-step", "2")

    first_ship = page.locator('.replay [data-ship="0"]')
    at_start = first_ship.get_attribute("transform")
    page.keyboard.press("2")  # the start of round 2
    round_2 = next(i for i, s in enumerate(steps) if s["r"] == 2)
    expect(current).to_have_attribute("data-step", str(round_2))
    expect(where).to_contain_text(f"Round 2 · {steps[round_2]['p']}")
    expect(page.get_by_role("button", name="2", exact=True)).to_have_attribute("aria-pressed",
                                                                                "true")
    assert first_ship.get_attribute("transform") != at_start  # the fleet has moved since set-up
    page.keyboard.press("End")
    expect(where).to_contain_text(f"step {n} of {n}")
    expect(current).to_contain_text(steps[-1]["t"])
    expect(current).to_contain_text("After")  # the result line
    page.keyboard.press("Home")
    expect(current).to_have_attribute("data-step", "0")
    expect(first_ship).to_have_attribute("transform", at_start)

    # Space plays, at the fastest speed; Space again pauses, and the step stays.
    page.keyboard.press("+")
    page.keyboard.press("+")
    page.keyboard.press("Space")
    expect(page.locator('[data-act="play"]')).to_have_text("Pause")
    expect(where).not_to_contain_text(f"step 1 of {n}")
    expect(where).not_to_contain_text(re.compile(r"step [1-5] of"))
    page.keyboard.press("Space")
    expect(page.locator('[data-act="play"]')).to_have_text("Play")
    paused_at = where.text_content()
    page.wait_for_timeout(400)
    assert where.text_content() == paused_at

    # The address names the step: opening it again shows the same step and the same map.
    page.keyboard.press("3")
    page.keyboard.press("ArrowRight")
    step = int(current.get_attribute("data-step"))
    assert page.url.endswith(f"#step-{step + 1}")
    ships = _map_state(page)
    page.goto("about:blank")
    page.goto(f"{base}#step-{step + 1}")
    expect(current).to_have_attribute("data-step", str(step))
    assert _map_state(page) == ships

    # The picture for the README: a step of round 3 with shots on the map.
    shot = next(i for i, s in enumerate(steps) if s["r"] >= 3 and any(
        v[2] == "volley" and v[4] for v in s.get("volleys", [])))
    page.goto("about:blank")
    page.goto(f"{base}#step-{shot + 1}")
    expect(current).to_have_attribute("data-step", str(shot))
    page.locator("main").screenshot(path=str(IMG))
    assert problems == []


def test_without_javascript_the_rounds_are_still_maps(browser: Browser, live_catalog
                                                      ) -> None:
    from fleetbuilder.catalog import loader

    run = _run(loader.core_catalog(), battles=1, seed=3)
    context = browser.new_context(java_script_enabled=False, viewport={"width": 375,
                                                                       "height": 800})
    page = context.new_page()
    page.goto(f"{live_catalog.url}/simulator/m/{run.public_id}/battles/1/")
    expect(page.locator("[data-replay]")).to_be_hidden()
    rounds = page.locator(".replay-round")
    steps = _steps(f"{live_catalog.url}/simulator/m/{run.public_id}/battles/1/replay.json")
    expect(rounds).to_have_count(len({s["r"] for s in steps}))
    expect(rounds.first.get_by_role("heading")).to_have_text("Set-up")
    expect(rounds.nth(1).get_by_role("img", name="Round 1: the table as it ends")).to_be_visible()
    context.close()
