"""Editions: published, immutable catalogues, and what changed between two of them (R-160).

An edition file holds the whole catalogue as the data folder had it when it was published (the
admirals, the refits and every faction file, exactly as read), with a header::

    {"format": "void-command-edition", "version": 1, "edition": 7,
     "label": "2026-12-02, Necrons' Battle ships", "published": "2026-12-02T03:35:22Z",
     "notes": "…", "data_version": "1+1d901d2ab28f", "catalog": {"admirals": […],
     "refits": […], "factions": […]}}

``data_version`` is the catalogue version (:func:`rules_core.catalog.load_catalog_dir`) of the
data files it was published from, so a server whose data files are exactly that edition knows
it is serving it. The catalogue read from an edition carries that version too.

No Django here: the app stores the files' bytes and reads them back through :func:`read_edition`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from rules_core.catalog import (
    Catalog,
    CatalogError,
    Faction,
    ShipProfile,
    Upgrade,
    catalog_from_dicts,
)
from rules_core.fleet import Fleet, ShipUnit
from rules_core.limits import MAX_EDITION
from rules_core.validator import ValidationReport, catalog_index, validate

FORMAT = "void-command-edition"
VERSION = 1
FILE_RE = re.compile(r"^edition-(\d{3,4})\.json$")


class EditionError(ValueError):
    """An edition file that cannot be read, or an edition that does not exist."""


class UnknownEdition(EditionError):
    """A fleet, code or request names an edition this server does not know (R-160)."""

    def __init__(self, number: object, known: Sequence[int]) -> None:
        self.number = number
        self.known = tuple(known)
        listed = ", ".join(str(n) for n in self.known) or "none"
        super().__init__(
            f"Edition {number} is not one this server knows; the known editions are {listed}."
        )
        self.message = str(self)


@dataclass(frozen=True, slots=True)
class EditionInfo:
    """An edition's header: everything but its catalogue."""

    number: int
    label: str
    published: datetime
    notes: str
    data_version: str
    sha256: str  # of the file's bytes: an edition is never changed once published

    @property
    def name(self) -> str:
        return f"edition {self.number}"

    @property
    def title(self) -> str:
        return f"Edition {self.number} ({self.label})"


def no_edition_note(first: EditionInfo, newest: EditionInfo) -> str:
    """What a player is told about a list that names no edition (R-161)."""
    return (
        f"This list names no edition, so it is read under the first, {first.title} "
        f"(R-161). Lists made before editions carried none; update it to edition "
        f"{newest.number} for today's points."
    )


def file_name(number: int) -> str:
    return f"edition-{number:03d}.json"


def data_dicts(directory: Path) -> dict[str, Any]:
    """The data folder's files as read (``load_catalog_dir``'s order): what an edition holds."""

    def read(path: Path) -> Any:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise CatalogError(path.name, f"invalid JSON at line {exc.lineno}: {exc.msg}") from None

    return {
        "admirals": read(directory / "admirals.json"),
        "refits": read(directory / "refits.json"),
        "factions": [read(p) for p in sorted((directory / "factions").glob("*.json"))],
    }


