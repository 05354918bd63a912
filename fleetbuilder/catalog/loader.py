"""Load the catalogue's data files into the database, idempotently, in one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.db import DatabaseError, transaction

from rules_core import catalog as core

from . import editions, pagecache, signals
from .models import (
    AdmiralRank,
    AttackCraft,
    CatalogState,
    CompositionRule,
    Faction,
    ShipProfile,
    Upgrade,
    Variant,
    Weapon,
)


@dataclass
class LoadResult:
    version: str
    loaded: bool
    factions: int
    ships: int
    editions_added: tuple[int, ...] = ()


def read_files(directory: Path = core.DATA_DIR) -> core.Catalog:
    return core.load_catalog_dir(directory)


def load(
    directory: Path = core.DATA_DIR, *, force: bool = False, editions_dir: Path | None = None
) -> LoadResult:
    signals.loading = True
    try:
        with transaction.atomic():
            added = tuple(editions.sync(editions_dir or directory / "editions"))
            result, catalog = _load(directory, force)
            result.editions_added = added
    finally:
        signals.loading = False
    if result.loaded:  # after the commit: every process now sees the new version
        signals.catalogue_loaded.send(sender=LoadResult, catalog=catalog)
    return result


def _load(directory: Path, force: bool) -> tuple[LoadResult, core.Catalog]:
    """Bring the database in line with the files. Skips the work when nothing changed.

    Ship profiles and upgrades keep their rows (matched by slug); everything that hangs off a
    faction is rebuilt from the files. Saved fleets are not touched: each keeps the edition it
    was built under (R-160).
    """
    catalog = read_files(directory)
    if not force and CatalogState.current_version() == catalog.version:
        return (
            LoadResult(catalog.version, False, len(catalog.factions), catalog.ship_count),
            catalog,
        )

    for order, rank in enumerate(catalog.admirals):
        AdmiralRank.objects.update_or_create(
            slug=rank.slug,
            defaults=dict(
                name=rank.name,
                points=rank.points,
                leadership_bonus=rank.leadership_bonus,
                command_radius_cm=rank.command_radius_cm,
                rule=rank.rule,
                order=order,
            ),
        )
    AdmiralRank.objects.exclude(slug__in=[a.slug for a in catalog.admirals]).delete()

    for order, upgrade in enumerate(catalog.refits):
        _save_upgrade(upgrade, None, order)

    kept_ships: list[str] = []
    kept_upgrades = [u.slug for u in catalog.refits]
    for order, fc in enumerate(catalog.factions):
        faction, _ = Faction.objects.update_or_create(
            slug=fc.slug,
            defaults=dict(
                name=fc.name,
                allegiance=fc.allegiance,
                description=fc.description,
                leadership=fc.leadership,
                order=order,
                special_rules=[{"name": r.name, "text": r.text} for r in fc.special_rules],
            ),
        )
        faction.variants.all().delete()  # cascades to variant composition rules
        faction.composition_rules.all().delete()
        faction.attack_craft.all().delete()
        variants = Variant.objects.bulk_create(
            Variant(
                faction=faction,
                slug=v.slug,
                name=v.name,
                text=v.text,
                forbidden_ships=sorted(v.forbidden_ships),
                order=i,
            )
            for i, v in enumerate(fc.variants)
        )
        rules = [
            CompositionRule(faction=faction, code=r.code, text=r.text, params=r.to_dict(), order=i)
            for i, r in enumerate(fc.composition)
        ]
        for variant, vc in zip(variants, fc.variants, strict=True):
            rules += [
                CompositionRule(
                    faction=faction,
                    variant=variant,
                    code=r.code,
                    text=r.text,
                    params=r.to_dict(),
                    order=i,
                )
                for i, r in enumerate(vc.composition)
            ]
        CompositionRule.objects.bulk_create(rules)
        craft = {
            c.slug: c
            for c in AttackCraft.objects.bulk_create(
                AttackCraft(
                    faction=faction,
                    slug=c.slug,
                    name=c.name,
                    role=c.role.value,
                    speed_cm=c.speed_cm,
                    rule=c.rule,
                    order=i,
                )
                for i, c in enumerate(fc.attack_craft)
            )
        }
        for i, upgrade in enumerate(fc.upgrades):
            _save_upgrade(upgrade, faction, i)
            kept_upgrades.append(upgrade.slug)

        weapons: list[Weapon] = []
        for i, sc in enumerate(fc.ships):
            ship, _ = ShipProfile.objects.update_or_create(
                slug=sc.slug,
                defaults=dict(
                    faction=faction,
                    name=sc.name,
                    ship_class=sc.ship_class.value,
                    points=sc.points,
                    speed_cm=sc.speed_cm,
                    turns=sc.turns,
                    leadership=sc.leadership,
                    shields=sc.shields,
                    hull=sc.hull,
                    armor=sc.armor,
                    turrets=sc.turrets,
                    all_ahead_full=sc.all_ahead_full,
                    special_rules=list(sc.special_rules),
                    tags=list(sc.tags),
                    description=sc.description,
                    source=sc.source,
                    order=i,
                ),
            )
            ship.weapons.all().delete()
            ship.attack_craft.set([craft[s] for s in sc.attack_craft])
            weapons += [
                Weapon(
                    ship=ship,
                    name=w.name,
                    type=w.type.value,
                    arcs=[a.value for a in w.arcs],
                    strength=w.strength,
                    range_cm=w.range_cm,
                    rule=w.rule,
                    order=j,
                )
                for j, w in enumerate(sc.weapons)
            ]
            kept_ships.append(sc.slug)
        Weapon.objects.bulk_create(weapons)

    ShipProfile.objects.exclude(slug__in=kept_ships).delete()
    Upgrade.objects.exclude(slug__in=kept_upgrades).delete()
    Faction.objects.exclude(slug__in=[f.slug for f in catalog.factions]).delete()
    CatalogState.objects.all().delete()
    CatalogState.objects.create(version=catalog.version)
    pagecache.version_changed(catalog.version)
    return LoadResult(catalog.version, True, len(catalog.factions), catalog.ship_count), catalog


def _save_upgrade(upgrade: core.Upgrade, faction: Faction | None, order: int) -> None:
    Upgrade.objects.update_or_create(
        slug=upgrade.slug,
        defaults=dict(
            faction=faction,
            name=upgrade.name,
            points=upgrade.points,
            classes=[c.value for c in core.CLASS_ORDER if c in upgrade.classes],
            variants=sorted(upgrade.variants),
            max_per_fleet=upgrade.max_per_fleet,
            text=upgrade.text,
            effects=dict(upgrade.effects),
            order=order,
            requires_weapon=sorted(t.value for t in upgrade.requires_weapon),
        ),
    )


def core_catalog() -> core.Catalog:
    """The catalogue as rules_core values, built from the database once per catalogue version.

    The version comes from the shared cache (``pagecache.catalogue_version``), so a process's
    copy is checked against the version every process sees, without a query."""
    version = pagecache.catalogue_version()
    cached = _cache.get("catalog")
    if cached is not None and cached.version == version:
        return cached
    catalog = core.Catalog(
        version=version,
        factions=tuple(f.to_core() for f in Faction.objects.with_catalogue()),
        admirals=tuple(a.to_core() for a in AdmiralRank.objects.all()),
        refits=tuple(u.to_core() for u in Upgrade.objects.filter(faction=None)),
    )
    _cache["catalog"] = catalog
    return catalog


def command_catalog() -> core.Catalog:
    """The catalogue for a management command: the loaded one, or straight from the data files
    if the database holds none yet (or has no tables)."""
    try:
        catalog = core_catalog()
    except DatabaseError:
        return read_files()
    return catalog if catalog.factions else read_files()


_cache: dict[str, core.Catalog] = {}
