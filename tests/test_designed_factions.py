"""The six designed factions meet the catalogue's shape and can field a legal fleet.

Plain pytest, no Django: ``.venv/bin/python -m pytest tests/test_designed_factions.py
-p no:django -q``. The legality check here is deliberately small (points band, 2–4 escorts per
squadron so never exactly one escort, a capital flagship, and every composition rule by the
formulas documented on ``rules_core.catalog.RuleKind``); ``max_per_points`` is read against the
fleet's own total, which is never looser than reading it against the band's maximum.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules_core.catalog import (
    SLUG_RE,
    Catalog,
    CompositionRule,
    Faction,
    RuleKind,
    ShipClass,
    ShipProfile,
    load_catalog_dir,
)

DATA = Path(__file__).resolve().parent.parent / "fleetbuilder" / "catalog" / "data"
DESIGNED_FACTIONS = {
    "grey-knights": "grey-knights-",
    "adeptus-custodes": "custodes-",
    "adepta-sororitas": "sororitas-",
    "drukhari": "drukhari-",
    "tyranids": "tyranid-",
    "leagues-of-votann": "votann-",
}
GAME_SIZES = {"patrol": (500, 750), "skirmish": (750, 1000), "battle": (1000, 1500),
              "armada": (1500, 2500)}


def _load() -> Catalog:
    return load_catalog_dir(DATA)


CATALOG = _load()


def _faction(slug: str) -> Faction:
    faction = CATALOG.faction(slug)
    assert faction is not None, f"{slug}.json is missing"
    return faction


def _count(rule_sel, ships: list[ShipProfile]) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for s in ships if rule_sel.matches(s))


def rule_holds(rule: CompositionRule, ships: list[ShipProfile]) -> bool:
    subject = _count(rule.subject, ships)
    total = sum(s.points for s in ships)
    match rule.kind:
        case RuleKind.MAX_PER:
            assert rule.per is not None and rule.per_count and rule.max is not None
            return subject <= rule.max * (_count(rule.per, ships) // rule.per_count)
        case RuleKind.MAX_PER_POINTS:
            assert rule.per_points and rule.max is not None
            return subject <= rule.max * (total // rule.per_points)
        case RuleKind.MAX_COUNT:
            assert rule.max is not None
            return subject <= rule.max
        case RuleKind.MIN_COUNT:
            assert rule.min is not None
            return subject >= rule.min
        case RuleKind.MAX_POINTS_SHARE:
            assert rule.share is not None
            share = sum(s.points for s in ships if rule.subject.matches(s))
            return share <= rule.share * total
    raise AssertionError(rule.kind)


def find_fleet(faction: Faction, variant: str | None, lo: int, hi: int) -> list[ShipProfile] | None:
    """Random search (fixed seed) for a fleet the small legality check accepts."""
    rules = list(faction.composition)
    forbidden: frozenset[str] = frozenset()
    if variant is not None:
        v = faction.variant(variant)
        assert v is not None
        rules += list(v.composition)
        forbidden = v.forbidden_ships
    pool = [s for s in faction.ships if s.slug not in forbidden]
    rng = random.Random(f"{faction.slug}/{variant}/{lo}")
    for _ in range(20_000):
        fleet: list[ShipProfile] = []
        total = 0
        while True:
            fits = [s for s in pool if total + s.points <= hi]
            if not fits or (total >= lo and rng.random() < 0.25):
                break
            pick = rng.choice(fits)
            fleet.append(pick)
            total += pick.points
        escorts = sum(1 for s in fleet if s.is_escort)
        if not lo <= total <= hi or escorts == 1 or not any(s.is_capital for s in fleet):
            continue
        if all(rule_holds(r, fleet) for r in rules):
            return fleet
    return None


CASES = [
    (slug, variant, size)
    for slug in DESIGNED_FACTIONS
    for variant in [None, *(v.slug for v in _faction(slug).variants)]
    for size in GAME_SIZES
]


@pytest.mark.parametrize(("slug", "variant", "size"), CASES,
                         ids=[f"{s}-{v or 'none'}-{g}" for s, v, g in CASES])
def test_a_legal_fleet_exists(slug: str, variant: str | None, size: str) -> None:
    lo, hi = GAME_SIZES[size]
    assert find_fleet(_faction(slug), variant, lo, hi) is not None


@pytest.mark.parametrize("slug", DESIGNED_FACTIONS)
def test_faction_shape(slug: str) -> None:
    f = _faction(slug)
    classes = [s.ship_class for s in f.ships]
    assert len(f.ships) >= 8
    assert classes.count(ShipClass.ESCORT) >= 2
    assert sum(c.is_cruiser_weight for c in classes) >= 3
    assert any(c in (ShipClass.BATTLESHIP, ShipClass.GRAND_CRUISER) for c in classes)
    assert len(f.special_rules) >= 2
    assert len(f.variants) >= 2
    assert len(f.upgrades) >= 2
    assert f.attack_craft
    assert f.composition
    assert all(s.source in ("designed", "reference") for s in f.ships)


@pytest.mark.parametrize("slug", DESIGNED_FACTIONS)
def test_slugs_carry_the_faction_prefix(slug: str) -> None:
    f = _faction(slug)
    prefix = DESIGNED_FACTIONS[slug]
    for item in [*f.ships, *f.upgrades, *f.variants, *f.attack_craft]:
        assert SLUG_RE.match(item.slug) and item.slug.startswith(prefix), item.slug


@pytest.mark.parametrize("slug", DESIGNED_FACTIONS)
def test_unique_ships_are_limited_to_one(slug: str) -> None:
    f = _faction(slug)
    unique_rules = [r for r in f.composition
                    if r.kind is RuleKind.MAX_COUNT and "unique" in r.subject.tags]
    assert any(s.is_unique for s in f.ships)
    assert unique_rules and all(r.max == 1 for r in unique_rules)
