"""Fleets built before logging in become the account's at login — only this browser's."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core import mail
from django.test import Client

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.ownership import OWNER_TOKEN_SESSION_KEY

PASSWORD = "Ironclad-Lunar-1138"


def names_on_saved_fleets(client: Client) -> str:
    return client.get("/fleets/").content.decode()


def test_logging_in_moves_this_browsers_fleets_to_the_account(
    client: Client, player, build: Callable, log_in: Callable
) -> None:
    first = build(client, "Gothic Patrol")
    second = build(client, "Bakka Reserve", faction="adeptus-astartes")
    response = log_in(client)
    assert response.status_code == 302
    for fleet in (first, second):
        fleet.refresh_from_db()
        assert fleet.owner == player
    page = names_on_saved_fleets(client)
    assert "2 fleets built in this browser are now saved in your account." in page
    assert "Gothic Patrol" in page and "Bakka Reserve" in page

    # Logged in elsewhere (a new browser), the account has them too.
    elsewhere = Client()
    log_in(elsewhere)
    page = names_on_saved_fleets(elsewhere)
    assert "Gothic Patrol" in page and "Bakka Reserve" in page
    assert elsewhere.get(first.get_absolute_url()).status_code == 200


def test_another_browsers_anonymous_fleets_stay_where_they_are(
    client: Client, player, build: Callable, log_in: Callable
) -> None:
    mine = build(client, "Mine")
    other_browser = Client()
    theirs = build(other_browser, "Theirs")
    log_in(client)
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.owner == player
    assert theirs.owner is None
    assert theirs.session_key == other_browser.session[OWNER_TOKEN_SESSION_KEY]
    assert "Theirs" not in names_on_saved_fleets(client)
    assert "Theirs" in names_on_saved_fleets(other_browser)
    assert client.get(theirs.get_absolute_url()).status_code == 404


def test_another_accounts_fleets_are_never_taken(
    client: Client, player, build: Callable, log_in: Callable
) -> None:
    voss = get_user_model().objects.create_user("voss", password=PASSWORD)
    other = Client()
    log_in(other, "voss")
    kept = build(other, "Voss's Armada")
    build(client, "Rhaine's Patrol")
    log_in(client)
    kept.refresh_from_db()
    assert kept.owner == voss
    assert "Voss's Armada" not in names_on_saved_fleets(client)


def test_trashed_fleets_move_too_and_stay_in_the_trash(
    client: Client, player, build: Callable, log_in: Callable
) -> None:
    fleet = build(client, "Scrapped Draft")
    client.post(f"/fleets/{fleet.pk}/trash/")
    log_in(client)
    fleet.refresh_from_db()
    assert fleet.owner == player and fleet.in_trash
    assert "Scrapped Draft" in client.get("/fleets/trash/").content.decode()


def test_signing_up_moves_this_browsers_fleets(client: Client, build: Callable, db) -> None:
    fleet = build(client, "Before I Had An Account")
    page = client.get("/accounts/signup/").content.decode()
    assert "The 1 fleet you built in this browser will move into it." in page
    client.post(
        "/accounts/signup/",
        {"username": "voss", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    fleet.refresh_from_db()
    assert fleet.owner == get_user_model().objects.get(username="voss")
    assert "1 fleet built in this browser is now saved in your account." in names_on_saved_fleets(
        client
    )


def test_a_login_with_nothing_built_moves_nothing(
    client: Client, player, build: Callable, log_in: Callable
) -> None:
    stranger = build(Client(), "Stranger's Fleet")
    assert "is now saved" not in log_in(client).content.decode()
    assert Fleet.objects.filter(owner=player).count() == 0
    stranger.refresh_from_db()
    assert stranger.owner is None


def test_after_logging_out_the_browser_no_longer_sees_the_accounts_fleets(
    client: Client, player, build: Callable, log_in: Callable
) -> None:
    fleet = build(client, "Kept Safe")
    log_in(client)
    client.post("/accounts/logout/")
    assert "Kept Safe" not in names_on_saved_fleets(client)
    assert client.get(fleet.get_absolute_url()).status_code == 404


def test_fleets_built_while_logged_in_belong_to_the_account(
    client: Client, player, build: Callable, log_in: Callable
) -> None:
    log_in(client)
    fleet = build(client, "Logged In Build")
    assert fleet.owner == player


def test_a_new_password_by_email_logs_in_and_moves_the_fleets(
    client: Client, player, build: Callable
) -> None:
    fleet = build(client, "Forgot My Password")
    client.post("/accounts/password/reset/", {"email": "rhaine@example.com"})
    link = re.search(r"http://testserver(\S+)", mail.outbox[0].body).group(1)
    url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(
        url, {"new_password1": "Retribution-Gothic-42", "new_password2": "Retribution-Gothic-42"}
    )
    fleet.refresh_from_db()
    assert fleet.owner == player


def test_adopt_refuses_an_empty_token_or_an_anonymous_user(player) -> None:
    stray = Fleet.objects.create(
        name="No Token", faction="orks", game_size="patrol", session_key=""
    )
    assert Fleet.objects.adopt(player, "") == 0
    assert Fleet.objects.adopt(player, None) == 0
    assert Fleet.objects.adopt(AnonymousUser(), "some-token") == 0
    stray.refresh_from_db()
    assert stray.owner is None
