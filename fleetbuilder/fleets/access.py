"""Who may see a saved fleet: the one public way for any view (fleets, sharing, cards) to ask.

A fleet belongs to an account, or to a browser through the owner token in its session
(``fleetbuilder.ownership.owner_token``); ``fleetbuilder.ownership.OwnedQuerySet.owned_by`` is the
rule. Anyone else gets a 404, never a 403: they learn nothing about the fleet.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest

from fleetbuilder.ownership import owner_token

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
