"""A player watches one battle of a run in Chromium: from the results page's link to the map,
stepped through with the keyboard alone (arrows, a round's digit, Home/End, Space to play and
pause), the log line of each step highlighted; a link to a step opens that step again; without
JavaScript each round is a still map. The map takes the window's width and height, follows the
ships, and moves and zooms by mouse, touch and keys; its labels never overlap; its colours read in
both themes; a phone can read it. With UPDATE_SCREENSHOTS=1 it writes
docs/img/replay.png and docs/img/replay-phone.png."""

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
SHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "img"
    if os.environ.get("UPDATE_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir())
)
IMG = SHOTS / ("replay.png" if SHOTS.name == "img" else "fleetbuilder-replay.png")
PHONE_IMG = SHOTS / ("replay-phone.png" if SHOTS.name == "img" else "fleetbuilder-replay-phone.png")


def _run(catalog, battles: int = 3, seed: int = 20261201):
    from fleetbuilder.simulator.models import Matchup
    from rules_core.sample_fleets import sample_fleet
    from rules_core.sim import SimOptions

    a = sample_fleet(catalog, "imperial-navy", "skirmish")
    b = sample_fleet(catalog, "archenemy", "skirmish")
    sources = {
        "a": {"kind": "sample", "label": f"{a.name} (sample)"},
        "b": {"kind": "sample", "label": f"{b.name} (sample)"},
    }
    return Matchup.start(
        fleet_a=a,
        fleet_b=b,
        sources=sources,
        options=SimOptions(terrain="section13"),
        seed=seed,
        battles=battles,
        owner=None,
        owner_token="someone-else",
    )


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
    page.set_viewport_size({"width": 1366, "height": 900})

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
    expect(page.get_by_role("button", name="2", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
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
    shot = next(
        i
        for i, s in enumerate(steps)
        if s["r"] >= 3 and any(v[2] == "volley" and v[4] for v in s.get("volleys", []))
    )
    page.goto("about:blank")
    page.goto(f"{base}#step-{shot + 1}")
    expect(current).to_have_attribute("data-step", str(shot))
    page.locator(".replay__controls").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.querySelector('.replay').offsetTop - 8)")
    page.wait_for_timeout(400)  # the map's move to the action
    page.screenshot(path=str(IMG))
    assert problems == []


def test_without_javascript_the_rounds_are_still_maps(browser: Browser, live_catalog) -> None:
    from fleetbuilder.catalog import loader

    run = _run(loader.core_catalog(), battles=1, seed=3)
    context = browser.new_context(java_script_enabled=False, viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.goto(f"{live_catalog.url}/simulator/m/{run.public_id}/battles/1/")
    expect(page.locator("[data-replay]")).to_be_hidden()
    page.locator(".replay-round").nth(1).screenshot(
        path=str(Path(tempfile.gettempdir()) / "fleetbuilder-replay-still.png")
    )
    rounds = page.locator(".replay-round")
    steps = _steps(f"{live_catalog.url}/simulator/m/{run.public_id}/battles/1/replay.json")
    expect(rounds).to_have_count(len({s["r"] for s in steps}))
    expect(rounds.first.get_by_role("heading")).to_have_text("Set-up")
    expect(rounds.nth(1).get_by_role("img", name="Round 1: the table as it ends")).to_be_visible()
    context.close()


# ---- The map a player watches.


def _contrast(page: Page, fg: str, bg: str) -> float:
    """WCAG contrast of two computed CSS colours ("rgb(…)")."""
    return page.evaluate(
        """([fg, bg]) => {
      const lum = c => {
        const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => {
          v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    }""",
        [fg, bg],
    )


def _style(page: Page, selector: str, prop: str) -> str:
    return page.evaluate(
        "([s, p]) => getComputedStyle(document.querySelector(s))[p]", [selector, prop]
    )


def _view_box(page: Page) -> list[float]:
    return [float(v) for v in page.locator(".replay .rmap").get_attribute("viewBox").split()]


def _settled_view_box(page: Page) -> list[float]:
    """The viewBox once the map has stopped moving (a follow glides for about 0.3 s)."""
    before = None
    for _ in range(40):
        now = _view_box(page)
        if now == before:
            return now
        before = now
        page.wait_for_timeout(120)
    return before


def _labels(page: Page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('.replay .rmap__labels text')]
      .map(t => { const r = t.getBoundingClientRect();
        return {text: t.textContent, cls: t.getAttribute('class'), x0: r.left, y0: r.top,
                x1: r.right, y1: r.bottom}; })""")


def _overlaps(labels: list[dict]) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            if (
                a["x0"] < b["x1"] - 0.5
                and b["x0"] < a["x1"] - 0.5
                and a["y0"] < b["y1"] - 0.5
                and b["y0"] < a["y1"] - 0.5
            ):
                out.append((a["text"], b["text"]))
    return out


def _open_replay(page: Page, live_catalog, run, step: int | None = None) -> tuple[str, list]:
    base = f"{live_catalog.url}/simulator/m/{run.public_id}/battles/2/"
    steps = _steps(base + "replay.json")
    page.goto(base + (f"#step-{step + 1}" if step is not None else ""))
    expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "")
    return base, steps


def _shot_step(steps: list[dict]) -> int:
    return next(
        i
        for i, s in enumerate(steps)
        if s["r"] >= 3 and any(v[2] == "volley" and v[4] for v in s.get("volleys", []))
    )


def test_the_map_fills_the_window_follows_the_ships_and_moves_by_mouse_and_keys(
    page: Page, live_catalog
) -> None:
    from fleetbuilder.catalog import loader

    run = _run(loader.core_catalog())
    page.set_viewport_size({"width": 1366, "height": 900})
    base, steps = _open_replay(page, live_catalog, run)
    width, depth = json.loads(urllib.request.urlopen(base + "replay.json").read())["table"]
    shot = _shot_step(steps)
    page.goto("about:blank")
    _open_replay(page, live_catalog, run, step=shot)
    expect(page.locator("[data-log] [aria-current]")).to_have_attribute("data-step", str(shot))
    view = page.locator("[data-view]")
    box = view.bounding_box()
    # Was 664 × 448 at 1366 wide: now the width the log leaves, and the window's height.
    assert box["width"] >= 880, box
    assert 600 <= box["height"] <= 900, box
    # Following the action: the table's empty edges are left out and the ships are bigger.
    vb = _settled_view_box(page)
    assert vb[2] < width * 0.9 or vb[3] < depth * 0.9, vb
    expect(page.get_by_role("button", name="Follow")).to_have_attribute("aria-pressed", "true")
    hull = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
        '.replay [data-ship]:not([display=none]) .rship__hull')].map(
        h => h.getBoundingClientRect().width))""")
    assert hull >= 14, hull

    # The wheel zooms in where the pointer is, and the map stops following.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)
    zoomed = _settled_view_box(page)
    assert zoomed[2] < vb[2] * 0.8, (vb, zoomed)
    expect(page.get_by_role("button", name="Follow")).to_have_attribute("aria-pressed", "false")
    # A drag moves it; the step stays.
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2 + 60, steps=6)
    page.mouse.up()
    dragged = _view_box(page)
    assert dragged[0] < zoomed[0] - 1 and dragged[1] < zoomed[1] - 1, (zoomed, dragged)
    assert dragged[2] == pytest.approx(zoomed[2], rel=1e-3)
    expect(page.locator("[data-log] [aria-current]")).to_have_attribute("data-step", str(shot))

    # Keys, with the map focused: arrows move it and +/- zoom, not step or change speed.
    view.focus()
    page.keyboard.press("ArrowRight")
    moved = _view_box(page)
    assert moved[0] > dragged[0] + 1, (dragged, moved)
    page.keyboard.press("-")
    out = _view_box(page)
    assert out[2] > moved[2] * 1.2, (moved, out)
    expect(page.locator("[data-log] [aria-current]")).to_have_attribute("data-step", str(shot))
    expect(page.locator("[data-speed]")).to_have_value("600")
    page.keyboard.press("w")  # the whole table
    whole = _settled_view_box(page)
    assert whole[2] >= width and whole[3] >= depth, whole
    page.keyboard.press("f")  # follow the ships again
    expect(page.get_by_role("button", name="Follow")).to_have_attribute("aria-pressed", "true")
    assert _settled_view_box(page) == pytest.approx(vb, abs=0.5)
    # The buttons do the same.
    page.get_by_role("button", name="Zoom in").click()
    assert _view_box(page)[2] < vb[2] * 0.8
    page.get_by_role("button", name="Whole table").click()
    assert _settled_view_box(page)[2] >= width
    # Zoomed out as far as it goes, the wheel scrolls the page instead.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(3):
        page.mouse.wheel(0, 400)
    page.wait_for_timeout(300)
    farthest = _view_box(page)
    top = page.evaluate("window.scrollY")
    page.mouse.wheel(0, 400)
    page.wait_for_function("top => window.scrollY > top", arg=top)
    assert _view_box(page) == farthest


