"""Headers every answer carries: a Content-Security-Policy without 'unsafe-inline' on every
HTML page, X-Frame-Options DENY and nosniff on everything; cookies HttpOnly and SameSite=Lax;
and with HTTPS=true (the settings file read in a fresh process), Secure cookies, HSTS and the
redirect from plain HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core import sharecode

from .conftest import PASSWORD, CsrfClient, walk

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
# GET pages without arguments that are not HTML pages of their own, and why.
NOT_PAGES = {
    "ops:healthz": "JSON for a load balancer",
    "fleets:export_all": "a .zip",
    "accounts:export": "a .zip of everything the player owns (tests/accounts)",
    "accounts:logout": "POST only",
    "api_make_token": "POST only",
    "editions:feed": "an Atom feed (tests/editions/test_feed.py)",
}
# /api/v1/ answers JSON (tests/api checks its headers); its docs page, /api/docs, is a page here.


def _pages(owner: CsrfClient, fleet: Fleet, run: Matchup) -> list[str]:
    urls = [
        f"/{r.route}"
        for r in walk()
        if not r.params
        and not r.route.startswith("admin/")
        and not r.route.startswith("api/v1/")
        and r.name not in NOT_PAGES
    ]
    code = sharecode.encode(fleet.to_core())
    urls += [
        f"/fleets/{fleet.pk}/",
        f"/fleets/{fleet.pk}/share/",
        f"/cards/fleet/{fleet.pk}/print/",
        f"/s/{fleet.share_id}/",
        f"/s/{fleet.share_id}/cards/",
        f"/fleets/code/{code}/",
        f"/fleets/code/{code}/cards/",
        f"/simulator/m/{run.public_id}/",
        "/ships/imperial-navy/",
        "/ships/imperial-navy/lunar-class-cruiser/",
        "/admin/login/",
        "/fleets/999999/",
        "/s/nothing-here/",
        "/no/such/page/",
    ]
    return urls


def test_every_html_page_has_the_security_headers(
    owner: CsrfClient, make_fleet: Callable[..., Fleet], make_run: Callable[..., Matchup]
) -> None:
    fleet = make_fleet(owner, shared=True)
    run = make_run(owner)
    checked = []
    for url in _pages(owner, fleet, run):
        response = owner.get(url)
        assert response.status_code in (200, 302, 404), url
        if response.status_code == 302:
            continue
        assert response["Content-Type"].startswith("text/html"), url
        policy = response.get("Content-Security-Policy", "")
        assert "default-src 'self'" in policy and "script-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url
        assert "frame-ancestors 'none'" in policy, url
        assert response["X-Frame-Options"] == "DENY", url
        assert response["X-Content-Type-Options"] == "nosniff", url
        checked.append(url)
    assert len(checked) > 20


def test_files_and_refusals_carry_nosniff_and_deny(
    owner: CsrfClient, anonymous: CsrfClient, make_fleet: Callable[..., Fleet]
) -> None:
    fleet = make_fleet(owner, shared=True)
    answers = [
        owner.get(f"/fleets/{fleet.pk}/export.json"),
        owner.get(f"/fleets/{fleet.pk}/export.txt"),
        anonymous.get(f"/s/{fleet.share_id}/fleet.json"),
        owner.get("/fleets/export.zip"),
        anonymous.get("/healthz"),
        anonymous.send("POST", f"/fleets/{fleet.pk}/rename-fleet/", token=False),
        anonymous.send("POST", f"/fleets/{fleet.pk}/rename-fleet/"),
    ]
    assert [a.status_code for a in answers[-2:]] == [403, 404]
    for answer in answers:
        assert answer["X-Content-Type-Options"] == "nosniff"
        assert answer["X-Frame-Options"] == "DENY"


def _cookies(response: Any) -> dict[str, Any]:
    return {name: morsel for name, morsel in response.cookies.items() if morsel.value}


def _log_in(browser: CsrfClient, make_account: Callable[[str], CsrfClient]) -> Any:
    make_account("player")
    return browser.send("POST", "/accounts/login/", {"username": "player", "password": PASSWORD})


def test_cookies_are_httponly_and_samesite_lax(
    anonymous: CsrfClient, make_account: Callable[[str], CsrfClient]
) -> None:
    response = _log_in(anonymous, make_account)
    assert response.status_code == 302
    cookies = _cookies(response)
    assert "sessionid" in cookies
    # A message waiting for the next page may travel in a cookie too.
    follow = anonymous.send(
        "POST",
        "/fleets/new/",
        {"name": "x", "faction": "imperial-navy", "variant": "", "game_size": "patrol"},
    )
    cookies.update(_cookies(follow))
    cookies.update(_cookies(anonymous.get("/fleets/new/")))
    assert "csrftoken" in anonymous.cookies
    cookies.setdefault("csrftoken", anonymous.cookies["csrftoken"])
    for name, morsel in cookies.items():
        assert morsel["samesite"] == "Lax", name
        assert not morsel["secure"], name  # plain HTTP in development
    for name, morsel in cookies.items():
        assert morsel["httponly"], name


def test_no_script_needs_the_csrf_cookie() -> None:
    """Pages hand htmx the token in hx-headers (templates/base.html), which is why the CSRF
    cookie can be HttpOnly: nothing of ours reads document.cookie."""
    scripts = [p for p in (ROOT / "static" / "js").glob("*.js")]
    assert scripts
    assert not [p.name for p in scripts if "document.cookie" in p.read_text()]
    assert "X-CSRFToken" in (ROOT / "templates" / "base.html").read_text()


@pytest.fixture(scope="module")
def https_settings() -> dict[str, Any]:
    """The settings HTTPS=true gives, read by a fresh Python from fleetbuilder/settings.py."""
    names = [
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_SSL_REDIRECT",
        "SECURE_REDIRECT_EXEMPT",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
    ]
    script = (
        "import json, fleetbuilder.settings as s; "
        f"print(json.dumps({{n: getattr(s, n) for n in {names!r}}}))"
    )
    env = {**os.environ, "HTTPS": "true", "DEBUG": "false"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    values = json.loads(done.stdout.strip().splitlines()[-1])
    values["SECURE_PROXY_SSL_HEADER"] = tuple(values["SECURE_PROXY_SSL_HEADER"])
    return values


def test_with_https_cookies_are_secure_and_hsts_is_sent(
    https_settings: dict[str, Any], anonymous: CsrfClient, make_account: Callable[[str], CsrfClient]
) -> None:
    assert https_settings["SECURE_HSTS_SECONDS"] >= 365 * 24 * 60 * 60
    with override_settings(**https_settings):
        page = anonymous.get("/fleets/new/", secure=True)
        assert page.status_code == 200
        hsts = page["Strict-Transport-Security"]
        assert "max-age=31536000" in hsts and "includeSubDomains" in hsts
        assert anonymous.cookies["csrftoken"]["secure"]
        anonymous.csrf_token()
        make_account("player")
        response = anonymous.post(
            "/accounts/login/",
            {
                "username": "player",
                "password": PASSWORD,
                "csrfmiddlewaretoken": anonymous.cookies["csrftoken"].value,
            },
            secure=True,
            headers={"Origin": "https://testserver"},
        )
        assert response.status_code == 302
        session = response.cookies["sessionid"]
        assert session["secure"] and session["httponly"] and session["samesite"] == "Lax"
        # Plain HTTP is sent to HTTPS; the load balancer's probe is not.
        plain = anonymous.get("/fleets/new/")
        assert plain.status_code == 301
        assert plain["Location"] == "https://testserver/fleets/new/"
        assert anonymous.get(reverse("ops:healthz")).status_code in (200, 503)
        # Behind the proxy, X-Forwarded-Proto says the request was HTTPS.
        proxied = anonymous.get("/fleets/new/", headers={"X-Forwarded-Proto": "https"})
        assert proxied.status_code == 200
