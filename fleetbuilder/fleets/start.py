"""Starting a fleet: the new-fleet form remembers this browser's last faction and
game size, takes a faction from the address (``?faction=``, the catalogue's "Start a fleet"),
and can start with the ship the player came from (``?ship=``, a ship page's link)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.validator import catalog_index

# The session key of the last choices made on the new-fleet form: {"faction", "game_size"}.
LAST_START_KEY = "fleet_last_start"
SIZES = {g.value for g in rf.GameSize}


def catalogue_ship(
    catalog: core.Catalog, slug: str
) -> tuple[core.ShipProfile, core.Faction] | None:
    """The catalogue's ship of that slug and its faction; None for anything else."""
    if not slug or len(slug) > rf.MAX_SLUG_LENGTH:
        return None
    return catalog_index(catalog).ships.get(slug)


def initial_choices(request: HttpRequest, catalog: core.Catalog) -> dict[str, Any]:
    """The form's first values: the faction of ``?ship=`` or ``?faction=``, else the last one
    chosen in this browser; the last game size."""
    last = request.session.get(LAST_START_KEY)
    last = last if isinstance(last, dict) else {}
    factions = {f.slug for f in catalog.factions}
    ship = catalogue_ship(catalog, request.GET.get("ship", ""))
    faction = ship[1].slug if ship else request.GET.get("faction") or last.get("faction")
    initial: dict[str, Any] = {"faction": faction if faction in factions else ""}
    if last.get("game_size") in SIZES:
        initial["game_size"] = last["game_size"]
    return initial


def remember_choices(request: HttpRequest, data: dict[str, Any]) -> None:
    request.session[LAST_START_KEY] = {"faction": data["faction"], "game_size": data["game_size"]}
