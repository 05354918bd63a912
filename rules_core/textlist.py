"""The plain-text fleet list, for a forum post or a chat, and its reader (ruling R-91).

::

    Fleet: Gothic Sector Patrol
    Faction: Imperial Navy
    Variant: Gothic Sector Fleet
    Game size: Skirmish (750–1000 points)
    Edition: 7 (2026-12-02, Necrons' Battle ships)
    Points: 985 · Legal

    * Lunar Class Cruiser "Emperor's Wrath" [Flagship] [Admiral: Commodore] · 225 pts
      + Veteran Crew · 15 pts
    * Squadron "Sword Squadron" · 2× Sword Class Frigate · 70 pts
      - Sword Class Frigate · 35 pts
      - Sword Class Frigate · 35 pts

    ! Problems, one per line, when the list is not legal

    Notes:
    Free text to the end.

Structure comes from each line's first character, never from indentation (forums strip it):
``*`` (or ``•``) a unit, ``-`` (or ``–``, ``◦``) an escort of the squadron above, ``+`` an
upgrade of the ship above, ``!`` a problem; code-fence lines are skipped. Points, the verdict and
problems are written for readers and ignored when read back: the reader recomputes them.
The ``Edition:`` line names the catalogue edition the list is priced under (R-160): its number,
then its label in brackets, for readers (ignored when read back); a list that names no edition
has no such line, and its reader leaves ``edition`` None (R-161 says which edition that is). Ships,
upgrades, admirals, factions and variants are written by their catalogue names (read back in any
case), or by slug where a name would not lead back to the same slug (an unknown slug, or another
faction's ship sharing a name). Unit names are always in double quotes as JSON strings; a fleet
name or notes that would not survive as plain lines are written the same way. So
``from_text(to_text(f)) == f`` for every fleet.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Any

from rules_core import text as player_text
from rules_core.catalog import Catalog
from rules_core.chatlist import lineup
from rules_core.fleet import (
    FORMAT,
    SLUG_RE,
    VERSION,
    Fleet,
    FleetFormatError,
    GameSize,
    ShipUnit,
    parse_fleet,
)
from rules_core.limits import MAX_EDITION
from rules_core.validator import (
    ValidationReport,
    catalog_index,
    check_points_bound,
    validate,
)

MAX_TEXT_LENGTH = 64 * 1024  # characters; a 100-unit list is well under it
SEP = " · "
_PATH_RE = re.compile(r"^units\[(\d+)\](?:\.ships\[(\d+)\])?")
_BAND_RE = re.compile(r"\(\s*(\d{1,6})\s*[–-]\s*(\d{1,6})")
# "Edition: 7", "Edition: 7 (its label)"; "Edition 7 (its label)", as the pages title it, too.
_EDITION_RE = re.compile(r"(?i)^edition\s*:?\s*(\d{1,6})\s*(?:\(.*\))?$")
_EDITION_START = re.compile(r"(?i)^edition(?:\s*:|\s+\d)")
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


class TextListError(ValueError):
    """Text that is not a fleet list; ``line`` is the 1-based line at fault (None: the whole)."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


# --- names ----------------------------------------------------------------------------------


@dataclass
class _Names:
    """Name ⇄ slug lookups for one fleet's faction (its own ships win a shared name)."""

    ships: dict[str, str]  # lower-case name -> slug ("" when ambiguous)
    upgrades: dict[str, str]
    admirals: dict[str, str]
    factions: dict[str, str]
    variants: dict[str, str]
    slug_names: dict[str, str]  # slug -> display name, for every kind

    @classmethod
    def build(cls, catalog: Catalog, faction: str | None) -> _Names:
        idx = catalog_index(catalog)
        ships: dict[str, str] = {}
        for slug, (profile, owner) in idx.ships.items():
            key = profile.name.lower()
            if owner.slug == faction:
                continue
            ships[key] = "" if key in ships and ships[key] != slug else slug
        own = idx.factions.get(faction or "")
        for profile in own.ships if own else ():
            ships[profile.name.lower()] = profile.slug
        names = {s: p.name for s, (p, _) in idx.ships.items()}
        names.update((s, u.name) for s, u in idx.upgrades.items())
        names.update((s, a.name) for s, a in idx.admirals.items())
        names.update((s, f.name) for s, f in idx.factions.items())
        variants = {v.name.lower(): v.slug for v in own.variants} if own else {}
        names.update((v.slug, v.name) for v in (own.variants if own else ()))
        return cls(
            ships=ships,
            upgrades={u.name.lower(): s for s, u in idx.upgrades.items()},
            admirals={a.name.lower(): s for s, a in idx.admirals.items()},
            factions={f.name.lower(): s for s, f in idx.factions.items()},
            variants=variants,
            slug_names=names,
        )

    def token(self, slug: str, table: dict[str, str]) -> str:
        """How to write ``slug``: its name if that name reads back as it, else the slug."""
        name = self.slug_names.get(slug)
        return name if name is not None and table.get(name.lower()) == slug else slug


