"""Is the database ready for a management command? Asked before the command touches it.

On a clone that was set up but never migrated, a command that queries the database used to end
in a traceback ("no such table") and leave an empty ``db.sqlite3`` behind, since SQLite creates
the file it is asked to open. Commands that need the database call :func:`require_database`
first: one line on stderr and exit 2 (contract 3), and an SQLite file that does not exist is
never opened, so never created.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor

MIGRATE = "run `python manage.py migrate` first"


def _missing_sqlite_file() -> str | None:
    """The SQLite database file's path if it does not exist (in-memory databases exist)."""
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict["NAME"])
    if not name or name == ":memory:" or name.startswith("file:") or "mode=memory" in name:
        return None
    return None if Path(name).exists() else name


def database_problem() -> str | None:
    """Why the database cannot be used yet, in one line, or None when it is migrated."""
    missing = _missing_sqlite_file()
    if missing is not None:
        return f"the database {missing} does not exist yet: {MIGRATE}"
    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"cannot use the database: {reason}"
    if plan:
        count = len(plan)
        return (
            f"the database is not set up ({count} migration{'s' * (count != 1)} not "
            f"applied): {MIGRATE}"
        )
    return None


def require_database() -> None:
    """CommandError (exit 2, one line) unless the database exists and is fully migrated."""
    problem = database_problem()
    if problem is not None:
        raise CommandError(problem, returncode=2)
