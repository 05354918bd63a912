"""Signing up: an account with an optional email, logged in at once."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client
from pytest_django.asserts import assertInHTML

User = get_user_model()
GOOD = "Ironclad-Lunar-1138"


def sign_up(
    client: Client,
    username: str = "voss",
    email: str = "",
    password: str = GOOD,
    confirm: str | None = None,
    **extra: str,
):
    data = {
        "username": username,
        "email": email,
        "password1": password,
        "password2": password if confirm is None else confirm,
        **extra,
    }
    return client.post("/accounts/signup/", data)


def test_the_sign_up_page_has_labelled_fields(client: Client, db) -> None:
    html = client.get("/accounts/signup/").content.decode()
    for field, label in (
        ("username", "Username"),
        ("email", "Email"),
        ("password1", "Password"),
        ("password2", "Password confirmation"),
    ):
        assertInHTML(f'<label for="id_{field}">{label}</label>', html)
        assert f'id="id_{field}"' in html
    assert "Optional. Only used to send you a link if you forget your password." in html


def test_signing_up_without_an_email_logs_in_and_lands_on_saved_fleets(client: Client, db) -> None:
    response = sign_up(client)
    assert response.status_code == 302
    assert response.headers["Location"] == "/fleets/"
    user = User.objects.get(username="voss")
    assert user.email == ""
    assert user.check_password(GOOD)
    page = client.get("/fleets/").content.decode()
    assert "Welcome, voss: your account is ready." in page
    assert "Every fleet of your account" in page
    assert "voss" in client.get("/").content.decode()  # the header names the account


def test_sign_up_keeps_the_email_and_follows_a_safe_next(client: Client, db) -> None:
    response = sign_up(client, email="voss@example.com", next="/gunnery/")
    assert response.headers["Location"] == "/gunnery/"
    assert User.objects.get(username="voss").email == "voss@example.com"


def test_sign_up_ignores_a_next_to_another_site(client: Client, db) -> None:
    response = sign_up(client, next="https://evil.example/")
    assert response.headers["Location"] == "/fleets/"


def test_a_taken_username_any_case_is_refused_and_nothing_is_created(
    client: Client, player
) -> None:
    response = sign_up(client, username="RHAINE")
    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


def test_an_email_another_account_uses_is_refused(client: Client, player) -> None:
    response = sign_up(client, email="Rhaine@Example.com")
    assert response.status_code == 400
    assert "An account already uses this email address." in response.content.decode()
    assert not User.objects.filter(username="voss").exists()


def test_weak_or_mismatched_passwords_are_refused_with_reasons(client: Client, db) -> None:
    html = sign_up(client, password="12345678").content.decode()
    assert "This password is entirely numeric." in html
    assert "This password is too common." in html
    html = sign_up(client, confirm="Ironclad-Lunar-1139").content.decode()
    assert "The two password fields didn’t match." in html
    assert not User.objects.exists()


def test_a_logged_in_player_going_to_sign_up_goes_to_their_fleets(client: Client, player) -> None:
    client.force_login(player)
    response = client.get("/accounts/signup/")
    assert response.status_code == 302
    assert response.headers["Location"] == "/fleets/"


def test_every_error_is_tied_to_its_field(client, player) -> None:
    """Screen readers follow aria-describedby: each id it names is on the page."""
    import re

    html = client.post(
        "/accounts/signup/",
        {"username": "rhaine", "email": "x", "password1": "1", "password2": "2"},
    ).content.decode()
    described = re.findall(r'aria-describedby="([^"]+)"', html)
    assert described
    for ids in described:
        for id_ in ids.split():
            assert f'id="{id_}"' in html, id_
    assertInHTML(
        '<span class="field__error" id="id_email_error">Enter a valid email address.</span>', html
    )