def _quote(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=False)
    for char, escape in _LINE_BREAKS.items():
        quoted = quoted.replace(char, escape)
    return quoted


def _plain_line(text: str) -> bool:
    return bool(text) and text == text.strip() and text.isprintable() and text[0] != '"'


def _plain_notes(notes: str) -> bool:
    lines = notes.split("\n")
    return (
        notes.splitlines() == lines
        and all(x == x.rstrip() and (not x or x.isprintable()) for x in lines)
        and lines[0].strip() != ""
        and lines[-1].strip() != ""
        and notes[0] != '"'
        and not lines[-1].lstrip().startswith(("```", "~~~"))
    )


# --- writing --------------------------------------------------------------------------------


def _pts(points: int) -> str:
    return f"{SEP}{points} pts"


def to_text(
    catalog: Catalog, fleet: Fleet, report: ValidationReport, *, edition_label: str = ""
) -> str:
    """The list as plain text (see the module docstring); ``report`` is ``validate(fleet)``
    under the catalogue of ``fleet.edition``, whose label ``edition_label`` is."""
    names = _Names.build(catalog, fleet.faction)
    idx = catalog_index(catalog)
    lines: list[str] = []
    if fleet.name is not None:
        lines.append("Fleet: " + (fleet.name if _plain_line(fleet.name) else _quote(fleet.name)))
    lines.append("Faction: " + names.token(fleet.faction, names.factions))
    if fleet.variant is not None:
        lines.append("Variant: " + names.token(fleet.variant, names.variants))
    band = fleet.band
    lines.append(f"Game size: {fleet.game_size.label} ({band.min}–{band.max} points)")
    if fleet.edition is not None:
        label = " ".join(edition_label.split())
        lines.append(f"Edition: {fleet.edition}" + (f" ({label})" if label else ""))
    errors = len(report.errors)
    verdict = "Legal" if report.legal else f"Not legal, {errors} problem{'s' * (errors != 1)}"
    lines.append(f"Points: {report.points}{SEP}{verdict}")
    lines.append("")

    def upgrade_lines(upgrades: tuple[str, ...], indent: str) -> None:
        for slug in upgrades:
            known = idx.upgrades.get(slug)
            tail = _pts(known.points) if known else f"{SEP}unknown"
            lines.append(f"{indent}+ {names.token(slug, names.upgrades)}{tail}")

    for unit, unit_report in zip(fleet.units, report.units, strict=True):
        title = f" {_quote(unit.name)}" if unit.name is not None else ""
        if isinstance(unit, ShipUnit):
            tags = " [Flagship]" if unit.flagship else ""
            if unit.admiral is not None:
                tags += f" [Admiral: {names.token(unit.admiral, names.admirals)}]"
            ship = names.token(unit.ship, names.ships)
            lines.append(f"* {ship}{title}{tags}{_pts(unit_report.points)}")
            upgrade_lines(unit.upgrades, "  ")
        else:
            tokens = [names.token(escort.ship, names.ships) for escort in unit.ships]
            # "3× Sword Frigate", as the builder and the shared page say it: a remark after
            # '·', so the reader skips it and counts the '-' lines below.
            group = f"{SEP}{lineup(tokens)}" if tokens else ""
            lines.append(f"* Squadron{title}{group}{_pts(unit_report.points)}")
            for escort, token, ship_report in zip(
                unit.ships, tokens, unit_report.ships, strict=True
            ):
                lines.append(f"  - {token}{_pts(ship_report.points)}")
                upgrade_lines(escort.upgrades, "    ")
    if report.problems:
        lines.append("")
        # A message may quote a name holding a line break: it must stay one "!" line.
        lines.extend("! " + " ".join(p.message.splitlines()) for p in report.problems)
    if fleet.notes:
        lines.append("")
        if _plain_notes(fleet.notes):
            lines.append("Notes:")
            lines.extend(fleet.notes.split("\n"))
        else:
            lines.append("Notes: " + _quote(fleet.notes))
    return "\n".join(lines) + "\n"


