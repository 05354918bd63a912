"""The catalogue and rules pages: read-only, a fixed handful of queries each."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from rules_core import catalog as core

from .models import AdmiralRank, Faction, ShipProfile, Upgrade


def home(request: HttpRequest) -> HttpResponse:
    factions = list(Faction.objects.with_ship_counts())
    ctx = {"factions": factions, "ship_count": sum(f.ship_count for f in factions)}
    return render(request, "catalog/home.html", ctx)


def faction_list(request: HttpRequest) -> HttpResponse:
    factions = list(Faction.objects.with_ship_counts())
    ctx = {"groups": Faction.by_allegiance(factions)}
    return render(request, "catalog/faction_list.html", ctx)


def faction_detail(request: HttpRequest, faction: str) -> HttpResponse:
    queryset = Faction.objects.prefetch_related(
        "variants", "attack_craft", "upgrades", "composition_rules", "ships"
    )
    faction_obj = get_object_or_404(queryset, slug=faction)
    ctx = {
        "faction": faction_obj,
        "ship_groups": faction_obj.ships_by_class(),
        "refits": list(Upgrade.objects.filter(faction=None)),
    }
    return render(request, "catalog/faction_detail.html", ctx)


def ship_detail(request: HttpRequest, faction: str, ship: str) -> HttpResponse:
    queryset = ShipProfile.objects.select_related("faction").prefetch_related(
        "weapons", "attack_craft"
    )
    ship_obj = get_object_or_404(queryset, faction__slug=faction, slug=ship)
    ctx = {"ship": ship_obj, "faction": ship_obj.faction}
    return render(request, "catalog/ship_detail.html", ctx)


def rules(request: HttpRequest) -> HttpResponse:
    ctx = {
        "admirals": list(AdmiralRank.objects.all()),
        "classes": [(c.label, c.class_base_mm) for c in core.CLASS_ORDER],
    }
    return render(request, "catalog/rules.html", ctx)
