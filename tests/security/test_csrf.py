"""CSRF: every URL of the site refuses a POST without a valid token (403), for a signed-in
player and for an anonymous browser, whatever the view does with POST. The URLs come from
Django's resolver, so a new POST endpoint is covered the day it is added."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import override_settings

from fleetbuilder.fleets.models import Fleet

from .conftest import CsrfClient, Route, fleet_state, walk

pytestmark = pytest.mark.django_db

# Views that take a POST without a token, and why.
CSRF_EXEMPT = {
    "ops:healthz": "a load balancer's probe: no session, no effect; a POST gets 405 "
    "(README, Operations)",
}
DUMMY = {
    "pk": "1",
    "unit": "0",
    "share_id": "AAAAAAAAAAAAAAAAAAAAAA",
    "code": "v1.AAAA",
    "public_id": "AAAAAAAAAAAAAAAAAAAAAA",
    "side": "a",
    "faction": "imperial-navy",
    "ship": "lunar-class-cruiser",
    "uidb64": "MQ",
    "token": "set-password",
    "object_id": "1",
    "url": "nowhere/",
    "content_type_id": "1",
    "id": "1",
    "app_label": "fleets",
    "variant": "0",
    "fleet_id": "1",
    "battle": "1",
    "number": "1",
}
# The API (/api/v1/) never reads the session cookie, so a cross-site POST acts as nobody and
# needs no CSRF token: without a personal API token it is 401, or for a public endpoint 400
# (the form is not a fleet file) or 405 (README, The HTTP API; tests/api/test_fleets.py).
API_ANSWERS = (400, 401, 405)


def concrete(route: Route) -> str:
    """The route with every argument filled in."""
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: DUMMY[m.group(1)], route.route)
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: DUMMY[m.group(1)], path)
    return "/" + path.replace("^", "").replace("$", "")


ROUTES = [r for r in walk()]


def test_the_dummy_arguments_cover_every_url() -> None:
    assert all("<" not in concrete(r) and "(" not in concrete(r) for r in ROUTES)
    assert len(ROUTES) > 60


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_every_post_without_a_token_is_403(
    signed_in: bool, make_account: Callable[[str], CsrfClient], make_fleet: Callable[..., Fleet]
) -> None:
    browser = make_account("player") if signed_in else CsrfClient()
    fleet = make_fleet(browser, shared=True)  # pk 1 may not be it: the token fails first anyway
    browser.csrf_token()  # the browser holds a CSRF cookie, as after any page: the form lacks it
    before = fleet_state(fleet)
    wrong = []
    for route in ROUTES:
        url = concrete(route).replace("/fleets/1/", f"/fleets/{fleet.pk}/")
        response = browser.send(
            "POST", url, {"name": "Pwned", "action": "new", "text": "{}"}, token=False
        )
        expected = 405 if route.name in CSRF_EXEMPT else 403
        if route.route.startswith("api/v1/") and response.status_code in API_ANSWERS:
            continue
        if response.status_code != expected:
            wrong.append(f"{url} ({route.name}): {response.status_code}")
    assert wrong == []
    assert fleet_state(fleet) == before


def test_a_token_of_another_browser_or_a_made_up_one_is_refused(
    owner: CsrfClient, anonymous: CsrfClient, make_fleet: Callable[..., Fleet]
) -> None:
    fleet = make_fleet(owner)
    before = fleet_state(fleet)
    url = f"/fleets/{fleet.pk}/rename-fleet/"
    for token in (anonymous.csrf_token(), "A" * 32, "A" * 64, ""):
        owner.csrf_token()
        response = owner.post(url, {"name": "Pwned", "csrfmiddlewaretoken": token})
        assert response.status_code == 403
        response = owner.post(
            url, {"name": "Pwned"}, headers={"X-CSRFToken": token, "HX-Request": "true"}
        )
        assert response.status_code == 403
    assert fleet_state(fleet) == before


def test_the_header_htmx_sends_is_accepted(
    owner: CsrfClient, make_fleet: Callable[..., Fleet]
) -> None:
    """The control: the token in X-CSRFToken (as base.html's hx-headers sends it) works."""
    fleet = make_fleet(owner)
    response = owner.post(
        f"/fleets/{fleet.pk}/rename-fleet/",
        {"name": "Renamed"},
        headers={"X-CSRFToken": owner.csrf_token(), "HX-Request": "true"},
    )
    assert response.status_code == 200
    assert Fleet.objects.get(pk=fleet.pk).name == "Renamed"


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_over_https_a_post_from_another_site_is_refused_even_with_a_token(
    owner: CsrfClient, make_fleet: Callable[..., Fleet]
) -> None:
    fleet = make_fleet(owner)
    before = fleet_state(fleet)
    url = f"/fleets/{fleet.pk}/rename-fleet/"
    data = {"name": "Pwned", "csrfmiddlewaretoken": owner.csrf_token()}
    for origin in ("https://evil.example", "null"):
        response = owner.post(url, data, secure=True, headers={"Origin": origin})
        assert response.status_code == 403
    response = owner.post(url, data, secure=True, headers={"Referer": "https://evil.example/"})
    assert response.status_code == 403
    assert fleet_state(fleet) == before
    # The same form from this site goes through.
    response = owner.post(url, data, secure=True, headers={"Origin": "https://testserver"})
    assert response.status_code == 302