# --- reading --------------------------------------------------------------------------------

# A list copied back from a rendered forum post has bullets where the markers were.
_MARKERS = {"*": "*", "•": "*", "-": "-", "–": "-", "◦": "-", "+": "+"}
_HEADERS = {
    "fleet": "name",
    "faction": "faction",
    "variant": "variant",
    "game size": "game_size",
    "edition": "edition",
    "points": None,
}


class _Reader:
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.names = _Names.build(catalog, None)
        self.header: dict[str, tuple[int, str]] = {}
        self.units: list[dict[str, Any]] = []
        self.unit_lines: list[int] = []
        self.ship_lines: list[list[int]] = []
        self.current: dict[str, Any] | None = None  # the ship or escort upgrades go to
        self.notes: str = ""
        self.notes_line: int | None = None
        self.faction: str | None = None

    def value(self, raw: str, line: int, what: str) -> str:
        raw = raw.strip()
        if raw.startswith('"'):
            try:
                value, end = json.JSONDecoder().raw_decode(raw)
            except ValueError:
                raise TextListError(line, f"the {what} in quotes is not closed properly") from None
            if raw[end:].strip() or not isinstance(value, str):
                raise TextListError(line, f"unexpected text after the quoted {what}")
            return value
        return raw

    def lookup(self, text: str, table: dict[str, str], line: int, what: str) -> tuple[str, str]:
        """The slug ``text`` starts with (the longest catalogue name, else a slug), and the rest."""
        lowered = text.lower()
        best = ""
        for name in table:
            if (
                len(name) > len(best)
                and lowered.startswith(name)
                and (len(text) == len(name) or not text[len(name)].isalnum())
            ):
                best = name
        if best:
            slug = table[best]
            if not slug:
                raise TextListError(
                    line,
                    f"several factions have a {what} called "
                    f"{text[: len(best)]!r}: write its slug instead",
                )
            return slug, text[len(best) :]
        token = re.split(r' "| \[| ·|\s', text.strip(), maxsplit=1)[0]
        if SLUG_RE.match(token) and len(token) <= 100:
            return token, text.strip()[len(token) :]
        shown = re.split(r' "| \[| ·', text.strip(), maxsplit=1)[0]
        close = difflib.get_close_matches(
            shown.lower(), [n for n, s in table.items() if s], 1, 0.75
        )
        hint = f"; did you mean {self.names.slug_names[table[close[0]]]!r}?" if close else ""
        raise TextListError(line, f"no {what} called {shown!r} in the catalogue{hint}")

    def read(self, text: str) -> tuple[dict[str, Any], dict[str, int]]:
        where: dict[str, int] = {}
        lines = text.splitlines()
        n = 0
        while n < len(lines):
            number, line = n + 1, lines[n].strip()
            n += 1
            if not line or line.startswith(("!", "```", "~~~")):  # problems, code fences
                continue
            marker = _MARKERS.get(line[0])
            if marker and (len(line) == 1 or line[1] == " "):
                self.item(marker, line[1:].strip(), number)
                continue
            key, colon, rest = line.partition(":")
            key = key.strip().lower()
            if _EDITION_START.match(line):  # "Edition 7 (label)" has no colon
                key, colon, rest = "edition", ":", line[len("edition") :].lstrip(" :")
            if key == "notes" and colon:
                self.notes_line = number
                if rest.strip():
                    self.notes = self.value(rest, number, "notes")
                    n_rest = [
                        x
                        for x in lines[n:]
                        if x.strip() and not x.strip().startswith(("```", "~~~"))
                    ]
                    if n_rest:
                        raise TextListError(n + 1, "nothing may follow quoted notes")
                else:
                    body = [x.rstrip() for x in lines[n:]]
                    while body and not body[0]:
                        body.pop(0)
                    while body and (not body[-1] or body[-1].startswith(("```", "~~~"))):
                        body.pop()  # trailing blank lines and the closing code fence
                    self.notes = "\n".join(body)
                break
            if colon and key in _HEADERS:
                if self.units:
                    raise TextListError(number, f"the {key!r} line belongs before the ships")
                if key in self.header:
                    raise TextListError(number, f"a second {key!r} line")
                self.header[key] = (number, rest)
                continue
            raise TextListError(
                number,
                f"not understood: {line[:60]!r} (a ship line starts "
                "with '*', an escort with '-', an upgrade with '+')",
            )
        return self.document(where), where

    def resolve_faction(self, number: int | None) -> str:
        """Read the faction (before the first unit), so ship names resolve in its list."""
        if self.faction is not None:
            return self.faction
        if "faction" not in self.header:
            raise TextListError(number, "the list needs a 'Faction:' line before its ships")
        line, raw = self.header["faction"]
        faction, rest = self.lookup(raw.strip(), self.names.factions, line, "faction")
        if rest.strip():
            raise TextListError(line, f"unexpected text after the faction: {rest.strip()!r}")
        self.faction = faction
        self.names = _Names.build(self.catalog, faction)
        return faction

    def item(self, marker: str, text: str, number: int) -> None:
        self.resolve_faction(number)
        if marker == "*":
            self.unit(text, number)
        elif marker == "-":
            squadron = self.units[-1] if self.units else None
            if squadron is None or squadron["kind"] != "squadron":
                raise TextListError(number, "an escort ('-') belongs under a '* Squadron' line")
            slug, rest = self.lookup(text, self.names.ships, number, "ship")
            self.tail(self.tags(rest, number, allowed=False)[2], number)
            self.current = {"ship": slug, "upgrades": []}
            squadron["ships"].append(self.current)
            self.ship_lines[-1].append(number)
        else:
            if self.current is None:
                raise TextListError(number, "an upgrade ('+') belongs under a ship or an escort")
            slug, rest = self.lookup(text, self.names.upgrades, number, "upgrade")
            self.tail(rest, number)
            self.current["upgrades"].append(slug)

    def unit(self, text: str, number: int) -> None:
        if text.lower() == "squadron" or re.match(r"(?i)squadron( |$)", text):
            rest = text[len("squadron") :]
            name, rest = self.unit_name(rest, number)
            self.tail(self.tags(rest, number, allowed=False)[2], number)
            self.units.append({"kind": "squadron", "name": name, "ships": []})
            self.current = None
        else:
            slug, rest = self.lookup(text, self.names.ships, number, "ship")
            name, rest = self.unit_name(rest, number)
            flagship, admiral, rest = self.tags(rest, number, allowed=True)
            self.tail(rest, number)
            self.current = {
                "kind": "ship",
                "ship": slug,
                "name": name,
                "flagship": flagship,
                "admiral": admiral,
                "upgrades": [],
            }
            self.units.append(self.current)
        self.unit_lines.append(number)
        self.ship_lines.append([])

    def unit_name(self, rest: str, number: int) -> tuple[str | None, str]:
        rest = rest.lstrip()
        if not rest.startswith('"'):
            return None, rest
        try:
            name, end = json.JSONDecoder().raw_decode(rest)
        except ValueError:
            raise TextListError(number, "the name in quotes is not closed properly") from None
        if not isinstance(name, str):
            raise TextListError(number, "a name in quotes must be text")
        return name, rest[end:]

    @staticmethod
    def tail(rest: str, number: int) -> None:
        """What follows a line's names and tags: nothing, or points and remarks after '·'."""
        rest = rest.strip()
        if rest and rest[0] not in "·(-–—":
            raise TextListError(number, f"unexpected text {rest[:40]!r}; put remarks after ' · '")

    def tags(self, rest: str, number: int, *, allowed: bool) -> tuple[bool, str | None, str]:
        flagship, admiral = False, None
        rest = rest.strip()
        while rest.startswith("["):
            tag, close, rest = rest[1:].partition("]")
            if not close:
                raise TextListError(number, "a '[' without its ']'")
            rest = rest.strip()
            label, colon, value = tag.partition(":")
            label = label.strip().lower()
            if not allowed and label in ("flagship", "admiral"):
                raise TextListError(
                    number, f"only a capital ship ('*' line) can be the {label} or carry one (R-21)"
                )
            if label == "flagship" and not colon:
                flagship = True
            elif label == "admiral" and colon:
                admiral, _ = self.lookup(value.strip(), self.names.admirals, number, "admiral")
            else:
                raise TextListError(
                    number, f"unknown tag [{tag}]: use [Flagship] or [Admiral: rank]"
                )
        return flagship, admiral, rest

    def document(self, where: dict[str, int]) -> dict[str, Any]:
        faction = self.resolve_faction(None)
        if "game size" not in self.header:
            raise TextListError(None, "the list needs a 'Game size:' line")
        doc: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "name": None,
            "faction": faction,
            "variant": None,
            "points_limit": None,
        }
        where["faction"] = self.header["faction"][0]
        if "fleet" in self.header:
            line, raw = self.header["fleet"]
            doc["name"] = self.value(raw, line, "fleet name")
            where["name"] = line
        if "variant" in self.header:
            line, raw = self.header["variant"]
            doc["variant"], rest = self.lookup(raw.strip(), self.names.variants, line, "variant")
            if rest.strip():
                raise TextListError(line, f"unexpected text after the variant: {rest.strip()!r}")
            where["variant"] = line
        line, raw = self.header["game size"]
        where["game_size"] = where["points_limit"] = line
        word = raw.strip().split(" ", 1)[0].lower()
        try:
            size = GameSize(word)
        except ValueError:
            sizes = ", ".join(g.label for g in GameSize)
            raise TextListError(line, f"{word!r} is not a game size ({sizes})") from None
        doc["game_size"] = size.value
        if size is GameSize.CUSTOM:
            band = _BAND_RE.search(raw)
            if band is None:
                raise TextListError(
                    line, "a custom game size needs its band, e.g. 'Custom (400–900 points)'"
                )
            doc["points_limit"] = {"min": int(band.group(1)), "max": int(band.group(2))}
        if "edition" in self.header:
            line, raw = self.header["edition"]
            doc["edition"] = _edition_number(raw, line)
            where["edition"] = line
        doc["units"] = self.units
        doc["notes"] = self.notes
        if self.notes_line:
            where["notes"] = self.notes_line
        return doc

    def line_of(self, path: str, where: dict[str, int]) -> int | None:
        match = _PATH_RE.match(path)
        if match:
            i = int(match.group(1))
            if match.group(2) is not None:
                return self.ship_lines[i][int(match.group(2))]
            return self.unit_lines[i]
        head = path.split(".", 1)[0].split("[", 1)[0]
        return where.get(head)


