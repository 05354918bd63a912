"""The suite runs on the database DATABASE_URL names: SQLite by default, PostgreSQL in CI."""

import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_suite_runs_on_the_configured_database() -> None:
    url = os.environ.get("DATABASE_URL", "sqlite://")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    assert connection.vendor == expected


def test_sqlite_shares_its_file_between_processes_without_locking_players_out(tmp_path) -> None:
    """WAL (readers go on during a write), a busy timeout (a writer waits its turn) and
    IMMEDIATE transactions (no deadlock upgrading a read lock), set in settings for every
    SQLite database, as a gunicorn or worker process opens it."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'wal.sqlite3'}"
    probe = (
        "from django.db import connection; from django.conf import settings; "
        "c = connection.cursor(); "
        "print(c.execute('PRAGMA journal_mode').fetchone()[0], "
        "c.execute('PRAGMA busy_timeout').fetchone()[0], "
        "settings.DATABASES['default']['OPTIONS']['transaction_mode'])"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", probe],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    journal, busy_ms, mode = out.stdout.strip().splitlines()[-1].split()
    assert journal == "wal"
    assert int(busy_ms) >= 5000
    assert mode == "IMMEDIATE"


def test_the_postgresql_pass_keeps_the_tests_where_the_database_can_differ() -> None:
    """scripts/test's second pass (``--database-only``) leaves out tests that touch no
    database, and browser journeys not marked ``postgresql_too``: a test asking for one, or
    starting processes that open the suite's, stays in."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    paths = [
        "tests/test_database.py",
        "tests/test_points_model.py",
        "tests/commands/test_startup_imports.py",
        "tests/commands/test_unmigrated.py",
        "tests/fleets/test_answer_sizes.py",
        "tests/browser/test_builder_browser.py",
    ]
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "--database-only", *paths],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    kept = {line.split("::")[1].split("[")[0] for line in out.stdout.splitlines() if "::" in line}
    assert "test_the_suite_runs_on_the_configured_database" in kept  # the db marker
    assert "test_manage_py_check_loads_every_view_but_not_weasyprint" in kept  # processes
    assert "test_sqlite_shares_its_file_between_processes_without_locking_players_out" not in kept
    assert "test_every_feature_has_a_coefficient" not in kept  # the points model's arithmetic
    # processes, but on databases the test makes itself (own_database)
    assert "test_after_migrate_load_catalog_works" not in kept
    # a database, but only the answers' markup is checked (markup_only)
    assert not any("under_12_kb" in name for name in kept)
    # browser journeys: where the database decides what the player sees (postgresql_too)...
    assert "test_an_edit_from_a_tab_left_behind_is_refused_and_the_tab_refreshed" in kept
    # ...but not one that only walks the views the client tests run on PostgreSQL already
    assert "test_build_a_legal_skirmish_fleet_then_break_it" not in kept
