"""Turns between the live server's requests and the test's own database work.

On SQLite the test database lives in memory, and the live server's request threads use the
test thread's connection. A test that plays a held simulator chunk while the page polls for
progress then writes a table in the middle of a request's read of it, and SQLite refuses the
write ("database table is locked": shared-cache locks are not waited for, as file locks are).
In production every process has its own connection to a file and waits its turn
(``SQLITE_BUSY_TIMEOUT``); this gives the tests the same: requests run together as before, and
``with between_requests(): play_chunk(...)`` waits for the requests in flight to end and holds
new ones until the work is done.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any


class Turns:
    """Requests share their turn; the test's turn is its own."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._serving = 0
        self._test_waiting = False

    @contextmanager
    def request(self) -> Iterator[None]:
        with self._changed:
            self._changed.wait_for(lambda: not self._test_waiting)
            self._serving += 1
        try:
            yield
        finally:
            with self._changed:
                self._serving -= 1
                self._changed.notify_all()

    @contextmanager
    def test(self) -> Iterator[None]:
        with self._changed:
            self._test_waiting = True  # no new request starts from here on
            self._changed.wait_for(lambda: self._serving == 0)
        try:
            yield
        finally:
            with self._changed:
                self._test_waiting = False
                self._changed.notify_all()

    def wrap(self, app: Callable[..., Iterable[bytes]]) -> Callable[..., list[bytes]]:
        """The WSGI ``app`` taking a turn for each request, body included (the app streams no
        response, so the body is read inside the turn)."""

        def in_turn(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
            with self.request():
                result = app(environ, start_response)
                try:
                    return list(result)
                finally:
                    close = getattr(result, "close", None)
                    if close is not None:
                        close()

        return in_turn


TURNS = Turns()


def between_requests() -> Any:
    """Run the block while no live-server request is being served (see the module's text)."""
    return TURNS.test()


def take_turns(live_server: Any) -> None:
    """Make pytest-django's ``live_server`` serve each request in a turn of :data:`TURNS`."""
    httpd = live_server.thread.httpd
    httpd.set_app(TURNS.wrap(httpd.get_app()))
