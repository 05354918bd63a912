"""At login: this browser's anonymous fleets become the account's; failed tries are forgotten."""

from __future__ import annotations

from typing import Any

from axes.utils import reset
from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.http import client_address
from fleetbuilder.ownership import browser_owner_token

from . import lockout


def _tell(request: HttpRequest | None, level: int, text: str) -> None:
    if request is not None and hasattr(request, "_messages"):
        messages.add_message(request, level, text)


def forget_failed_logins(request: HttpRequest | None, username: str) -> None:
    """Clear axes' failure count for this username from this client address.

    Axes does so itself on every login (AXES_RESET_ON_SUCCESS); this says it where it matters
    most, a login by a password reset, whatever that setting becomes. Counts are kept per
    (username, address) under hashed cache keys, so only this address's count can be found
    and cleared: ``axes.utils.reset(username=...)`` alone would match no key. A lockout of the
    same username from another address (perhaps someone guessing) keeps its 15 minutes.
    """
    if request is None:
        return
    address = client_address(request)
    if address:
        reset(ip=address, username=lockout.username(None, {"username": username}))


@receiver(user_logged_in, dispatch_uid="accounts.adopt_browser_fleets")
def adopt_browser_fleets(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    """Move this browser's anonymous fleets to ``user`` (Django's login keeps session data)."""
    forget_failed_logins(request, user.get_username())  # e.g. logged in by a password reset
    session = getattr(request, "session", None)
    if session is not None:
        session.set_expiry(None)  # back to SESSION_COOKIE_AGE: the fleets are in the account now
    moved = Fleet.objects.adopt(user, browser_owner_token(request))
    if moved:
        fleets = "fleet" if moved == 1 else "fleets"
        _tell(
            request,
            messages.SUCCESS,
            f"{moved} {fleets} built in this browser {'is' if moved == 1 else 'are'} "
            "now saved in your account.",
        )