def test_labels_never_overlap_and_a_ship_is_named_on_hover_and_focus(
    page: Page, live_catalog
) -> None:
    from fleetbuilder.catalog import loader

    run = _run(loader.core_catalog())
    page.set_viewport_size({"width": 1366, "height": 900})
    base, steps = _open_replay(page, live_catalog, run)
    data = json.loads(urllib.request.urlopen(base + "replay.json").read())
    # Set-up, the whole table: every terrain piece is named on the map.
    page.keyboard.press("w")
    _settled_view_box(page)
    labels = _labels(page)
    terrain = {t[4] for t in data["steps"][0]["terrain"]}
    assert terrain and terrain <= {x["text"] for x in labels if "terrain" in x["cls"]}, labels
    for step in (0, _shot_step(steps), len(steps) - 1):
        page.goto("about:blank")
        page.goto(f"{base}#step-{step + 1}")
        expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "")
        _settled_view_box(page)
        labels = _labels(page)
        tags = [x for x in labels if "tag" in x["cls"]]
        assert tags, labels
        assert _overlaps(labels) == [], step
        assert min(x["y1"] - x["y0"] for x in tags) >= 11  # was about 7 px

    # Every ship is in the list, with its tag, name and state.
    entries = page.locator("[data-ship-ref]")
    expect(entries).to_have_count(len(data["ships"]))
    expect(entries.first).to_contain_text("A1")
    expect(entries.first).to_contain_text(data["ships"][0]["label"])

    # Pointing at a ship on the map names it there; so does focusing its entry in the list.
    page.goto("about:blank")
    _open_replay(page, live_catalog, run, step=_shot_step(steps))
    _settled_view_box(page)
    g = page.locator(".replay [data-ship]:not([display=none])").first
    index = int(g.get_attribute("data-ship"))
    name = data["ships"][index]["label"]
    g.locator(".rship__hull").hover(force=True)
    expect(page.locator(".rmap__labels .rlabel--name")).to_contain_text(name)
    expect(g).to_have_class(re.compile("rship--marked"))
    page.mouse.move(2, 2)
    expect(page.locator(".rmap__labels .rlabel--name")).to_have_count(0)
    page.locator(f'[data-ship-ref="{index}"]').focus()
    expect(page.locator(".rmap__labels .rlabel--name")).to_contain_text(name)
    assert _overlaps(_labels(page)) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_sides_terrain_and_highlights_read_in_both_themes(
    browser: Browser, live_catalog, scheme: str
) -> None:
    from fleetbuilder.catalog import loader
    from tests.browser.test_axe_browser import axe_context, violations

    run = _run(loader.core_catalog())
    context = axe_context(browser, color_scheme=scheme, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    base, steps = _open_replay(page, live_catalog, run)
    page.goto("about:blank")
    page.goto(f"{base}#step-{_shot_step(steps) + 1}")
    expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "")
    _settled_view_box(page)
    table = _style(page, ".replay .rmap__table", "fill")
    for side in "ab":
        hull = _style(page, f".replay .rship--{side} .rship__hull", "fill")
        assert _contrast(page, hull, table) >= 4.5, (scheme, side, hull, table)
        tag = _style(page, f".replay .rlabel--tag.rlabel--{side}", "fill")
        assert _contrast(page, tag, table) >= 4.5, (scheme, side, tag, table)
        swatch = _style(page, f".swatch--rmap-{side}", "backgroundColor")
        assert swatch == hull  # the legend shows the map's colour
        assert _contrast(page, swatch, _style(page, "body", "backgroundColor")) >= 3
    page.keyboard.press("w")
    _settled_view_box(page)
    terrain = _style(page, ".replay .rlabel--terrain", "fill")
    assert _contrast(page, terrain, table) >= 4.5, (scheme, terrain, table)

    # The current round is a filled button, not a ring like the keyboard's focus.
    page.locator("body").click(position={"x": 5, "y": 5})
    pressed = '.replay__rounds [aria-pressed="true"]'
    assert _style(page, pressed, "outlineStyle") == "none"
    assert _style(page, pressed, "backgroundColor") == _style(
        page, ".button:not(.button--ghost)", "backgroundColor"
    )
    # The highlighted log step reads at 4.5:1 (dark mode was 1.95:1).
    step = "[data-log] [aria-current]"
    bg = _style(page, step, "backgroundColor")
    assert _contrast(page, _style(page, step, "color"), bg) >= 4.5
    assert _contrast(page, _style(page, step + " .sim-event__phase", "color"), bg) >= 4.5
    found = violations(page)
    assert found == [], "\n".join(found)
    page.screenshot(path=str(Path(tempfile.gettempdir()) / f"fleetbuilder-replay-{scheme}.png"))
    context.close()


