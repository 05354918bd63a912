"""Issue 11.5: on a clone that was set up and never migrated, each command gives one line on
stderr and exits 2 (or works from the data files, as validate_fleet does), and none leaves an
empty SQLite file behind. Each runs as a player would run it: ``manage.py`` in a subprocess,
with DATABASE_URL naming a fresh path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Each command opens a database path the test names (or an unreachable server), never the suite's.
pytestmark = pytest.mark.own_database

ROOT = Path(__file__).resolve().parents[2]
NEEDS_DATABASE = ["load_catalog", "bench_builder", "purge_anonymous_fleets"]


def manage(database: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("command", NEEDS_DATABASE)
def test_without_a_database_file_one_line_exit_2_and_no_file_made(
    tmp_path: Path, command: str
) -> None:
    database = tmp_path / "new.sqlite3"
    result = manage(database, command)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr == (
        f"CommandError: the database {database} does not exist yet: run "
        "`python manage.py migrate` first\n"
    )
    assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []  # no db file, no -wal or -shm either


@pytest.mark.parametrize("command", NEEDS_DATABASE)
def test_an_empty_unmigrated_file_says_to_migrate(tmp_path: Path, command: str) -> None:
    database = tmp_path / "db.sqlite3"
    database.touch()
    result = manage(database, command)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("CommandError: the database is not set up (")
    assert result.stderr.endswith("not applied): run `python manage.py migrate` first\n")


def test_export_catalog_works_from_the_data_files_and_makes_no_file(tmp_path: Path) -> None:
    result = manage(tmp_path / "new.sqlite3", "export_catalog")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    catalog = json.loads(result.stdout)
    assert len(catalog["factions"]) == 14 and catalog["admirals"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", NEEDS_DATABASE)
def test_an_unreachable_postgresql_is_one_line_and_exit_2(command: str) -> None:
    result = manage("postgres://postgres@127.0.0.1:1/fleetbuilder", command)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("CommandError: cannot use the database: ")


def test_after_migrate_load_catalog_works(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    assert manage(database, "migrate", "--verbosity", "0").returncode == 0
    result = manage(database, "load_catalog")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Catalogue ") and "loaded: 14 factions" in result.stdout
    purge = manage(database, "purge_anonymous_fleets", "--dry-run")
    assert purge.returncode == 0, purge.stderr
    assert purge.stdout.startswith("0 anonymous fleets would be deleted")
