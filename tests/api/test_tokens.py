"""Personal API tokens on the account page: made (shown once), listed, revoked (yours only)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from fleetbuilder.api.models import ApiToken

from .conftest import PASSWORD, Api

pytestmark = pytest.mark.django_db


def _browser(username: str) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    browser = Client()
    browser.force_login(user)
    return browser, user


def test_the_account_page_has_an_api_tokens_section() -> None:
    browser, _ = _browser("rhaine")
    page = browser.get("/accounts/")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<h2 id="api-tokens">API tokens</h2>' in html
    assert "You have no API tokens." in html
    assert 'action="/api/tokens/new/"' in html and 'name="token-name"' in html


def test_a_token_is_shown_once_and_works(db) -> None:
    browser, user = _browser("rhaine")
    made = browser.post("/api/tokens/new/", {"token-name": "list printer"})
    assert made.status_code == 200
    assert "no-store" in made["Cache-Control"]
    raw = re.search(r'value="(vc_[A-Za-z0-9_-]{43})"', made.content.decode()).group(1)
    token = ApiToken.objects.get(user=user)
    assert token.name == "list printer" and token.prefix == raw[:8]
    assert Api(raw).get("/api/v1/fleets").status_code == 200
    # Afterwards the account page lists it by its first characters only.
    page = browser.get("/accounts/").content.decode()
    assert "list printer" in page and f"{raw[:8]}…" in page and raw not in page


def test_revoking_refuses_the_token_from_then_on(db) -> None:
    browser, user = _browser("rhaine")
    token, raw = ApiToken.issue(user, "nightly-sync")
    assert "nightly-sync" in browser.get("/accounts/").content.decode()
    response = browser.post(f"/api/tokens/{token.pk}/revoke/")
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    assert Api(raw).get("/api/v1/fleets").status_code == 401
    page = browser.get("/accounts/").content.decode()
    assert "is revoked" in page
    assert "<td>nightly-sync</td>" not in page


def test_another_players_token_is_404_and_stays_live(db) -> None:
    _, owner = _browser("rhaine")
    intruder, _ = _browser("vorn")
    token, raw = ApiToken.issue(owner, "script")
    assert intruder.post(f"/api/tokens/{token.pk}/revoke/").status_code == 404
    assert intruder.post(f"/api/tokens/{token.pk + 99}/revoke/").status_code == 404
    assert Api(raw).get("/api/v1/fleets").status_code == 200


def test_the_forms_need_a_session_csrf_and_post(db) -> None:
    browser, user = _browser("rhaine")
    token, _ = ApiToken.issue(user, "script")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post("/api/tokens/new/", {"token-name": "x"}).status_code == 403
    assert strict.post(f"/api/tokens/{token.pk}/revoke/").status_code == 403
    assert browser.get("/api/tokens/new/").status_code == 405
    assert browser.get(f"/api/tokens/{token.pk}/revoke/").status_code == 405
    anonymous = Client()
    assert anonymous.post("/api/tokens/new/").status_code == 302  # to the login page
    assert ApiToken.objects.filter(user=user).count() == 1
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_r94_applies_to_the_tokens_name(db) -> None:
    browser, user = _browser("rhaine")
    response = browser.post("/api/tokens/new/", {"token-name": "bad\u0007name"}, follow=True)
    assert "control character" in response.content.decode()
    assert not ApiToken.objects.filter(user=user).exists()
