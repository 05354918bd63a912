"""``manage.py bench_events seed|verify``: the deadline rush, around
``loadtest/events_rush.py``, run by ``scripts/bench-load --events``.

``seed --players N --deadline-in S --out F``: an organiser, N players each with a legal fleet of
the current edition, joined; an event whose deadline is S seconds away; and a session per
player and for the organiser, written to F (JSON) for the locust players. Nothing here is
timed. ``verify --seeded F --log L``: every submission a player was told was taken (its answer)
is stored, none is stored with a time at or after the deadline, and none that the server
refused is stored; prints the counts and exits 1 on any mismatch.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from rules_core.sample_fleets import sample_fleet

from ...models import Entry, Event

FACTIONS = ("imperial-navy", "orks", "necrons", "tau-empire", "archenemy", "adeptus-astartes")


def session_for(user: Any) -> str:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    # The backend that keeps the user (axes' comes first and only guards log-ins).
    store[BACKEND_SESSION_KEY] = next(
        b for b in settings.AUTHENTICATION_BACKENDS if b.endswith("ModelBackend")
    )
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    assert store.session_key is not None
    return store.session_key


class Command(BaseCommand):
    help = "Seed or verify the events deadline-rush benchmark (scripts/bench-load --events)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["seed", "verify"])
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--deadline-in", type=float, default=60.0)
        parser.add_argument("--out", type=Path)
        parser.add_argument("--seeded", type=Path)
        parser.add_argument("--log", type=Path)

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        if action == "seed":
            self.seed(options["players"], options["deadline_in"], options["out"])
        else:
            self.verify(options["seeded"], options["log"])

    def seed(self, players: int, deadline_in: float, out: Path | None) -> None:
        if out is None:
            raise CommandError("--out is required")
        current = editions.current()
        if current is None:
            raise CommandError("the catalogue is no published edition; load one first")
        catalog = editions.catalog_for(current.number)
        users = get_user_model()
        stamp = timezone.now().strftime("%H%M%S")
        organiser = users.objects.create_user(f"organiser-{stamp}", password=None)
        now = timezone.now()
        deadline = now + timedelta(seconds=deadline_in)
        event = Event.objects.create(
            organiser=organiser,
            name=f"Deadline rush {stamp}",
            starts_at=deadline,
            edition=current.number,
            game_size="skirmish",
            player_cap=players + 10,
            deadline=deadline,
            reveal_at=deadline + timedelta(hours=1),
        )
        samples = {
            f: replace(sample_fleet(catalog, f, "skirmish"), edition=current.number)
            for f in FACTIONS
        }
        seeded = []
        for i in range(players):
            user = users.objects.create_user(f"rusher-{stamp}-{i:03d}", password=None)
            fleet = Fleet(owner=user)
            fleet.store(samples[FACTIONS[i % len(FACTIONS)]], catalog)
            fleet.save()
            Entry.objects.create(event=event, player=user)
            seeded.append({"player": user.pk, "fleet": fleet.pk, "session": session_for(user)})
        out.write_text(
            json.dumps(
                {
                    "event": event.token,
                    "deadline": deadline.timestamp(),
                    "organiser": session_for(organiser),
                    "players": seeded,
                    "session_cookie": settings.SESSION_COOKIE_NAME,
                }
            )
        )
        self.stdout.write(
            f"seeded {players} players; event {event.token}; deadline in {deadline_in:.0f} s"
        )

    def verify(self, seeded_path: Path | None, log_path: Path | None) -> None:
        if seeded_path is None or log_path is None:
            raise CommandError("--seeded and --log are required")
        seeded = json.loads(seeded_path.read_text())
        event = Event.objects.get(token=seeded["event"])
        log = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
        stored = {e.player_id: e for e in event.entries.all()}
        taken = [r for r in log if r["outcome"] == "taken"]
        refused = [r for r in log if r["outcome"] == "refused"]
        errors = [r for r in log if r["outcome"] == "error"]
        lost = [r for r in taken if stored[r["player"]].submitted_at is None]
        late = [
            e
            for e in stored.values()
            if e.submitted_at is not None and e.submitted_at >= event.deadline
        ]
        refused_but_stored = [
            r
            for r in refused
            if stored[r["player"]].submitted_at is not None
            and not any(t["player"] == r["player"] for t in taken)
        ]
        sent_late = [r for r in log if r["sent"] >= seeded["deadline"]]
        self.stdout.write(
            f"submissions: {len(log)} sent ({len(sent_late)} sent at or after the deadline by "
            f"the client's clock); {len(taken)} taken, {len(refused)} refused (deadline), "
            f"{len(errors)} errors"
        )
        self.stdout.write(
            f"stored: {sum(1 for e in stored.values() if e.submitted_at)}; "
            f"acknowledged but not stored: {len(lost)}; stored at or after the "
            f"deadline: {len(late)}; refused yet stored: {len(refused_but_stored)}"
        )
        if lost or late or refused_but_stored or errors:
            raise SystemExit(1)
