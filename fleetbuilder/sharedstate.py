"""Redis, the shared state, asked with a deadline.

Every Redis call the web tier makes (the cache: throttles, once-tokens, cached pages; the
Celery broker: queuing a run's chunks) has short socket timeouts (settings: "shared state"),
and this module adds a breaker per process: once a call fails for want of an answer, Redis is
taken as away for ``REDIS_RETRY_SECONDS`` and every further call fails at once instead of
waiting its own timeout. So one request waits at most one timeout on a Redis that is down or
frozen, however many calls it makes, and the next requests wait none.

The breaker is a hint kept in each process's memory, not shared state: every process finds out
for itself, with one timed-out call.

A call refused or timed out raises ``redis.exceptions.ConnectionError`` or ``TimeoutError``
(both ``RedisError``); ``SharedStateDownMiddleware`` turns one that reaches it into a 503 page
in words. Views that can do without Redis catch it themselves and go on.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

log = logging.getLogger("fleetbuilder.sharedstate")

_down_until = 0.0  # time.monotonic() before which Redis counts as away in this process


class Unreachable(redis.exceptions.ConnectionError):
    """Redis did not answer a moment ago; this call was not even tried."""


def retry_seconds() -> float:
    return float(getattr(settings, "REDIS_RETRY_SECONDS", 5))


def is_down() -> bool:
    """Whether a Redis call failed for want of an answer in the last REDIS_RETRY_SECONDS."""
    return time.monotonic() < _down_until


def mark_down(reason: object = "") -> None:
    global _down_until
    if not getattr(settings, "REDIS_URL", ""):  # no Redis (tests, a shell): nothing to guard
        return
    if not is_down():
        log.warning(
            "Redis is not answering (%s); not asking again for %.0f s", reason, retry_seconds()
        )
    _down_until = time.monotonic() + retry_seconds()


def mark_up() -> None:
    global _down_until
    _down_until = 0.0


def check_up() -> None:
    """Raise ``Unreachable`` at once when Redis is known to be away."""
    if is_down():
        raise Unreachable("Redis did not answer a moment ago")


ERRORS: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says Redis (cache or broker) could not be reached or did not answer."""
    if isinstance(exc, ERRORS):
        return True
    try:
        from kombu.exceptions import OperationalError
    except ImportError:  # pragma: no cover - kombu comes with Celery
        return False
    return isinstance(exc, OperationalError)


class GuardedRedis(redis.Redis):
    """A Redis client whose calls fail at once while the breaker is open, and open it when
    one fails for want of an answer."""

    def execute_command(self, *args: Any, **options: Any) -> Any:
        check_up()
        try:
            return super().execute_command(*args, **options)
        except ERRORS as exc:
            mark_down(exc)
            raise


class GuardedCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._client = GuardedRedis


class GuardedRedisCache(RedisCache):
    """Django's RedisCache with the breaker (settings.CACHES uses it with REDIS_URL)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = GuardedCacheClient


# What a page that needs Redis could not do, in the player's words, by URL name.
NEEDS = {
    "accounts:login": "Logging in",
    "accounts:signup": "Signing up",
    "admin:login": "Logging in",
}


class SharedStateDownMiddleware:
    """A Redis outage that reaches here becomes a 503 page saying so, never a 500."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_outage(exception):
            return None
        mark_down(exception)
        log.warning(
            "%s %s: answered 503, Redis is away (%s)", request.method, request.path, exception
        )
        return unavailable(request)


def unavailable(request: HttpRequest, what: str = "") -> HttpResponse:
    """The 503 page: what could not be done, that nothing was changed, when to try again."""
    match = getattr(request, "resolver_match", None)
    what = what or NEEDS.get(match.view_name if match else "", "This page")
    template = "unavailable.html#message" if getattr(request, "htmx", False) else "unavailable.html"
    response = render(request, template, {"what": what}, status=503)
    response["Retry-After"] = str(max(1, round(retry_seconds() * 6)))
    response["Cache-Control"] = "private, no-store"
    return response
