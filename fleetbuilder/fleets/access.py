"""Who may see a fleet: the one public way for any view (fleets, sharing, cards) to ask.

A saved fleet belongs to an account, or to a browser through the owner token in its session
(``fleetbuilder.ownership.owner_token``); ``fleetbuilder.ownership.OwnedQuerySet.owned_by`` is the
rule. Anyone else gets a 404, never a 403: they learn nothing about the fleet.

Anyone may see a fleet its owner shares by link (R-92), while it is shared, and the fleet a
share code holds (R-90): ``fleet_for_link`` and ``fleet_for_code``.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from fleetbuilder.ownership import owner_token
from rules_core import fleet as rf
from rules_core import sharecode
from rules_core.validator import check_points_bound, validate

from .incoming import Arrival, UnknownEdition, arrive
from .models import Fleet


def fleet_for_request(request: HttpRequest, pk: int, *, lock: bool = False) -> Fleet:
    """The fleet if this browser (or signed-in player) owns it; 404 for anyone else.

    With ``lock`` (inside a transaction) its row is held until the commit: an edit's read,
    version check and write then see no other edit in between.
    """
    fleets = Fleet.objects.alive().owned_by(request.user, owner_token(request)).filter(pk=pk)
    fleet = (fleets.select_for_update() if lock else fleets).first()
    if fleet is None:
        raise Http404("No such fleet.")
    return fleet


def fleet_for_link(share_id: str) -> Fleet:
    """The shared fleet, or the same 404 for an unknown, turned-off or trashed link."""
    fleet = Fleet.objects.shared(share_id).first()
    if fleet is None:
        raise Http404("No such shared fleet.")
    return fleet


def fleet_for_link_page(request: HttpRequest, share_id: str) -> Fleet | HttpResponse:
    """The shared fleet, or (for a person following a link) a page saying it is gone: the same
    page, with a 404, whatever the reason (unknown, turned off, replaced or trashed)."""
    try:
        return fleet_for_link(share_id)
    except Http404:
        return render(request, "fleets/shared_gone.html", status=404)


def fleet_for_code(request: HttpRequest, code: str) -> Arrival | HttpResponse:
    """The share code's fleet under its edition, or the page saying why it cannot be opened
    (404; an edition this server does not know too, naming the known ones: R-161)."""
    try:
        arrival = arrive(sharecode.decode(code))
        check_points_bound(validate(arrival.fleet, arrival.catalog))
    except UnknownEdition as exc:
        return render(request, "fleets/shared_bad_code.html", {"error": exc.message}, status=404)
    except sharecode.ShareCodeError as exc:
        return render(request, "fleets/shared_bad_code.html", {"error": exc.message}, status=404)
    except rf.FleetFormatError as exc:
        error = f"The share code holds an unusable fleet ({exc.path}: {exc.message})."
        return render(request, "fleets/shared_bad_code.html", {"error": error}, status=404)
    return arrival
