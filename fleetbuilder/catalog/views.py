"""The catalogue and rules pages: read-only, the same for everyone at one catalogue version.

Each page's own part is rendered once per catalogue version and kept in the shared cache; the
per-visitor shell is rendered around it, and a repeat visit revalidates with its ETag (see
``pagecache``). The context builders below run only when a page is not cached yet, in a fixed
handful of queries each.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from rules_core import catalog as core

from .models import AdmiralRank, Faction, ShipProfile, Upgrade
from .pagecache import cached_page, catalogue_page


@catalogue_page
def home(request: HttpRequest) -> HttpResponse:
    def context() -> dict[str, Any]:
        factions = list(Faction.objects.with_ship_counts())
        return {"factions": factions, "ship_count": sum(f.ship_count for f in factions)}

    return cached_page(request, "catalog/home.html", context)


@catalogue_page
def faction_list(request: HttpRequest) -> HttpResponse:
    def context() -> dict[str, Any]:
        return {"groups": Faction.by_allegiance(list(Faction.objects.with_ship_counts()))}

    return cached_page(request, "catalog/faction_list.html", context)


@catalogue_page
def faction_detail(request: HttpRequest, faction: str) -> HttpResponse:
    def context() -> dict[str, Any]:
        queryset = Faction.objects.prefetch_related(
            "variants", "attack_craft", "upgrades", "composition_rules", "ships"
        )
        faction_obj = get_object_or_404(queryset, slug=faction)
        return {
            "faction": faction_obj,
            "ship_groups": faction_obj.ships_by_class(),
            "refits": list(Upgrade.objects.filter(faction=None)),
        }

    return cached_page(request, "catalog/faction_detail.html", context)


@catalogue_page
def ship_detail(request: HttpRequest, faction: str, ship: str) -> HttpResponse:
    def context() -> dict[str, Any]:
        queryset = ShipProfile.objects.select_related("faction").prefetch_related(
            "weapons", "attack_craft"
        )
        ship_obj = get_object_or_404(queryset, faction__slug=faction, slug=ship)
        return {"ship": ship_obj, "faction": ship_obj.faction}

    return cached_page(request, "catalog/ship_detail.html", context)


RULES_TEMPLATE = "catalog/rules.html"


def rules_context() -> dict[str, Any]:
    """The Rules page's values; the battle pack's quick reference prints the same page's
    sections (fleetbuilder/battlepack/reference.py), so nothing there is typed twice."""
    return {
        "admirals": list(AdmiralRank.objects.all()),
        "classes": [(c.label, c.class_base_mm) for c in core.CLASS_ORDER],
    }


@catalogue_page
def rules(request: HttpRequest) -> HttpResponse:
    return cached_page(request, RULES_TEMPLATE, rules_context)
