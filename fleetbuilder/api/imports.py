"""Rosters from BattleScribe and New Recruit in the API (R-190): ``POST /api/v1/imports/
battlescribe``. The body is the roster as its file holds it (``.ros`` XML, ``.rosz`` zip or New
Recruit's JSON export); the answer is the fleet file it makes (contract 1), its validation
report (contract 2) and the import report. Nothing is stored (R-93): send the fleet file to
``POST /api/v1/fleets`` to keep it. Counts against the import limit (R-96)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router
from ninja.errors import HttpError

from fleetbuilder.fleets import rosters
from rules_core import fleet as rf
from rules_core.validator import check_points_bound

from . import schemas as s
from .api import MAX_BODY_BYTES, limit, report_dict
from .auth import optional_token

router = Router(tags=["imports"])

ROSTER_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/xml": {"schema": {"type": "string", "description": "a .ros roster"}},
            "application/zip": {
                "schema": {"type": "string", "format": "binary", "description": "a .rosz roster"}
            },
            "application/json": {
                "schema": {"type": "object", "description": "New Recruit's JSON export"}
            },
        },
    }
}


@router.post(
    "/battlescribe",
    auth=optional_token,
    response={200: dict[str, Any], 400: s.Error, 413: s.Error, 429: s.Error},
    openapi_extra=ROSTER_BODY,
    summary="Make a fleet of a BattleScribe or New Recruit roster",
)
def battlescribe(request: HttpRequest) -> dict[str, Any]:
    """The fleet file a Battlefleet Gothic roster makes here, under the edition this server
    serves, with its validation report and the import report (every selection: matched by its
    entry id, by name, or left out with the reason; the roster's points against these). A body
    that is not a roster, or is hostile (entities, a zip bomb, too deep), is a 400 naming why."""
    limit(request, "import")
    length = int(request.META.get("CONTENT_LENGTH") or 0)
    if length > MAX_BODY_BYTES:
        raise HttpError(
            413,
            f"The body is {length:,} bytes; the limit is {MAX_BODY_BYTES:,}. "
            "A roster is a few tens of KB.",
        )
    try:
        made = rosters.roster_fleet(request.body)
        check_points_bound(made.validation)
    except rosters.RosterError as exc:
        raise HttpError(400, str(exc)) from None
    except rf.FleetFormatError as exc:
        raise HttpError(400, f"The roster makes a fleet this app cannot take: {exc}") from None
    return {
        "fleet": rf.fleet_to_dict(made.fleet),
        "validation": report_dict(made.validation, made.fleet.edition),
        "report": made.report.to_dict(),
    }
