"""The backup drill (docs/operations.md, "Backups"): make fleets, an event with its lists and
rounds, and a simulator run in a database of the suite's kind (SQLite, or the PostgreSQL server
of the PostgreSQL pass); back it up with scripts/backup while it is in use; wipe it; restore it
with scripts/restore onto an empty database; and find every record as it was."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import tarfile
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import PYTHON, ROOT, base_env

pytestmark = pytest.mark.production

MAKE = """
from dataclasses import replace
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from fleetbuilder.api.models import ApiToken
from fleetbuilder.catalog import editions
from fleetbuilder.events.models import Event
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet

number = editions.current_number()
catalog = editions.catalog_for(number)
User = get_user_model()
organiser = User.objects.create_user("organiser", password="Ironclad-Lunar-1138")
now = timezone.now()
event = Event.objects.create(organiser=organiser, name="Friday Skirmish \u2728", edition=number,
    game_size="skirmish", starts_at=now + timedelta(days=1), deadline=now + timedelta(hours=1),
    reveal_at=now + timedelta(hours=1))
for i, faction in enumerate(("orks", "imperial-navy", "necrons")):
    user = User.objects.create_user(f"player{i}", password="Ironclad-Lunar-1138")
    ApiToken.issue(user, "script")
    fleet = Fleet(owner=user)
    sample = sample_fleet(catalog, faction, "skirmish")
    fleet.store(replace(sample, name=f"Fleet {i} \u00e9\u4e2d", edition=number), catalog)
    fleet.save()
    fleet.rename(f"Renamed {i}")  # a second version
    event.join(user)
    event.submit(user, fleet)
Event.objects.filter(pk=event.pk).update(deadline=now - timedelta(minutes=2),
                                         reveal_at=now - timedelta(minutes=1))
event.refresh_from_db()
event.pair_next_round(organiser)
doc = rf.fleet_to_dict(Fleet.objects.first().to_core())
Matchup.objects.create(public_id=f"run{number}", owner=organiser, fleet_a=doc, fleet_b=doc,
                       seed=7, battles=20)
"""

SNAPSHOT = """
import json
from fleetbuilder.events.models import Entry, Game
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from fleetbuilder.catalog.models import Edition
print(json.dumps({
    "fleets": [[f.pk, f.owner.username, f.name, f.document, f.version, f.edition]
               for f in Fleet.objects.order_by("pk")],
    "entries": [[e.pk, e.event.name, e.player.username, e.document, e.points, e.legal,
                 e.submitted_at.isoformat()] for e in Entry.objects.order_by("pk")],
    "games": [[g.round, g.table, g.a_id, g.b_id] for g in Game.objects.order_by("pk")],
    "runs": [[m.public_id, m.seed, m.battles, m.fleet_a] for m in Matchup.objects.all()],
    "editions": [[e.number, e.sha256] for e in Edition.objects.order_by("number")],
}, sort_keys=True))
"""


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(args), cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = run(env, PYTHON, "manage.py", *args)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def snapshot(env: dict[str, str]) -> dict:
    """Every record the drill checks, as JSON (the shell's last line of output)."""
    return json.loads(manage(env, "shell", "-c", SNAPSHOT).stdout.strip().splitlines()[-1])


@pytest.fixture
def database(tmp_path: Path) -> Iterator[tuple[str, callable]]:
    """A database URL of the suite's kind, and a function that wipes it (an empty database:
    no file, or a new PostgreSQL database of the same name)."""
    suite = os.environ.get("DATABASE_URL", "")
    if suite.startswith(("postgres://", "postgresql://")):
        import psycopg

        name = f"drill_{secrets.token_hex(4)}"
        parts = urllib.parse.urlsplit(suite)
        admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))

        def wipe() -> None:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{name}"')

        wipe()
        yield urllib.parse.urlunsplit(parts._replace(path=f"/{name}")), wipe
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        path = tmp_path / "drill.sqlite3"

        def wipe() -> None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)

        yield f"sqlite:///{path}", wipe


def test_a_backup_restored_onto_an_empty_database_holds_every_record(database, tmp_path) -> None:
    url, wipe = database
    env = base_env(DATABASE_URL=url)
    manage(env, "migrate", "--noinput")
    manage(env, "load_catalog")
    manage(env, "shell", "-c", MAKE)
    before = snapshot(env)
    assert len(before["fleets"]) == 3 and len(before["entries"]) == 3 and before["games"]
    assert all(f[4] >= 2 for f in before["fleets"])  # renamed: a second version

    out = tmp_path / "backups" / "club.tar"
    made = run(env, "bash", "scripts/backup", str(out))
    assert made.returncode == 0, made.stderr
    assert "3 fleet" in made.stdout and out.is_file()

    # Restoring over records is refused, and changes nothing.
    refused = run(env, "bash", "scripts/restore", str(out))
    assert refused.returncode == 2 and "holds fleets or accounts already" in refused.stderr

    wipe()
    restored = run(env, "bash", "scripts/restore", str(out))
    assert restored.returncode == 0, restored.stderr
    assert "row counts checked" in restored.stdout
    after = snapshot(env)
    assert after == before
    # The restored database is a working one: migrations are all applied.
    plan = manage(env, "migrate", "--plan").stdout
    assert "No planned migration operations." in plan


def test_a_damaged_or_foreign_backup_is_refused(database, tmp_path) -> None:
    url, _ = database
    env = base_env(DATABASE_URL=url)
    manage(env, "migrate", "--noinput")
    out = tmp_path / "club.tar"
    assert run(env, "bash", "scripts/backup", str(out)).returncode == 0
    with tarfile.open(out) as archive:
        member = next(m for m in archive.getmembers() if m.name.startswith("database."))
    data = bytearray(out.read_bytes())
    data[member.offset_data + member.size // 2] ^= 0xFF  # a flipped byte in the database
    damaged = tmp_path / "damaged.tar"
    damaged.write_bytes(bytes(data))
    refused = run(env, "bash", "scripts/restore", str(damaged))
    assert refused.returncode == 2
    assert "damaged" in refused.stderr or "not a backup" in refused.stderr
    stranger = tmp_path / "stranger.tar"
    stranger.write_bytes(b"not a tar at all")
    refused = run(env, "bash", "scripts/restore", str(stranger))
    assert refused.returncode == 2 and "is not a backup of this app" in refused.stderr
