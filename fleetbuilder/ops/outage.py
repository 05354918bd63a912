"""The database away: a 503 page in words, never a 500 or a traceback.

Django's 500 handler (``handler500`` in fleetbuilder/urls.py) comes here for every exception no
view caught, wherever it was raised: a view, a middleware saving the session, a template. When
that exception says the database cannot be reached (PostgreSQL restarting, stopped, or a
connection it closed: Django's ``OperationalError`` or ``InterfaceError``), the player gets a 503
saying so, with ``Retry-After``; anything else gets the usual 500 page. Nothing here touches the
database or the request's session: the page renders with no context.

The app needs no restart afterwards: each request opens its own connection (or checks a
persistent one, ``DB_CONN_MAX_AGE``), so the first request after PostgreSQL is back works.
An edit whose request got this page was not acknowledged; its transaction rolled back, unless
the database committed it just before the connection broke.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views import defaults

RETRY_AFTER_SECONDS = 10


def database_away(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what it was raised from) says the database is out of reach."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, (OperationalError, InterfaceError)):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def server_error(request: HttpRequest) -> HttpResponse:
    if not database_away(sys.exc_info()[1]):
        return defaults.server_error(request)
    response = HttpResponse(render_to_string("database_unavailable.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "private, no-store"
    return response
