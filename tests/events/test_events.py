"""Events: an organiser makes an event, players join and submit snapshots of their
lists, the server's clock closes the door, and nobody sees another's list before the reveal.
Pins R-171 (phases, the clock, what may change), R-172 (submitting), R-173 (who sees what),
R-174 (the organiser's review and exports)."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from fleetbuilder.catalog import editions
from fleetbuilder.events.models import Entry, Event, EventChange, Phase, SubmissionRefused
from fleetbuilder.fleets.models import Fleet
from rules_core.sample_fleets import sample_fleet

pytestmark = pytest.mark.django_db
PASSWORD = "Ironclad-Lunar-1138"


def player(name: str) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    client = Client()
    client.force_login(user)
    return client, user


def legal_fleet(
    user, faction: str = "imperial-navy", size: str = "skirmish", name: str = ""
) -> Fleet:
    catalog = editions.catalog_for(7)
    sample = sample_fleet(catalog, faction, size)
    fleet = Fleet(owner=user)
    fleet.store(replace(sample, name=name or sample.name, edition=7), catalog)
    fleet.save()
    return fleet


def form_data(**changes) -> dict:
    now = timezone.now().astimezone(timezone.get_fixed_timezone(0))
    data = {
        "name": "Friday Skirmish",
        "starts_at": (now + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
        "time_zone": "UTC",
        "place": "The club",
        "description": "Bring dice",
        "edition": "7",
        "game_size": "skirmish",
        "player_cap": "8",
        "deadline": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
        "reveal_at": "",
        "public": "on",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def close(event: Event, *, reveal_in: timedelta = timedelta(hours=1)) -> None:
    """The deadline passes (the clock moved on): set it just behind now."""
    now = timezone.now()
    Event.objects.filter(pk=event.pk).update(
        deadline=now - timedelta(seconds=1), reveal_at=now + reveal_in
    )
    event.refresh_from_db()


# --- making an event --------------------------------------------------------------------------


def test_r171_an_event_is_made_with_its_settings_and_its_edition(event: Event) -> None:
    assert event.edition == 7 and event.phase() is Phase.OPEN
    assert event.reveal_at == event.deadline  # the default: at the deadline
    assert (event.band.min, event.band.max) == (750, 1000)
    assert len(event.token) >= 20  # an invite link nobody can guess


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"deadline": "2020-01-01T10:00"}, "The list deadline must be in the future."),
        ({"reveal_at": "2020-01-01T10:00"}, "The lists cannot be revealed before the deadline."),
        (
            {"game_size": "custom", "points_min": "900", "points_max": "800"},
            "The maximum must not be below the minimum.",
        ),
        (
            {"game_size": "custom", "points_min": "900", "points_max": "90000"},
            "Ensure this value is less than or equal to 5000.",
        ),
        ({"time_zone": "Mars/Olympus"}, "Select a valid choice."),
        ({"name": "Night\u0000Raid"}, "contains a control character"),
        ({"edition": "99"}, "Select a valid choice."),
    ],
)
def test_r171_bad_settings_are_refused_with_a_reason_and_nothing_is_stored(
    organiser, catalog, changes, error
) -> None:
    client, _ = organiser
    response = client.post("/events/new/", form_data(**changes))
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Event.objects.exists()


def test_making_an_event_needs_an_account(catalog) -> None:
    response = Client().post("/events/new/", form_data())
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Event.objects.exists()


def test_r171_settings_change_until_the_deadline_then_only_reveal_and_description(
    event: Event, organiser
) -> None:
    client, user = organiser
    response = client.post(
        f"/events/{event.token}/edit/", form_data(name="Friday Battle", player_cap="12")
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.player_cap) == ("Friday Battle", 12)
    logged = {(c.field, c.old, c.new) for c in EventChange.objects.filter(event=event)}
    assert {("name", "Friday Skirmish", "Friday Battle"), ("player_cap", "8", "12")} <= logged
    close(event)
    client.post(f"/events/{event.token}/edit/", form_data(name="Sneaky", description="New text"))
    event.refresh_from_db()
    assert event.name == "Friday Battle" and event.description == "New text"
    assert event.editable_fields() == {"reveal_at", "description"}


# --- joining and submitting -------------------------------------------------------------------


def test_r172_a_player_joins_submits_and_resubmits_and_the_snapshot_stays(event: Event) -> None:
    client, user = player("alice")
    assert client.post(f"/events/{event.token}/join/").status_code == 302
    first = legal_fleet(user, name="First")
    assert client.post(f"/events/{event.token}/submit/", {"fleet": first.pk}).status_code == 302
    entry = Entry.objects.get(player=user)
    assert entry.submitted and entry.legal and entry.points == first.points
    assert entry.document["edition"] == 7 and entry.submitted_at is not None
    second = legal_fleet(user, faction="orks", name="Second")
    client.post(f"/events/{event.token}/submit/", {"fleet": second.pk})
    entry.refresh_from_db()
    assert entry.document["name"] == "Second" and entry.faction == "orks"
    # Later edits of the fleet never reach the snapshot.
    snapshot = json.dumps(entry.document)
    second.rename("Renamed after")
    orks = second.catalog().faction("orks")
    second.add_ship(second.catalog(), next(s.slug for s in orks.ships if s.is_capital))
    entry.refresh_from_db()
    assert json.dumps(entry.document) == snapshot
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Your list" in page and f"{entry.points} points" in page


def test_r172_an_illegal_list_is_refused_unless_the_event_takes_them(event: Event) -> None:
    client, user = player("bob")
    event.join(user)
    fleet = legal_fleet(user)
    fleet.remove(fleet.catalog(), 0)  # under the band now, or flagless: illegal
    response = client.post(f"/events/{event.token}/submit/", {"fleet": fleet.pk})
    assert response.status_code == 400
    assert "takes only legal lists" in response.content.decode()
    assert not Entry.objects.get(player=user).submitted
    Event.objects.filter(pk=event.pk).update(allow_illegal=True)
    assert client.post(f"/events/{event.token}/submit/", {"fleet": fleet.pk}).status_code == 302
    entry = Entry.objects.get(player=user)
    assert entry.submitted and not entry.legal and entry.problems


@pytest.mark.parametrize(
    "case", ["other edition", "faction", "someone else's", "trashed", "not joined"]
)
def test_r172_lists_the_event_cannot_take_are_refused_and_nothing_is_stored(
    event: Event, case: str
) -> None:
    client, user = player("carol")
    event.join(user)
    fleet = legal_fleet(user)
    message = {
        "other edition": "Update the list to it first",
        "faction": "does not allow that fleet's faction",
        "someone else's": "Choose one of your own fleets",
        "trashed": "in the trash",
        "not joined": "Join the event",
    }[case]
    if case == "other edition":
        fleet.change_edition(5)
    elif case == "faction":
        Event.objects.filter(pk=event.pk).update(factions=["orks"])
    elif case == "someone else's":
        _, other = player("dave")
        fleet = legal_fleet(other)
    elif case == "trashed":
        fleet.trash()
    elif case == "not joined":
        Entry.objects.filter(player=user).delete()
    response = client.post(f"/events/{event.token}/submit/", {"fleet": fleet.pk})
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    assert not Entry.objects.filter(player=user).exclude(document=None).exists()


def test_r172_a_list_of_another_edition_is_updated_and_submitted_in_one_click(event: Event) -> None:
    client, user = player("carol")
    event.join(user)
    fleet = legal_fleet(user, name="Old Guard")
    fleet.change_edition(5)
    refused = client.post(f"/events/{event.token}/submit/", {"fleet": fleet.pk})
    assert refused.status_code == 400
    page = html.unescape(refused.content.decode())
    assert "Update “Old Guard” to edition 7 and submit it" in page
    assert 'name="update_edition" value="on"' in page
    done = client.post(
        f"/events/{event.token}/submit/", {"fleet": fleet.pk, "update_edition": "on"}, follow=True
    )
    assert "“Old Guard” is updated to edition 7" in html.unescape(done.content.decode())
    fleet.refresh_from_db()
    entry = Entry.objects.get(player=user)
    assert fleet.edition == 7 and fleet.previous_edition == 5  # Undo in the builder
    assert entry.submitted and entry.document["edition"] == 7 and entry.points == fleet.points


def test_r172_an_update_then_refused_leaves_the_list_on_its_edition(event: Event) -> None:
    client, user = player("carol")
    event.join(user)
    fleet = legal_fleet(user)  # Imperial Navy
    fleet.change_edition(5)
    Event.objects.filter(pk=event.pk).update(factions=["orks"])
    response = client.post(
        f"/events/{event.token}/submit/", {"fleet": fleet.pk, "update_edition": "on"}
    )
    assert response.status_code == 400
    assert "does not allow that fleet's faction" in html.unescape(response.content.decode())
    fleet.refresh_from_db()
    assert fleet.edition == 5 and not Entry.objects.get(player=user).submitted


def test_r171_after_the_deadline_the_server_clock_refuses_a_submission(event: Event) -> None:
    client, user = player("erin")
    event.join(user)
    fleet = legal_fleet(user)
    close(event)
    with pytest.raises(SubmissionRefused, match="deadline has passed"):
        event.submit(user, fleet)
    response = client.post(f"/events/{event.token}/submit/", {"fleet": fleet.pk})
    assert response.status_code == 400
    assert not Entry.objects.get(player=user).submitted
    _, late = player("frank")
    with pytest.raises(SubmissionRefused, match="deadline has passed"):
        event.join(late)


def test_r172_a_full_event_refuses_another_player(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(player_cap=2)
    for name in ("g1", "g2"):
        event.join(player(name)[1])
    with pytest.raises(SubmissionRefused, match="full"):
        event.join(player("g3")[1])


# --- who sees what -----------------------------------------------------------------------------


def test_r173_nothing_of_another_list_shows_before_the_reveal(event: Event, organiser) -> None:
    alice, alice_user = player("alice")
    bob, bob_user = player("bob")
    for user in (alice_user, bob_user):
        event.join(user)
    fleet = legal_fleet(bob_user, faction="orks", name="Gorka Secret Plan")
    event.submit(bob_user, fleet)
    entry = Entry.objects.get(player=bob_user)
    secrets = ("Gorka Secret Plan", "Orks", f">{entry.points}<")
    for phase_case in ("open", "locked"):
        if phase_case == "locked":
            close(event)
        for client in (alice, Client(), player(f"visitor-{phase_case}")[0]):
            page = client.get(event.get_absolute_url()).content.decode()
            assert not any(s in page for s in secrets), (phase_case, page)
            assert client.get(f"/events/{event.token}/lists/{entry.pk}/").status_code == 404
            assert client.get(f"/events/{event.token}/dashboard/").status_code in (302, 404)
            assert client.get(f"/events/{event.token}/export.csv").status_code in (302, 404)
    # The organiser sees everything; the player sees their own.
    org, _ = organiser
    assert (
        "Gorka Secret Plan" in org.get(f"/events/{event.token}/lists/{entry.pk}/").content.decode()
    )
    assert bob.get(f"/events/{event.token}/lists/{entry.pk}/").status_code == 200
    # Revealed: participants see it; a visitor still does not.
    Event.objects.filter(pk=event.pk).update(reveal_at=timezone.now() - timedelta(seconds=1))
    assert (
        "Gorka Secret Plan"
        in alice.get(f"/events/{event.token}/lists/{entry.pk}/").content.decode()
    )
    assert Client().get(f"/events/{event.token}/lists/{entry.pk}/").status_code == 404


def test_r173_factions_show_before_the_reveal_only_where_the_event_says(event: Event) -> None:
    alice, alice_user = player("alice")
    _, bob_user = player("bob")
    for user in (alice_user, bob_user):
        event.join(user)
    event.submit(bob_user, legal_fleet(bob_user, faction="orks"))
    assert "Orks" not in alice.get(event.get_absolute_url()).content.decode()
    Event.objects.filter(pk=event.pk).update(show_factions=True)
    assert "Orks" in alice.get(event.get_absolute_url()).content.decode()
    assert "Orks" not in Client().get(event.get_absolute_url()).content.decode()


# --- the organiser ----------------------------------------------------------------------------


def test_r174_approve_send_back_with_a_comment_and_remove(event: Event, organiser) -> None:
    org, _ = organiser
    alice, alice_user = player("alice")
    event.join(alice_user)
    event.submit(alice_user, legal_fleet(alice_user))
    entry = Entry.objects.get(player=alice_user)
    url = f"/events/{event.token}/players/{entry.pk}/review/"
    org.post(url, {"action": "return", "comment": "Two flagships? Check R-22."})
    entry.refresh_from_db()
    assert entry.review == Entry.Review.RETURNED
    assert "Two flagships? Check R-22." in alice.get(event.get_absolute_url()).content.decode()
    response = org.post(url, {"action": "return", "comment": ""}, follow=True)
    assert "Say why the list is sent back." in response.content.decode()
    org.post(url, {"action": "approve"})
    entry.refresh_from_db()
    assert entry.review == Entry.Review.APPROVED and entry.comment == ""
    # Anyone else's review is a 404 and changes nothing.
    assert alice.post(url, {"action": "remove"}).status_code == 404
    org.post(url, {"action": "remove"})
    entry.refresh_from_db()
    assert entry.removed_at is not None
    with pytest.raises(SubmissionRefused, match="removed you"):
        event.join(alice_user)


def test_r171_the_organiser_extends_the_deadline_and_it_is_logged(event: Event, organiser) -> None:
    org, _ = organiser
    close(event)
    assert event.phase() is Phase.LOCKED
    later = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    org.post(f"/events/{event.token}/extend/", {"deadline": later})
    event.refresh_from_db()
    assert event.phase() is Phase.OPEN and event.reveal_at >= event.deadline
    assert EventChange.objects.filter(event=event, field="deadline").exists()


def test_r174_exports_hold_every_list_and_defuse_spreadsheet_formulas(
    event: Event, organiser
) -> None:
    org, _ = organiser
    _, user = player("=cmd|calc")
    event.join(user)
    event.submit(user, legal_fleet(user))
    rows = list(
        csv.reader(io.StringIO(org.get(f"/events/{event.token}/export.csv").content.decode()))
    )
    assert rows[0][:4] == ["player", "faction", "points", "legal"]
    assert rows[1][0] == "'=cmd|calc" and rows[1][1] == "Imperial Navy"
    doc = json.loads(org.get(f"/events/{event.token}/export.json").content)
    assert doc["edition"] == 7 and doc["players"][0]["list"]["format"] == "void-command-fleet"


def test_the_calendar_file_names_the_start_and_the_deadline(event: Event) -> None:
    response = Client().get(f"/events/{event.token}/event.ics")
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert body.count("BEGIN:VEVENT") == 2 and "SUMMARY:Friday Skirmish" in body
    assert re.search(r"DTSTART:\d{8}T\d{6}Z", body) and "LOCATION:The club" in body
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))


def test_an_invite_only_event_is_not_listed_but_opens_by_its_link(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(public=False)
    assert event.name not in Client().get("/events/").content.decode()
    assert Client().get(event.get_absolute_url()).status_code == 200
    assert Client().get("/events/not-a-real-token/").status_code == 404


def test_r173_after_the_reveal_a_participant_opens_two_lists_in_the_matchup_preview(
    event: Event,
) -> None:
    alice, alice_user = player("alice")
    _, bob_user = player("bob")
    for user, faction in ((alice_user, "imperial-navy"), (bob_user, "orks")):
        event.join(user)
        event.submit(user, legal_fleet(user, faction=faction))
    a, b = (Entry.objects.get(player=u).pk for u in (alice_user, bob_user))
    url = f"/events/{event.token}/preview/?a={a}&b={b}"
    assert alice.get(url).status_code == 404  # before the reveal: nothing
    Event.objects.filter(pk=event.pk).update(
        deadline=timezone.now() - timedelta(minutes=2),
        reveal_at=timezone.now() - timedelta(minutes=1),
    )
    assert "Preview a matchup" in alice.get(event.get_absolute_url()).content.decode()
    response = alice.get(url)
    assert response.status_code == 302 and "/simulator/" in response["Location"]
    form = alice.get(response["Location"]).content.decode()
    for side in ("a", "b"):  # both sides filled in as shared lists, by their codes
        assert re.search(rf'name="{side}_share"[^>]*value="v2\.', form) or re.search(
            rf'value="v2\.[^"]*"[^>]*name="{side}_share"', form
        )
        assert re.search(rf'name="{side}_source" value="shared"[^>]*checked', form)
    assert Client().get(url).status_code == 404  # a visitor sees no list, even revealed
