"""The account page: who you are, your fleets, your email (changed only with your password)."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from pytest_django.asserts import assertInHTML

from fleetbuilder.fleets.models import Fleet

PASSWORD = "Ironclad-Lunar-1138"


def test_the_account_page_needs_a_login(client: Client, db) -> None:
    response = client.get("/accounts/")
    assert response.headers["Location"] == "/accounts/login/?next=/accounts/"


def test_the_account_page_counts_saved_and_trashed_fleets(
    client: Client, player, build: Callable, log_in: Callable
) -> None:
    log_in(client)
    build(client, "One")
    gone = build(client, "Two")
    client.post(f"/fleets/{gone.pk}/trash/")
    html = client.get("/accounts/").content.decode()
    assert "rhaine@example.com" in html
    assertInHTML('<a href="/fleets/">1 saved</a>', html)
    assertInHTML('<a href="/fleets/trash/">1 in the trash</a>', html)
    assertInHTML('<a href="/fleets/export.zip" download>download all (.zip)</a>', html)


def test_the_email_changes_with_the_current_password(
    client: Client, player, log_in: Callable
) -> None:
    log_in(client)
    response = client.post("/accounts/", {"email": "new@example.com", "password": PASSWORD})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.email == "new@example.com"
    assert "Your email address is saved." in client.get("/accounts/").content.decode()


def test_a_wrong_password_or_a_taken_email_changes_nothing(
    client: Client, player, django_user_model, log_in: Callable
) -> None:
    django_user_model.objects.create_user("voss", "voss@example.com", PASSWORD)
    log_in(client)
    wrong = client.post("/accounts/", {"email": "new@example.com", "password": "not-it"})
    assert wrong.status_code == 400
    assert "That is not your current password." in wrong.content.decode()
    taken = client.post("/accounts/", {"email": "VOSS@example.com", "password": PASSWORD})
    assert "Another account already uses this email address." in taken.content.decode()
    player.refresh_from_db()
    assert player.email == "rhaine@example.com"


def test_the_email_can_be_removed(client: Client, player, log_in: Callable) -> None:
    log_in(client)
    client.post("/accounts/", {"email": "", "password": PASSWORD})
    player.refresh_from_db()
    assert player.email == ""


def test_deleting_the_account_takes_its_fleets_and_only_its_own(
    client: Client, player, build: Callable, log_in: Callable
) -> None:
    log_in(client)
    build(client, "Mine")
    stranger = Client()
    theirs = build(stranger, "Theirs")
    page = client.get("/accounts/delete/").content.decode()
    assert "Delete “rhaine” and its 1 fleet forever?" in page
    assertInHTML('<a href="/fleets/export.zip" download>Download your saved fleets first</a>', page)
    wrong = client.post("/accounts/delete/", {"password": "not-it"})
    assert wrong.status_code == 400
    assert "That is not your password; nothing was deleted." in wrong.content.decode()
    assert Fleet.objects.filter(owner=player).count() == 1
    assert client.get("/accounts/delete/").status_code == 200  # still logged in
    response = client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.headers["Location"] == "/fleets/"
    assert "Your account and its fleets are deleted." in client.get("/fleets/").content.decode()
    assert not type(player).objects.filter(pk=player.pk).exists()
    assert list(Fleet.objects.values_list("pk", flat=True)) == [theirs.pk]
    assert "_auth_user_id" not in client.session


def test_deleting_needs_a_login_and_a_post(client: Client, player) -> None:
    assert (
        client.get("/accounts/delete/").headers["Location"]
        == "/accounts/login/?next=/accounts/delete/"
    )
    client.force_login(player)
    assert client.put("/accounts/delete/").status_code == 405
