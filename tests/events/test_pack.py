"""The organiser prints every list: one click on the dashboard queues one PDF, a
cover page then each submitted list's roster under the event's edition, made on the task queue
with its progress on its own page, like a battle pack (R-155's bounds); organiser-only (R-173).
The PDF is read back with poppler."""

from __future__ import annotations

import re
import subprocess
from datetime import timedelta

import pytest
from django.test import Client

from fleetbuilder.events.models import Entry, Event, EventPack
from tests.events.test_events import close, form_data, legal_fleet, player

pytestmark = pytest.mark.django_db


def pdf_pages(data: bytes) -> list[str]:
    """Each page's text, its runs of white space made one space."""
    out = subprocess.run(
        ["pdftotext", "-raw", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode("utf-8")
    return [re.sub(r"\s+", " ", page) for page in out.split("\f")[:-1]]


@pytest.fixture
def organiser() -> tuple[Client, object]:
    return player("organiser")


@pytest.fixture
def event(organiser, catalog) -> Event:
    client, _ = organiser
    response = client.post(
        "/events/new/", form_data(name="Friday Skirmish", time_zone="Europe/London")
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    return Event.objects.get()


def submits(event: Event, name: str, fleet_name: str, faction: str = "imperial-navy") -> Entry:
    client, user = player(name)
    event.join(user)
    fleet = legal_fleet(user, faction=faction, name=fleet_name)
    assert client.post(f"/events/{event.token}/submit/", {"fleet": fleet.pk}).status_code == 302
    return Entry.objects.get(player=user)


@pytest.fixture
def lists(event: Event) -> list[Entry]:
    """Three players: two lists, and one who joined but submitted nothing."""
    alice = submits(event, "alice", "Lady Alice's Wrath")
    _, carol = player("carol")
    event.join(carol)
    bob = submits(event, "bob", "Bob's Waaagh", faction="orks")
    return [alice, bob]


def ask(client: Client, event: Event):
    return client.post(f"/events/{event.token}/pack/")


def test_the_organiser_prints_every_list_as_one_pdf_cover_then_rosters(
    organiser, event: Event, lists: list[Entry]
) -> None:
    client, _ = organiser
    dashboard = client.get(f"/events/{event.token}/dashboard/").content.decode()
    assert f'action="/events/{event.token}/pack/"' in dashboard
    assert "Print every list</button>" in dashboard

    response = ask(client, event)
    pack = EventPack.objects.get()
    assert response.status_code == 302 and response["Location"] == pack.get_absolute_url()
    page = client.get(pack.get_absolute_url())  # made at once: the suite's queue is eager
    assert page.status_code == 200
    assert "Download the PDF" in page.content.decode()
    download = client.get(f"/events/{event.token}/pack/{pack.public_id}/pdf")
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert "friday-skirmish-every-list.pdf" in download["Content-Disposition"]

    pages = pdf_pages(download.content)
    cover, rosters = pages[0], pages[1:]
    assert "Friday Skirmish" in cover and "Edition 7" in cover
    assert "Skirmish, 750–1000 points" in cover
    assert "Players 3 (2 lists submitted)" in cover
    assert "(Europe/London)" in cover
    assert "carol no list submitted" in cover
    for entry in lists:
        assert f"{entry.player.username} {entry.document['name']}" in cover
        assert f"{entry.points} Legal" in cover
    # One roster each, in the dashboard's order, under the event's edition.
    assert len(rosters) == 2
    for roster, entry in zip(rosters, lists, strict=True):
        assert f"Player: {entry.player.username}" in roster
        assert entry.document["name"] in roster
        assert f"{entry.points} pts Legal" in roster
        assert "Edition 7" in roster
    assert "Orks" in rosters[1] and "List 2 of 2 · Friday Skirmish" in rosters[1]


def test_an_illegal_list_prints_with_its_problem_codes(organiser, event: Event) -> None:
    client, user = player("dave")
    event.join(user)
    fleet = legal_fleet(user, name="Half a Fleet")
    fleet.remove(fleet.catalog(), 0)
    Event.objects.filter(pk=event.pk).update(allow_illegal=True)
    assert client.post(f"/events/{event.token}/submit/", {"fleet": fleet.pk}).status_code == 302
    entry = Entry.objects.get(player=user)
    assert entry.problems
    org, _ = organiser
    pack = EventPack.objects.get(public_id=ask(org, event)["Location"].rstrip("/").split("/")[-1])
    cover, roster = pdf_pages(org.get(f"/events/{event.token}/pack/{pack.public_id}/pdf").content)
    assert "Not legal" in cover and all(code in cover for code in entry.problems)
    assert "Not legal: " + ", ".join(entry.problems) in roster


def test_only_the_organiser_may_ask_follow_or_download(
    organiser, event: Event, lists: list[Entry]
) -> None:
    client, _ = organiser
    ask(client, event)
    pack = EventPack.objects.get()
    participant = Client()
    participant.force_login(lists[0].player)
    _, stranger_user = player("stranger")
    stranger = Client()
    stranger.force_login(stranger_user)
    urls = [
        f"/events/{event.token}/pack/{pack.public_id}/",
        f"/events/{event.token}/pack/{pack.public_id}/pdf",
    ]
    for other in (participant, stranger):
        assert ask(other, event).status_code == 404
        for url in urls:
            assert other.get(url).status_code == 404
    for url in [f"/events/{event.token}/pack/", *urls]:  # visitors sign in first, as for the
        anonymous = Client().post(url) if url.endswith("/pack/") else Client().get(url)
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert EventPack.objects.count() == 1
    # Another organiser's pack is not found under this event either.
    other_client, _ = player("other-organiser")
    assert other_client.post("/events/new/", form_data(name="Elsewhere")).status_code == 302
    elsewhere = Event.objects.get(name="Elsewhere")
    assert other_client.get(f"/events/{elsewhere.token}/pack/{pack.public_id}/").status_code == 404
    # Asking needs a POST.
    assert client.get(f"/events/{event.token}/pack/").status_code == 405


def test_the_progress_page_follows_the_worker(
    organiser, event: Event, lists: list[Entry], monkeypatch
) -> None:
    monkeypatch.setattr(EventPack, "enqueue", lambda self: None)  # no worker takes it
    client, _ = organiser
    ask(client, event)
    pack = EventPack.objects.get()
    waiting = client.get(pack.get_absolute_url())
    body = waiting.content.decode()
    assert "Waiting for a print worker…" in body and "Download the PDF" not in body
    assert 'http-equiv="refresh"' in body  # without JavaScript the page refreshes itself
    assert waiting["Cache-Control"] == "private, no-store"
    assert pack.claim()
    pack.advance(3)  # the second roster
    partial = client.get(
        pack.get_absolute_url(), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="event-pack"
    ).content.decode()
    assert "Making the roster 2 of 2…" in partial and "<html" not in partial
    assert '<progress max="5" value="4">' in partial
    assert client.get(f"/events/{event.token}/pack/{pack.public_id}/pdf").status_code == 404
    pack.fail("The lists could not be printed.")
    assert "The lists could not be printed." in client.get(pack.get_absolute_url()).content.decode()


def test_the_same_lists_lead_to_the_same_pack_and_a_new_submission_to_a_new_one(
    organiser, event: Event, lists: list[Entry]
) -> None:
    client, _ = organiser
    first = ask(client, event)["Location"]
    assert ask(client, event)["Location"] == first
    assert EventPack.objects.count() == 1
    # Bob submits again before the deadline: a snapshot taken later is a new pack.
    bob = lists[1].player
    again = Client()
    again.force_login(bob)
    fleet = legal_fleet(bob, faction="orks", name="Bob's Second Waaagh")
    assert again.post(f"/events/{event.token}/submit/", {"fleet": fleet.pk}).status_code == 302
    second = ask(client, event)["Location"]
    assert second != first and EventPack.objects.count() == 2
    new = EventPack.objects.get(public_id=second.rstrip("/").split("/")[-1])
    assert (
        "Bob's Second Waaagh"
        in pdf_pages(client.get(f"/events/{event.token}/pack/{new.public_id}/pdf").content)[2]
    )
    # After the deadline, the same lists: still the same pack.
    close(event, reveal_in=timedelta(hours=2))
    assert ask(client, event)["Location"] == second


def test_r155_the_print_queue_bounds_apply(
    organiser, event: Event, lists: list[Entry], monkeypatch, settings
) -> None:
    monkeypatch.setattr(EventPack, "enqueue", lambda self: None)  # nothing finishes
    settings.RENDER_MAX_ACTIVE_PER_OWNER = 1
    client, _ = organiser
    ask(client, event)
    bob = lists[1].player
    again = Client()
    again.force_login(bob)
    fleet = legal_fleet(bob, faction="orks", name="Another")
    again.post(f"/events/{event.token}/submit/", {"fleet": fleet.pk})
    refused = ask(client, event)
    assert refused.status_code == 429
    assert (
        "You already have 1 prints of an event&#x27;s lists being made" in refused.content.decode()
    )
    assert EventPack.objects.count() == 1
    settings.RENDER_MAX_ACTIVE_PER_OWNER = 3
    settings.RENDER_MAX_QUEUED = 1
    assert ask(client, event).status_code == 503
    assert EventPack.objects.count() == 1
