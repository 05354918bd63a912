"""purge_anonymous_fleets: only fleets nobody can reach go (no account, no live session, long
unchanged, not shared); everything else stays."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from fleetbuilder.fleets.models import Fleet


def age(fleet: Fleet, days: int) -> None:
    Fleet.objects.filter(pk=fleet.pk).update(updated=timezone.now() - timedelta(days=days))


def purge(*args: str) -> str:
    out = StringIO()
    call_command("purge_anonymous_fleets", *args, stdout=out)
    return out.getvalue()


def test_only_unreachable_fleets_are_deleted(
    player, build: Callable[..., Fleet], log_in: Callable[..., object]
) -> None:
    gone_browser, live_browser, shared_browser, account = Client(), Client(), Client(), Client()
    lost = build(gone_browser, "Lost")
    recent_lost = build(gone_browser, "Recent but lost")
    kept_by_session = build(live_browser, "Old, session alive")
    shared = build(shared_browser, "Shared, session gone")
    shared.share()
    log_in(account)
    owned = build(account, "In an account")
    for fleet in (lost, kept_by_session, shared, owned):
        age(fleet, 200)
    age(recent_lost, 10)
    # The first and third browsers' sessions are gone (expired, or cleared by clearsessions).
    for browser in (gone_browser, shared_browser):
        Session.objects.filter(session_key=browser.session.session_key).update(
            expire_date=timezone.now() - timedelta(days=1)
        )

    assert purge("--dry-run").startswith("1 anonymous fleet would be deleted")
    assert Fleet.objects.count() == 5
    assert purge().startswith("1 anonymous fleet deleted")
    assert set(Fleet.objects.values_list("name", flat=True)) == {
        "Recent but lost",
        "Old, session alive",
        "Shared, session gone",
        "In an account",
    }
    assert "Old, session alive" in live_browser.get("/fleets/").content.decode()
    assert Client().get(shared.share_url_path()).status_code == 200


def test_sessions_outside_the_database_are_refused(settings, db) -> None:
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cache"
    with pytest.raises(CommandError, match="cannot be listed") as caught:
        purge()
    assert caught.value.returncode == 2
