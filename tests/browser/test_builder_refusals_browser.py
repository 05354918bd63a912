"""Refused edits where the player is looking: on a desktop, beside the Add button
that was pressed, styled as a refusal; on a phone, in the bar at the foot of the screen, which
no longer keeps the last "Added …"; on both, in the live region. Escorts added from the list
fill their squadron (R-180), and the live region says which."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def start(page: Page, url: str, size: str = "armada") -> int:
    page.goto(url + "/fleets/new/")
    page.get_by_label("Faction").select_option("imperial-navy")
    page.get_by_label("Game size").select_option(size)
    page.get_by_role("button", name="Start building").click()
    page.wait_for_url("**/fleets/*/")
    page.wait_for_load_state("load")
    return int(page.url.rstrip("/").split("/")[-1])


def near_the_bound(pk: int, room: int = 0) -> str:
    """The fleet ``room`` dear capital ships short of the most that fit in 5000 points
    (hostile.over_points); that ship's name."""
    from fleetbuilder.catalog.loader import core_catalog
    from fleetbuilder.fleets import hostile
    from fleetbuilder.fleets.models import Fleet
    from rules_core import fleet as rf

    catalog = core_catalog()
    dear = hostile.over_points(catalog)
    fleet = Fleet.objects.get(pk=pk)
    fleet.store(
        rf.Fleet(fleet.faction, rf.GameSize.ARMADA, dear.units[: -1 - room], edition=fleet.edition),
        catalog,
    )
    fleet.save()
    ship = dear.units[0].ship
    return next(s.name for f in catalog.factions for s in f.ships if s.slug == ship)


def test_escorts_fill_their_squadron_and_the_live_region_says_which(
    page: Page, live_catalog
) -> None:
    start(page, live_catalog.url, "skirmish")
    announce = page.locator("#builder-announce")
    for n in range(1, 4):
        page.get_by_role("button", name="Add Sword Frigate", exact=True).click()
        expect(page.locator("#unit-0-title")).to_contain_text(f"{n}× Sword Frigate")
    expect(page.locator("#unit-list > article")).to_have_count(1)
    expect(announce).to_have_text(
        re.compile(
            r"^Added Sword Frigate to Squadron 1, now 3 "
            r"escorts · \d+ of 1000 points$"
        )
    )
    page.get_by_role("button", name="Add Cobra Destroyer", exact=True).click()
    expect(page.locator("#unit-list > article")).to_have_count(2)
    expect(announce).to_contain_text("Added Cobra Destroyer in a new squadron, Squadron 2")


def test_a_refused_add_is_shown_beside_its_button_on_a_desktop(page: Page, live_catalog) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    pk = start(page, live_catalog.url)
    dear = near_the_bound(pk)
    page.reload()
    button = page.get_by_role("button", name=f"Add {dear}", exact=True)
    button.scroll_into_view_if_needed()
    button.click()
    note = page.locator("[data-refusal]")
    expect(note).to_have_count(1)
    expect(note).to_contain_text("Not added: that would bring the fleet to more than 5000")
    expect(note).to_be_in_viewport()
    # Beside the button: in its row of the ship list, right under it.
    row = page.locator(".shiplist__row", has=button)
    expect(row.locator("[data-refusal]")).to_have_count(1)
    note_box, button_box = note.bounding_box(), button.bounding_box()
    assert note_box and button_box and 0 <= note_box["y"] - button_box["y"] < 80
    # Styled as a refusal: a red edge.
    colour = note.evaluate("e => getComputedStyle(e).borderLeftColor")
    bad = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bad')")
    assert colour == page.evaluate(f"""(() => {{ const p = document.createElement('p');
        p.style.color = '{bad.strip()}'; document.body.append(p);
        const c = getComputedStyle(p).color; p.remove(); return c; }})()""")
    expect(page.locator("#builder-announce")).to_have_text(re.compile(r"^Not added: "))
    # The next edit that goes through takes the note away.
    page.get_by_role("button", name="New squadron", exact=True).click()
    expect(note).to_have_count(0)


def test_a_refused_add_replaces_the_phone_bars_flash(browser: Browser, live_catalog) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    pk = start(page, live_catalog.url)
    page.get_by_role("button", name="Add ships", exact=True).click()  # the ship list's side
    page.get_by_role("button", name="Add Sword Frigate", exact=True).click()
    flash = page.locator("[data-fleet-bar] .fleet-bar__flash")
    expect(flash).to_contain_text("Added Sword Frigate")
    dear = near_the_bound(pk, room=1)
    page.reload()  # another tab changed the fleet: the player reloads
    page.get_by_role("button", name="Add ships", exact=True).click()
    page.get_by_role("button", name=f"Add {dear}", exact=True).click()
    expect(flash).to_have_text(re.compile(f"^Added {dear}"))
    page.get_by_role("button", name=f"Add {dear}", exact=True).click()
    expect(flash).to_have_text(re.compile(r"^Not added: that would bring the fleet"))
    expect(flash).to_have_class(re.compile(r"fleet-bar__flash--refused"))
    expect(flash).to_be_in_viewport()
    expect(page.locator("[data-fleet-bar] .fleet-bar__flash")).to_have_count(1)
    context.close()
