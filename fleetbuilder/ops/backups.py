"""Backups of the database and their restore (``scripts/backup``, ``scripts/restore``).

A backup is one tar file:

- ``manifest.json``: the format, when it was made, the database engine, the latest migration of
  each app, the editions published, the number of rows of the records nothing can rebuild
  (fleets, event entries, accounts, …) and the sha256 of the database member;
- ``database.sqlite3`` (SQLite's online backup API: a consistent copy while the app runs) or
  ``database.pgdump`` (``pg_dump`` in custom format, one consistent snapshot).

The catalogue's data files and the shipped edition files are in the repository; the editions
published on this server are rows of the database, so they are in the dump. There is no
uploaded media: PDFs and pages live in the cache and are made again.

A restore checks the manifest and the checksum, refuses a database that holds records (unless
forced), restores, then checks the row counts against the manifest.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.apps import apps
from django.db import connection, connections
from django.db.migrations.recorder import MigrationRecorder

FORMAT = "void-command-backup"
VERSION = 1
MANIFEST = "manifest.json"
MEMBERS = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}
# The records a backup exists for: counted in the manifest, checked after a restore.
COUNTED = (
    "auth.User",
    "fleets.Fleet",
    "events.Event",
    "events.Entry",
    "events.Game",
    "catalog.Edition",
    "simulator.Matchup",
    "api.ApiToken",
)


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why, for the operator."""


def engine() -> str:
    vendor = connection.vendor
    if vendor not in MEMBERS:
        raise BackupError(f"backups know SQLite and PostgreSQL, not {vendor}")
    return vendor


def counts() -> dict[str, int]:
    return {label: apps.get_model(label).objects.count() for label in COUNTED}


def _latest_migrations() -> dict[str, str]:
    latest: dict[str, str] = {}
    for app, name in MigrationRecorder(connection).applied_migrations():
        latest[app] = max(latest.get(app, ""), name)
    return dict(sorted(latest.items()))


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _pg_env() -> tuple[list[str], dict[str, str]]:
    """libpq's connection arguments for the default database, and the password by env."""
    settings = connection.settings_dict
    args = ["--dbname", settings["NAME"]]
    if settings.get("HOST"):
        args += ["--host", settings["HOST"]]
    if settings.get("PORT"):
        args += ["--port", str(settings["PORT"])]
    if settings.get("USER"):
        args += ["--username", settings["USER"]]
    env = dict(os.environ)
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = settings["PASSWORD"]
    return args, env


def backup(out: Path) -> dict[str, Any]:
    """Write a backup of the default database to ``out`` (a tar file, written whole or not at
    all); its manifest."""
    kind = engine()
    with tempfile.TemporaryDirectory(prefix="vc-backup-") as tmp:
        member = Path(tmp) / MEMBERS[kind]
        if kind == "sqlite":
            source = sqlite3.connect(str(connection.settings_dict["NAME"]))
            target = sqlite3.connect(str(member))
            try:
                source.backup(target)  # the online backup API: consistent while others write
            finally:
                target.close()
                source.close()
        else:
            args, env = _pg_env()
            done = subprocess.run(
                [
                    "pg_dump",
                    "--format=custom",
                    "--no-owner",
                    "--no-privileges",
                    "--file",
                    str(member),
                    *args,
                ],
                env=env,
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise BackupError(f"pg_dump failed: {done.stderr.strip()[-500:]}")
        from fleetbuilder.catalog import editions

        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "made": datetime.now(UTC).isoformat(timespec="seconds"),
            "engine": kind,
            "member": member.name,
            "sha256": _sha256(member),
            "bytes": member.stat().st_size,
            "migrations": _latest_migrations(),
            "editions": [e.number for e in editions.read_list()],
            "counts": counts(),
        }
        out.parent.mkdir(parents=True, exist_ok=True)
        partial = out.with_name(out.name + ".partial")
        with tarfile.open(partial, "w") as archive:
            data = json.dumps(manifest, indent=1).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
            archive.add(member, arcname=member.name)
        os.replace(partial, out)
    return manifest


def read_manifest(path: Path) -> dict[str, Any]:
    try:
        with tarfile.open(path, "r") as archive:
            stream = archive.extractfile(MANIFEST)
            if stream is None:
                raise KeyError(MANIFEST)
            manifest: dict[str, Any] = json.loads(stream.read())
    except (OSError, tarfile.TarError, KeyError, ValueError) as exc:
        raise BackupError(f"{path} is not a backup of this app ({exc})") from None
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise BackupError(f"{path} is not a version {VERSION} backup of this app")
    return manifest


def holds_records() -> bool:
    """Whether the default database has any of the counted records (a restore would lose
    them). A database with no tables, or with empty ones (just migrated), holds none."""
    tables = set(connection.introspection.table_names())
    for label in COUNTED:
        model = apps.get_model(label)
        if model._meta.db_table in tables and model.objects.exists():
            return True
    return False


def restore(path: Path, *, force: bool = False) -> dict[str, Any]:
    """Restore the backup at ``path`` onto the default database; its manifest. Refuses a
    database that holds records unless ``force``; checks the checksum before and the row
    counts after."""
    manifest = read_manifest(path)
    kind = engine()
    if manifest["engine"] != kind:
        raise BackupError(
            f"this backup is of a {manifest['engine']} database; the app is "
            f"set to {kind} (DATABASE_URL)"
        )
    if not force and holds_records():
        raise BackupError(
            "the database holds fleets or accounts already: restore onto an "
            "empty database, or pass --force to replace them"
        )
    with tempfile.TemporaryDirectory(prefix="vc-restore-") as tmp:
        with tarfile.open(path, "r") as archive:
            archive.extract(manifest["member"], tmp, filter="data")
        member = Path(tmp) / manifest["member"]
        if _sha256(member) != manifest["sha256"]:
            raise BackupError(f"{path} is damaged: its database does not match its checksum")
        connections.close_all()
        if kind == "sqlite":
            name = Path(connection.settings_dict["NAME"])
            staged = name.with_name(name.name + ".restoring")
            shutil.copyfile(member, staged)
            for suffix in ("-wal", "-shm"):
                name.with_name(name.name + suffix).unlink(missing_ok=True)
            os.replace(staged, name)
        else:
            args, env = _pg_env()
            done = subprocess.run(
                [
                    "pg_restore",
                    "--clean",
                    "--if-exists",
                    "--no-owner",
                    "--no-privileges",
                    "--exit-on-error",
                    "--single-transaction",
                    *args,
                    str(member),
                ],
                env=env,
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise BackupError(f"pg_restore failed: {done.stderr.strip()[-500:]}")
    connections.close_all()
    found = counts()
    if found != manifest["counts"]:
        raise BackupError(
            f"the restored database's rows differ from the backup's: "
            f"{found} against {manifest['counts']}"
        )
    return manifest
