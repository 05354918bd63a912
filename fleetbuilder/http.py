"""The request types the views are annotated with (django-stubs): one place for each."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware: ``request.htmx`` says what htmx asked for."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """A request to a ``@login_required`` view: ``request.user`` is a signed-in player."""

    user: User
