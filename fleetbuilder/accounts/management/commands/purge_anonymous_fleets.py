"""``python manage.py purge_anonymous_fleets [--dry-run]``: delete fleets nobody can reach.

A fleet built without an account belongs to a token in its browser's session
(fleetbuilder/accounts/sessions.py). Once that session has expired or been deleted, nobody can
open, edit or delete the fleet again. This deletes such fleets, in one transaction, when:

- no account owns them and no live session holds their token, and
- they have not changed for ANONYMOUS_SESSION_DAYS (a session lives that long after its last
  visit, so a fleet changed more recently has a live session, or had one moments ago), and
- they are not shared: a shared fleet's link may be posted somewhere, so it stays readable.

Sessions must be stored in the database (Django's default engine): with any other engine the
live tokens cannot be listed, and the command refuses (exit 2) rather than guess.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from fleetbuilder.dbready import require_database
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.ownership import OWNER_TOKEN_SESSION_KEY


def live_tokens() -> set[str]:
    """The owner tokens held by sessions that have not expired."""
    tokens = set()
    sessions = Session.objects.filter(expire_date__gt=timezone.now()).iterator(chunk_size=500)
    for session in sessions:
        token = session.get_decoded().get(OWNER_TOKEN_SESSION_KEY)
        if token:
            tokens.add(token)
    return tokens


def orphans() -> list[int]:
    """The ids of the fleets to delete (see the module's docstring)."""
    cutoff = timezone.now() - timedelta(days=settings.ANONYMOUS_SESSION_DAYS)
    candidates = Fleet.objects.filter(
        owner=None, share_enabled=False, updated__lt=cutoff
    ).values_list("pk", "session_key")
    live = live_tokens()
    return [pk for pk, token in candidates.iterator(chunk_size=1000) if token not in live]


class Command(BaseCommand):
    help = (
        "Delete anonymous fleets whose browser session is gone (unchanged for "
        "ANONYMOUS_SESSION_DAYS, not shared). Exit 0 done, 2 sessions not in the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="say how many would go, delete nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.SESSION_ENGINE != "django.contrib.sessions.backends.db":
            raise CommandError(
                f"sessions are stored by {settings.SESSION_ENGINE}, not in the "
                "database: the live ones cannot be listed",
                returncode=2,
            )
        require_database()
        with transaction.atomic():
            doomed = orphans()
            count = len(doomed)
            if not options["dry_run"]:
                for start in range(0, count, 500):
                    Fleet.objects.filter(pk__in=doomed[start : start + 500]).delete()
        verb = "would be deleted" if options["dry_run"] else "deleted"
        self.stdout.write(
            f"{count} anonymous fleet{'s' if count != 1 else ''} {verb} "
            f"(no live session, unchanged for {settings.ANONYMOUS_SESSION_DAYS} "
            "days, not shared)."
        )