def edition_bytes(
    *,
    number: int,
    label: str,
    published: datetime,
    notes: str,
    data_version: str,
    catalog: dict[str, Any],
) -> bytes:
    """An edition file's exact bytes (UTF-8 JSON, one space of indent, a final newline)."""
    if not 1 <= number <= MAX_EDITION:
        raise EditionError(f"an edition number is 1–{MAX_EDITION}, not {number}")
    label = label.strip()
    if not label or len(label) > 100 or any(c in label for c in "\r\n\t"):
        raise EditionError("an edition's label is one line of 1–100 characters")
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "edition": number,
        "label": label,
        "published": published.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "notes": notes.strip(),
        "data_version": data_version,
        "catalog": catalog,
    }
    return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _header(doc: Any) -> EditionInfo:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise EditionError(f"not an edition file (its format is not {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise EditionError(f"edition file version {doc.get('version')!r} is not {VERSION}")
    number = doc.get("edition")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_EDITION:
        raise EditionError("an edition file's 'edition' is a whole number from 1")
    for key in ("label", "published", "notes", "data_version"):
        if not isinstance(doc.get(key), str):
            raise EditionError(f"edition {number}: {key!r} must be a string")
    try:
        published = datetime.strptime(doc["published"], "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        raise EditionError(f"edition {number}: 'published' is not YYYY-MM-DDTHH:MM:SSZ") from None
    return EditionInfo(
        number=number,
        label=doc["label"],
        published=published,
        notes=doc["notes"],
        data_version=doc["data_version"],
        sha256="",
    )


def read_header(raw: bytes) -> EditionInfo:
    """The header of an edition file's bytes, with their sha256."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise EditionError("an edition file is not UTF-8 JSON") from None
    info = _header(doc)
    return _with_sha(info, raw)


def _with_sha(info: EditionInfo, raw: bytes) -> EditionInfo:
    return EditionInfo(
        number=info.number,
        label=info.label,
        published=info.published,
        notes=info.notes,
        data_version=info.data_version,
        sha256=hashlib.sha256(raw).hexdigest(),
    )


def read_edition(raw: bytes) -> tuple[EditionInfo, Catalog]:
    """An edition file's header and its catalogue (whose version is the edition's data
    version, so it prices exactly as the data files it was published from)."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise EditionError("an edition file is not UTF-8 JSON") from None
    info = _with_sha(_header(doc), raw)
    data = doc.get("catalog")
    if not isinstance(data, dict):
        raise EditionError(f"edition {info.number}: 'catalog' must be an object")
    try:
        catalog = catalog_from_dicts(
            factions=data.get("factions", []),
            admirals=data.get("admirals", []),
            refits=data.get("refits", []),
            version=info.data_version,
        )
    except CatalogError as exc:
        raise EditionError(f"edition {info.number}: {exc}") from None
    return info, catalog


def read_edition_dir(directory: Path) -> list[bytes]:
    """Every ``edition-NNN.json`` file's bytes, in edition order; EditionError on a gap or a
    file named for another edition than it holds."""
    files = sorted(
        (
            (int(m.group(1)), p)
            for p in directory.glob("edition-*.json")
            if (m := FILE_RE.match(p.name))
        ),
        key=lambda t: t[0],
    )
    out = []
    for expected, (number, path) in enumerate(files, start=1):
        if number != expected:
            raise EditionError(f"edition {expected} is missing (found {path.name})")
        raw = path.read_bytes()
        if read_header(raw).number != number:
            raise EditionError(f"{path.name} holds another edition")
        out.append(raw)
    return out


# --- what changed between two editions ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PointsChange:
    kind: str  # "ship", "upgrade" or "admiral"
    slug: str
    name: str
    faction: str | None  # the faction's slug; None for refits and admirals
    old: int
    new: int

    @property
    def delta(self) -> int:
        return self.new - self.old

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "slug": self.slug,
            "name": self.name,
            "faction": self.faction,
            "old": self.old,
            "new": self.new,
        }


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One changed value of a ship (a stat, its weapons as text), of a faction's rule or of an
    upgrade's text: ``subject`` names what it belongs to."""

    kind: str  # "stat", "weapons", "faction_rule", "upgrade", "ship_text"
    subject: str  # a ship's, upgrade's or faction's slug
    name: str  # its name, for people
    faction: str | None
    field: str
    old: str
    new: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "name": self.name,
            "faction": self.faction,
            "field": self.field,
            "old": self.old,
            "new": self.new,
        }


@dataclass(frozen=True, slots=True)
class Entry:
    kind: str  # "ship", "upgrade", "faction"
    slug: str
    name: str
    faction: str | None
    points: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "slug": self.slug,
            "name": self.name,
            "faction": self.faction,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class FactionShare:
    """How much of one faction's list a change of prices touches."""

    faction: str
    name: str
    changed: int
    ships: int

    @property
    def share(self) -> float:
        return self.changed / self.ships if self.ships else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "name": self.name,
            "changed": self.changed,
            "ships": self.ships,
            "share": round(self.share, 4),
        }


