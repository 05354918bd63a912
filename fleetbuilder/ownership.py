"""Who owns a record: a signed-in player, or the browser session holding an owner token.

Saved fleets, simulator runs, what-if analyses, battle packs and big prints follow the same
rule, so it is written once here: the owner token a browser keeps in its session
(``session_owner_token``, ``owner_token`` for a request, ``browser_owner_token`` at login), the
records one owner may see (``OwnedQuerySet``), and the lock that serialises one owner's starts
(``lock_owner``).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any, Self

from django.db import connection, models
from django.http import HttpRequest

# The session key under which an anonymous browser's owner token is kept. A token in the
# session's data (not the session key itself) survives the key being cycled at login.
OWNER_TOKEN_SESSION_KEY = "fleet_owner_token"


def new_owner_token() -> str:
    return secrets.token_urlsafe(24)


def session_owner_token(session: Any, *, create: bool = False) -> str | None:
    """The owner token of an anonymous browser, kept in its session's data (one rule for fleets
    and simulator runs); with ``create``, a new one is made and stored when there is none."""
    token = session.get(OWNER_TOKEN_SESSION_KEY)
    if token is None and create:
        token = new_owner_token()
        session[OWNER_TOKEN_SESSION_KEY] = token
    return token


def owner_token(request: HttpRequest, *, create: bool = False) -> str | None:
    """The browser's owner token, shared by saved fleets, simulator runs and prints."""
    return session_owner_token(request.session, create=create)


def browser_owner_token(request: HttpRequest | None) -> str | None:
    """The owner token of the browser that just logged in (its records become the account's);
    None for a login with no request or session."""
    session = getattr(request, "session", None)
    return session_owner_token(session) if session is not None else None


def owner_key(owner: Any, owner_token: str) -> str:
    """Who asks, as one key: the account if signed in, else the browser's owner token."""
    signed_in = owner is not None and owner.is_authenticated
    return f"user:{owner.pk}" if signed_in else f"session:{owner_token}"


def lock_owner(key: str) -> None:
    """Serialise the starts of one owner (a run, an analysis, a queued render), so two at once
    cannot both pass a limit. Call it inside the transaction that checks the limit.

    PostgreSQL: a transaction-scoped advisory lock on the owner. SQLite: the transaction
    already holds the database's write lock (transaction_mode IMMEDIATE).
    """
    if connection.vendor == "postgresql":
        number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])


class OwnedQuerySet(models.QuerySet[Any]):
    """For models with ``owner`` (a user, or null) and ``session_key`` (an owner token)."""

    def owned_by(self, user: Any, owner_token: str | None) -> Self:
        """Records of a signed-in ``user``, or of the browser session holding ``owner_token``."""
        mine = models.Q(pk__in=[])
        if user is not None and user.is_authenticated:
            mine |= models.Q(owner=user)
        if owner_token:
            mine |= models.Q(owner=None, session_key=owner_token)
        return self.filter(mine)

    def adopt(self, user: Any, owner_token: str | None) -> int:
        """Give ``user`` the records of the anonymous browser holding ``owner_token`` (at
        login): only those with no owner and exactly this token move, in one statement.
        Returns how many moved; ``updated`` fields are left alone (adopting is no change)."""
        if not owner_token or user is None or not user.is_authenticated:
            return 0
        return self.filter(owner=None, session_key=owner_token).update(owner=user)
