"""The builder's lean answers in Chromium: on a 40-unit fleet the two edits that
answered the most, a drag to the top (every squadron after it is numbered again) and a
squadron-wide refit ticked in an open editor (every escort's boxes), answer in under 12 KB and
leave the page as a reload draws it; "Move to", left out of rows sent to htmx, is listed from
the roster on the page; a squadron of four alike escorts, sent as one and marks, opens with
every escort drawn and posting for itself."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, Response, expect

pytestmark = pytest.mark.browser


def answer_size(response: Response) -> int:
    """An answer's body and its HX-* headers (the events it carries), as bench_builder counts."""
    return len(response.body()) + sum(
        len(k) + len(v) for k, v in response.headers.items() if k.lower().startswith("hx-")
    )


def big_fleet(page: Page, url: str) -> tuple[Any, list[dict[str, Any]]]:
    """A 40-unit Armada fleet of the benchmark (bench.armada_fleet_of), opened in the builder."""
    from fleetbuilder.catalog.loader import core_catalog
    from fleetbuilder.fleets.bench import armada_fleet_of
    from fleetbuilder.fleets.models import Fleet

    page.goto(url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option("armada")
    page.get_by_role("button", name="Start building").click()
    page.wait_for_url("**/fleets/*/")
    fleet = Fleet.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    catalog = core_catalog()
    units = armada_fleet_of(catalog, 40)
    fleet.document = {**fleet.document, "units": units}
    fleet.store(fleet.to_core(), catalog)
    fleet.save()
    page.reload()
    expect(page.locator("#unit-list > article")).to_have_count(40)
    return fleet, units


def roster(page: Page) -> list[tuple[str, str, str]]:
    """Each row as the page shows it: its id, its title, and where its Move up posts."""
    return page.eval_on_selector_all(
        "#unit-list > article",
        """rows => rows.map(row => [
        row.id, row.querySelector("h3").innerText,
        row.querySelector("form.unit__order").getAttribute("hx-post")])""",
    )


def test_a_drag_to_the_top_and_a_squadron_wide_refit_answer_under_12_kb(
    page: Page, live_catalog
) -> None:
    page.set_viewport_size({"width": 1280, "height": 7000})  # all 40 rows on the screen
    fleet, units = big_fleet(page, live_catalog.url)
    squadrons = [i for i, u in enumerate(units) if u["kind"] == "squadron"]
    last = squadrons[-1]
    before = [title for _, title, _ in roster(page)]

    # Drag the last squadron by its handle to the top.
    handle = page.locator(f"#unit-{last}-handle").bounding_box()
    top = page.locator("#unit-0").bounding_box()
    assert handle and top
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    with page.expect_response(lambda r: r.url.endswith(f"/units/{last}/reorder/")) as moved:
        page.mouse.move(top["x"] + 40, top["y"] + top["height"] * 0.3, steps=10)
        page.mouse.up()
    assert answer_size(moved.value) < 12 * 1024
    expect(page.locator("#builder-announce")).to_contain_text(
        f"Moved Squadron 1 to place 1 of {len(units)}"
    )
    # Where it was dropped, with the squadrons numbered again, every row posting to its place.
    expect(page.locator("#unit-0-title")).to_contain_text("Squadron 1 3×")
    shown = roster(page)
    assert [row_id for row_id, _, _ in shown] == [f"unit-{i}" for i in range(len(units))]
    assert [post for _, _, post in shown] == [
        f"/fleets/{fleet.pk}/units/{i}/reorder/" for i in range(len(units))
    ]
    titles = [title for _, title, _ in shown]
    assert titles[1:] == [
        re.sub(r"Squadron (\d+)", lambda m: f"Squadron {int(m[1]) + 1}", t)
        for t in before[:last] + before[last + 1 :]
    ]
    assert re.findall(r"Squadron \d+", " ".join(titles)) == [
        f"Squadron {n}" for n in range(1, len(squadrons) + 1)
    ]
    page.reload()
    assert [title for _, title, _ in roster(page)] == titles

    # A squadron-wide refit, ticked in the moved squadron's open editor: on every escort.
    page.locator("#unit-0-edit").click()
    expect(page.locator("#unit-0")).to_have_class(re.compile(r"\bunit--open\b"))
    wide = page.locator("#unit-0-wide input[type=checkbox]:not([disabled])").first
    slug = wide.get_attribute("value")
    with page.expect_response(lambda r: r.url.endswith("/units/0/upgrades/")) as ticked:
        wide.check()
    assert answer_size(ticked.value) < 12 * 1024
    escorts = len(units[last]["ships"])
    for j in range(escorts):
        expect(page.locator(f"#unit-0-ship-{j}-up-{slug}")).to_be_checked()
    expect(wide).to_be_checked()
    expect(page.locator("#unit-0 .chips")).to_contain_text(f"×{escorts}")
    expect(page.locator("#builder-announce")).to_contain_text("every escort of Squadron 1")
    fleet.refresh_from_db()
    assert all(slug in ship["upgrades"] for ship in fleet.document["units"][0]["ships"])
    # The other rows were left alone, and a reload draws the same.
    shown = [title for _, title, _ in roster(page)]
    assert shown[1:] == titles[1:]
    page.goto(f"{live_catalog.url}/fleets/{fleet.pk}/?edit=0")
    for j in range(escorts):
        expect(page.locator(f"#unit-0-ship-{j}-up-{slug}")).to_be_checked()
    assert [title for _, title, _ in roster(page)] == shown


def test_move_to_offers_the_squadrons_on_the_page_and_moves_the_escort(
    page: Page, live_catalog
) -> None:
    # An editor opened with htmx comes without the squadrons to move to (its answer would grow
    # with the fleet): the page lists them from its roster, numbered as it shows them.
    page.goto(live_catalog.url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_role("button", name="Start building").click()
    rows = page.locator("#unit-list article")
    for n, ship in enumerate(("Sword Frigate", "Lunar Class Cruiser", "Cobra Destroyer"), 1):
        page.get_by_role("button", name=f"Add {ship}", exact=True).click()
        expect(rows).to_have_count(n)
    page.locator("#unit-0-plus").click()
    expect(page.locator("#unit-0-title")).to_contain_text("2× Sword Frigate")
    page.locator("#unit-0-edit").click()
    move_to = page.locator("#unit-0-ship-1-to")
    expect(move_to.locator("option")).to_have_text(["Squadron 2", "A new squadron"])
    # Moved up, the Cobras' squadron is Squadron 1 now: the list follows.
    page.locator("#unit-2-up").click()
    # One edit at a time: a click while the first is on its way is dropped (hx-sync).
    expect(page.locator("#unit-1-title")).to_contain_text("Squadron 2 1× Cobra Destroyer")
    page.locator("#unit-1-up").click()
    expect(page.locator("#unit-0-title")).to_contain_text("Squadron 1 1× Cobra Destroyer")
    move_to = page.locator("#unit-1-ship-1-to")
    expect(move_to.locator("option")).to_have_text(["Squadron 1", "A new squadron"])
    move_to.select_option(label="Squadron 1")
    page.locator("#unit-1-ship-1-move").click()
    expect(page.locator("#unit-0-title")).to_contain_text(
        "Squadron 1 1× Cobra Destroyer, 1× Sword Frigate"
    )
    expect(page.locator("#unit-1-title")).to_contain_text("Squadron 2 1× Sword Frigate")
    page.reload()
    expect(page.locator("#unit-0-title")).to_contain_text(
        "Squadron 1 1× Cobra Destroyer, 1× Sword Frigate"
    )


def test_opening_a_squadron_of_four_alike_escorts_draws_each_and_each_posts_for_itself(
    page: Page, live_catalog
) -> None:
    # The answer sends the first escort and a mark for each alike (pieces.mark_copies); the
    # page draws them all, each box and button posting for its own escort.
    from fleetbuilder.catalog.loader import core_catalog
    from fleetbuilder.fleets.models import Fleet
    from rules_core.validator import SQUADRON_MAX

    catalog = core_catalog()

    def escort_options(faction: Any) -> int:
        return sum(
            1
            for u in (*faction.upgrades, *catalog.refits)
            if any(c.value == "escort" for c in u.classes)
        )

    faction = max(
        (f for f in catalog.factions if any(s.is_escort for s in f.ships)), key=escort_options
    )
    escort = next(s for s in faction.ships if s.is_escort)
    page.goto(live_catalog.url + "/fleets/new/")
    page.get_by_label("Faction").select_option(faction.slug)
    page.get_by_label("Game size").select_option("armada")
    page.get_by_role("button", name="Start building").click()
    page.wait_for_url("**/fleets/*/")
    fleet = Fleet.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    four = SQUADRON_MAX
    ships = [{"ship": escort.slug, "upgrades": []}] * four
    fleet.document = {
        **fleet.document,
        "units": [{"kind": "squadron", "name": None, "ships": ships}],
    }
    fleet.store(fleet.to_core(), catalog)
    fleet.save()
    page.reload()

    with page.expect_response(lambda r: "/units/0/?" in r.url) as opened:
        page.locator("#unit-0-edit").click()
    assert answer_size(opened.value) < 12 * 1024
    assert opened.value.text().count("<template data-copy=") == four - 1
    expect(page.locator("#unit-0-escorts > li.escort")).to_have_count(four)
    expect(page.locator("#unit-0 template")).to_have_count(0)
    for j in range(four):
        card = page.locator(f"#unit-0-ship-{j}")
        expect(card.get_by_role("group", name=f"Upgrades of {escort.name}")).to_be_visible()
        expect(card.get_by_role("button", name=f"Duplicate {escort.name}")).to_have_id(
            f"unit-0-ship-{j}-dup"
        )
        expect(card.locator('input[name="ship"]').first).to_have_value(str(j))
    drawn = page.eval_on_selector_all(
        "#unit-0-escorts input[type=checkbox]", "boxes => boxes.map(b => [b.id, b.checked])"
    )
    # The last escort's first free box ticks that escort alone, and keeps the focus.
    box = page.locator(f"#unit-0-ship-{four - 1} input[type=checkbox]:not([disabled])").first
    slug = box.get_attribute("value")
    box.focus()
    with page.expect_response(lambda r: r.url.endswith("/units/0/upgrades/")):
        page.keyboard.press("Space")
    expect(box).to_be_checked()
    expect(box).to_be_focused()
    fleet.refresh_from_db()
    assert [slug in s["upgrades"] for s in fleet.document["units"][0]["ships"]] == [False] * (
        four - 1
    ) + [True]
    # The page as a reload draws it, the editor open: the same boxes.
    page.goto(f"{live_catalog.url}/fleets/{fleet.pk}/?edit=0")
    reloaded = page.eval_on_selector_all(
        "#unit-0-escorts input[type=checkbox]", "boxes => boxes.map(b => [b.id, b.checked])"
    )
    ticked = f"unit-0-ship-{four - 1}-up-{slug}"
    assert [[i, c or i == ticked] for i, c in drawn] == reloaded


def test_an_escort_added_or_removed_mid_squadron_moves_the_others_as_a_reload_draws_them(
    page: Page, live_catalog
) -> None:
    # The escorts after it move one place: the answer copies them from the page (data-page).
    from fleetbuilder.catalog.loader import core_catalog
    from fleetbuilder.fleets.models import Fleet

    catalog = core_catalog()
    page.goto(live_catalog.url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_role("button", name="Start building").click()
    page.wait_for_url("**/fleets/*/")
    fleet = Fleet.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    faction = catalog.faction("imperial-navy")
    escort = next(s for s in faction.ships if s.is_escort)
    refits = [
        u.slug
        for u in (*faction.upgrades, *catalog.refits)
        if any(c.value == "escort" for c in u.classes)
    ][:2]
    ships = [
        {"ship": escort.slug, "upgrades": [refits[0]]},
        {"ship": escort.slug, "upgrades": [refits[1]]},
        {"ship": escort.slug, "upgrades": []},
    ]
    fleet.document = {
        **fleet.document,
        "units": [{"kind": "squadron", "name": None, "ships": ships}],
    }
    fleet.store(fleet.to_core(), catalog)
    fleet.save()
    page.goto(f"{live_catalog.url}/fleets/{fleet.pk}/?edit=0")

    def drawn() -> list[Any]:
        return page.eval_on_selector_all(
            "#unit-0-escorts li.escort",
            """rows => rows.map(
            row => [row.id, row.querySelector('input[name="ship"]').value,
                    Array.from(row.querySelectorAll("input[type=checkbox]"),
                               b => [b.id, b.checked])])""",
        )

    def as_reloaded() -> None:
        shown = drawn()
        expect(page.locator("#unit-0 template")).to_have_count(0)
        page.goto(f"{live_catalog.url}/fleets/{fleet.pk}/?edit=0")
        assert drawn() == shown

    with page.expect_response(lambda r: r.url.endswith("/units/0/duplicate/")) as added:
        page.locator("#unit-0-ship-0-dup").click()
    expect(page.locator("#unit-0-escorts li.escort")).to_have_count(4)
    assert "data-page" in added.value.text()
    assert answer_size(added.value) < 12 * 1024
    as_reloaded()
    with page.expect_response(lambda r: r.url.endswith("/units/0/remove/")) as removed:
        page.locator("#unit-0-ship-0-remove").click()
    expect(page.locator("#unit-0-escorts li.escort")).to_have_count(3)
    assert "data-page" in removed.value.text()
    as_reloaded()
    fleet.refresh_from_db()
    assert [s["upgrades"] for s in fleet.document["units"][0]["ships"]] == [
        [refits[0]],
        [refits[1]],
        [],
    ]
