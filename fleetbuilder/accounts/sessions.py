"""How long a browser keeps its session, and so its fleets when it has no account.

An anonymous builder's fleets belong to a token in the session (``OWNER_TOKEN_SESSION_KEY``):
when the session expires they can no longer be reached. So a session that holds fleets lasts
``ANONYMOUS_SESSION_DAYS`` (180 by default) rather than Django's two weeks, counted from the
last visit: a session in use is renewed once a day (one write a day, not one a request).
A signed-in player's session keeps Django's ``SESSION_COOKIE_AGE`` (their fleets are safe in
the account whatever happens to the session), renewed the same way; logging in drops the longer
anonymous life (see ``signals.adopt_browser_fleets``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from fleetbuilder.ownership import OWNER_TOKEN_SESSION_KEY

RENEWED_KEY = "session_renewed_on"


def anonymous_session_seconds() -> int:
    return settings.ANONYMOUS_SESSION_DAYS * 24 * 60 * 60


class KeepSessionsMiddleware:
    """After the view: lengthen an anonymous builder's session, and renew a used one daily.

    Must come after SessionMiddleware and AuthenticationMiddleware, so that it runs before the
    session is saved. A request that never touched the session is left alone (no extra query).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if (
            session is None
            or not (session.accessed or session.modified)
            or response.status_code >= 500
        ):
            return response
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated
        builder = bool(session.get(OWNER_TOKEN_SESSION_KEY))
        if not (signed_in or builder):
            return response
        if builder and not signed_in:
            age = anonymous_session_seconds()
            if session.get_expiry_age() != age:
                session.set_expiry(age)
        today = timezone.now().date().isoformat()
        if session.get(RENEWED_KEY) != today:
            session[RENEWED_KEY] = today  # saved by SessionMiddleware: a new expiry and cookie
        return response
