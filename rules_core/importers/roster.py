"""Reading BattleScribe and New Recruit rosters: ``.ros`` (XML), ``.rosz`` (a zip of one ``.ros``)
and New Recruit's JSON export of the same tree (R-190).

The reader is hardened as the fleet-file reader is (R-95): the XML parser is defusedxml's, with
DTDs (so entities, internal or external) refused outright; a zip may hold few members, one
roster, bounded in size and in compression ratio; the tree is bounded in depth and in
selections; each ``number`` is bounded. Every refusal is a :class:`RosterError` whose message is
for the player. No Django here, and no network.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError
from defusedxml.ElementTree import fromstring as parse_xml

MAX_ROSTER_BYTES = 2 * 1024 * 1024  # a roster's XML or JSON, unpacked; real ones are ~100 KB
MAX_ZIP_BYTES = 512 * 1024  # a .rosz as sent
MAX_ZIP_MEMBERS = 4
MAX_ZIP_RATIO = 50  # unpacked size over packed size, per member
MAX_DEPTH = 24  # selections within selections (a roster nests 4 or 5 deep)
MAX_SELECTIONS = 2000
MAX_NUMBER = 100  # one selection's ``number``

ZIP_MAGIC = b"PK\x03\x04"
# Categories New Recruit adds of its own: not the catalogue's, ignored.
NEW_RECRUIT_CATEGORIES = frozenset({"Illegal Units", "Uncategorised", "Configuration"})


class RosterError(ValueError):
    """A roster that cannot be read; the message says why, for the player."""


@dataclass(frozen=True, slots=True)
class Selection:
    """One selection: a ship, a squadron, a commander, an upgrade, an option."""

    entry_id: str  # the catalogue entry: the last segment of the ``::``-joined path
    entry_path: str
    name: str
    custom_name: str
    number: int
    type: str
    points: float  # this selection's own cost (its children's are theirs)
    categories: tuple[str, ...]
    primary_category: str
    selections: tuple[Selection, ...]

    @property
    def label(self) -> str:
        return f"{self.custom_name} ({self.name})" if self.custom_name else self.name

    def walk(self) -> Iterator[Selection]:
        yield self
        for child in self.selections:
            yield from child.walk()

    @property
    def total_points(self) -> float:
        """This selection's cost with every selection under it."""
        return sum(s.points for s in self.walk())


@dataclass(frozen=True, slots=True)
class Force:
    entry_id: str
    name: str
    catalogue_id: str
    catalogue_name: str
    selections: tuple[Selection, ...]


@dataclass(frozen=True, slots=True)
class Roster:
    name: str
    game_system: str
    points: float | None  # the roster's own total, when it states one
    points_limit: float | None
    forces: tuple[Force, ...]
    format: str  # "ros", "rosz" or "json"


# --- reading ----------------------------------------------------------------------------------


