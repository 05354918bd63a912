"""The catalogue in the shape outside tools read (architecture.md, contract 3)."""

from __future__ import annotations

from typing import Any

from rules_core import catalog as core

from .loader import core_catalog


def export_catalog(
    catalog: core.Catalog | None = None, *, edition: int | None = None
) -> dict[str, Any]:
    """The document; ``edition`` is the published edition it is (R-160), None for a development
    state or when unknown (no database)."""
    catalog = catalog or core_catalog()
    return {
        "edition": edition,
        "catalog_version": catalog.version,
        "admirals": [
            {
                "slug": a.slug,
                "name": a.name,
                "points": a.points,
                "leadership_bonus": a.leadership_bonus,
                "command_radius": a.command_radius_cm,
                "rule": a.rule,
            }
            for a in catalog.admirals
        ],
        "refits": [_upgrade(u) for u in catalog.refits],
        "factions": [_faction(f) for f in catalog.factions],
    }


def _faction(f: core.Faction) -> dict[str, Any]:
    return {
        "slug": f.slug,
        "name": f.name,
        "allegiance": f.allegiance,
        "leadership": f.leadership,
        "special_rules": [{"name": r.name, "text": r.text} for r in f.special_rules],
        "variants": [
            {
                "slug": v.slug,
                "name": v.name,
                "text": v.text,
                "forbidden_ships": sorted(v.forbidden_ships),
                "composition": [r.to_dict() for r in v.composition],
            }
            for v in f.variants
        ],
        "attack_craft": [
            {
                "slug": c.slug,
                "name": c.name,
                "role": c.role.value,
                "speed": c.speed_cm,
                "rule": c.rule,
            }
            for c in f.attack_craft
        ],
        "ships": [_ship(s) for s in f.ships],
        "upgrades": [_upgrade(u) for u in f.upgrades],
        "composition": [r.to_dict() for r in f.composition],
    }


def _ship(s: core.ShipProfile) -> dict[str, Any]:
    return {
        "slug": s.slug,
        "name": s.name,
        "class": s.ship_class.value,
        "points": s.points,
        "speed": s.speed_cm,
        "turns": s.turns,
        "leadership": s.leadership,
        "shields": s.shields,
        "hull": s.hull,
        "armor": s.armor,
        "turrets": s.turrets,
        "all_ahead_full": s.all_ahead_full,
        "base_mm": s.base_mm,
        "crippled_at": s.crippled_at,
        "special_rules": list(s.special_rules),
        "tags": list(s.tags),
        "attack_craft": list(s.attack_craft),
        "weapons": [
            {
                "name": w.name,
                "type": w.type.value,
                "arc": w.arc_label,
                "arcs": [a.value for a in w.arcs],
                "strength": w.strength,
                "range": w.range_cm,
                "rule": w.rule,
            }
            for w in s.weapons
        ],
    }


def _upgrade(u: core.Upgrade) -> dict[str, Any]:
    return {
        "slug": u.slug,
        "name": u.name,
        "points": u.points,
        "classes": [c.value for c in core.CLASS_ORDER if c in u.classes],
        "variants": sorted(u.variants),
        "max_per_fleet": u.max_per_fleet,
        "effects": dict(u.effects),
        "requires_weapon": sorted(t.value for t in u.requires_weapon),
        "text": u.text,
    }
