"""Shared fixtures: the catalogue loaded from the data files, and a headless Debian Chromium."""

from __future__ import annotations

import os
import shutil
import threading

import pytest

from tests import catalogue_rows
from tests.support.liveserver import take_turns

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
    # A player who asked for less motion: no smooth scrolling (app.css keeps it for the others),
    # so Playwright's scroll into view before each click is instant instead of waiting for the
    # scroll to settle (1-2 s a click on a long builder page).
    "--force-prefers-reduced-motion",
]


def pytest_configure(config: pytest.Config) -> None:
    """Unit tests play the simulator's tasks in the test process (Celery's eager mode); the
    integration tests in tests/production/ start real Redis, Celery workers and gunicorn (with
    the app's own settings, none of these).

    Two costs that only tests pay, taken away (Django's testing docs advise the first):
    - passwords are hashed with MD5, not 600,000 rounds of PBKDF2 (0.3 s a sign-up or log-in);
    - whitenoise looks static files up when asked (its autorefresh) instead of listing every
      file when its middleware starts, which it does again for each test client (40 ms each)."""
    from django.conf import settings

    from fleetbuilder.celery import app

    app.conf.task_always_eager = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Load the catalogue once into the test database; db tests roll back around it."""
    from fleetbuilder.catalog import loader

    with django_db_blocker.unblock():
        loader.load(force=True)
        catalogue_rows.remember()


@pytest.fixture(scope="session")
def real_catalog():
    """The project's real catalogue, read straight from its data files: no database. (``catalog``
    is the same catalogue as the database holds it; tests/rules_core's ``catalog`` is a small
    made-up one, and its ``sim_catalog`` one for the simulator.)"""
    from rules_core.catalog import DATA_DIR, load_catalog_dir

    return load_catalog_dir(DATA_DIR)


@pytest.fixture
def catalog(db):
    """The catalogue as rules_core values (reloaded if a transactional test flushed it)."""
    from fleetbuilder.catalog import loader
    from fleetbuilder.catalog.models import CatalogState

    if not CatalogState.objects.exists():
        catalogue_rows.load()
    return loader.core_catalog()


@pytest.fixture
def live_catalog(transactional_db, live_server):
    """The live server with the catalogue loaded (transactional tests start from an empty DB)."""
    catalogue_rows.load()
    return live_server


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server, stopped only once its request threads have ended.

    On SQLite the test database lives in memory and the request threads share the test's
    connection; stopping the server makes it the test thread's alone again. A request thread
    still serving a browser's keep-alive connection then closed it from the wrong thread when
    the browser went ("DatabaseWrapper objects created in a thread can only be used in that same
    thread"). So the browsers close first (``browser_type_launch_args`` asks for the server, so
    it outlives them), and the server waits here for their request threads to finish.

    Each request takes a turn (tests/support/liveserver.py), so a test's own writes done
    ``between_requests()`` never meet a request's read of the shared connection."""
    take_turns(live_server)
    yield live_server
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)"):
            thread.join(timeout=30)


@pytest.fixture(scope="session")
def base_url(pytestconfig: pytest.Config) -> str | None:
    """pytest-playwright's own ``base_url`` (used when pytest-base-url is not installed) is a
    method of a plugin object, which pytest deprecates (PytestRemovedIn10Warning); this is the
    same fixture as a function. The tests open the live server's full URLs."""
    return pytestconfig.getoption("--base-url") or pytestconfig.getini("base_url") or None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, live_server):
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: run scripts/test, which installs it")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def held_chunks(monkeypatch) -> list[tuple[int, int]]:
    """Chunks sent to the queue are held (not played); the test plays them with
    ``play_chunk(run_id, index)`` in the order it likes. Returns the sent (run, index) pairs."""
    from fleetbuilder.simulator.tasks import play_chunk

    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(play_chunk, "apply_async", lambda args, **kwargs: sent.append(tuple(args)))
    return sent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With pytest-xdist (``-n 2 --dist loadgroup``, as scripts/test runs), the production tests
    (real Redis, gunicorn, Celery workers, some of them timing a stack's answers) share one
    worker, so two production stacks never compete for the machine at once; every other test,
    the browser tests too (each worker has its own live server and Chromium), goes to whichever
    worker is free."""
    for item in items:
        if item.get_closest_marker("production") is not None:
            item.add_marker(pytest.mark.xdist_group("production"))


@pytest.fixture
def bearer_api(catalog):
    """A program's client for the API: a fresh account's personal token on every request, no
    cookie, and a 500 answered (not raised) as a player's script would see it."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from fleetbuilder.api.models import ApiToken

    user = get_user_model().objects.create_user("scripter", password="a long password 9")
    _, raw = ApiToken.issue(user, "script")
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}", raise_request_exception=False)