@dataclass(frozen=True, slots=True)
class CatalogDiff:
    points: tuple[PointsChange, ...] = ()
    added: tuple[Entry, ...] = ()
    removed: tuple[Entry, ...] = ()
    changes: tuple[FieldChange, ...] = ()
    shares: tuple[FactionShare, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.points or self.added or self.removed or self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": [p.to_dict() for p in self.points],
            "added": [e.to_dict() for e in self.added],
            "removed": [e.to_dict() for e in self.removed],
            "changes": [c.to_dict() for c in self.changes],
            "factions": [s.to_dict() for s in self.shares],
        }


_STATS = (
    "ship_class",
    "speed_cm",
    "turns",
    "leadership",
    "shields",
    "hull",
    "armor",
    "turrets",
    "all_ahead_full",
)


def _weapons_text(ship: ShipProfile) -> str:
    return "; ".join(
        f"{w.name} ({w.type.value}, {w.arc_label}, {w.strength} at {w.range_cm} cm"
        f"{', ' + w.rule if w.rule else ''})"
        for w in ship.weapons
    )


def _value(ship: ShipProfile, name: str) -> str:
    value = getattr(ship, name)
    return str(getattr(value, "value", value))


def _upgrades(catalog: Catalog) -> dict[str, Upgrade]:
    return {
        u.slug: u for u in (*catalog.refits, *(u for f in catalog.factions for u in f.upgrades))
    }


def catalog_diff(old: Catalog, new: Catalog) -> CatalogDiff:
    """Everything a player would ask about between two catalogues: prices (ships, upgrades,
    admiral ranks), ships and upgrades added or removed, stats, weapons and rule texts."""
    points: list[PointsChange] = []
    added: list[Entry] = []
    removed: list[Entry] = []
    changes: list[FieldChange] = []
    shares: list[FactionShare] = []
    old_factions = {f.slug: f for f in old.factions}
    new_factions = {f.slug: f for f in new.factions}
    for slug, nf in new_factions.items():
        of = old_factions.get(slug)
        if of is None:
            added.append(Entry("faction", slug, nf.name, slug, None))
            continue
        _faction_diff(of, nf, points, added, removed, changes)
        changed = sum(
            1 for s in nf.ships if (o := of.ship(s.slug)) is not None and o.points != s.points
        )
        if changed:
            shares.append(FactionShare(slug, nf.name, changed, len(nf.ships)))
    for slug, of in old_factions.items():
        if slug not in new_factions:
            removed.append(Entry("faction", slug, of.name, slug, None))
    old_ups, new_ups = _upgrades(old), _upgrades(new)
    for slug, nu in new_ups.items():
        ou = old_ups.get(slug)
        if ou is None:
            added.append(Entry("upgrade", slug, nu.name, nu.faction, nu.points))
            continue
        if ou.points != nu.points:
            points.append(PointsChange("upgrade", slug, nu.name, nu.faction, ou.points, nu.points))
        if ou.text != nu.text:
            changes.append(
                FieldChange("upgrade", slug, nu.name, nu.faction, "text", ou.text, nu.text)
            )
    for slug, ou in old_ups.items():
        if slug not in new_ups:
            removed.append(Entry("upgrade", slug, ou.name, ou.faction, ou.points))
    old_adm = {a.slug: a for a in old.admirals}
    for a in new.admirals:
        oa = old_adm.get(a.slug)
        if oa is not None and oa.points != a.points:
            points.append(PointsChange("admiral", a.slug, a.name, None, oa.points, a.points))
    return CatalogDiff(tuple(points), tuple(added), tuple(removed), tuple(changes), tuple(shares))


