"""At login: this browser's anonymous fleets become the account's; failed tries are forgotten."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from fleetbuilder.fleets.models import Fleet, session_owner_token

from . import throttle


def browser_owner_token(request: HttpRequest | None) -> str | None:
    session = getattr(request, "session", None)
    return session_owner_token(session) if session is not None else None


def _tell(request: HttpRequest | None, level: int, text: str) -> None:
    if request is not None and hasattr(request, "_messages"):
        messages.add_message(request, level, text)


@receiver(user_logged_in, dispatch_uid="accounts.adopt_browser_fleets")
def adopt_browser_fleets(sender: Any, request: HttpRequest | None, user: Any,
                         **kwargs: Any) -> None:
    """Move this browser's anonymous fleets to ``user`` (Django's login keeps session data)."""
    throttle.succeeded(request, user.get_username())  # e.g. logged in by a password reset
    session = getattr(request, "session", None)
    if session is not None:
        session.set_expiry(None)  # back to SESSION_COOKIE_AGE: the fleets are in the account now
    moved = Fleet.objects.adopt(user, browser_owner_token(request))
    if moved:
        fleets = "fleet" if moved == 1 else "fleets"
        _tell(request, messages.SUCCESS,
              f"{moved} {fleets} built in this browser {'is' if moved == 1 else 'are'} "
              "now saved in your account.")

