"""Everything a player owns, in one file they can take to another server (R-191).

``GET /accounts/export.zip`` gives a zip of:

- ``fleets/<name>.json``: each saved fleet's file (contract 1, naming its edition), and
  ``trash/<name>.json`` for those in the trash;
- ``account.json``: the account (username, email, when it joined), the events they entered with
  the list they submitted there (its snapshot, points, verdict, the organiser's review), the
  events they organise (settings, not the other players' lists), and their API tokens by name,
  date and last use, never a secret.

The Import page on any server reads the zip back (its fleet files; ``account.json`` is a record
for the player, skipped by the reader: ``fleets.library.bundle_members``).
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from fleetbuilder.api.models import ApiToken
from fleetbuilder.events.models import Entry, Event
from fleetbuilder.fleets.library import ACCOUNT_MEMBER
from fleetbuilder.fleets.models import Fleet

FORMAT = "void-command-account"


def _when(moment: Any) -> str | None:
    return moment.isoformat() if moment else None


def account_document(user: Any) -> dict[str, Any]:
    entries = Entry.objects.filter(player=user).select_related("event").order_by("joined_at", "pk")
    organised = Event.objects.filter(organiser=user).order_by("starts_at", "pk")
    tokens = ApiToken.objects.filter(user=user).order_by("created", "pk")
    return {
        "format": FORMAT,
        "version": 1,
        "exported": _when(timezone.now()),
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "joined": _when(user.date_joined),
        },
        "events_entered": [
            {
                "event": e.event.name,
                "starts_at": _when(e.event.starts_at),
                "edition": e.event.edition,
                "joined_at": _when(e.joined_at),
                "removed_at": _when(e.removed_at),
                "submitted_at": _when(e.submitted_at),
                "list": e.document,
                "points": e.points,
                "legal": e.legal if e.submitted else None,
                "problems": e.problems,
                "review": e.review,
                "comment": e.comment,
            }
            for e in entries
        ],
        "events_organised": [
            {
                "event": e.name,
                "starts_at": _when(e.starts_at),
                "time_zone": e.time_zone,
                "place": e.place,
                "description": e.description,
                "edition": e.edition,
                "game_size": e.game_size,
                "points_min": e.points_min,
                "points_max": e.points_max,
                "factions": e.factions,
                "player_cap": e.player_cap,
                "deadline": _when(e.deadline),
                "reveal_at": _when(e.reveal_at),
                "players": e.active_entries().count(),
            }
            for e in organised
        ],
        "api_tokens": [
            {
                "name": t.name,
                "created": _when(t.created),
                "last_used": _when(t.last_used),
                "revoked": _when(t.revoked_at),
            }
            for t in tokens
        ],
    }


@login_required
@require_GET
def export_account(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert user.is_authenticated  # login_required
    buffer = io.BytesIO()
    used: set[str] = set()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for fleet in Fleet.objects.filter(owner=user).order_by("name", "pk"):
            folder = "trash" if fleet.in_trash else "fleets"
            stem = slugify(fleet.name, allow_unicode=True)[:60] or "fleet"
            name, n = f"{folder}/{stem}.json", 1
            while name in used:
                n += 1
                name = f"{folder}/{stem}-{n}.json"
            used.add(name)
            archive.writestr(name, json.dumps(fleet.document, ensure_ascii=False, indent=1))
        archive.writestr(
            ACCOUNT_MEMBER, json.dumps(account_document(user), ensure_ascii=False, indent=1)
        )
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = (
        f'attachment; filename="void-command-{slugify(user.get_username()) or "account"}.zip"'
    )
    response["Cache-Control"] = "private, no-store"
    return response
