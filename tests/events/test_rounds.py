"""Rounds, results and standings at an event: the organiser pairs Swiss
rounds from the reveal, records results, and everyone holding the link sees the standings.
Pins R-175 (R-170's rules themselves are pinned in tests/rules_core/test_swiss.py)."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from fleetbuilder.events.models import Entry, Event, EventChange, Game
from rules_core import swiss

from .test_events import close, legal_fleet, player

pytestmark = pytest.mark.django_db

FACTIONS = ("imperial-navy", "orks", "craftworld-eldar", "archenemy", "necrons")


def reveal(event: Event) -> None:
    """The deadline and the reveal have both passed."""
    now = timezone.now()
    Event.objects.filter(pk=event.pk).update(
        deadline=now - timedelta(minutes=2), reveal_at=now - timedelta(minutes=1)
    )
    event.refresh_from_db()


@pytest.fixture
def field(event: Event) -> dict[str, tuple[Client, object]]:
    """Five players with a submitted list, and one (``idle``) who joined without one."""
    players = {}
    for name, faction in zip(("ann", "ben", "cat", "dan", "eve"), FACTIONS, strict=True):
        client, user = player(name)
        event.join(user)
        event.submit(user, legal_fleet(user, faction=faction))
        players[name] = (client, user)
    players["idle"] = player("idle")
    event.join(players["idle"][1])
    return players


def entry_of(user) -> Entry:
    return Entry.objects.get(player=user)


def names(game: Game) -> set[str]:
    return {game.a.player.get_username(), game.b.player.get_username() if game.b else "bye"}


def play_round(org: Client, event: Event, number: int) -> None:
    """Record every game of round ``number``: the first-listed player wins 10–4."""
    for game in Game.objects.filter(event=event, round=number, b__isnull=False):
        response = org.post(
            f"/events/{event.token}/games/{game.pk}/result/",
            {"result": "a", "vp_a": "10", "vp_b": "4"},
        )
        assert response.status_code == 302


def test_r175_rounds_are_paired_only_from_the_reveal(event: Event, organiser, field) -> None:
    org, _ = organiser
    pair = f"/events/{event.token}/rounds/pair/"
    for phase_set in (lambda: None, lambda: close(event)):  # open, then locked
        phase_set()
        page = org.post(pair, follow=True).content.decode()
        assert "Rounds are paired once the lists are revealed." in page
        assert not Game.objects.exists()
    reveal(event)
    page = org.post(pair, follow=True).content.decode()
    assert "Round 1 is paired." in page
    assert Game.objects.filter(event=event, round=1).count() == 3  # two tables and a bye


def test_r175_players_with_lists_are_paired_and_the_odd_one_has_a_bye(
    event: Event, organiser, field
) -> None:
    org, _ = organiser
    reveal(event)
    org.post(f"/events/{event.token}/rounds/pair/")
    games = list(Game.objects.filter(event=event).select_related("a__player", "b__player"))
    paired = set().union(*(names(g) for g in games)) - {"bye"}
    assert paired == {"ann", "ben", "cat", "dan", "eve"}  # idle has no list: not paired
    assert [g.table for g in games] == [1, 2, None]
    # Round 1 is drawn from the event's seed, fixed when the event was made.
    ids = [str(entry_of(field[n][1]).pk) for n in ("ann", "ben", "cat", "dan", "eve")]
    expected = swiss.pair_round(ids, [], seed=event.seed)
    assert [(str(g.a_id), str(g.b_id) if g.b_id else None) for g in games] == [
        (p.a, p.b) for p in expected
    ]
    page = org.get(f"/events/{event.token}/rounds/").content.decode()
    assert "Not paired, with no list submitted: <bdi>idle</bdi>" in page
    log = EventChange.objects.get(event=event, field="rounds")
    assert log.new.startswith("round 1 paired: 2 tables, a bye for ")


def test_r175_the_next_round_waits_for_every_result_and_avoids_rematches(
    event: Event, organiser, field
) -> None:
    org, _ = organiser
    reveal(event)
    pair = f"/events/{event.token}/rounds/pair/"
    org.post(pair)
    # A second click before the results: refused, one round stays.
    page = org.post(pair, follow=True).content.decode()
    assert "has no result; record it before pairing on" in page
    assert set(Game.objects.values_list("round", flat=True)) == {1}
    play_round(org, event, 1)
    org.post(pair)
    first = {
        frozenset(names(g))
        for g in Game.objects.filter(round=1).select_related("a__player", "b__player")
        if not g.is_bye
    }
    second = Game.objects.filter(round=2).select_related("a__player", "b__player")
    assert not first & {frozenset(names(g)) for g in second if not g.is_bye}
    byes = [g.a_id for g in Game.objects.filter(b__isnull=True)]
    assert len(byes) == 2 and len(set(byes)) == 2  # nobody has a second bye


def test_r175_the_last_round_is_taken_back_only_while_it_has_no_result(
    event: Event, organiser, field
) -> None:
    org, _ = organiser
    reveal(event)
    org.post(f"/events/{event.token}/rounds/pair/")
    unpair = f"/events/{event.token}/rounds/unpair/"
    game = Game.objects.filter(b__isnull=False).first()
    org.post(
        f"/events/{event.token}/games/{game.pk}/result/",
        {"result": "draw", "vp_a": "5", "vp_b": "5"},
    )
    page = org.post(unpair, follow=True).content.decode()
    assert "Round 1 has results; clear them before taking it back." in page
    assert Game.objects.count() == 3
    org.post(f"/events/{event.token}/games/{game.pk}/result/", {"result": ""})
    assert "Round 1 is taken back." in org.post(unpair, follow=True).content.decode()
    assert not Game.objects.exists()
    assert (
        list(EventChange.objects.filter(field="rounds").values_list("new", flat=True))[-1]
        == "round 1 taken back"
    )


def test_r175_results_are_recorded_corrected_and_logged(event: Event, organiser, field) -> None:
    org, _ = organiser
    reveal(event)
    org.post(f"/events/{event.token}/rounds/pair/")
    game = Game.objects.filter(table=1).select_related("a__player", "b__player").get()
    url = f"/events/{event.token}/games/{game.pk}/result/"
    response = org.post(url, {"result": "b", "vp_a": "3", "vp_b": "12"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Table 1: saved." in body and 'id="game-' in body and "<html" not in body
    org.post(url, {"result": "draw", "vp_a": "7", "vp_b": "7"})  # a correction
    game.refresh_from_db()
    assert (game.result, game.vp_a, game.vp_b) == ("draw", 7, 7)
    a, b = game.a.player.get_username(), game.b.player.get_username()
    log = list(EventChange.objects.filter(field="round 1 table 1").values_list("old", "new"))
    assert log == [
        ("not played", f"{b} won, {a} 3–12 {b}"),
        (f"{b} won, {a} 3–12 {b}", f"draw, {a} 7–7 {b}"),
    ]
    # The same result again changes and logs nothing.
    assert (
        "nothing changed"
        in org.post(
            url, {"result": "draw", "vp_a": "7", "vp_b": "7"}, HTTP_HX_REQUEST="true"
        ).content.decode()
    )
    assert EventChange.objects.filter(field="round 1 table 1").count() == 2


@pytest.mark.parametrize(
    "data, message",
    [
        ({"result": "a", "vp_a": "-1", "vp_b": "0"}, "greater than or equal to 0"),
        ({"result": "a", "vp_a": "100001", "vp_b": "0"}, "less than or equal to 100000"),
        ({"result": "a", "vp_a": "12.5", "vp_b": "0"}, "Enter a whole number"),
        ({"result": "", "vp_a": "4", "vp_b": "0"}, "Victory points need a result"),
        ({"result": "a'; DROP TABLE", "vp_a": "1"}, "Select a valid choice"),
        ({"result": "draw", "vp_a": "٣", "vp_b": "0"}, ""),  # Arabic-Indic 3: Django reads it
    ],
)
def test_r175_a_bad_result_is_refused_and_changes_nothing(
    event: Event, organiser, field, data, message
) -> None:
    org, _ = organiser
    reveal(event)
    org.post(f"/events/{event.token}/rounds/pair/")
    game = Game.objects.get(table=1)
    response = org.post(
        f"/events/{event.token}/games/{game.pk}/result/", data, HTTP_HX_REQUEST="true"
    )
    game.refresh_from_db()
    if not message:  # a number Django's form reads as 3: taken, as 3
        assert response.status_code == 200 and (game.result, game.vp_a) == ("draw", 3)
        return
    assert response.status_code == 400
    assert message in response.content.decode() and 'role="alert"' in response.content.decode()
    assert (game.result, game.vp_a, game.vp_b) == ("", 0, 0)
    assert not EventChange.objects.filter(field__startswith="round 1 table").exists()


def test_r175_a_bye_has_no_result_and_another_events_game_is_404(
    event: Event, organiser, field
) -> None:
    org, org_user = organiser
    reveal(event)
    org.post(f"/events/{event.token}/rounds/pair/")
    bye = Game.objects.get(b__isnull=True)
    response = org.post(
        f"/events/{event.token}/games/{bye.pk}/result/", {"result": "a"}, follow=True
    )
    assert "A bye has no result to record." in response.content.decode()
    other = Event.objects.create(
        organiser=org_user,
        name="Other",
        starts_at=event.starts_at,
        edition=7,
        game_size="skirmish",
        deadline=event.deadline,
        reveal_at=event.reveal_at,
    )
    game = Game.objects.get(table=1)
    assert (
        org.post(f"/events/{other.token}/games/{game.pk}/result/", {"result": "a"}).status_code
        == 404
    )
    # Nobody but the organiser reaches the rounds' controls: the same 404 as no event at all.
    ann = field["ann"][0]
    for url in (
        f"/events/{event.token}/rounds/",
        f"/events/{event.token}/rounds/pair/",
        f"/events/{event.token}/rounds/unpair/",
        f"/events/{event.token}/games/{game.pk}/result/",
    ):
        method = ann.get if url.endswith("/rounds/") else ann.post
        assert method(url, {"result": "a"}).status_code == 404
    game.refresh_from_db()
    assert game.result == "" and Game.objects.filter(event=event, round=1).count() == 3


def test_r175_a_removed_player_is_withdrawn_not_paired_and_still_ranked(
    event: Event, organiser, field
) -> None:
    org, _ = organiser
    reveal(event)
    org.post(f"/events/{event.token}/rounds/pair/")
    play_round(org, event, 1)
    gone = entry_of(field["cat"][1])
    org.post(f"/events/{event.token}/players/{gone.pk}/review/", {"action": "remove"})
    org.post(f"/events/{event.token}/rounds/pair/")
    second = Game.objects.filter(round=2)
    assert gone.pk not in {g.a_id for g in second} | {g.b_id for g in second}
    assert second.count() == 2 and not second.filter(b__isnull=True).exists()  # 4: no bye
    page = Client().get(f"/events/{event.token}/standings/").content.decode()
    assert '<bdi>cat</bdi> <span class="muted small">(withdrawn)</span>' in page


def test_r175_standings_page_and_csv_follow_r170(event: Event, organiser, field) -> None:
    org, _ = organiser
    reveal(event)
    pair = f"/events/{event.token}/rounds/pair/"
    for number in (1, 2):
        org.post(pair)
        play_round(org, event, number)
    state = event.swiss_state()
    expected = swiss.standings(state.ids, state.swiss_games)
    by_id = {str(e.pk): e.player.get_username() for e in state.entries}
    response = Client().get(f"/events/{event.token}/standings.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == list(swiss.CSV_HEADER)
    assert [(r[0], r[1], r[2]) for r in rows[1:]] == [
        (str(s.rank), by_id[s.player], str(s.score)) for s in expected
    ]
    assert sum(int(r[2]) for r in rows[1:]) == 3 * 2 * 2 + 3 * 2  # 2 rounds: 2 wins, 1 bye
    page = Client().get(f"/events/{event.token}/standings/").content.decode()
    order = [page.index(f"<bdi>{by_id[s.player]}</bdi>") for s in expected]
    assert order == sorted(order)
    assert "After 2 rounds." in page and "Round 2" in page and "Round 1" in page


def test_r175_a_hostile_name_is_defused_in_the_standings_csv(
    event: Event, organiser, field
) -> None:
    org, _ = organiser
    client, user = player("@SUM(A1)")
    event.join(user)
    event.submit(user, legal_fleet(user))
    reveal(event)
    org.post(f"/events/{event.token}/rounds/pair/")
    text = org.get(f"/events/{event.token}/standings.csv").content.decode()
    assert "'@SUM(A1)" in text and "\r\n@SUM" not in text and ",@SUM" not in text


def test_r175_rounds_show_to_everyone_from_the_reveal_factions_as_r173_says(
    event: Event, organiser, field
) -> None:
    org, _ = organiser
    reveal(event)
    org.post(f"/events/{event.token}/rounds/pair/")
    play_round(org, event, 1)
    ann = field["ann"][0]
    anonymous = Client()
    for who in (ann, anonymous):
        page = who.get(event.get_absolute_url()).content.decode()
        assert "Round 1" in page and "Table 1" in page
        assert "Standings and every round" in page
    # A participant sees factions after the reveal; a visitor never does.
    assert "Orks" in ann.get(f"/events/{event.token}/standings/").content.decode()
    assert "Orks" not in anonymous.get(f"/events/{event.token}/standings/").content.decode()
    # If the organiser moves the reveal later again, the rounds hide from everyone else.
    Event.objects.filter(pk=event.pk).update(reveal_at=timezone.now() + timedelta(hours=1))
    for who in (ann, anonymous):
        page = who.get(f"/events/{event.token}/standings/").content.decode()
        assert "No round has been played yet." in page and "Table 1" not in page
        assert who.get(f"/events/{event.token}/standings.csv").status_code == 404
        assert "Table 1" not in who.get(event.get_absolute_url()).content.decode()
    assert "Table 1" in org.get(f"/events/{event.token}/standings/").content.decode()
