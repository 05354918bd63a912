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
for _scope in ("CARDS", "SIMULATOR", "IMPORT", "SHARECODE"):
    os.environ.setdefault(f"RATE_LIMIT_{_scope}", "1000000")


# --- the default run and --full ----------------------------------------------------------------
# The slowest statistical and print-everything tests run a sample of their cases by default and
# every case with ``pytest --full`` (FLEETBUILDER_FULL_TESTS=1 does the same; xdist's workers
# inherit it). Test modules choose their cases with :func:`cases` at collection time.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true", default=False,
                     help="run every case of the slow statistical and print-everything tests")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--full", default=False):
        os.environ["FLEETBUILDER_FULL_TESTS"] = "1"


def full_run() -> bool:
    return os.environ.get("FLEETBUILDER_FULL_TESTS") == "1"


def cases(every: Sequence[T], default: Sequence[T]) -> list[T]:
    """``every`` case with --full, else ``default`` (a few of them, chosen by the test)."""
    return list(every) if full_run() else list(default)
