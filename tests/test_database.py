"""The suite runs on the database DATABASE_URL names: SQLite by default, PostgreSQL in CI."""

import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_suite_runs_on_the_configured_database() -> None:
    url = os.environ.get("DATABASE_URL", "sqlite://")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    assert connection.vendor == expected


def test_sqlite_shares_its_file_between_processes_without_locking_players_out(
        tmp_path) -> None:
    """WAL (readers go on during a write), a busy timeout (a writer waits its turn) and
    IMMEDIATE transactions (no deadlock upgrading a read lock), set in settings for every
    SQLite database, as a gunicorn or worker process opens it."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'wal.sqlite3'}"
    probe = ("from django.db import connection; from django.conf import settings; "
             "c = connection.cursor(); "
             "print(c.execute('PRAGMA journal_mode').fetchone()[0], "
             "c.execute('PRAGMA busy_timeout').fetchone()[0], "
             "settings.DATABASES['default']['OPTIONS']['transaction_mode'])")
    out = subprocess.run([sys.executable, "manage.py", "shell", "--no-imports", "-c", probe],
                         cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    journal, busy_ms, mode = out.stdout.strip().splitlines()[-1].split()
    assert journal == "wal"
    assert int(busy_ms) >= 5000
    assert mode == "IMMEDIATE"
