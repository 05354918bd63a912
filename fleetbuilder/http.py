"""The request types the views are annotated with (django-stubs), one place for each; and
who sent a request, as login throttling and the rate limits both count it."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware: ``request.htmx`` says what htmx asked for."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """A request to a ``@login_required`` view: ``request.user`` is a signed-in player."""

    user: User


def client_address(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or from X-Forwarded-For behind trusted proxies.

    Each proxy appends the address it received the request from, so behind N trusted proxies the
    client is the Nth entry from the right (the last proxy is REMOTE_ADDR itself). Entries
    further left were written by the client and are never used. A header with fewer entries, or
    an entry that is not an IP address, is not what our proxies write: REMOTE_ADDR is used.
    """
    remote = request.META.get("REMOTE_ADDR") or None
    trusted = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if trusted <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < trusted:
        return remote
    candidate = forwarded[-trusted]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
