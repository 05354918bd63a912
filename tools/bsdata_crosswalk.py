#!/usr/bin/env python3
"""Write the crosswalk from BSData Battlefleet Gothic catalogue entries to this catalogue.

    .venv/bin/python tools/bsdata_crosswalk.py BSDATA_DIR [--commit SHA] [--check]

``BSDATA_DIR`` is a checkout of the ``BSData/battlefleetgothic`` repository (its ``*.cat`` and
``*.gst`` files); the commit is read from its git metadata, or given with ``--commit`` (for a
bare mirror, give the mirror's git directory: the files are read with ``git show``). The result
is ``rules_core/importers/bsdata_crosswalk.json`` (R-190). ``--check`` writes nothing and exits 1
if the file would change.

How each entry is matched, in order (the importer then matches a roster's selection by its entry
id in this table, and only then by name):

* **ships**: ``record`` when the ship here was converted from that very BSData record
  (``tools/convert_reference.py``'s picks: catalogue, name and which of same-named records);
  else ``name`` when exactly one ship here has the same :func:`name_key` (the catalogue's own
  faction first); else none, with the reason.
* **fleet commanders**: by the Leadership their name gives (``COMMANDER_RANKS``), else by name
  (``COMMANDER_NAMES``), else the faction's plain commander, ``DEFAULT_RANK``.
* **upgrades and refits**: by :func:`name_key` against this catalogue's refits and the faction's
  own upgrades, and the aliases in ``UPGRADE_ALIASES``; weapon options, leadership rolls and
  the like have no counterpart (this game's ships carry fixed weapons).
* **catalogues and fleet lists**: ``CATALOGUE_FACTIONS`` and ``FORCE_VARIANTS``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_core.catalog import DATA_DIR, load_catalog_dir  # noqa: E402
from rules_core.importers.crosswalk import DATA, FORMAT, name_key  # noqa: E402
from tools.convert_reference import FACTIONS, display_ship_name  # noqa: E402

REPOSITORY = "BSData/battlefleetgothic"
SHIP_CATEGORIES = frozenset(
    {
        "Battleship",
        "Grand Cruiser",
        "Heavy Cruiser",
        "Battlecruiser",
        "Cruiser",
        "Light Cruiser",
        "Escort",
        "Special",
        "CV",
    }
)
COMMANDER_CATEGORY = "Fleet Commander"

# Catalogue name -> faction here (None: no counterpart, with the reason).
CATALOGUE_FACTIONS: dict[str, tuple[str | None, str]] = {
    "Battlefleet Gothic": ("imperial-navy", ""),
    "Imperium": ("imperial-navy", ""),
    "Imperial Heresy Era": ("imperial-navy", ""),
    "Space Marines": ("adeptus-astartes", ""),
    "Adeptus Mechanicus": ("adeptus-mechanicus", ""),
    "Adeptus_Mechanicus": ("adeptus-mechanicus", ""),
    "Chaos": ("archenemy", ""),
    "Orks": ("orks", ""),
    "Eldar": ("craftworld-eldar", ""),
    "Dark Eldar": ("drukhari", ""),
    "Tau": ("tau-empire", ""),
    "Necron": ("necrons", ""),
    "Tyranid": ("tyranids", ""),
    "Inquisition": (None, "the Inquisition's fleet has no counterpart in this game"),
    "Pirates and Wolf Packs": (
        None,
        "pirate and wolf-pack fleets have no counterpart in this game",
    ),
}
# Fleet lists that become a faction other than their catalogue's, or one of its variants
# (matched by name_key of the force's name).
FORCE_VARIANTS: dict[str, tuple[str, str | None]] = {
    "ork pirates": ("orks", "freebooterz"),
}
FORCE_FACTION_WORDS = (("chaos", "archenemy"), ("traitor", "archenemy"), ("heretic", "archenemy"))

# The commander's Leadership in BFG (its name says "Ld 9" or "Ldr 9") -> a rank here.
COMMANDER_RANKS = {7: "fleet-captain", 8: "commodore", 9: "vice-admiral", 10: "lord-admiral"}
COMMANDER_NAMES = {
    "warlord": "vice-admiral",
    "warboss": "commodore",
    "warmaster": "lord-admiral",
    "master of the fleet": "lord-admiral",
    "chapter master": "lord-admiral",
    "archmagos": "vice-admiral",
    "fleet commander": "commodore",
}
DEFAULT_RANK = "commodore"

# BFG refit and upgrade names -> an upgrade here, where the effect is the same.
UPGRADE_ALIASES = {
    "improved thrusters": "improved-thrusters",
    "improved engines": "improved-thrusters",
    "extra turret": "extra-turrets",
    "extra turrets": "extra-turrets",
    "additional turret": "extra-turrets",
    "reinforced hull": "reinforced-hull",
    "targeting matrix": "targeting-matrix",
    "improved targeting": "targeting-matrix",
    "veteran crew": "veteran-crew",
    "shield capacitors": "shield-capacitors",
    "additional shield": "shield-capacitors",
    "expanded launch bays": "expanded-launch-bays",
    "mega armour": "ork-mega-armour",
    "mad meks": "ork-mad-meks",
}

# Where a hull is in several lists here, the one a fleet of this faction would field.
PREFERENCE: dict[str, tuple[str, ...]] = {
    "imperial-navy": ("imperial-navy", "adeptus-astartes", "adeptus-mechanicus", "grey-knights"),
    "adeptus-astartes": ("adeptus-astartes", "imperial-navy", "grey-knights"),
    "adeptus-mechanicus": ("adeptus-mechanicus", "imperial-navy", "grey-knights"),
    "craftworld-eldar": ("craftworld-eldar", "drukhari"),
    "drukhari": ("drukhari", "craftworld-eldar"),
}
# Words a BSData name puts before or after the hull's own name ("Dark Eldar Torture Class
# Cruiser" is the Torture Cruiser; "Tyranid Vanguard Drone Ship" the Vanguard Drone).
PREFIXES = (
    "dark eldar",
    "tyranid",
    "space marine",
    "astartes",
    "ork",
    "chaos",
    "eldar",
    "necron",
    "tau",
    "mechanicus",
    "imperial",
    "loyalist",
)
SUFFIXES = ("ship",)

_LD = re.compile(r"\b(?:ld|ldr|leadership)\s*([0-9]+)\b", re.IGNORECASE)


# --- reading the BSData files ---------------------------------------------------------------


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(element: ET.Element, *path: str) -> list[ET.Element]:
    found = [element]
    for step in path:
        found = [c for parent in found for c in parent if _local(c.tag) == step]
    return found


def _points(element: ET.Element) -> int:
    for cost in _children(element, "costs", "cost"):
        if cost.get("name", "").lower() in ("pts", "points"):
            try:
                return round(float(cost.get("value", "0")))
            except ValueError:
                return 0
    return 0


def read_files(source: Path, commit: str | None) -> tuple[list[tuple[str, bytes]], str]:
    """The ``.gst`` and ``.cat`` files of ``source`` (a checkout, or a git directory read at
    ``commit``/HEAD), sorted by name, and the commit."""
    if (source / "HEAD").is_file() and not any(source.glob("*.cat")):  # a bare repository
        rev = commit or "HEAD"
        sha = subprocess.run(
            ["git", "--git-dir", str(source), "rev-parse", rev],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        names = subprocess.run(
            ["git", "--git-dir", str(source), "ls-tree", "--name-only", sha],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.splitlines()
        files = [
            (
                n,
                subprocess.run(
                    ["git", "--git-dir", str(source), "show", f"{sha}:{n}"],
                    check=True,
                    capture_output=True,
                ).stdout,
            )
            for n in sorted(names)
            if n.endswith((".cat", ".gst"))
        ]
        return files, sha
    sha = (
        commit
        or subprocess.run(
            ["git", "-C", str(source), "rev-parse", "HEAD"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    files = [
        (p.name, p.read_bytes()) for p in sorted(source.iterdir()) if p.suffix in (".cat", ".gst")
    ]
    return files, sha


# --- classifying ------------------------------------------------------------------------------


def _kind(entry: ET.Element) -> str | None:
    categories = {c.get("name", "") for c in _children(entry, "categoryLinks", "categoryLink")}
    name = entry.get("name", "")
    if COMMANDER_CATEGORY in categories and not re.search(
        r"validation|re-?roll|imperative", name, re.IGNORECASE
    ):
        return "commander"
    if categories & SHIP_CATEGORIES:
        if _points(entry) <= 0 or name.lower().endswith(("squadron", "squadrons")):
            return None  # a container the roster fills with ships, or a rule-keeping marker
        return "ship"
    if entry.get("type") == "upgrade":
        return "upgrade"
    return None


def build(files: list[tuple[str, bytes]], commit: str) -> dict[str, Any]:
    catalog = load_catalog_dir(DATA_DIR)
    ship_keys: dict[str, dict[str, str]] = {f.slug: {} for f in catalog.factions}
    for faction in catalog.factions:
        for ship in faction.ships:
            ship_keys[faction.slug][name_key(ship.name)] = ship.slug
    upgrades: dict[str, tuple[str, str | None]] = {}
    for refit in catalog.refits:
        upgrades[name_key(refit.name)] = (refit.slug, None)
    for faction in catalog.factions:
        for upgrade in faction.upgrades:
            upgrades.setdefault(name_key(upgrade.name), (upgrade.slug, faction.slug))
    by_slug = {slug: (slug, fac) for slug, fac in upgrades.values()}
    picks = {
        (spec_pick.source, spec_pick.name, spec_pick.nth): (
            spec.slug,
            display_ship_name(spec_pick.fix.get("name", spec_pick.name)),
        )
        for spec in FACTIONS
        for spec_pick in spec.picks
    }
    ship_by_name = {(f.slug, s.name): s.slug for f in catalog.factions for s in f.ships}

    catalogues: dict[str, Any] = {}
    forces: dict[str, Any] = {}
    entries: dict[str, Any] = {}
    for filename, raw in files:
        root = ET.fromstring(raw)
        cat_name = root.get("name", filename)
        source = Path(filename).stem
        faction, reason = CATALOGUE_FACTIONS.get(
            cat_name,
            CATALOGUE_FACTIONS.get(
                source, (None, f"the {cat_name} catalogue has no counterpart in this game")
            ),
        )
        catalogues[root.get("id", "")] = {"name": cat_name, "faction": faction, "reason": reason}
        for force in root.iter():
            if _local(force.tag) != "forceEntry":
                continue
            key = name_key(force.get("name", ""))
            to, variant = FORCE_VARIANTS.get(key, (faction, None))
            for word, slug in FORCE_FACTION_WORDS:
                if word in key.split() and faction == "imperial-navy":
                    to = slug
            forces[force.get("id", "")] = {
                "name": force.get("name", ""),
                "catalogue": cat_name,
                "faction": to,
                "variant": variant,
                "reason": "" if to else reason,
            }
        seen: Counter[str] = Counter()
        for element in root.iter():
            if _local(element.tag) != "selectionEntry":
                continue
            kind = _kind(element)
            if kind is None:
                continue
            name = element.get("name", "")
            entry = {
                "name": name,
                "catalogue": cat_name,
                "kind": kind,
                "target": None,
                "faction": faction,
                "match": "none",
                "reason": "",
                "points": _points(element),
            }
            if kind == "ship":
                nth = seen[name]
                seen[name] += 1
                _match_ship(
                    entry,
                    picks.get((source, name, nth)) or picks.get((source, name, 0)),
                    ship_by_name,
                    ship_keys,
                    faction,
                    reason,
                )
            elif kind == "commander":
                _match_commander(entry, faction, reason)
            else:
                _match_upgrade(entry, upgrades, by_slug, faction)
            entries.setdefault(element.get("id", ""), entry)
    return {
        "format": FORMAT,
        "source": {"repository": REPOSITORY, "commit": commit},
        "catalogues": dict(sorted(catalogues.items())),
        "forces": dict(sorted(forces.items())),
        "entries": dict(sorted(entries.items())),
    }


def _match_ship(
    entry: dict[str, Any],
    pick: tuple[str, str] | None,
    ship_by_name: dict[tuple[str, str], str],
    ship_keys: dict[str, dict[str, str]],
    faction: str | None,
    reason: str,
) -> None:
    if pick is not None and pick in ship_by_name:
        entry.update(target=ship_by_name[pick], faction=pick[0], match="record")
        return
    if faction is not None:
        order = PREFERENCE.get(faction, (faction,))
        for key in _keys(entry["name"]):
            found = [(f, keys[key]) for f, keys in ship_keys.items() if key in keys]
            found.sort(key=lambda fs: order.index(fs[0]) if fs[0] in order else len(order))
            if found and (found[0][0] in order or len(found) == 1):
                entry.update(target=found[0][1], faction=found[0][0], match="name")
                return
    entry["reason"] = reason or f"no ship here is the {entry['name']}"


def _keys(name: str) -> list[str]:
    """The name's key, then the same without a faction's word before it or "ship" after."""
    key = name_key(name)
    keys = [key]
    for prefix in PREFIXES:
        if key.startswith(prefix + " "):
            keys.append(key[len(prefix) + 1 :])
    for suffix in SUFFIXES:
        keys += [k[: -len(suffix) - 1] for k in list(keys) if k.endswith(" " + suffix)]
    return keys


def _match_commander(entry: dict[str, Any], faction: str | None, reason: str) -> None:
    if faction is None:
        entry["reason"] = reason
        return
    name = entry["name"]
    ld = _LD.search(name)
    if ld and int(ld.group(1)) in COMMANDER_RANKS:
        entry.update(target=COMMANDER_RANKS[int(ld.group(1))], match="leadership")
        return
    key = name_key(name)
    for words, rank in COMMANDER_NAMES.items():
        if words in key:
            entry.update(target=rank, match="name")
            return
    entry.update(target=DEFAULT_RANK, match="default")


def _match_upgrade(
    entry: dict[str, Any],
    upgrades: dict[str, tuple[str, str | None]],
    by_slug: dict[str, tuple[str, str | None]],
    faction: str | None,
) -> None:
    key = name_key(entry["name"])
    found = upgrades.get(key)
    if found is None:
        alias = next(
            (
                slug
                for words, slug in UPGRADE_ALIASES.items()
                if key == words or key.startswith(words + " ")
            ),
            None,
        )
        found = by_slug.get(alias) if alias else None
    if found is not None and (found[1] is None or found[1] == faction):
        entry.update(target=found[0], faction=found[1], match="name")
        return
    entry["faction"] = faction
    entry["reason"] = "no counterpart: this game's ships carry fixed weapons and refits"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="a BSData/battlefleetgothic checkout")
    parser.add_argument("--commit", help="the commit read (default: the checkout's HEAD)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on change")
    args = parser.parse_args(argv)
    files, commit = read_files(args.source, args.commit)
    text = json.dumps(build(files, commit), indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    if args.check:
        same = DATA.is_file() and DATA.read_text(encoding="utf-8") == text
        print("crosswalk up to date" if same else "crosswalk would change")
        return 0 if same else 1
    DATA.write_text(text, encoding="utf-8")
    data = json.loads(text)
    kinds = Counter((e["kind"], e["target"] is not None) for e in data["entries"].values())
    print(
        f"wrote {DATA.relative_to(ROOT)} from {REPOSITORY}@{commit[:12]}: "
        + ", ".join(
            f"{k} {kinds[(k, True)]} matched / {kinds[(k, False)]} none"
            for k in ("ship", "commander", "upgrade")
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
