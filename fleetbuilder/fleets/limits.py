"""The builder's side of R-95: an edit may not make a fleet that the readers would refuse."""

from __future__ import annotations

from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.limits import MAX_FLEET_POINTS, MAX_FLEET_SHIPS, points_over
from rules_core.validator import validate


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
