"""Player-facing descriptions for ships converted from the reference statistics (issue 13 §6).

The converter used to leave a note on where each profile came from ("Converted from the
reference record …"); players read the description on the ship's page, so it now says what the
ship is for, in a sentence drawn from its profile: its class and speed, where its guns point,
its armoured prow. The provenance stays in the file (`"source": "reference"`) and in
docs/catalogue.md.

    .venv/bin/python tools/ship_descriptions.py          # rewrite conversion notes in place
    .venv/bin/python tools/ship_descriptions.py --check  # list any left, exit 1 if there are

Only the description lines change (the files keep their layout); slugs never change. A changed
description changes the catalogue's version, as any data edit does.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from rules_core.catalog import DATA_DIR

DATA = DATA_DIR / "factions"
CONVERSION_NOTE = re.compile(r"^Converted from the reference record ")

CLASS_WORDS = {
    "light_cruiser": "light cruiser",
    "cruiser": "cruiser",
    "heavy_cruiser": "heavy cruiser",
    "battlecruiser": "battlecruiser",
    "grand_cruiser": "grand cruiser",
    "battleship": "battleship",
}
# Each weapon type as one mount and as several; the order in which a sentence names them.
WEAPON_WORDS = {
    "lance": ("a lance", "lances"),
    "battery": ("a weapons battery", "weapons batteries"),
    "nova_cannon": ("a nova cannon", "nova cannons"),
    "torpedo": ("torpedoes", "torpedoes"),
    "special": ("", ""),  # named by the weapon itself
}
PLACES = ["prow", "dorsal", "broadsides", "all round", "port", "starboard"]


def _place(arcs: list[str]) -> str:
    arcs_set = set(arcs)
    if arcs_set == {"front"}:
        return "prow"
    if arcs_set == {"left", "front", "right"}:
        return "dorsal"
    if arcs_set == {"all_around"}:
        return "all round"
    if arcs_set <= {"left", "front"}:
        return "port"
    return "starboard"


def _class_word(ship: dict[str, Any]) -> str:
    if ship["class"] != "escort":
        return CLASS_WORDS[ship["class"]]
    name = ship["name"].lower()
    for word in ("frigate", "destroyer", "corvette", "raider", "gunship", "drone"):
        if word in name:
            return word
    return "escort"


def _speed_word(ship: dict[str, Any]) -> str:
    fast = 30 if ship["class"] == "escort" else 25
    if ship["speed"] >= fast:
        return "fast "
    if ship["speed"] <= 15:
        return "slow "
    return ""


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _armament(ship: dict[str, Any]) -> list[str]:
    """What the ship fires and from where, in the order a captain would list it."""
    weapons = ship.get("weapons", [])
    by_place: dict[str, list[dict[str, Any]]] = {}
    for weapon in weapons:
        if weapon["type"] == "launch_bay":
            continue
        by_place.setdefault(_place(weapon["arcs"]), []).append(weapon)
    # A mount on each side is one broadside battery: port and starboard pair up by type.
    port, starboard = by_place.pop("port", []), by_place.pop("starboard", [])
    for weapon in list(port):
        twin = next((w for w in starboard if w["type"] == weapon["type"]), None)
        if twin is not None:
            port.remove(weapon)
            starboard.remove(twin)
            by_place.setdefault("broadsides", []).extend([weapon, twin])
    if port:
        by_place["port"] = port
    if starboard:
        by_place["starboard"] = starboard

    phrases = []
    for place in PLACES:
        mounts = by_place.get(place)
        if not mounts:
            continue
        names: list[str] = []
        for kind in WEAPON_WORDS:
            same = [w for w in mounts if w["type"] == kind]
            if not same:
                continue
            if kind == "special":
                for w in same:  # "Prow Bombardment Cannon" in the prow: "a bombardment cannon"
                    name = re.sub(r"^(prow|dorsal|port|starboard|keel) ", "", w["name"].lower())
                    names.append(name if name.endswith("s") else "a " + name)
                continue
            one, many = WEAPON_WORDS[kind]
            # a pair of broadside mounts reads in the plural: "lances on both broadsides"
            names.append(one if len(same) == 1 and place != "broadsides" else many)
        text = _join(names)
        phrases.append(
            {
                "prow": f"{text} in the prow",
                "dorsal": f"{text} on a dorsal mount",
                "broadsides": f"{text} on both broadsides",
                "all round": f"{text} firing all round",
                "port": f"{text} to port",
                "starboard": f"{text} to starboard",
            }[place]
        )
    if any(w["type"] == "launch_bay" for w in weapons):
        phrases.append("launch bays for attack craft")
    return phrases


def describe(ship: dict[str, Any]) -> str:
    """One sentence on what the ship is: "A fast cruiser with lances on both broadsides …"."""
    word = _speed_word(ship) + _class_word(ship)
    article = "An" if word[0] in "aeiou" else "A"
    head = f"{article} {word}"
    arms = _armament(ship)
    if "armoured-prow" in (ship.get("tags") or []):
        arms.append("an armoured prow for ramming")
    if not arms:
        return head + "."
    return f"{head} with {_join(arms)}."


def rewrite(path: Path) -> int:
    """Replaces each conversion note in one faction file; returns how many it changed."""
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    changed = 0
    for ship in data["ships"]:
        old = ship.get("description", "")
        if not CONVERSION_NOTE.match(old):
            continue
        line = f'"description": {json.dumps(old, ensure_ascii=False)}'
        new = f'"description": {json.dumps(describe(ship), ensure_ascii=False)}'
        assert line in text, (path.name, ship["slug"])
        text = text.replace(line, new, 1)
        changed += 1
    if changed:
        path.write_text(text, encoding="utf-8")
    return changed


def leftover_notes() -> list[str]:
    left = []
    for path in sorted(DATA.glob("*.json")):
        for ship in json.loads(path.read_text(encoding="utf-8"))["ships"]:
            if CONVERSION_NOTE.match(ship.get("description", "")):
                left.append(f"{path.name}: {ship['slug']}")
    return left


def main(argv: list[str]) -> int:
    if "--check" in argv:
        left = leftover_notes()
        print("\n".join(left) or "no conversion notes left")
        return 1 if left else 0
    total = sum(rewrite(path) for path in sorted(DATA.glob("*.json")))
    print(f"rewrote {total} descriptions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
