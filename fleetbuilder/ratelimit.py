"""Per-client rate limits on the endpoints that cost seconds of CPU (ruling R-96).

``@rate_limit("cards")`` counts a view's requests per client in fixed windows of
``RATE_LIMIT_WINDOW`` seconds, in Django's default cache (Redis in production, so every process
on every host shares the counts), and past ``RATE_LIMITS["cards"]`` requests in a window answers
429 with ``Retry-After`` and a message a player understands (htmx gets just the message). A
client is a signed-in player's account, else the client address as login throttling sees it
(``fleetbuilder.http.client_address``, which honours ``TRUSTED_PROXY_COUNT``). An account's
requests count against its address too, at ``RATE_LIMIT_ADDRESS_FACTOR`` times the limit, so
accounts made for free at one address do not multiply its allowance. A scope may
have its own window (``RATE_LIMIT_WINDOWS``). A limit of 0 turns that limit off. When the
cache cannot be reached the request is served: these limits protect the CPU, and refusing
everyone would be worse.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from fleetbuilder.http import client_address

logger = logging.getLogger("fleetbuilder.ratelimit")

# What each limit protects, in the player's words (the 429 page says it).
WHAT = {
    "cards": "card PDFs",
    "simulator": "simulator runs started",
    "import": "imports",
    "sharecode": "share-code pages",
    "replay": "battle replays",
    "signup": "new accounts",
    "password": "password checks",
    "login": "failed log-ins",
}


def client_key(request: HttpRequest) -> str:
    """Who is counted: the signed-in player, else the client address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return address_key(request)


def address_key(request: HttpRequest) -> str:
    return f"addr:{client_address(request) or 'unknown'}"


def limit_of(scope: str) -> tuple[int, int]:
    """(requests a client may make, window in seconds) for ``scope``."""
    limits: dict[str, int] = getattr(settings, "RATE_LIMITS", {})
    windows: dict[str, int] = getattr(settings, "RATE_LIMIT_WINDOWS", {})
    window = windows.get(scope) or int(getattr(settings, "RATE_LIMIT_WINDOW", 60))
    return int(limits.get(scope, 0)), max(1, window)


def _address_factor() -> int:
    return max(1, int(getattr(settings, "RATE_LIMIT_ADDRESS_FACTOR", 2)))


def _now() -> float:
    return time.time()


def _counters(request: HttpRequest, scope: str) -> list[tuple[str, int]]:
    """(who, limit) pairs a request counts against: the client (account, else address) at the
    scope's limit and, for an account, its address too at ``RATE_LIMIT_ADDRESS_FACTOR`` times
    it, so free accounts made from one address do not multiply its allowance."""
    limit, _ = limit_of(scope)
    who = client_key(request)
    counters = [(who, limit)]
    if not who.startswith("addr:"):
        counters.append((address_key(request), limit * _address_factor()))
    return counters


def _key(scope: str, who: str, start: int) -> str:
    return f"ratelimit:{scope}:{hashlib.sha256(who.encode()).hexdigest()[:32]}:{start}"


