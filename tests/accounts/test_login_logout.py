"""Logging in and out, and the brake on password guessing."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.core import mail
from django.test import Client

from fleetbuilder.accounts import throttle

PASSWORD = "Ironclad-Lunar-1138"
REFUSED = "Please enter a correct username and password."


def test_logging_in_lands_on_saved_fleets_with_the_name_in_the_header(
        client: Client, player, log_in: Callable) -> None:  # noqa: ANN001
    response = log_in(client)
    assert response.status_code == 302
    assert response.headers["Location"] == "/fleets/"
    header = client.get("/").content.decode()
    assert "rhaine" in header
    assert ">Log out</button>" in header
    assert ">Log in</a>" not in header


def test_login_follows_next(client: Client, player) -> None:  # noqa: ANN001
    response = client.post("/accounts/login/?next=/gunnery/",
                           {"username": "rhaine", "password": PASSWORD, "next": "/gunnery/"})
    assert response.headers["Location"] == "/gunnery/"


def test_a_wrong_password_or_unknown_user_gets_the_same_refusal(
        client: Client, player, log_in: Callable) -> None:  # noqa: ANN001
    wrong_password = log_in(client, password="not-it")
    unknown_user = log_in(client, username="nobody")
    for response in (wrong_password, unknown_user):
        assert response.status_code == 200
        assert REFUSED in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_header_offers_log_in_and_sign_up_to_visitors(client: Client, db) -> None:  # noqa: ANN001
    html = client.get("/ships/").content.decode()
    assert 'href="/accounts/login/?next=/ships/"' in html
    assert 'href="/accounts/signup/?next=/ships/"' in html


def test_log_out_is_a_post_and_ends_the_session(client: Client, player,
                                                log_in: Callable) -> None:  # noqa: ANN001
    log_in(client)
    assert client.get("/accounts/logout/").status_code == 405
    assert "_auth_user_id" in client.session
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "_auth_user_id" not in client.session
    assert client.get("/accounts/").status_code == 302  # the account page wants a login again


def test_log_out_needs_the_csrf_token(player) -> None:  # noqa: ANN001
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    assert browser.post("/accounts/logout/").status_code == 403
    assert "_auth_user_id" in browser.session


def test_after_ten_failures_even_the_right_password_waits(client: Client, player,
                                                          log_in: Callable) -> None:  # noqa: ANN001
    for _ in range(throttle.MAX_FAILURES):
        assert REFUSED in log_in(client, password="guess").content.decode()
    response = log_in(client)
    assert response.status_code == 200
    assert "Too many failed attempts to log in as this user." in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_brake_is_per_username(client: Client, player, django_user_model,
                                   log_in: Callable) -> None:  # noqa: ANN001
    django_user_model.objects.create_user("voss", password=PASSWORD)
    for _ in range(throttle.MAX_FAILURES):
        log_in(client, password="guess")
    assert log_in(client, username="voss").status_code == 302


def test_a_success_clears_earlier_failures(client: Client, player, log_in: Callable) -> None:  # noqa: ANN001
    for _ in range(throttle.MAX_FAILURES - 1):
        log_in(client, password="guess")
    assert log_in(client).status_code == 302
    client.post("/accounts/logout/")
    for _ in range(throttle.MAX_FAILURES - 1):
        log_in(client, password="guess")
    assert log_in(client).status_code == 302


def test_a_password_reset_lifts_the_brake(client: Client, player, log_in: Callable) -> None:  # noqa: ANN001
    for _ in range(throttle.MAX_FAILURES):
        log_in(client, password="guess")
    client.post("/accounts/password/reset/", {"email": "rhaine@example.com"})
    link = re.search(r"http://testserver(\S+)", mail.outbox[0].body).group(1)
    url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(url, {"new_password1": "Retribution-Gothic-42",
                      "new_password2": "Retribution-Gothic-42"})
    client.post("/accounts/logout/")
    assert log_in(client, password="Retribution-Gothic-42").status_code == 302
