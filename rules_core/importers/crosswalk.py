"""The crosswalk from BSData Battlefleet Gothic catalogue entries to this catalogue (R-190).

The data, ``bsdata_crosswalk.json`` beside this module, is written by ``tools/bsdata_crosswalk.py``
from the BSData catalogue files and records the BSData commit it read. Each entry of those
catalogues (ships, the fleet commanders, refits and upgrades), each catalogue and each fleet list
(force) is either matched to this catalogue or listed with the reason it has no counterpart.

Names are compared by :func:`name_key`, here alone, so the tool and the importer agree.
No Django here.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

DATA = Path(__file__).resolve().parent / "bsdata_crosswalk.json"
FORMAT = 1

Kind = Literal["ship", "commander", "upgrade"]
KINDS: tuple[Kind, ...] = ("ship", "commander", "upgrade")

# Words that name a hull's kind rather than the hull: "Gothic Class Cruiser" and "Gothic
# cruiser" are one ship.
_NOISE = frozenset({"class", "the", "of", "pattern"})


def name_key(name: str) -> str:
    """A name reduced to what identifies it: ASCII lower-case words without parenthesised
    notes, apostrophes or filler words, joined by spaces ("Gorbag's Revenge (Ork Battleship)"
    and "gorbags revenge" are one key)."""
    text = re.sub(r"\([^)]*\)", " ", name)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"['\u2019`]", "", text.lower())
    words = [w for w in re.findall(r"[a-z0-9]+", text) if w not in _NOISE]
    return " ".join(words)


@dataclass(frozen=True, slots=True)
class Entry:
    """One BSData catalogue entry: what it is, and this catalogue's counterpart or why none."""

    id: str
    name: str
    catalogue: str
    kind: Kind
    target: str | None  # a ship slug, an admiral rank slug or an upgrade slug; None: none
    faction: str | None  # the faction of a ship or faction upgrade target
    match: str  # "record" (the ship was converted from this record), "name", "none"
    reason: str  # why there is no counterpart (empty when matched)
    points: int  # its own cost in the BSData catalogue


@dataclass(frozen=True, slots=True)
class Force:
    """A BSData fleet list (a catalogue's force entry) and the faction and variant it becomes."""

    id: str
    name: str
    catalogue: str
    faction: str | None
    variant: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class Crosswalk:
    commit: str
    repository: str
    catalogues: dict[str, str | None]  # catalogue id -> faction slug (None: no counterpart)
    catalogue_names: dict[str, str]  # catalogue id -> its name
    forces: dict[str, Force]
    entries: dict[str, Entry]
    names: dict[tuple[str, str], tuple[Entry, ...]]  # (kind, name_key) -> entries

    def by_name(self, kind: Kind, name: str, catalogue: str | None = None) -> Entry | None:
        """The matched entry of ``kind`` whose name has the same :func:`name_key`, preferring
        one of ``catalogue`` (a catalogue's name)."""
        found = [e for e in self.names.get((kind, name_key(name)), ()) if e.target is not None]
        same = [e for e in found if e.catalogue == catalogue]
        best = same or found
        return best[0] if best else None


def crosswalk_from_dict(data: dict[str, Any]) -> Crosswalk:
    if data.get("format") != FORMAT:
        raise ValueError(f"crosswalk format {data.get('format')!r}, expected {FORMAT}")
    entries = {k: Entry(id=k, **v) for k, v in data["entries"].items()}
    names: dict[tuple[str, str], list[Entry]] = {}
    for entry in entries.values():
        names.setdefault((entry.kind, name_key(entry.name)), []).append(entry)
    return Crosswalk(
        commit=str(data["source"]["commit"]),
        repository=str(data["source"]["repository"]),
        catalogues={k: v["faction"] for k, v in data["catalogues"].items()},
        catalogue_names={k: v["name"] for k, v in data["catalogues"].items()},
        forces={k: Force(id=k, **v) for k, v in data["forces"].items()},
        entries=entries,
        names={k: tuple(v) for k, v in names.items()},
    )


@lru_cache(maxsize=1)
def load(path: Path = DATA) -> Crosswalk:
    return crosswalk_from_dict(json.loads(path.read_text(encoding="utf-8")))
