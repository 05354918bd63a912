"""The environment the suite runs in, set before pytest-django imports the settings.

Loaded as a plugin (``-p tests.environment`` in pyproject's addopts) because pytest-django
imports ``fleetbuilder.settings`` before any conftest.py runs, so a variable set in
tests/conftest.py comes too late for the settings. DEBUG stays unset (off), as in production,
so the suite needs a strong SECRET_KEY: a random one per run, unless one is already set.
Subprocesses started by tests inherit it.
"""

import os
import secrets
from collections.abc import Sequence
from typing import TypeVar

import pytest

T = TypeVar("T")

os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))

# Rate limits count per client, and every test client is the same address: the suite runs
# with limits no test reaches, and tests/limits/ sets small ones to see them bite.
for _scope in ("CARDS", "SIMULATOR", "IMPORT", "SHARECODE", "REPLAY"):
    os.environ.setdefault(f"RATE_LIMIT_{_scope}", "1000000")


# --- the default run and --full ----------------------------------------------------------------
# The slowest statistical and print-everything tests run a sample of their cases by default and
# every case with ``pytest --full`` (FLEETBUILDER_FULL_TESTS=1 does the same; xdist's workers
# inherit it). Test modules choose their cases with :func:`cases` at collection time.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="run every case of the slow statistical and print-everything tests",
    )
    parser.addoption(
        "--database-only",
        action="store_true",
        default=False,
        help="run only the tests that use a database (scripts/test's second pass)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--full", default=False):
        os.environ["FLEETBUILDER_FULL_TESTS"] = "1"


def full_run() -> bool:
    return os.environ.get("FLEETBUILDER_FULL_TESTS") == "1"


def cases(every: Sequence[T], default: Sequence[T]) -> list[T]:
    """``every`` case with --full, else ``default`` (a few of them, chosen by the test)."""
    return list(every) if full_run() else list(default)


# --- --database-only: scripts/test's PostgreSQL pass -------------------------------------------
# The suite runs twice, on SQLite and on PostgreSQL. A test that touches no database (the rules
# in tests/rules_core/, the share codes, the catalogue files…) gives the same answer on both, so
# the second pass leaves it out. A test uses a database when it asks for one (pytest-django's
# fixtures all depend on ``django_db_setup``, or the ``django_db`` marker), or when it starts
# processes that read DATABASE_URL themselves (these folders), unless it is marked
# ``own_database``: then its processes open a database it made for them (``scripts/serve`` on a
# fresh SQLite file, commands on a missing one) or none, the same on both passes. Browser
# journeys stay only when marked ``postgresql_too`` (see uses_database).
PROCESS_TESTS = ("tests/production/", "tests/commands/", "tests/ops/")


def uses_database(item: pytest.Item) -> bool:
    if (
        item.get_closest_marker("own_database") is not None
        or item.get_closest_marker("markup_only") is not None
    ):
        return False
    # A browser journey reaches the database through the same views as the client tests, which
    # the PostgreSQL pass runs; it keeps the journeys where the database itself decides what the
    # player sees (marked postgresql_too). The rest cost a third of that pass for no new query.
    if (
        item.get_closest_marker("browser") is not None
        and item.get_closest_marker("postgresql_too") is None
    ):
        return False
    if item.get_closest_marker("django_db") is not None:
        return True
    if "django_db_setup" in getattr(item, "fixturenames", ()):
        return True
    return item.nodeid.startswith(PROCESS_TESTS)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # pytest-django puts the tests that roll back first, then the transactional ones (which
    # flush the database, the catalogue with it, when they end), then the rest. pytest's own
    # fixture reordering runs after it and moves the browser tests (a session-scoped,
    # parametrized browser) to where the first of them was collected, so tests that expect the
    # catalogue loaded once per session ran after a flush. Sort again, as pytest-django does
    # (a stable sort: each group keeps pytest's order).
    from pytest_django import plugin as django_plugin

    django_plugin.pytest_collection_modifyitems(items)
    if not config.getoption("--database-only", default=False):
        return
    keep = [item for item in items if uses_database(item)]
    dropped = [item for item in items if not uses_database(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