def test_a_phone_reads_the_map_the_log_and_the_ships(browser: Browser, live_catalog) -> None:
    from fleetbuilder.catalog import loader
    from tests.browser.test_axe_browser import axe_context, violations

    run = _run(loader.core_catalog())
    context = axe_context(
        browser,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
        color_scheme="dark",
    )
    page = context.new_page()
    base, steps = _open_replay(page, live_catalog, run)
    page.goto("about:blank")
    page.goto(f"{base}#step-{_shot_step(steps) + 1}")
    expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "")
    vb = _settled_view_box(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    view = page.locator("[data-view]").bounding_box()
    assert view["width"] >= 350 and 300 <= view["height"] <= 600, view
    tags = [x for x in _labels(page) if "tag" in x["cls"]]
    assert tags and min(x["y1"] - x["y0"] for x in tags) >= 11
    # Every piece of terrain on the phone's map is named, crowded as it is.
    named = [x["text"] for x in _labels(page) if "terrain" in x["cls"]]
    on_map = page.evaluate("""() => { const v = document.querySelector('[data-view]')
        .getBoundingClientRect();
      return [...document.querySelectorAll('.replay .terrain')].filter(c => {
        const r = c.getBoundingClientRect(), x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
        return x > v.left && x < v.right && y > v.top && y < v.bottom; }).length; }""")
    assert len(named) == on_map, (named, on_map)
    assert _overlaps(_labels(page)) == []
    hulls = page.evaluate("""() => [...document.querySelectorAll(
        '.replay [data-ship]:not([display=none]) .rship__hull')].map(
        h => h.getBoundingClientRect().width)""")
    assert min(hulls) >= 7, hulls
    assert float(_style(page, "[data-log] .sim-event__text", "fontSize")[:-2]) >= 14
    # The log is under the map on a phone: the step's line is read right under the map too.
    expect(page.locator("[data-now]")).to_have_text(steps[_shot_step(steps)]["t"])
    expect(page.locator("[data-now]")).to_be_visible()
    under = page.locator("[data-now]").bounding_box()
    assert 0 <= under["y"] - (view["y"] + view["height"]) <= 12, (view, under)
    assert (
        _contrast(
            page, _style(page, "[data-now]", "color"), _style(page, "[data-now]", "backgroundColor")
        )
        >= 4.5
    )
    expect(page.locator("[data-ship-ref]").first).to_be_visible()
    found = violations(page)
    assert found == [], "\n".join(found)

    # Two fingers spread apart zoom the map in.
    page.locator("[data-view]").scroll_into_view_if_needed()
    view = page.locator("[data-view]").bounding_box()
    cdp = context.new_cdp_session(page)
    cx, cy = view["x"] + view["width"] / 2, view["y"] + view["height"] / 2

    def touch(kind: str, spread: float) -> None:
        points = (
            []
            if kind == "touchEnd"
            else [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
        )
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 30)
    for spread in (45, 60, 75, 90):
        touch("touchMove", spread)
    touch("touchEnd", 0)
    pinched = _view_box(page)
    assert pinched[2] < vb[2] * 0.6, (vb, pinched)
    # One finger drags it.
    cdp.send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": cx, "y": cy, "id": 3}]},
    )
    for k in range(1, 6):
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchMove", "touchPoints": [{"x": cx + 20 * k, "y": cy, "id": 3}]},
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert _view_box(page)[0] < pinched[0] - 1

    # A click, not a tap: Chromium's touch emulation makes no click of a tap after a CDP pinch.
    page.get_by_role("button", name="Follow").click()
    expect(page.get_by_role("button", name="Follow")).to_have_attribute("aria-pressed", "true")
    assert _settled_view_box(page) == pytest.approx(vb, abs=0.5)
    page.evaluate("window.scrollTo(0, document.querySelector('.replay').offsetTop - 4)")
    page.wait_for_timeout(300)
    page.screenshot(path=str(PHONE_IMG))
    context.close()