def looks_like_roster(data: bytes) -> bool:
    """Whether ``data`` may be a roster (the import page routes it here, not to the fleet-file
    reader): XML with a ``roster`` element, a zip holding a ``.ros``, or JSON with ``roster``."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return b"<roster" in head
    if data.startswith(ZIP_MAGIC):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                return any(n.lower().endswith(".ros") for n in archive.namelist()[:64])
        except (zipfile.BadZipFile, OSError, ValueError):
            return False
    if head.startswith(b"{"):
        return b'"roster"' in head
    return False


def read_roster(data: bytes) -> Roster:
    """The roster ``data`` holds, in any of the three forms; RosterError otherwise."""
    if data.startswith(ZIP_MAGIC):
        return _from_xml(_unzip(data), "rosz")
    if len(data) > MAX_ROSTER_BYTES:
        raise RosterError(
            f"The roster is {len(data) // 1024} KB; a roster may be at most "
            f"{MAX_ROSTER_BYTES // 1024} KB."
        )
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head == b"{":
        return _from_json(data)
    if head == b"<":
        return _from_xml(data, "ros")
    raise RosterError(
        "This is not a BattleScribe roster (.ros or .rosz) nor New Recruit's JSON export."
    )


def _unzip(data: bytes) -> bytes:
    if len(data) > MAX_ZIP_BYTES:
        raise RosterError(
            f"The .rosz is {len(data) // 1024} KB; it may be at most {MAX_ZIP_BYTES // 1024} KB."
        )
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
            if len(members) > MAX_ZIP_MEMBERS:
                raise RosterError(
                    f"The .rosz holds {len(members)} files; a roster's zip holds one .ros."
                )
            rosters = [m for m in members if m.filename.lower().endswith(".ros")]
            if len(rosters) != 1:
                raise RosterError("The .rosz must hold exactly one .ros roster.")
            member = rosters[0]
            if member.file_size > MAX_ROSTER_BYTES:
                raise RosterError(
                    f"The roster inside the .rosz unpacks to "
                    f"{member.file_size // 1024} KB; a roster may be at most "
                    f"{MAX_ROSTER_BYTES // 1024} KB."
                )
            if member.file_size > MAX_ZIP_RATIO * max(member.compress_size, 1):
                raise RosterError(
                    "The .rosz is compressed more than any roster is: it is refused as a zip bomb."
                )
            with archive.open(member) as stream:
                raw = stream.read(MAX_ROSTER_BYTES + 1)  # never trust the stated size
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        OSError,
        EOFError,
        NotImplementedError,
        RuntimeError,
    ) as exc:
        raise RosterError(f"The .rosz is not a readable zip ({exc}).") from None
    if len(raw) > MAX_ROSTER_BYTES:
        raise RosterError(
            f"The roster inside the .rosz unpacks to more than {MAX_ROSTER_BYTES // 1024} KB."
        )
    return raw


def _from_xml(data: bytes, form: str) -> Roster:
    try:
        root = parse_xml(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise RosterError(
            "The roster declares a DTD or entities, which no roster needs: it is refused."
        ) from None
    except ParseError as exc:
        raise RosterError(
            f"The roster is not well-formed XML ({exc}); is the file complete?"
        ) from None
    if _local(root.tag) != "roster":
        raise RosterError(f"This XML is a {_local(root.tag)!r}, not a BattleScribe roster.")
    _check_depth(root)
    tree = _xml_to_tree(root)
    return _roster(tree, form)


def _from_json(data: bytes) -> Roster:
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except RecursionError:
        raise RosterError("The roster nests deeper than any roster does.") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise RosterError(
            f"The JSON roster cannot be read ({exc}); is the file complete?"
        ) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("roster"), dict):
        raise RosterError('This JSON is not a New Recruit roster export (it has no "roster").')
    return _roster(doc["roster"], "json")


def _local(tag: Any) -> str:
    return str(tag).rsplit("}", 1)[-1]


def _check_depth(root: Element) -> None:
    stack = [(root, 0)]
    while stack:
        element, depth = stack.pop()
        if depth > 4 * MAX_DEPTH:
            raise RosterError("The roster nests deeper than any roster does.")
        stack.extend((child, depth + 1) for child in element)


def _xml_to_tree(element: Element) -> dict[str, Any]:
    """The element as New Recruit's JSON shape: attributes as keys, ``selections`` etc. as
    lists of children. Iterative over lists, and depth is already bounded."""
    out: dict[str, Any] = dict(element.attrib)
    for child in element:
        name = _local(child.tag)
        if name in ("forces", "selections", "costs", "categories", "costLimits"):
            out[name] = [_xml_to_tree(grandchild) for grandchild in child]
    return out


def _items(value: Any, singular: str) -> list[Mapping[str, Any]]:
    """A list of mappings from either shape: ``[...]`` or ``{"force": [...]}``."""
    if isinstance(value, Mapping):
        value = value.get(singular, [])
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, Mapping)]


def _points(costs: Any) -> float | None:
    for cost in _items(costs, "cost"):
        if (
            str(cost.get("name", "")).strip().lower() in ("pts", "points")
            or str(cost.get("typeId", "")).lower() == "points"
        ):
            try:
                return float(cost.get("value", 0))
            except (TypeError, ValueError):
                raise RosterError(f"A cost of {cost.get('value')!r} is not a number.") from None
    return None


class _Count:
    selections = 0


def _roster(doc: Mapping[str, Any], form: str) -> Roster:
    count = _Count()
    forces = tuple(
        Force(
            entry_id=_text(f.get("entryId")).split("::")[-1],
            name=_text(f.get("name")),
            catalogue_id=_text(f.get("catalogueId")),
            catalogue_name=_text(f.get("catalogueName")),
            selections=tuple(
                _selection(s, 1, count) for s in _items(f.get("selections"), "selection")
            ),
        )
        for f in _items(doc.get("forces"), "force")
    )
    if not forces:
        raise RosterError("The roster has no force: there is nothing to import.")
    limit = _points(doc.get("costLimits"))
    return Roster(
        name=_text(doc.get("name")),
        game_system=_text(doc.get("gameSystemName")),
        points=_points(doc.get("costs")),
        points_limit=limit if limit and limit > 0 else None,
        forces=forces,
        format=form,
    )


def _text(value: Any, most: int = 200) -> str:
    return str(value if value is not None else "").strip()[:most]


def _selection(doc: Mapping[str, Any], depth: int, count: _Count) -> Selection:
    if depth > MAX_DEPTH:
        raise RosterError(f"The roster nests selections more than {MAX_DEPTH} deep.")
    count.selections += 1
    if count.selections > MAX_SELECTIONS:
        raise RosterError(f"The roster holds more than {MAX_SELECTIONS} selections.")
    try:
        number = int(str(doc.get("number", 1)))
    except ValueError:
        raise RosterError(
            f"{_text(doc.get('name'))!r} has a number of {doc.get('number')!r}."
        ) from None
    if not 0 <= number <= MAX_NUMBER:
        raise RosterError(
            f"{_text(doc.get('name'))!r} is taken {number} times; a roster "
            f"takes a selection at most {MAX_NUMBER} times."
        )
    path = _text(doc.get("entryId"), 1000)
    categories = [
        c
        for c in _items(doc.get("categories"), "category")
        if _text(c.get("name")) not in NEW_RECRUIT_CATEGORIES
    ]
    primary = next(
        (_text(c.get("name")) for c in categories if str(c.get("primary", "")).lower() == "true"),
        "",
    )
    return Selection(
        entry_id=path.split("::")[-1],
        entry_path=path,
        name=_text(doc.get("name")),
        custom_name=_text(doc.get("customName"), 100),
        number=number,
        type=_text(doc.get("type")),
        points=_points(doc.get("costs")) or 0.0,
        categories=tuple(_text(c.get("name")) for c in categories),
        primary_category=primary,
        selections=tuple(
            _selection(s, depth + 1, count) for s in _items(doc.get("selections"), "selection")
        ),
    )
