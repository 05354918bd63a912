"""A BattleScribe roster from upload to the builder, by keyboard alone, axe clean (issue 30,
R-190): upload a .rosz, read the report, save the fleet, open it in the builder."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from fleetbuilder.fleets.models import Fleet
from tests.importers.rosters import rosz
from tests.importers.test_battlescribe import orks_roster

from .test_axe_browser import Walk, axe_context
from .test_events_browser import DESKTOP, PHONE, _user, log_in, press, tab_to

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_rosz_roster_is_imported_by_keyboard_with_axe_clean(
    browser: Browser, live_catalog, viewport, tmp_path
) -> None:
    base = live_catalog.url
    _user("grimtoof")
    path = tmp_path / "waaagh.rosz"
    path.write_bytes(rosz(orks_roster()))
    walk = Walk()
    page = axe_context(browser, viewport=viewport).new_page()
    log_in(page, base, "grimtoof", "/fleets/import/")
    walk.check(page)  # the import form, naming the roster formats
    expect(page.locator(".lead")).to_contain_text("BattleScribe (.ros, .rosz)")
    upload = page.get_by_label("Fleet file (.json, .txt or .zip) or roster (.ros, .rosz)")
    page.locator("body").focus()
    tab_to(page, upload)  # reached by Tab; the file itself is picked in the system's dialog
    upload.set_input_files(str(path))
    press(page, page.get_by_role("button", name="Check the fleet"), tab=True)
    report = page.locator(".roster-report")
    expect(report.get_by_role("heading", name="What the roster became")).to_be_visible()
    expect(report).to_contain_text("Roster: 470 pts in BFG")
    expect(report.locator(".roster-report__lines tbody tr")).to_have_count(5)
    expect(report.locator(".roster-report__lines tbody tr").first).to_contain_text(
        "by its catalogue entry"
    )
    assert not Fleet.objects.exists()  # nothing until the player saves
    walk.check(page)  # the preview with its report
    press(page, page.get_by_role("button", name="Save to my fleets"), tab=True)
    expect(page.get_by_text("Imported “Waaagh Grimtoof”.")).to_be_visible()
    fleet = Fleet.objects.get()
    assert fleet.faction == "orks" and fleet.name == "Waaagh Grimtoof"
    page.goto(base + fleet.get_absolute_url())
    expect(page.get_by_role("heading", level=1)).to_contain_text("Waaagh Grimtoof")
    expect(page.locator("#unit-0-title")).to_contain_text("Da Big Red")
    walk.check(page)  # the builder, with the imported fleet
    page.context.close()
    walk.assert_clean()
