"""An event from first form to revealed lists, by keyboard alone, axe clean, on a desktop and a
phone (R-171 to R-174).

The organiser logs in and makes a skirmish event under the current edition with a deadline a
few minutes ahead; three players, each in their own browser, log in, join and submit one of
their saved fleets. An illegal list is refused with its reason and nothing is stored; a second
submission replaces the first. The deadline passes (moved in the database, as the clock would)
and a late submission is refused; the organiser approves every list; the reveal passes and a
participant opens every list. axe-core checks each page on the way. With UPDATE_SCREENSHOTS=1
the desktop run writes docs/img/event-dashboard.png and docs/img/event-player.png."""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from .test_axe_browser import Walk, axe_context

pytestmark = pytest.mark.browser

PASSWORD = "Ironclad-Lunar-1138"
PLAYERS = ("alia", "brannoc", "cassia")
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}

# The screenshots go to docs/img only when asked (UPDATE_SCREENSHOTS=1), so a test run leaves
# the work tree as it found it.
IMG = (
    Path(__file__).resolve().parents[2] / "docs" / "img"
    if os.environ.get("UPDATE_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir())
)


def _user(name: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(name, password=PASSWORD)


def _fleet(user, name: str, faction: str = "imperial-navy", *, units: bool = True):
    """A saved skirmish fleet under edition 7 (the sample list); without units, under the band."""
    from fleetbuilder.catalog import editions
    from fleetbuilder.fleets.models import Fleet
    from rules_core.sample_fleets import sample_fleet

    catalog = editions.catalog_for(7)
    sample = replace(sample_fleet(catalog, faction, "skirmish"), name=name, edition=7)
    if not units:
        sample = replace(sample, units=())
    fleet = Fleet(owner=user)
    fleet.store(sample, catalog)
    fleet.save()
    return fleet


def _focused(locator: Locator) -> bool:
    return locator.evaluate("el => el === document.activeElement")


def tab_to(page: Page, target: Locator, limit: int = 120) -> None:
    """Tab (forward) until ``target`` has the focus, as a keyboard user would."""
    for _ in range(limit):
        if _focused(target):
            return
        page.keyboard.press("Tab")
    pytest.fail(f"{target} is not reachable with Tab")


def press(page: Page, target: Locator, key: str = "Enter", *, tab: bool = False) -> None:
    """Press ``key`` on ``target``: focused directly, or (``tab``, the first time a page's
    control is used, just after the page loads) reached with Tab from the top of the page,
    proving the way there."""
    if tab:
        page.locator("body").focus()
        tab_to(page, target)
    else:
        target.focus()
    page.keyboard.press(key)


def type_moment(page: Page, moment: datetime) -> None:
    """Type a time into the focused ``datetime-local`` field, segment by segment, in the order
    Chromium's (en-US) field shows them: month, day, year, then hour, minute and AM/PM. The
    year takes up to six digits, so the arrow moves on from it."""
    page.keyboard.type(moment.strftime("%m%d%Y"))
    page.keyboard.press("ArrowRight")
    page.keyboard.type(f"{moment.hour % 12 or 12:02d}{moment:%M}")
    page.keyboard.type("P" if moment.hour >= 12 else "A")


def log_in(page: Page, base: str, name: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.get_by_label("Username").focus()  # the form's first field, where Tab from the nav lands
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    expect(page.get_by_label("Password")).to_be_focused()
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page).to_have_url(base + next_path)  # signed in (on a phone the menu is folded)


def submit_list(page: Page, fleet_name: str, *, tab: bool = False) -> None:
    """Choose a saved fleet by typing its name into the closed select, then Submit list."""
    choice = page.locator("#submit-fleet")
    if tab:
        page.locator("body").focus()
        tab_to(page, choice)
    else:
        choice.focus()
    page.keyboard.type(fleet_name)
    expect(choice.locator("option:checked")).to_contain_text(fleet_name)
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Submit list")).to_be_focused()
    page.keyboard.press("Enter")


def make_event(page: Page, deadline: datetime) -> None:
    """The organiser fills the form by keyboard: name, start, game size and deadline; the time
    zone (UTC) and the edition (the current one) are left as offered."""
    from fleetbuilder.catalog import editions

    current = editions.current()
    assert current is not None
    expect(page.get_by_label("Edition played")).to_have_value(str(current.number))
    expect(page.get_by_label("Time zone")).to_have_value("UTC")
    page.get_by_label("Name", exact=True).focus()
    page.keyboard.type("Friday Skirmish")
    starts, deadline_field = page.get_by_label("Starts"), page.get_by_label("List deadline")
    tab_to(page, starts)
    type_moment(page, deadline + timedelta(hours=1))
    size = page.get_by_label("Game size")
    tab_to(page, size)
    page.keyboard.type("Skirmish")
    expect(size).to_have_value("skirmish")
    tab_to(page, deadline_field)
    type_moment(page, deadline)
    expect(deadline_field).to_have_value(deadline.strftime("%Y-%m-%dT%H:%M"))
    tab_to(page, page.get_by_role("button", name="Make the event"))
    page.keyboard.press("Enter")
    expect(page.get_by_text("The event is made.")).to_be_visible()


def hold_the_refresh_while_typing(page: Page) -> None:
    """The rows refresh every 10 s, but not under an organiser who is typing a comment: the swap
    would wipe it (site.js, data-hold-refresh). Once they leave it, the refresh runs again."""
    refreshes: list[str] = []
    page.on("request", lambda r: refreshes.append(r.url) if r.headers.get("hx-request") else None)
    comment = page.locator("#event-rows input[name=comment]").first
    comment.focus()
    page.keyboard.type("Checking the escorts")
    page.clock.run_for(25_000)
    page.wait_for_timeout(300)  # a refresh sent would show by now
    assert not refreshes
    expect(comment).to_have_value("Checking the escorts")
    expect(comment).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    rows = page.locator("#event-rows")
    while rows.evaluate("el => el.contains(document.activeElement)"):
        page.keyboard.press("Shift+Tab")  # back out of the rows, to the Print button
    with page.expect_response(
        lambda r: "/dashboard/" in r.url and r.request.headers.get("hx-request") == "true"
    ):
        page.clock.run_for(11_000)
    expect(page.locator("#event-rows tbody tr")).to_have_count(3)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_event_from_form_to_reveal_by_keyboard_with_axe_clean(
    browser: Browser, live_catalog, viewport
) -> None:
    from django.utils import timezone

    from fleetbuilder.events.models import Entry, Event, Game

    base = live_catalog.url
    walk = Walk()
    _user("marshal")
    users = {name: _user(name) for name in PLAYERS}
    for name in PLAYERS:
        _fleet(users[name], f"{name.title()} Battlegroup")
    _fleet(users["brannoc"], "Brannoc Husk", units=False)  # no ships: under the band
    second = _fleet(users["brannoc"], "Brannoc Raiders", "orks")

    # The organiser makes the event: skirmish, the current edition, a deadline minutes ahead.
    organiser = axe_context(browser, viewport=viewport).new_page()
    organiser.clock.install()  # the dashboard refreshes every 10 s: the test moves its clock
    log_in(organiser, base, "marshal", "/events/new/")
    walk.check(organiser)  # the event form
    now = timezone.now().astimezone(timezone.get_fixed_timezone(0)).replace(tzinfo=None)
    make_event(organiser, (now + timedelta(minutes=6)).replace(second=0, microsecond=0))
    event = Event.objects.get()
    assert (event.game_size, event.band.min, event.band.max) == ("skirmish", 750, 1000)
    assert event.deadline - timezone.now() > timedelta(minutes=4)
    expect(organiser.get_by_role("link", name="Dashboard")).to_be_visible()
    walk.check(organiser)  # the event page, as its organiser
    event_url = organiser.url
    path = event.get_absolute_url()

    visitor = axe_context(browser, viewport=viewport).new_page()
    visitor.goto(event_url)
    expect(visitor.get_by_role("main").get_by_text("to join.")).to_be_visible()
    walk.check(visitor)  # the event page, as a visitor

    # Three players, each in their own browser, join and submit a list.
    pages: dict[str, Page] = {}
    for name in PLAYERS:
        page = axe_context(browser, viewport=viewport).new_page()
        pages[name] = page
        log_in(page, base, name, path)
        if name == PLAYERS[0]:
            walk.check(page)  # the event page, signed in but not in the event
        press(page, page.get_by_role("button", name="Join the event"), tab=name == PLAYERS[0])
        expect(page.get_by_text("You have joined.")).to_be_visible()

    alia, brannoc, cassia = (pages[name] for name in PLAYERS)
    submit_list(alia, "Alia Battlegroup", tab=True)
    expect(alia.get_by_text("List submitted:")).to_be_visible()
    walk.check(alia)  # a participant with a list and its verdict

    # An illegal list is refused with the reason, and nothing is stored.
    submit_list(brannoc, "Brannoc Husk")
    expect(brannoc.get_by_role("heading", name="List not taken")).to_be_visible()
    expect(brannoc.get_by_role("alert")).to_contain_text("This event takes only legal lists")
    expect(brannoc.get_by_role("alert")).to_contain_text("750–1000")
    expect(brannoc.get_by_text("Nothing was stored.")).to_be_visible()
    walk.check(brannoc)  # the refused page
    entry = Entry.objects.get(player=users["brannoc"])
    assert (entry.document, entry.fleet_id, entry.submitted_at) == (None, None, None)
    press(brannoc, brannoc.get_by_role("link", name="Back to Friday Skirmish"), tab=True)

    # Submitted twice: the last one counts.
    submit_list(brannoc, "Brannoc Battlegroup")
    expect(brannoc.get_by_text("List submitted:")).to_be_visible()
    submit_list(brannoc, "Brannoc Raiders")
    expect(brannoc.get_by_text("List submitted:")).to_be_visible()
    expect(brannoc.locator("section[aria-labelledby=your-list]")).to_contain_text("Brannoc Raiders")
    entry.refresh_from_db()
    assert entry.fleet_id == second.pk and entry.document["name"] == "Brannoc Raiders"

    submit_list(cassia, "Cassia Battlegroup")
    expect(cassia.get_by_text("List submitted:")).to_be_visible()
    player_view = cassia.locator("section[aria-labelledby=your-list]")
    expect(player_view).to_contain_text("Waiting for the organiser")
    expect(player_view.locator(".verdict")).to_have_text("Legal")
    if viewport is DESKTOP:
        cassia.screenshot(path=str(IMG / "event-player.png"), full_page=True)
    taken = Entry.objects.get(player=users["cassia"]).submitted_at

    # The deadline passes (as close() in tests/events does); Cassia's page still shows the
    # form, and what she sends now is refused by the server's clock.
    Event.objects.filter(pk=event.pk).update(
        deadline=timezone.now() - timedelta(seconds=1),
        reveal_at=timezone.now() + timedelta(hours=1),
    )
    submit_list(cassia, "Cassia Battlegroup")
    expect(cassia.get_by_role("alert")).to_contain_text("The list deadline has passed")
    assert Entry.objects.get(player=users["cassia"]).submitted_at == taken

    # The organiser approves each list on the dashboard.
    press(organiser, organiser.get_by_role("link", name="Dashboard"), tab=True)
    rows = organiser.locator("#event-rows tbody tr")
    expect(rows).to_have_count(3)
    walk.check(organiser)  # the dashboard
    hold_the_refresh_while_typing(organiser)
    for name in PLAYERS:
        entry = Entry.objects.get(player=users[name])
        action = organiser.locator(f"#review-{entry.pk}")
        if name == PLAYERS[0]:
            organiser.locator("body").focus()
            tab_to(organiser, action)
        else:
            action.focus()
        expect(action).to_have_value("approve")  # the first choice: Tab on to Apply
        tab_to(
            organiser,
            organiser.locator("#event-rows tr", has_text=name).get_by_role("button", name="Apply"),
            limit=3,
        )
        organiser.keyboard.press("Enter")
        expect(organiser.get_by_text(f"{name}'s list: approved.")).to_be_visible()
    expect(rows.filter(has_text="Approved")).to_have_count(3)
    assert set(Entry.objects.values_list("review", flat=True)) == {Entry.Review.APPROVED}
    if viewport is DESKTOP:
        organiser.screenshot(path=str(IMG / "event-dashboard.png"), full_page=True)

    # The reveal passes: a participant sees every list; a visitor still none.
    Event.objects.filter(pk=event.pk).update(reveal_at=timezone.now() - timedelta(seconds=1))
    alia.goto(event_url)
    expect(alia.locator(".badge--phase")).to_have_text("Lists revealed")
    walk.check(alia)  # the event page, revealed
    for name in PLAYERS:
        press(alia, alia.get_by_role("link", name=f"View list of {name}"), tab=name == "alia")
        expect(alia.get_by_role("heading", level=1)).to_contain_text(f"by {name}")
        expect(alia.locator(".event-roster li")).not_to_have_count(0)
        if name == "brannoc":
            expect(alia.get_by_role("heading", level=1)).to_contain_text("Brannoc Raiders")
            walk.check(alia)  # a revealed list
        press(alia, alia.get_by_role("link", name="Back to Friday Skirmish"), tab=name == "alia")
    visitor.reload()
    expect(visitor.get_by_role("link", name="View list", exact=False)).to_have_count(0)
    walk.check(visitor)

    # The event pack: every list in one PDF, from the dashboard.
    organiser.reload()
    press(organiser, organiser.get_by_role("button", name="Print every list"))
    expect(
        organiser.get_by_role("link", name="Download the PDF").or_(
            organiser.get_by_role("button", name="Download the PDF")
        )
    ).to_be_visible(timeout=20_000)
    walk.check(organiser)

    # Round 1: three players, so one table and a bye; the result goes in over htmx.
    organiser.goto(event_url)
    press(organiser, organiser.get_by_role("link", name="Rounds", exact=True), tab=True)
    press(organiser, organiser.get_by_role("button", name="Pair round 1"), tab=True)
    expect(organiser.get_by_text("Round 1 is paired.")).to_be_visible()
    game = Game.objects.get(table=1)
    winner = game.a.player.get_username()
    result = organiser.locator(f"#result-{game.pk}")
    tab_to(organiser, result)
    result.select_option(label=f"{winner} won")
    organiser.keyboard.press("Tab")
    organiser.keyboard.type("12")
    organiser.keyboard.press("Tab")
    organiser.keyboard.type("5")
    tab_to(organiser, organiser.get_by_role("button", name="Save table 1"), limit=2)
    organiser.keyboard.press("Enter")
    expect(organiser.locator(f"#game-{game.pk} [role=status]")).to_have_text("Table 1: saved.")
    game.refresh_from_db()
    assert (game.result, game.vp_a, game.vp_b) == ("a", 12, 5)
    walk.check(organiser)  # the rounds page
    if viewport is DESKTOP:
        organiser.screenshot(path=str(IMG / "event-rounds.png"), full_page=True)
    alia.goto(event_url)
    expect(alia.locator("section[aria-labelledby=round-heading]")).to_contain_text("Table 1")
    press(alia, alia.get_by_role("link", name="Standings and every round"), tab=True)
    first = alia.locator(".standings-table tbody tr").first
    expect(first.locator("th")).to_contain_text(winner)  # a win, and the best VP difference
    expect(first.locator("td").nth(3)).to_have_text("1–0–0")
    walk.check(alia)  # the standings
    if viewport is DESKTOP:
        alia.screenshot(path=str(IMG / "event-standings.png"), full_page=True)

    for page in (organiser, visitor, *pages.values()):
        page.context.close()
    walk.assert_clean()
