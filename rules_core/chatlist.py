"""The fleet list for a chat: a Markdown list (Discord, Reddit, forums that render Markdown) and
a one-line summary, plus the squadron line-up every view shares ("3× Sword Frigate").

Both are written for readers only; the plain-text list (:mod:`rules_core.textlist`) is the one
that reads back. A Markdown list::

    **Gothic Sector Patrol** · Imperial Navy · Skirmish · Edition 7 · 985/1000 pts · Legal
    - **Lunar Class Cruiser** "Emperor's Wrath" · Flagship · Admiral: Commodore · 225 pts
      - Veteran Crew +15
    - **3× Sword Frigate** "Sword Squadron" · 105 pts

and its summary::

    Patrol · Imperial Navy · Skirmish · Edition 7 · 985/1000 pts · Legal: Lunar Class Cruiser, …

"Edition 7" is the catalogue edition the list is priced under (R-160); a list naming none has
no such part. Names a player typed are escaped, so ``*Waaagh*`` stays literal and ``@everyone``
pings nobody.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rules_core.catalog import Catalog
from rules_core.fleet import Fleet, ShipUnit
from rules_core.validator import ValidationReport, catalog_index

SEP = " · "
# Inline Markdown only: names sit mid-line, so line-start marks (#, -, >) cannot start a block.
_MARKDOWN = re.compile(r"([\\`*_~|<>\[\]])")
_MENTION = re.compile(r"@(?=everyone|here|[&!#]?\d)")


def lineup(ship_names: Iterable[str], sep: str = ", ") -> str:
    """Escorts of a squadron by type, in the order they first appear: "3× Sword Frigate",
    "2× Sword Frigate, 1× Firestorm Frigate"; "" for no escorts."""
    counts: dict[str, int] = {}
    for name in ship_names:
        counts[name] = counts.get(name, 0) + 1
    return sep.join(f"{n}× {name}" for name, n in counts.items())


def _escape(text: str) -> str:
    """A player's text shown literally in Markdown, mentions defused (zero-width space)."""
    return _MENTION.sub("@\u200b", _MARKDOWN.sub(r"\\\1", text))


def _verdict(report: ValidationReport) -> str:
    errors = len(report.errors)
    return "Legal" if report.legal else f"Not legal ({errors} problem{'s' * (errors != 1)})"


def _head(catalog: Catalog, fleet: Fleet, report: ValidationReport, name: str) -> list[str]:
    faction = catalog.faction(fleet.faction)
    parts = [name, faction.name if faction else fleet.faction]
    if faction is not None and fleet.variant is not None:
        variant = faction.variant(fleet.variant)
        parts.append(variant.name if variant else fleet.variant)
    parts.append(fleet.game_size.label)
    if fleet.edition is not None:  # the prices are that edition's
        parts.append(f"Edition {fleet.edition}")
    parts.append(f"{report.points}/{fleet.band.max} pts")
    parts.append(_verdict(report))
    return parts


def _ship_name(catalog: Catalog, slug: str) -> str:
    entry = catalog_index(catalog).ships.get(slug)
    return entry[0].name if entry else slug


def to_markdown(catalog: Catalog, fleet: Fleet, report: ValidationReport) -> str:
    """The list in Markdown (see the module docstring); ``report`` is ``validate(fleet)``."""
    idx = catalog_index(catalog)
    name = fleet.name if fleet.name is not None else "Untitled Fleet"
    head = _head(catalog, fleet, report, f"**{_escape(name)}**")
    lines = [SEP.join(head[:1] + [_escape(p) for p in head[1:]])]

    def upgrades(slugs: tuple[str, ...], indent: str, prefix: str = "") -> None:
        for slug in slugs:
            known = idx.upgrades.get(slug)
            text = f"{known.name} +{known.points}" if known else f"{slug} (unknown)"
            lines.append(f"{indent}- {prefix}{_escape(text)}")

    for unit, unit_report in zip(fleet.units, report.units, strict=True):
        title = f' "{_escape(unit.name)}"' if unit.name is not None else ""
        if isinstance(unit, ShipUnit):
            tags = ""
            if unit.flagship:
                tags += f"{SEP}Flagship"
            if unit.admiral is not None:
                rank = idx.admirals.get(unit.admiral)
                tags += f"{SEP}Admiral: {_escape(rank.name if rank else unit.admiral)}"
            ship = _escape(_ship_name(catalog, unit.ship))
            lines.append(f"- **{ship}**{title}{tags}{SEP}{unit_report.points} pts")
            upgrades(unit.upgrades, "  ")
        else:
            names = [_ship_name(catalog, s.ship) for s in unit.ships]
            group = _escape(lineup(names)) or "Squadron, no escorts"
            lines.append(f"- **{group}**{title}{SEP}{unit_report.points} pts")
            for escort, escort_name in zip(unit.ships, names, strict=True):
                upgrades(escort.upgrades, "  ", f"{_escape(escort_name)}: ")
    if not fleet.units:
        lines.append("- No ships yet")
    if report.errors:
        lines.append("")
        lines.extend(f"> {_escape(' '.join(p.message.splitlines()))}" for p in report.errors)
    return "\n".join(lines) + "\n"


def one_line(catalog: Catalog, fleet: Fleet, report: ValidationReport) -> str:
    """The fleet in one line: its head, then its ships, alike ships counted together."""
    name = fleet.name if fleet.name is not None else "Untitled Fleet"
    parts: list[str] = []
    capitals: dict[str, int] = {}
    order: list[tuple[str, str]] = []  # ("ship", name) or ("squadron", line-up)
    for unit in fleet.units:
        if isinstance(unit, ShipUnit):
            ship = _ship_name(catalog, unit.ship)
            if ship not in capitals:
                order.append(("ship", ship))
            capitals[ship] = capitals.get(ship, 0) + 1
        elif unit.ships:
            order.append(
                ("squadron", lineup((_ship_name(catalog, s.ship) for s in unit.ships), " + "))
            )
    for kind, text in order:
        if kind == "ship" and capitals[text] > 1:
            parts.append(f"{capitals[text]}× {text}")
        else:
            parts.append(text)
    head = SEP.join(_head(catalog, fleet, report, " ".join(name.split())))
    return f"{head}: {', '.join(parts) or 'no ships yet'}"