def _faction_diff(
    of: Faction,
    nf: Faction,
    points: list[PointsChange],
    added: list[Entry],
    removed: list[Entry],
    changes: list[FieldChange],
) -> None:
    old_rules = {r.name: r.text for r in of.special_rules}
    new_rules = {r.name: r.text for r in nf.special_rules}
    for name in dict.fromkeys([*old_rules, *new_rules]):
        if old_rules.get(name) != new_rules.get(name):
            changes.append(
                FieldChange(
                    "faction_rule",
                    nf.slug,
                    nf.name,
                    nf.slug,
                    name,
                    old_rules.get(name, ""),
                    new_rules.get(name, ""),
                )
            )
    old_ships = {s.slug: s for s in of.ships}
    for ship in nf.ships:
        before = old_ships.get(ship.slug)
        if before is None:
            added.append(Entry("ship", ship.slug, ship.name, nf.slug, ship.points))
            continue
        if before.points != ship.points:
            points.append(
                PointsChange("ship", ship.slug, ship.name, nf.slug, before.points, ship.points)
            )
        for stat in _STATS:
            if _value(before, stat) != _value(ship, stat):
                changes.append(
                    FieldChange(
                        "stat",
                        ship.slug,
                        ship.name,
                        nf.slug,
                        stat,
                        _value(before, stat),
                        _value(ship, stat),
                    )
                )
        if before.weapons != ship.weapons:
            changes.append(
                FieldChange(
                    "weapons",
                    ship.slug,
                    ship.name,
                    nf.slug,
                    "weapons",
                    _weapons_text(before),
                    _weapons_text(ship),
                )
            )
        if before.special_rules != ship.special_rules:
            changes.append(
                FieldChange(
                    "ship_text",
                    ship.slug,
                    ship.name,
                    nf.slug,
                    "special_rules",
                    "; ".join(before.special_rules),
                    "; ".join(ship.special_rules),
                )
            )
    new_slugs = {s.slug for s in nf.ships}
    for ship in of.ships:
        if ship.slug not in new_slugs:
            removed.append(Entry("ship", ship.slug, ship.name, of.slug, ship.points))


# --- one fleet under two editions -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitChange:
    """One unit's cost under the fleet's edition and under another."""

    unit: int
    name: str
    old: int
    new: int

    @property
    def delta(self) -> int:
        return self.new - self.old


@dataclass(frozen=True, slots=True)
class FleetComparison:
    """A fleet priced and judged under its own edition and under another (R-161)."""

    old: ValidationReport
    new: ValidationReport
    units: tuple[UnitChange, ...] = field(default_factory=tuple)

    @property
    def changed(self) -> bool:
        return (self.old.points, self.old.legal, len(self.old.errors)) != (
            self.new.points,
            self.new.legal,
            len(self.new.errors),
        ) or bool(self.units)


def compare_fleet(
    fleet: Fleet, old: Catalog, new: Catalog, *, old_report: ValidationReport | None = None
) -> FleetComparison:
    """``fleet`` under ``old`` and under ``new``, with every unit whose cost differs
    (``old_report``: its report under ``old``, when the caller has it already)."""
    before = old_report if old_report is not None else validate(fleet, old)
    after = validate(fleet, new)
    names = catalog_index(new)
    units = []
    for i, (unit, a, b) in enumerate(zip(fleet.units, before.units, after.units, strict=False)):
        if a.points != b.points:
            if isinstance(unit, ShipUnit):
                label = unit.name or names.ship_name(unit.ship)
            else:
                label = unit.name or f"Squadron of {len(unit.ships)}"
            units.append(UnitChange(i, label, a.points, b.points))
    return FleetComparison(before, after, tuple(units))


def describe(numbers: Iterable[int]) -> str:
    """Edition numbers for a message: "1, 2 and 3"."""
    items = [str(n) for n in numbers]
    if len(items) <= 1:
        return "".join(items) or "none"
    return ", ".join(items[:-1]) + " and " + items[-1]
