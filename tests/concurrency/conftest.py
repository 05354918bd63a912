"""A threaded live server where every request has its own database connection, and players
that talk to it over HTTP (stdlib only), each with its own cookies, as separate browsers do.

The server is the one pytest-django's ``live_server`` runs (Django's LiveServerThread, a thread
per request), with two changes. Its listen backlog takes a hundred connections arriving at
once (Django's is 10: the kernel would reset the rest). And on SQLite, whose test database
lives in memory, ``live_server`` hands every thread the test's one connection, so requests
would share one transaction instead of racing: here the database is copied to a file first
and each request opens its own connection to it, with the production options (WAL, busy
timeout, IMMEDIATE transactions; fleetbuilder/settings.py). On PostgreSQL each request has
its own connection to the test database, as with ``live_server``.
"""

from __future__ import annotations

import http.cookiejar
import re
import sqlite3
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connections
from django.db.utils import load_backend
from django.test.testcases import LiveServerThread

from tests import catalogue_rows

VERSION = re.compile(r'<input type="hidden" id="fleet-version" value="(\d+)"')
PASSWORD = "a long password 123"


class Player:
    """One browser: its own cookie jar, CSRF token and session."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def _open(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def get(self, path: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict[str, Any], *, htmx: bool = True) -> tuple[int, str]:
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.csrf_token(), **data})
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": self.csrf_token(),
        }
        if htmx:
            headers["HX-Request"] = "true"
        request = urllib.request.Request(self.base + path, body.encode(), headers)
        return self._open(request)

    def csrf_token(self) -> str:
        token = next((c.value for c in self.jar if c.name == "csrftoken"), None)
        if token is None:
            self.get("/accounts/login/")
            token = next(c.value for c in self.jar if c.name == "csrftoken")
        return token or ""

    def log_in(self, username: str, password: str = PASSWORD) -> None:
        status, html = self.post(
            "/accounts/login/", {"username": username, "password": password}, htmx=False
        )
        assert status == 200 and "Log out" in html, html[:2000]

    def version(self, fleet: int) -> int | None:
        """The version the builder page shows (None: a page that shows none)."""
        status, html = self.get(f"/fleets/{fleet}/")
        assert status == 200, html[:2000]
        return version_in(html)

    def ships(self, fleet: int) -> list[str]:
        """Every ship in the fleet's stored file, in order (the export reads the database)."""
        import json

        status, text = self.get(f"/fleets/{fleet}/export.json")
        assert status == 200, text[:2000]
        ships: list[str] = []
        for unit in json.loads(text)["units"]:
            ships += (
                [s["ship"] for s in unit["ships"]] if unit["kind"] == "squadron" else [unit["ship"]]
            )
        return ships


def version_in(html: str) -> int | None:
    found = VERSION.search(html)
    return int(found.group(1)) if found else None


class BusyServerThread(LiveServerThread):
    class server_class(ThreadedWSGIServer):
        request_queue_size = 128


@pytest.fixture
def real_server(
    transactional_db: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[], str]]:
    """``start()`` serves the database as it is then (set it up first) and returns the URL."""
    catalogue_rows.load()
    default = connections["default"]
    threads: list[LiveServerThread] = []

    def start() -> str:
        if default.vendor == "sqlite":
            serve_a_file_copy_of_the_memory_database()
        thread = BusyServerThread("127.0.0.1", StaticFilesHandler)
        thread.daemon = True
        thread.start()
        thread.is_ready.wait()
        if thread.error:
            raise thread.error
        threads.append(thread)
        return f"http://127.0.0.1:{thread.port}"

    def serve_a_file_copy_of_the_memory_database() -> None:
        assert default.is_in_memory_db()
        path = tmp_path / "db.sqlite3"
        default.ensure_connection()
        copy = sqlite3.connect(path)
        default.connection.backup(copy)
        copy.close()
        settings = {**default.settings_dict, "NAME": str(path)}
        ours = threading.get_ident()
        create = connections.create_connection

        def connect(alias: str) -> Any:  # in the server's threads: the file
            if alias == "default" and threading.get_ident() != ours:
                return load_backend(settings["ENGINE"]).DatabaseWrapper(settings, alias)
            return create(alias)

        monkeypatch.setattr(connections, "create_connection", connect)

    yield start
    for thread in threads:
        thread.terminate()
