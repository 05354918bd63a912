"""The builder's side of R-95 for fleets stored before a bound: they answer 422, not 500.

An edit may not make a fleet that the readers would refuse: ``rules_core.edits.check_bounds``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from rules_core import fleet as rf

logger = logging.getLogger("fleetbuilder.fleets")


class StoredFleetOverBounds:
    """A fleet stored before a rule of its reader (R-95's bounds) that breaks it cannot be read
    (``to_core`` raises FleetFormatError): any page that reads it answers 422 with the reason,
    not a server error. The fleet stays listed in Saved Fleets, where its owner can delete it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, rf.FleetFormatError):
            return None
        logger.warning(
            "a stored fleet the reader refuses was read at %s: %s", request.path, exception
        )
        message = (
            f"This fleet cannot be opened: it breaks a rule made since it was saved "
            f"({exception.path}: {exception.message}). It stays in your Saved Fleets, "
            "where you can delete it."
        )
        template = (
            "ratelimited.html#message"
            if getattr(request, "htmx", False)
            else "fleets/over_bounds.html"
        )
        return render(request, template, {"message": message}, status=422)
