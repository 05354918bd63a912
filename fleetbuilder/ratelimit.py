"""Per-client rate limits on the endpoints that cost seconds of CPU (ruling R-96).

``@rate_limit("cards")`` counts a view's requests per client in fixed windows of
``RATE_LIMIT_WINDOW`` seconds, in Django's default cache (Redis in production, so every process
on every host shares the counts), and past ``RATE_LIMITS["cards"]`` requests in a window answers
429 with ``Retry-After`` and a message a player understands (htmx gets just the message). A
client is a signed-in player's account, else the client address as login throttling sees it
(``accounts.lockout.client_address``, which honours ``TRUSTED_PROXY_COUNT``). A limit of 0 turns
that limit off. When the cache cannot be reached the request is served: these limits protect
the CPU, and refusing everyone would be worse.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from fleetbuilder.accounts.lockout import client_address

logger = logging.getLogger("fleetbuilder.ratelimit")

# What each limit protects, in the player's words (the 429 page says it).
WHAT = {
    "cards": "card PDFs",
    "simulator": "simulator runs started",
    "import": "imports",
    "sharecode": "share-code pages",
    "replay": "battle replays",
}


def client_key(request: HttpRequest) -> str:
    """Who is counted: the signed-in player, else the client address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"addr:{client_address(request) or 'unknown'}"


def _limit(scope: str) -> tuple[int, int]:
    limits = getattr(settings, "RATE_LIMITS", {})
    return int(limits.get(scope, 0)), max(1, int(getattr(settings, "RATE_LIMIT_WINDOW", 60)))


def _now() -> float:
    return time.time()


def hit(request: HttpRequest, scope: str) -> int:
    """Count this request; 0 if it may go on, else the seconds until the window ends."""
    limit, window = _limit(scope)
    if limit <= 0:
        return 0
    now = _now()
    start = int(now // window) * window
    who = hashlib.sha256(client_key(request).encode()).hexdigest()[:32]
    key = f"ratelimit:{scope}:{who}:{start}"
    try:
        cache.add(key, 0, timeout=window + 5)
        try:
            count = cache.incr(key)
        except ValueError:  # the key expired between add and incr
            cache.set(key, 1, timeout=window + 5)
            count = 1
    except Exception:
        logger.warning("rate limit %s not counted: the cache is unreachable", scope)
        return 0
    if count <= limit:
        return 0
    return max(1, math.ceil(start + window - now))


def _minutes(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} second{'s' * (seconds != 1)}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' * (minutes != 1)}"


def refused(request: HttpRequest, scope: str, retry_after: int) -> HttpResponse:
    """The 429 answer: a page, or for htmx only its message; ``Retry-After`` in seconds."""
    limit, window = _limit(scope)
    message = (f"Too many {WHAT.get(scope, 'requests')} from you: at most {limit} every "
               f"{_minutes(window)}. Please wait {_minutes(retry_after)} and try again.")
    template = "ratelimited.html#message" if getattr(request, "htmx", False) \
        else "ratelimited.html"
    response = render(request, template, {"message": message}, status=429)
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "private, no-store"
    return response


def rate_limit(scope: str, *, methods: tuple[str, ...] = ("GET", "POST")
               ) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Limit a view's ``methods`` requests per client to ``RATE_LIMITS[scope]`` a window."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in methods:
                wait = hit(request, scope)
                if wait:
                    return refused(request, scope, wait)
            return view(request, *args, **kwargs)

        return limited

    return decorator