def _count(request: HttpRequest, scope: str, *, add: bool, cost: int = 1) -> int:
    limit, window = limit_of(scope)
    if limit <= 0:
        return 0
    now = _now()
    start = int(now // window) * window
    over = False
    try:
        for who, most in _counters(request, scope):
            key = _key(scope, who, start)
            if add:
                cache.add(key, 0, timeout=window + 5)
                try:
                    count = cache.incr(key, cost)
                except ValueError:  # the key expired between add and incr
                    cache.set(key, cost, timeout=window + 5)
                    count = cost
                over = over or count > most
            else:
                over = over or int(cache.get(key) or 0) >= most
    except Exception:
        logger.warning("rate limit %s not counted: the cache is unreachable", scope)
        return 0
    return max(1, math.ceil(start + window - now)) if over else 0


def hit(request: HttpRequest, scope: str, cost: int = 1) -> int:
    """Count this request (as ``cost`` requests: a replay of big fleets costs more); 0 if it
    may go on, else the seconds until the window ends."""
    return _count(request, scope, add=True, cost=max(1, cost))


def peek(request: HttpRequest, scope: str) -> int:
    """Like ``hit`` without counting: for limits on what succeeds (sign-ups) or fails (log-ins),
    counted afterwards with ``hit``."""
    return _count(request, scope, add=False)


# Scopes whose requests take a second or more of a web process's CPU: one address has at most
# RATE_LIMIT_IN_FLIGHT of them being made at a time, so that it cannot take every
# core at once, however many connections it opens. One more waits its turn (a print page asks
# for its preview and its PDF together); the rest are refused at once, holding no thread.
IN_FLIGHT_SCOPES = ("cards", "replay")
IN_FLIGHT_WAIT = 10.0  # seconds one more request of the address waits for its turn


@contextmanager
def in_flight(request: HttpRequest, scope: str) -> Iterator[bool]:
    """While the block runs, this request counts as one of its address's requests of an
    expensive ``scope`` being made; yields whether it may go on. The cache away: it may."""
    most = int(getattr(settings, "RATE_LIMIT_IN_FLIGHT", 0))
    if most <= 0 or scope not in IN_FLIGHT_SCOPES:
        yield True
        return
    key = f"inflight:{hashlib.sha256(address_key(request).encode()).hexdigest()[:32]}"
    try:
        cache.add(key, 0, timeout=120)  # a process killed mid-request frees it in 2 minutes
        count = int(cache.incr(key))
    except Exception:
        yield True
        return
    may = count <= most
    if count == most + 1:  # one may wait for the one being made (a print page's preview
        deadline = time.monotonic() + IN_FLIGHT_WAIT  # and its PDF, asked together)
        while not may and time.monotonic() < deadline:
            time.sleep(0.1)
            try:
                may = int(cache.get(key) or 0) <= most
            except Exception:
                may = True
    try:
        yield may
    finally:
        try:
            cache.decr(key)
        except Exception:
            logger.warning("in-flight count of %s not lowered", scope)


def busy(request: HttpRequest, scope: str) -> HttpResponse:
    """The 429 for a request past RATE_LIMIT_IN_FLIGHT: wait for the one being made."""
    message = (
        f"Your {WHAT.get(scope, 'requests')} are made one at a time from one network "
        "address, and one is being made now. Please wait for it, then ask again."
    )
    template = "ratelimited.html#message" if getattr(request, "htmx", False) else "ratelimited.html"
    response = render(request, template, {"message": message}, status=429)
    response["Retry-After"] = "2"
    response["Cache-Control"] = "private, no-store"
    return response


def in_words(seconds: int) -> str:
    """A wait or a window as a player reads it: "45 seconds", "2 minutes" (rounded up)."""
    if seconds < 60:
        return f"{seconds} second{'s' * (seconds != 1)}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' * (minutes != 1)}"


def refused(request: HttpRequest, scope: str, retry_after: int) -> HttpResponse:
    """The 429 answer: a page, or for htmx only its message; ``Retry-After`` in seconds."""
    limit, window = limit_of(scope)
    message = (
        f"Too many {WHAT.get(scope, 'requests')} from you: at most {limit} every "
        f"{in_words(window)} (a network address shared by several accounts may make "
        f"{_address_factor()} times as many). Please wait {in_words(retry_after)} and "
        "try again."
    )
    template = "ratelimited.html#message" if getattr(request, "htmx", False) else "ratelimited.html"
    response = render(request, template, {"message": message}, status=429)
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "private, no-store"
    return response


def rate_limit(
    scope: str, *, methods: tuple[str, ...] = ("GET", "POST")
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Limit a view's ``methods`` requests per client to ``RATE_LIMITS[scope]`` a window."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                return view(request, *args, **kwargs)
            wait = hit(request, scope)
            if wait:
                return refused(request, scope, wait)
            with in_flight(request, scope) as may:
                if not may:
                    return busy(request, scope)
                return view(request, *args, **kwargs)

        return limited

    return decorator
