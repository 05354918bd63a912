"""Failed logins are counted per (address, username); past the limit, logins wait.

The counts live in Django's cache (per process with the default local-memory cache), which is
enough to slow a password-guessing script down without locking anyone out for long: the window
starts again with each failure, and a password reset always works.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import HttpRequest

MAX_FAILURES = 10
WINDOW_SECONDS = 15 * 60


def _key(request: HttpRequest | None, username: str) -> str:
    address = request.META.get("REMOTE_ADDR", "") if request is not None else ""
    digest = hashlib.sha256(f"{address}|{username.casefold()}".encode()).hexdigest()
    return f"accounts:login-failures:{digest}"


def is_blocked(request: HttpRequest | None, username: str) -> bool:
    return cache.get(_key(request, username), 0) >= MAX_FAILURES


def failed(request: HttpRequest | None, username: str) -> None:
    key = _key(request, username)
    cache.add(key, 0, WINDOW_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, WINDOW_SECONDS)
    cache.touch(key, WINDOW_SECONDS)


def succeeded(request: HttpRequest | None, username: str) -> None:
    cache.delete(_key(request, username))


# Reset mails: at most this many to one address an hour, so the form cannot flood an inbox.
# Past it the page answers as always (it never says whether an address has an account).
MAX_RESET_MAILS = 3
RESET_WINDOW_SECONDS = 60 * 60


def allow_reset_mail(email: str) -> bool:
    key = "accounts:reset-mails:" + hashlib.sha256(email.casefold().encode()).hexdigest()
    cache.add(key, 0, RESET_WINDOW_SECONDS)
    try:
        sent = cache.incr(key)
    except ValueError:
        cache.set(key, 1, RESET_WINDOW_SECONDS)
        sent = 1
    return sent <= MAX_RESET_MAILS
