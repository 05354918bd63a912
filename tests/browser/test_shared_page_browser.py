"""The shared fleet page a visitor reads: each ship's stat line (speed, shields,
armour, turrets, hull) and its weapons, its name linking to its profile; no blank band at the
top of a ship's card; on a phone the list comes before the buttons. axe clean in both schemes.
Screenshots go to the temporary folder."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_axe_browser import axe_context, violations

pytestmark = pytest.mark.browser

SHOTS = Path(tempfile.gettempdir())


def _shared_fleet_url() -> str:
    from fleetbuilder.catalog import loader
    from fleetbuilder.fleets.models import Fleet
    from rules_core import fleet as rf

    doc = rf.Fleet(
        faction="imperial-navy",
        game_size=rf.GameSize.PATROL,
        name="Gothic Sector Patrol",
        units=(
            rf.ShipUnit(
                "lunar-class-cruiser", name="Emperor's Wrath", flagship=True, admiral="commodore"
            ),
            rf.Squadron((rf.SquadronShip("sword-class-frigate"),) * 3, name="Swords"),
        ),
    )
    fleet = Fleet.from_core(doc, loader.core_catalog(), owner_token="someone-else")
    fleet.share()
    return fleet.share_url_path()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_shared_page_shows_each_ships_profile(
    browser: Browser, live_catalog, scheme: str
) -> None:
    from fleetbuilder.catalog import loader

    lunar = loader.core_catalog().faction("imperial-navy").ship("lunar-class-cruiser")
    context = axe_context(browser, color_scheme=scheme, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(live_catalog.url + _shared_fleet_url())
    card = page.locator("#unit-0 .shipcard")
    stats = card.locator(".shipcard__stats")
    for name, value in (
        ("Speed", f"{lunar.speed_cm} cm"),
        ("Shields", str(lunar.shields)),
        ("Armour", f"{lunar.armor}+"),
        ("Turrets", str(lunar.turrets)),
        ("Hull", str(lunar.hull)),
    ):
        expect(stats.locator(f"abbr[title='{name}'] + strong")).to_have_text(value)
    weapons = card.locator(".shipcard__weapons li")
    expect(weapons).to_have_count(len(lunar.weapons))
    expect(weapons.first).to_contain_text(lunar.weapons[0].name)
    profile = card.get_by_role("link", name="Lunar Class Cruiser")
    expect(profile).to_have_attribute("href", "/ships/imperial-navy/lunar-class-cruiser/")
    escorts = page.locator("#unit-1 .escort")
    expect(escorts).to_have_count(3)
    expect(escorts.first.get_by_role("link", name="Sword Frigate")).to_be_visible()
    # No blank band: the card's first line starts at the card's top padding.
    gap = page.evaluate("""() => [...document.querySelectorAll('.roster .shipcard')].map(c => {
        const first = [...c.children].find(e => e.offsetHeight > 0);
        return first.getBoundingClientRect().top - c.getBoundingClientRect().top; })""")
    assert gap and max(gap) < 12, gap
    page.wait_for_load_state("networkidle")
    found = violations(page)
    assert not found, "\n".join(found)
    page.screenshot(path=str(SHOTS / f"fleetbuilder-shared-{scheme}.png"), full_page=True)
    context.close()


def test_on_a_phone_the_list_comes_before_the_buttons(browser: Browser, live_catalog) -> None:
    context = axe_context(browser, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_catalog.url + _shared_fleet_url())
    first_unit = page.locator("#unit-0").bounding_box()
    copy = page.get_by_role("button", name="Copy to my fleets").bounding_box()
    assert first_unit and copy and first_unit["y"] < copy["y"], (first_unit, copy)
    assert first_unit["y"] < 844, "the list starts below the first screen"
    found = violations(page)
    assert not found, "\n".join(found)
    page.screenshot(path=str(SHOTS / "fleetbuilder-shared-phone.png"), full_page=True)
    context.close()
