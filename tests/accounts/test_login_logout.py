"""Logging in and out (the brake on password guessing: test_login_lockout.py)."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from pytest_django.asserts import assertInHTML

PASSWORD = "Ironclad-Lunar-1138"
REFUSED = "Please enter a correct username and password."


def test_logging_in_lands_on_saved_fleets_with_the_name_in_the_header(
    client: Client, player, log_in: Callable
) -> None:
    response = log_in(client)
    assert response.status_code == 302
    assert response.headers["Location"] == "/fleets/"
    header = client.get("/").content.decode()
    assert "rhaine" in header
    assertInHTML('<button type="submit" class="account-nav__logout">Log out</button>', header)
    assert ">Log in</a>" not in header


def test_login_follows_next(client: Client, player) -> None:
    response = client.post(
        "/accounts/login/?next=/gunnery/",
        {"username": "rhaine", "password": PASSWORD, "next": "/gunnery/"},
    )
    assert response.headers["Location"] == "/gunnery/"


def test_a_wrong_password_or_unknown_user_gets_the_same_refusal(
    client: Client, player, log_in: Callable
) -> None:
    wrong_password = log_in(client, password="not-it")
    unknown_user = log_in(client, username="nobody")
    for response in (wrong_password, unknown_user):
        assert response.status_code == 200
        assert REFUSED in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_header_offers_log_in_and_sign_up_to_visitors(client: Client, db) -> None:
    html = client.get("/ships/").content.decode()
    assert 'href="/accounts/login/?next=/ships/"' in html
    assert 'href="/accounts/signup/?next=/ships/"' in html


def test_log_out_is_a_post_and_ends_the_session(client: Client, player, log_in: Callable) -> None:
    log_in(client)
    assert client.get("/accounts/logout/").status_code == 405
    assert "_auth_user_id" in client.session
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "_auth_user_id" not in client.session
    assert client.get("/accounts/").status_code == 302  # the account page wants a login again


def test_log_out_needs_the_csrf_token(player) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    assert browser.post("/accounts/logout/").status_code == 403
    assert "_auth_user_id" in browser.session
