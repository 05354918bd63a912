"""Shared fixtures: the catalogue loaded from the data files, and a headless Debian Chromium."""

from __future__ import annotations

import os
import shutil

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM must still be allowed.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_configure(config: pytest.Config) -> None:
    """Unit tests play the simulator's tasks in the test process (Celery's eager mode); the
    integration tests in tests/production/ start real Redis, Celery workers and gunicorn."""
    from fleetbuilder.celery import app

    app.conf.task_always_eager = True


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Load the catalogue once into the test database; db tests roll back around it."""
    from fleetbuilder.catalog import loader

    with django_db_blocker.unblock():
        loader.load(force=True)


@pytest.fixture
def catalog(db):
    """The catalogue as rules_core values (reloaded if a transactional test flushed it)."""
    from fleetbuilder.catalog import loader
    from fleetbuilder.catalog.models import CatalogState

    if not CatalogState.objects.exists():
        loader.load(force=True)
    return loader.core_catalog()


@pytest.fixture
def live_catalog(transactional_db, live_server):
    """The live server with the catalogue loaded (transactional tests start from an empty DB)."""
    from fleetbuilder.catalog import loader

    loader.load(force=True)
    return live_server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: run scripts/test, which installs it")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def held_chunks(monkeypatch) -> list[tuple[int, int]]:
    """Chunks sent to the queue are held (not played); the test plays them with
    ``play_chunk(run_id, index)`` in the order it likes. Returns the sent (run, index) pairs."""
    from fleetbuilder.simulator.tasks import play_chunk

    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(play_chunk, "apply_async",
                        lambda args, **kwargs: sent.append(tuple(args)))
    return sent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With pytest-xdist (``-n 2 --dist loadgroup``, as PYTEST_WORKERS=2 scripts/test runs), the
    browser tests share one worker and the production tests (real Redis, gunicorn, Celery
    workers) one, so two Chromiums or two production stacks never compete for the machine at
    once; every other test goes to whichever worker is free."""
    for item in items:
        for marker in ("browser", "production"):
            if item.get_closest_marker(marker) is not None:
                item.add_marker(pytest.mark.xdist_group(marker))
