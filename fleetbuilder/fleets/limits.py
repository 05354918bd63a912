"""The builder's side of R-95: an edit may not make a fleet that the readers would refuse."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.limits import MAX_FLEET_POINTS, MAX_FLEET_SHIPS, points_over
from rules_core.validator import validate

logger = logging.getLogger("fleetbuilder.fleets")


def edit_refusal(fleet: rf.Fleet, catalog: core.Catalog) -> str:
    """Why the builder refuses to store ``fleet`` (an edit's result), in words; "" if it may.

    The fleet is read back as a file would be, so every bound of R-20 and R-95 holds for what
    the builder stores; the two a player meets get their own sentence.
    """
    if fleet.ship_count > MAX_FLEET_SHIPS:
        return (f"Not added: a fleet holds at most {MAX_FLEET_SHIPS} ships, escorts included "
                "(R-95).")
    try:
        rf.parse_fleet(rf.fleet_to_dict(fleet))
    except rf.FleetFormatError as exc:
        return f"Not done: {exc.path} {exc.message}."
    over = points_over(u.points for u in validate(fleet, catalog).units)
    if over is not None:
        return (f"Not added: that would bring the fleet to more than {MAX_FLEET_POINTS} points, "
                "the most a fleet may total (twice the Armada band's maximum, R-95).")
    return ""


class StoredFleetOverBounds:
    """A fleet stored before a rule of its reader (R-95's bounds) that breaks it cannot be read
    (``to_core`` raises FleetFormatError): any page that reads it answers 422 with the reason,
    not a server error. The fleet stays listed in Saved Fleets, where its owner can delete it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception
                          ) -> HttpResponse | None:
        if not isinstance(exception, rf.FleetFormatError):
            return None
        logger.warning("a stored fleet the reader refuses was read at %s: %s", request.path,
                       exception)
        message = (f"This fleet cannot be opened: it breaks a rule made since it was saved "
                   f"({exception.path}: {exception.message}). It stays in your Saved Fleets, "
                   "where you can delete it.")
        template = "ratelimited.html#message" if getattr(request, "htmx", False) \
            else "fleets/over_bounds.html"
        return render(request, template, {"message": message}, status=422)
