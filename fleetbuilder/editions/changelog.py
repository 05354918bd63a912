"""What changed between two editions (R-160), as the changelog page, the feed and the API show it.

``rules_core.editions.catalog_diff`` decides what changed; this module only arranges it for
people (prices grouped by faction with the share of its ships repriced, names for stats and
factions) and keeps the result. Two editions never change once published, so their changelog is
kept in the shared cache under both files' sha256 and the diff code's own hash: a deploy that
changes how a diff is made never serves an old one, and no edition needs dropping from it.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path

from django.core.cache import cache

from fleetbuilder.catalog import editions
from rules_core import editions as ed
from rules_core.catalog import Catalog
from rules_core.editions import CatalogDiff, EditionInfo, Entry, FieldChange, PointsChange

log = logging.getLogger("fleetbuilder.editions")

CACHE_TTL = 30 * 24 * 60 * 60
_CODE = hashlib.sha256(Path(ed.__file__).read_bytes() + Path(__file__).read_bytes()).hexdigest()[
    :12
]

STAT_LABELS = {
    "ship_class": "Class",
    "speed_cm": "Speed (cm)",
    "turns": "Turns",
    "leadership": "Leadership",
    "shields": "Shields",
    "hull": "Hull",
    "armor": "Armor",
    "turrets": "Turrets",
    "all_ahead_full": "All Ahead Full (cm)",
}
KIND_LABELS = {
    "ship": "Ship",
    "upgrade": "Upgrade",
    "admiral": "Admiral rank",
    "faction": "Faction",
}


@dataclass(frozen=True, slots=True)
class FactionPrices:
    """One faction's price changes, with how much of its list they touch."""

    slug: str
    name: str
    repriced: int  # ships whose price changed
    ships: int  # ships the faction has in the newer edition
    changes: tuple[PointsChange, ...]

    @property
    def share_pct(self) -> int:
        return round(100 * self.repriced / self.ships) if self.ships else 0


@dataclass(frozen=True, slots=True)
class ProfileChange:
    """A changed stat, weapon line or rule text, named for people."""

    subject: str  # the ship's, upgrade's or faction's name
    faction: str  # the faction's name ("" for a refit)
    what: str  # "Speed (cm)", "Weapons", "Faction rule: Holofields", …
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class Listed:
    """A ship, upgrade or faction added or removed."""

    name: str
    kind: str
    faction: str
    points: int | None


@dataclass(frozen=True, slots=True)
class Changelog:
    """Edition ``edition`` against edition ``against`` (usually the one before it)."""

    edition: EditionInfo
    against: EditionInfo
    diff: CatalogDiff
    factions: tuple[FactionPrices, ...]  # factions with a price change, by name
    general: tuple[PointsChange, ...]  # refits and admiral ranks: no faction's own
    added: tuple[Listed, ...]
    removed: tuple[Listed, ...]
    profiles: tuple[ProfileChange, ...]

    @property
    def price_changes(self) -> int:
        return len(self.diff.points)

    @property
    def ships_repriced(self) -> int:
        return sum(1 for p in self.diff.points if p.kind == "ship")

    @property
    def empty(self) -> bool:
        return self.diff.empty


def _names(*catalogs: Catalog) -> dict[str, str]:
    return {f.slug: f.name for c in catalogs for f in c.factions}


def _what(change: FieldChange) -> str:
    if change.kind == "stat":
        return STAT_LABELS.get(change.field, change.field)
    if change.kind == "weapons":
        return "Weapons"
    if change.kind == "faction_rule":
        return f"Faction rule: {change.field}"
    if change.kind == "ship_text":
        return "Special rules"
    return "Rule text"


def _listed(entries: tuple[Entry, ...], names: dict[str, str]) -> tuple[Listed, ...]:
    return tuple(
        Listed(e.name, KIND_LABELS.get(e.kind, e.kind), names.get(e.faction or "", ""), e.points)
        for e in entries
    )


def build(against: EditionInfo, edition: EditionInfo) -> Changelog:
    """The changelog of ``edition`` against ``against``, computed now (see :func:`between`)."""
    old, new = editions.catalog_for(against.number), editions.catalog_for(edition.number)
    diff = ed.catalog_diff(old, new)
    names = _names(old, new)
    ships = {f.slug: len(f.ships) for f in new.factions}
    shares = {s.faction: s for s in diff.shares}
    by_faction: dict[str, list[PointsChange]] = {}
    general = []
    for change in diff.points:
        if change.faction is None:
            general.append(change)
        else:
            by_faction.setdefault(change.faction, []).append(change)
    factions = tuple(
        sorted(
            (
                FactionPrices(
                    slug,
                    names.get(slug, slug),
                    shares[slug].changed if slug in shares else 0,
                    ships.get(slug, 0),
                    tuple(changes),
                )
                for slug, changes in by_faction.items()
            ),
            key=lambda f: f.name,
        )
    )
    profiles = tuple(
        ProfileChange(
            c.name,
            names.get(c.faction or "", "") if c.kind != "faction_rule" else "",
            _what(c),
            c.old,
            c.new,
        )
        for c in diff.changes
    )
    return Changelog(
        edition,
        against,
        diff,
        factions,
        tuple(general),
        _listed(diff.added, names),
        _listed(diff.removed, names),
        profiles,
    )


def between(against: EditionInfo, edition: EditionInfo) -> Changelog:
    """The changelog of ``edition`` against ``against``, from the shared cache when another
    request made it (an edition is immutable: the two files' sha256 name it for good)."""
    key = f"editions:changelog:{_CODE}:{against.sha256}:{edition.sha256}"
    try:
        cached = cache.get(key)
    except Exception:
        log.warning("cache unavailable for %s", key, exc_info=True)
        cached = None
    if isinstance(cached, Changelog):
        return cached
    made = build(against, edition)
    try:
        cache.set(key, made, CACHE_TTL)
    except Exception:
        log.warning("cache unavailable for %s", key, exc_info=True)
    return made


def previous(edition: EditionInfo) -> EditionInfo | None:
    """The edition published just before ``edition``; None for the first."""
    before = [i for i in editions.known() if i.number < edition.number]
    return before[-1] if before else None


def since_previous(edition: EditionInfo) -> Changelog | None:
    """What ``edition`` changed against the one before it; None for the first edition."""
    before = previous(edition)
    return between(before, edition) if before is not None else None