def _edition_number(raw: str, line: int) -> int:
    match = _EDITION_RE.match("edition: " + raw.strip())
    if match is None:
        raise TextListError(
            line, "the edition line is 'Edition: N', N its number (e.g. 'Edition: 7')"
        )
    number = int(match.group(1))
    if not 1 <= number <= MAX_EDITION:
        raise TextListError(
            line, f"there is no edition {number} (editions are numbered from 1 to {MAX_EDITION})"
        )
    return number


def edition_of(text: str) -> int | None:
    """The edition a text list names (its ``Edition:`` line before the first unit), or None;
    TextListError for an edition line that is not one. Read before :func:`from_text`, so the
    list's names are looked up in its own edition's catalogue (R-160)."""
    for number, row in enumerate(text[: MAX_TEXT_LENGTH + 1].splitlines(), 1):
        line = row.strip()
        if line[:1] in _MARKERS and (len(line) == 1 or line[1] == " "):
            return None  # the units start: the header is over
        if line.lower().startswith("notes") and line[5:].lstrip().startswith(":"):
            return None
        if _EDITION_START.match(line):
            return _edition_number(line[len("edition") :].lstrip(" :"), number)
    return None


def from_text(catalog: Catalog, text: str) -> Fleet:
    """Read a plain-text list back into a fleet; TextListError names the line at fault.

    ``catalog`` is the one of the edition the text names (:func:`edition_of`), for its names."""
    if len(text) > MAX_TEXT_LENGTH:
        raise TextListError(
            None, f"the text is {len(text)} characters long; the limit is {MAX_TEXT_LENGTH}"
        )
    for number, row in enumerate(text.splitlines(), 1):  # R-94; a tab may indent a line
        why = player_text.problem(row, multiline=True)
        if why:
            raise TextListError(number, why)
    reader = _Reader(catalog)
    doc, where = reader.read(text)
    try:
        fleet = parse_fleet(doc)
        check_points_bound(validate(fleet, catalog))
        return fleet
    except FleetFormatError as exc:
        line = reader.line_of(exc.path, where)
        raise TextListError(line, str(exc)) from None
