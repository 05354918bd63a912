"""A browser's fleets without an account last as long as its session: 180 days after the last
visit (ANONYMOUS_SESSION_DAYS), renewed once a day while in use; an account keeps Django's age."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone
from pytest_django.asserts import assertInHTML

from fleetbuilder.accounts.sessions import RENEWED_KEY
from fleetbuilder.fleets.models import Fleet

DAY = 24 * 60 * 60
ROOT = Path(__file__).resolve().parents[2]


def stored(client: Client) -> Session:
    return Session.objects.get(
        session_key=client.cookies[django_settings.SESSION_COOKIE_NAME].value
    )


def days_left(client: Client) -> float:
    return (stored(client).expire_date - timezone.now()).total_seconds() / DAY


def cookie_age(response) -> int:
    return int(response.cookies[django_settings.SESSION_COOKIE_NAME]["max-age"])


def test_an_anonymous_builders_session_lasts_180_days(
    client: Client, build: Callable[..., Fleet]
) -> None:
    build(client, "Gothic Patrol")
    response = client.get("/fleets/")
    assert 179.9 < days_left(client) <= 180
    assert "Gothic Patrol" in response.content.decode()
    # Each later visit the same day writes nothing more (no cookie, same expiry).
    assert django_settings.SESSION_COOKIE_NAME not in client.get("/fleets/").cookies


def test_the_session_is_renewed_on_the_first_visit_of_a_day(
    client: Client, build: Callable[..., Fleet]
) -> None:
    build(client, "Gothic Patrol")
    # Pretend the last visit was 170 days ago: ten days are left.
    session = client.session
    session[RENEWED_KEY] = (timezone.now() - timedelta(days=170)).date().isoformat()
    session.save()
    Session.objects.filter(session_key=session.session_key).update(
        expire_date=timezone.now() + timedelta(days=10)
    )
    assert 9.9 < days_left(client) < 10.1
    response = client.get("/fleets/")
    assert cookie_age(response) == 180 * DAY
    assert 179.9 < days_left(client) <= 180
    assert "Gothic Patrol" in client.get("/fleets/").content.decode()


def test_a_visitor_who_builds_nothing_gets_no_session(client: Client, db) -> None:
    response = client.get("/fleets/")
    assert django_settings.SESSION_COOKIE_NAME not in response.cookies
    assert not Session.objects.exists()


def test_logging_in_gives_the_session_djangos_own_age(
    client: Client, player, build: Callable[..., Fleet], log_in: Callable[..., object]
) -> None:
    build(client, "Gothic Patrol")
    response = log_in(client)
    assert cookie_age(response) == django_settings.SESSION_COOKIE_AGE
    assert days_left(client) <= django_settings.SESSION_COOKIE_AGE / DAY
    assert "Gothic Patrol" in client.get("/fleets/").content.decode()


def test_the_length_is_a_setting(client: Client, build: Callable[..., Fleet], settings) -> None:
    settings.ANONYMOUS_SESSION_DAYS = 30
    build(client, "Short Lived")
    assert 29.9 < days_left(client) <= 30
    assert "kept for 30 days after your last visit" in client.get("/fleets/").content.decode()


def test_saved_fleets_tells_an_anonymous_builder_how_to_keep_them(
    client: Client, player, build: Callable[..., Fleet], log_in: Callable[..., object]
) -> None:
    build(client, "Gothic Patrol")
    html = client.get("/fleets/").content.decode()
    assert "kept for 180 days after your last visit" in html
    assert "are lost if you clear its cookies" in html
    assertInHTML('<a href="/accounts/signup/?next=/fleets/">Sign up</a>', html)
    log_in(client)
    html = client.get("/fleets/").content.decode()
    assert "after your last visit" not in html


@pytest.mark.parametrize(("value", "ok"), [("90", True), ("0", False), ("forever", False)])
def test_the_environment_sets_it_and_a_bad_value_stops_start_up(value: str, ok: bool) -> None:
    code = "import fleetbuilder.settings as s; print(s.ANONYMOUS_SESSION_DAYS)"
    env = {**os.environ, "ANONYMOUS_SESSION_DAYS": value}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if ok:
        assert result.stdout.strip() == value
    else:
        assert result.returncode != 0 and "ANONYMOUS_SESSION_DAYS must be" in result.stderr
