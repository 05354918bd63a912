"""Changing a password, and resetting a forgotten one by the link in an email."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

PASSWORD = "Ironclad-Lunar-1138"
NEW = "Retribution-Gothic-42"
LINK = re.compile(r"http://testserver(/accounts/password/reset/[^/\s]+/[^/\s]+/)")


def test_changing_the_password_keeps_the_player_logged_in(
    client: Client, player, log_in: Callable
) -> None:
    log_in(client)
    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/accounts/password/changed/"
    assert "Password changed" in client.get("/accounts/password/changed/").content.decode()
    assert client.get("/accounts/").status_code == 200  # still logged in
    client.post("/accounts/logout/")
    assert log_in(client, password=PASSWORD).status_code == 200  # the old one is refused
    assert log_in(client, password=NEW).status_code == 302


def test_a_wrong_old_password_changes_nothing(client: Client, player, log_in: Callable) -> None:
    log_in(client)
    response = client.post(
        "/accounts/password/",
        {"old_password": "not-it", "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 200
    assert "Your old password was entered incorrectly." in response.content.decode()
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_changing_the_password_needs_a_login(client: Client, db) -> None:
    response = client.get("/accounts/password/")
    assert response.status_code == 302
    assert response.headers["Location"] == "/accounts/login/?next=/accounts/password/"


def test_a_reset_link_arrives_by_email_and_sets_a_new_password(
    client: Client, player, log_in: Callable
) -> None:
    response = client.post("/accounts/password/reset/", {"email": "RHAINE@example.com"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/accounts/password/reset/sent/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["rhaine@example.com"]
    assert message.subject == "Reset your Void Command Fleet Builder password"
    assert "Hello rhaine," in message.body
    link = LINK.search(message.body)
    assert link, message.body

    # The link redirects to a token-free URL, then takes the new password.
    form_page = client.get(link.group(1), follow=True)
    assert "Choose a new password" in form_page.content.decode()
    url = form_page.redirect_chain[-1][0]
    response = client.post(url, {"new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302
    assert response.headers["Location"] == "/accounts/password/reset/done/"
    assert "you are logged in" in client.get("/accounts/password/reset/done/").content.decode()
    player.refresh_from_db()
    assert player.check_password(NEW)

    # Used once, the link is dead.
    client.post("/accounts/logout/")
    again = client.get(link.group(1), follow=True).content.decode()
    assert "This link no longer works" in again


def test_an_unknown_email_looks_the_same_and_sends_nothing(client: Client, player) -> None:
    known = client.post("/accounts/password/reset/", {"email": "rhaine@example.com"})
    unknown = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 302
    assert known.headers["Location"] == unknown.headers["Location"]
    assert len(mail.outbox) == 1  # only the real account's mail


def test_an_account_without_an_email_cannot_be_reset(client: Client, db) -> None:
    get_user_model().objects.create_user("quiet", "", PASSWORD)
    client.post("/accounts/password/reset/", {"email": ""})
    assert mail.outbox == []


def test_at_most_three_reset_mails_an_hour_to_one_address(client: Client, player) -> None:
    for _ in range(5):
        response = client.post("/accounts/password/reset/", {"email": "rhaine@example.com"})
        assert response.headers["Location"] == "/accounts/password/reset/sent/"
    assert len(mail.outbox) == 3
