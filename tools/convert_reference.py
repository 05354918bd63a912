#!/usr/bin/env python3
"""Convert the reference ship facts into Void Command catalogue profiles.

    python tools/convert_reference.py [REFERENCE_JSON] [--data DIR] [--check]

Reads ``bfg-ship-facts.json`` (default ``../shared/reference/bfg-ship-facts.json`` from the
project root) and writes, for each faction this tool converts, the parts of
``fleetbuilder/catalog/data/factions/<slug>.json`` that come from the reference:

* ``leadership`` (the faction default of the leadership table below),
* ``attack_craft`` (the craft the faction's launch bays carry),
* every ``ships`` entry whose ``source`` is ``"reference"``.

Everything else in the file (name, allegiance, description, special rules, variants, upgrades,
composition, ships with another ``source``) is hand-authored and kept as it is. A faction file
that does not exist yet is created with placeholders for the hand-authored parts.

The conversion rules are written down once in ``docs/catalogue.md`` ("Converting the reference
data") and applied to every ship alike; only the choice of records (``PICKS``), the documented
corrections (``Pick.fix``) and the armament the project designed for hulls the reference lists
without weapons (``Pick.armament``) are per ship. ``--check`` converts without writing and exits 1
if a file would change. The run is deterministic: the same input gives byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from rules_core.catalog import DATA_DIR, ShipClass, default_all_ahead_full
from tools.ship_descriptions import describe

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REFERENCE = ROOT.parent / "shared" / "reference" / "bfg-ship-facts.json"

CLASS_ORDER = [
    "escort",
    "light_cruiser",
    "cruiser",
    "heavy_cruiser",
    "battlecruiser",
    "grand_cruiser",
    "battleship",
]

# --- leadership table ---------------------------------------------------------------------
# Ld = faction default + class adjustment (+1 for a unique, named ship), clamped to 6..10.
CLASS_LD_ADJUSTMENT = {
    "escort": -1,
    "light_cruiser": 0,
    "cruiser": 0,
    "heavy_cruiser": 0,
    "battlecruiser": 0,
    "grand_cruiser": 1,
    "battleship": 1,
}
UNIQUE_LD_BONUS = 1
LD_MIN, LD_MAX = 6, 10


# --- faction specifications ---------------------------------------------------------------


@dataclass(frozen=True)
class Pick:
    """One reference record taken into a faction's list.

    ``nth`` picks among records of the same source and name (0 = first). ``fix`` overrides raw
    reference fields before conversion (documented corrections of evident typos). ``armament``
    replaces the weapons of a record the reference lists without any (a project design, said so
    in the ship's description). ``unique`` marks a named vessel (tag ``unique``).
    """

    source: str
    name: str
    nth: int = 0
    unique: bool = False
    tags: tuple[str, ...] = ()
    fix: dict[str, Any] = field(default_factory=dict)
    armament: tuple[dict[str, str], ...] | None = None
    note: str = ""


@dataclass(frozen=True)
class FactionSpec:
    slug: str
    word: str  # prefix for a slug another faction already holds ("chaos-…")
    name: str
    allegiance: str
    leadership: int
    class_ld: dict[str, int]  # per-faction overrides of CLASS_LD_ADJUSTMENT
    craft: tuple[dict[str, Any], ...]
    picks: tuple[Pick, ...]
    all_ahead_full_bonus: int = 0  # extra d6 on All Ahead Full for every ship


def _craft(slug: str, name: str, role: str, speed: int = 20, rule: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"slug": slug, "name": name, "role": role, "speed": speed}
    if rule:
        out["rule"] = rule
    return out


def _w(name: str, rng: str, strength: str, arc: str) -> dict[str, str]:
    """A designed weapon in the reference's own raw shape, so it goes through the same rules."""
    return {"name": name, "range": rng, "strength": strength, "arc": arc}


IMP, BFG, HER = "Imperium", "Battlefleet_Gothic", "Imperial Heresy Era"
LFR = "Left/Front/Right"

IMPERIAL_CRAFT = (
    _craft("fury-interceptor", "Fury Interceptor", "fighter"),
    _craft("starhawk-bomber", "Starhawk Bomber", "bomber"),
    _craft("shark-assault-boat", "Shark Assault Boat", "assault_boat"),
)

# Processing order matters only for slugs: the first faction to claim a slug keeps it plain.
FACTIONS: tuple[FactionSpec, ...] = (
    FactionSpec(
        slug="imperial-navy",
        word="imperial",
        name="Imperial Navy",
        allegiance="imperium",
        leadership=8,
        class_ld={},
        craft=IMPERIAL_CRAFT,
        picks=(
            Pick(IMP, "Cobra Destroyer"),
            Pick(IMP, "Sword Frigate"),
            Pick(IMP, "Firestorm Frigate"),
            Pick(IMP, "Falchion Frigate"),
            Pick(
                IMP,
                "Viper Class Destroyer",
                nth=1,
                note="the second Imperium record, with the Viper's prow torpedoes",
            ),
            Pick(BFG, "Dauntless Class Light Cruiser"),
            Pick(BFG, "Defiant Class Light Cruiser"),
            Pick(BFG, "Endeavour Class Light Cruiser"),
            Pick(BFG, "Endurance Class Light Cruiser"),
            Pick(BFG, "Siluria Class Light Cruiser"),
            Pick(BFG, "Gothic Class Cruiser"),
            Pick(BFG, "Lunar Class Cruiser"),
            Pick(BFG, "Tyrant Class Cruiser"),
            Pick(BFG, "Dictator Class Cruiser"),
            Pick(HER, "Cardinal Class Heavy Cruiser"),
            Pick(BFG, "Armageddon Class Battlecruiser"),
            Pick(BFG, "Overlord Class Battlecruiser"),
            Pick(BFG, "Mars Class Battlecruiser"),
            Pick(BFG, "Mercury Class Battlecruiser"),
            Pick(BFG, "Dominion Class Battlecruiser"),
            Pick(BFG, "Avenger Class Grand Cruiser"),
            Pick(
                BFG,
                "Exorcist Grand Cruiser",
                fix={"name": "Exorcist Class Grand Cruiser"},
                note="named as its sister grand cruisers are",
            ),
            Pick(BFG, "Vengeance Class Grand Cruiser"),
            Pick(BFG, "Apocalypse class battleship"),
            Pick(BFG, "Emperor Class Battleship"),
            Pick(BFG, "Oberon Class Battleship"),
            Pick(BFG, "Retribution Class Battleship"),
            Pick(BFG, "Vanquisher Class Battleship"),
            Pick(BFG, "Victory Class Battleship"),
            Pick(IMP, "Invincible Class Fast Battleship"),
        ),
    ),
    FactionSpec(
        slug="adeptus-astartes",
        word="astartes",
        name="Adeptus Astartes",
        allegiance="imperium",
        leadership=9,
        class_ld={"escort": 0},  # Astartes crews every hull alike
        craft=(
            _craft("thunderhawk-interceptor", "Thunderhawk Interceptor", "fighter"),
            _craft(
                "thunderhawk-gunship",
                "Thunderhawk Gunship",
                "assault_boat",
                rule="Carries Astartes boarding parties: its critical hits roll 3+ instead of 4+.",
            ),
        ),
        picks=(
            Pick("Space Marines", "Gladius Frigate"),
            Pick("Space Marines", "Hunter Destroyer"),
            Pick("Space Marines", "Nova Frigate"),
            Pick("Space Marines", "Cobra Rapid Strike Vessel"),
            Pick("Space Marines", "Sword Rapid Strike Vessel"),
            Pick("Space Marines", "Firestorm Rapid Strike Vessel"),
            Pick("Space Marines", "Falchion Rapid Strike Vessel"),
            Pick("Space Marines", "Strike Cruiser"),
            Pick(BFG, "Devastator Strike Cruiser Variant"),
            Pick(HER, "Assault Strike Cruiser Variant"),
            Pick("Space Marines", "Armageddon Class Battlecruiser"),
            Pick("Space Marines", "Overlord Class Battlecruiser"),
            Pick("Space Marines", "Dominion Class Battlecruiser"),
            Pick("Space Marines", "Mars Class Battlecruiser"),
            Pick("Space Marines", "Mercury Class Battlecruiser"),
            Pick("Space Marines", "Avenger Class Grand Cruiser"),
            Pick("Space Marines", "Exorcist Class Grand Cruiser"),
            Pick("Space Marines", "Vengeance Class Grand Cruiser"),
            Pick("Space Marines", "Battlebarge"),
            Pick("Space Marines", "Venerable Battlebarge Seditio Opprimere", unique=True),
            Pick("Space Marines", "Retribution Class Battleship"),
            Pick("Space Marines", "Victory Class Battleship"),
        ),
    ),
    FactionSpec(
        slug="adeptus-mechanicus",
        word="mechanicus",
        name="Adeptus Mechanicus",
        allegiance="imperium",
        leadership=8,
        class_ld={},
        craft=(
            _craft("mechanicus-fury-interceptor", "Mechanicus Fury Interceptor", "fighter"),
            _craft("mechanicus-starhawk-bomber", "Mechanicus Starhawk Bomber", "bomber"),
            _craft("skitarii-assault-boat", "Skitarii Assault Boat", "assault_boat"),
        ),
        picks=(
            Pick("Adeptus_Mechanicus", "Cobra Destroyer"),
            Pick("Adeptus_Mechanicus", "Falchion Frigate"),
            Pick("Adeptus_Mechanicus", "Gladius Frigate"),
            Pick("Adeptus_Mechanicus", "Hunter Destroyer"),
            Pick("Adeptus_Mechanicus", "Nova Frigate"),
            Pick("Adeptus_Mechanicus", "Gothic Class Cruiser"),
            Pick("Adeptus_Mechanicus", "Lunar Class Cruiser"),
            Pick("Adeptus_Mechanicus", "Tyrant Class Cruiser"),
            Pick("Adeptus_Mechanicus", "Dictator Class Cruiser"),
            Pick(HER, "Hellfire Class Heavy Cruiser"),
            Pick("Adeptus_Mechanicus", "Emperor Class Battleship"),
            Pick("Adeptus_Mechanicus", "Oberon Class Battleship"),
            Pick("Adeptus_Mechanicus", "Retribution Class Battleship"),
            Pick("Adeptus_Mechanicus", "Ark Mechanicus Omnissiah's Victory", unique=True),
        ),
    ),
    FactionSpec(
        slug="archenemy",
        word="chaos",
        name="Archenemy",
        allegiance="chaos",
        leadership=7,
        class_ld={},
        craft=(
            _craft("swiftdeath-fighter", "Swiftdeath Fighter", "fighter"),
            _craft("doomfire-bomber", "Doomfire Bomber", "bomber"),
            _craft("dreadclaw-assault-boat", "Dreadclaw Assault Boat", "assault_boat"),
        ),
        picks=(
            Pick("Chaos", "Iconoclast Class Destroyer"),
            Pick("Chaos", "Infidel Class Raider"),
            Pick("Chaos", "Idolator Class Raider"),
            Pick(HER, "Thunderbolt Heavy Frigate (Apostate Profile)"),
            Pick("Chaos", "Slaughter Class Cruiser"),
            Pick("Chaos", "Carnage Class Cruiser"),
            Pick("Chaos", "Inferno Class Cruiser"),
            Pick("Chaos", "Devastation Class Cruiser"),
            Pick(
                HER,
                "Murder Class Cruiser",
                fix={"speed": "25cm"},
                note="the Chaos record lists only the prow lance; the Heresy record is complete "
                "but gives speed '05cm', read as the Chaos record's 25cm",
            ),
            Pick(HER, "Emasculator Class Cruiser"),
            Pick("Chaos", "Acheron Class Heavy Cruiser"),
            Pick("Chaos", "Hades Class Heavy Cruiser"),
            Pick("Chaos", "Hecate Class Heavy Cruiser"),
            Pick("Chaos", "Styx Class Heavy Cruiser"),
            Pick("Chaos", "Executor Class Grand Cruiser"),
            Pick("Chaos", "Repulsive Class Grand Cruiser"),
            Pick("Chaos", "Retaliator Class Grand Cruiser"),
            Pick(
                HER,
                "Vengeance Class Grand Cruiser",
                note="traitor Vengeance, as the Heresy data gives it",
            ),
            Pick("Chaos", "Desolator Class Battleship"),
            Pick("Chaos", "Despoiler Class Battleship"),
            Pick("Chaos", "Chaos Battle Barge"),
            Pick("Chaos", "Slaverer"),
            Pick(
                "Chaos",
                "Planet Killer",
                unique=True,
                tags=("black-legion",),
                fix={"weapon_strength": {"Planet Killer Armageddon Gun": "8"}},
                note="Armageddon gun strength 'See Rules' ruled as 8",
            ),
            Pick("Chaos", "Terminus Est", unique=True, tags=("nurgle",)),
            Pick("Chaos", "Wage Of Sin", unique=True, tags=("slaanesh",)),
            Pick("Chaos", "Scion Of Prospero", unique=True, tags=("tzeentch",)),
        ),
    ),
    FactionSpec(
        slug="orks",
        word="ork",
        name="Orks",
        allegiance="xenos",
        leadership=7,
        all_ahead_full_bonus=1,
        class_ld={},
        craft=(
            _craft("ork-fighta", "Fighta", "fighter"),
            _craft("ork-bomma", "Fighta-Bomma", "bomber"),
            _craft("ork-assault-boat", "Ork Assault Boat", "assault_boat"),
        ),
        picks=(
            Pick("Orks", "Brute Ram Ship"),
            Pick("Orks", "Grunt Assault Ship"),
            Pick("Orks", "Onslaught Attack Ship"),
            Pick("Orks", "Ravager Attack Ship"),
            Pick("Orks", "Savage Gunship"),
            Pick("Orks", "Ork Lite Kroozer"),
            Pick("Orks", "Ork Kill Kroozer"),
            Pick("Orks", "Ork Terror Ship"),
            Pick("Orks", "Zukov's Klaw Ork Assault Kroozer", unique=True),
            Pick("Orks", "Ork Hammer Class Battle Kroozer"),
            Pick("Orks", "Kroolboy Ork Battleship"),
            Pick("Orks", "Dethdeala Ork Battleship"),
            Pick("Orks", "Slamblasta Ork Battleship"),
            Pick("Orks", "Gorbag's Revenge Ork Battleship"),
        ),
    ),
    FactionSpec(
        slug="craftworld-eldar",
        word="eldar",
        name="Craftworld Eldar",
        allegiance="xenos",
        leadership=9,
        class_ld={"escort": 0},  # every Eldar crew is a lifetime of practice
        craft=(
            _craft(
                "darkstar-fighter",
                "Darkstar Fighter",
                "fighter",
                30,
                rule="Eldar craft move 30 cm in the Drift, not 20 cm.",
            ),
            _craft(
                "eagle-bomber",
                "Eagle Bomber",
                "bomber",
                30,
                rule="Eldar craft move 30 cm in the Drift, not 20 cm.",
            ),
            _craft(
                "phoenix-assault-boat",
                "Phoenix Assault Boat",
                "assault_boat",
                30,
                rule="Eldar craft move 30 cm in the Drift, not 20 cm.",
            ),
        ),
        picks=(
            Pick("Eldar", "Hemlock Class Destroyer"),
            Pick("Eldar", "Nightshade Class Destroyer"),
            Pick("Eldar", "Aconite Class Frigate"),
            Pick("Eldar", "Hellebore Class Frigate"),
            Pick("Eldar", "Aurora Class Light Cruiser"),
            Pick("Eldar", "Solaris Class Light Cruiser"),
            Pick("Eldar", "Shadow Class Cruiser"),
            Pick("Eldar", "Eclipse Class Cruiser"),
            Pick("Eldar", "Flame Of Asuryan", unique=True),
            Pick("Eldar", "Void Stalker Class Battleship"),
        ),
    ),
    FactionSpec(
        slug="tau-empire",
        word="tau",
        name="T'au Empire",
        allegiance="xenos",
        leadership=8,
        class_ld={},
        craft=(
            _craft("barracuda-fighter", "Barracuda Fighter", "fighter"),
            _craft("manta-bomber", "Manta Missile Destroyer", "bomber"),
            _craft("manta-assault-boat", "Manta Assault Boat", "assault_boat"),
        ),
        picks=(
            Pick("Tau", "Orca (Kass'l) Class Gunship"),
            Pick("Tau", "Warden (Kir'la) Class Gunship"),
            Pick("Tau", "Defender (Kir'qath) Class Starship"),
            Pick("Tau", "Messenger (Skether'qan) Class Starship"),
            Pick("Tau", "Castellan (Kir'shasvre) Escort"),
            Pick("Tau", "Merchant (Il'fannor) Class Cruiser"),
            Pick(
                "Tau",
                "Protector (Lar'shi'vre) Cruiser",
                armament=(
                    _w("Prow Gravitic Launcher", "20-40cm", "4", "Front"),
                    _w("Prow Railgun Battery", "45cm", "6", "Front/Left/Right"),
                ),
                note="the reference lists no armament; designed from the Hero's",
            ),
            Pick("Tau", "Hero (Lar'shi) Class Cruiser"),
            Pick("Tau", "Demiurg 'Bastion' Commerce Vessel", tags=("demiurg",)),
            Pick("Tau", "Custodian (Or'es El'leath) Class Battleship"),
            Pick("Tau", "Explorer (Gal'leath) Class Battleship"),
            Pick(
                "Tau",
                "Demiurg 'Stronghold' Commerse Vessel",
                tags=("demiurg",),
                note="'Commerse' spelled as in the reference record's name; shown corrected",
            ),
        ),
    ),
    FactionSpec(
        slug="necrons",
        word="necron",
        name="Necrons",
        allegiance="xenos",
        leadership=8,
        class_ld={"escort": 0},  # one will commands every hull
        craft=(),
        picks=(
            Pick("Necron", "Dirge Class Raider"),
            Pick("Necron", "Jackal Class Raider"),
            Pick(
                "Necron",
                "Shroud Class Light Cruiser",
                armament=(
                    _w("Lightning Arcs", "30cm", "6", LFR),
                    _w("Gauss Particle Whip", "30cm", "1", "Front"),
                ),
                note="the reference lists no armament; designed by the project",
            ),
            Pick(
                "Necron",
                "Cartouche Class Light Cruiser",
                armament=(_w("Lightning Arcs", "30cm", "6", LFR),),
                note="the reference lists no armament; designed by the project",
            ),
            Pick(
                "Necron",
                "Kopesh Class Light Cruiser",
                armament=(
                    _w("Lightning Arcs", "30cm", "8", LFR),
                    _w("Gauss Particle Whip", "30cm", "2", "Front"),
                ),
                note="the reference lists no armament; designed by the project",
            ),
            Pick(
                "Necron",
                "Scythe Class Harvest Ship",
                armament=(
                    _w("Lightning Arcs", "30cm", "8", LFR),
                    _w("Gauss Particle Whip", "45cm", "4", "Front"),
                ),
                note="the reference lists no armament; designed by the project",
            ),
            Pick(
                "Necron",
                "Cairn Class Tombship",
                armament=(
                    _w("Lightning Arcs", "30cm", "12", LFR),
                    _w("Gauss Particle Whip", "45cm", "6", "Front"),
                    _w("Star Pulse Generator", "15cm", "4", "All Round"),
                ),
                note="the reference lists no armament; designed by the project",
            ),
        ),
    ),
)


# --- field rules --------------------------------------------------------------------------


class ConversionError(ValueError):
    pass


def slugify(text: str) -> str:
    """Lowercase ASCII words joined by '-'; parenthesised alternate names are dropped."""
    text = re.sub(r"\([^)]*\)", " ", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"['\u2019`]", "", text.lower())
    return "-".join(re.findall(r"[a-z0-9]+", text))


# "<Name> Frigate" / "<Name> Destroyer" become "<name>-class-frigate": the contract's
# sword-class-frigate style. Longer or other names are slugged as they stand.
CLASS_NOUN_RE = re.compile(r"^([A-Za-z]+) (Frigate|Destroyer)$")


def ship_slug(name: str) -> str:
    match = CLASS_NOUN_RE.match(clean_name(name))
    if match:
        return slugify(f"{match.group(1)} class {match.group(2)}")
    return slugify(clean_name(name))


NAME_FIXES = {"Commerse": "Commerce", "Of": "of"}


def clean_name(name: str) -> str:
    name = re.sub(r"\s*\([^)]*Profile\)", "", name)  # "(Apostate Profile)": a source note
    words = name.replace("*", "").split()
    return " ".join(NAME_FIXES.get(w, w) if i else w for i, w in enumerate(words))


def display_ship_name(name: str) -> str:
    words = clean_name(name).split()
    # Title-case an all-lowercase word ("Apocalypse class battleship").
    return " ".join(w[0].upper() + w[1:] if w.islower() else w for w in words)


def parse_int(value: Any, what: str) -> int:
    match = re.search(r"\d+", str(value))
    if not match:
        raise ConversionError(f"{what}: no number in {value!r}")
    return int(match.group())


def convert_speed(raw: str) -> tuple[int, list[str]]:
    """cm; 'a/b/c' (Eldar sails) takes the highest; clamped to the schema's 40."""
    values = [int(v) for v in re.findall(r"\d+", str(raw))]
    if not values:
        raise ConversionError(f"speed: no number in {raw!r}")
    rules = []
    speed = max(values)
    if len(values) > 1:
        rules.append("Solar sails")
    if speed > 40:
        rules.append(f"Very fast (reference speed {speed} cm)")
        speed = 40
    return speed, rules


def convert_turns(raw: str, ship_class: str) -> int:
    """45 or 90: a stated 90 or more is 90; 'Special' (Eldar sails) is 90; otherwise 45."""
    text = str(raw)
    if "special" in text.lower():
        return 90
    match = re.search(r"\d+", text)
    if not match:
        return 90 if ship_class == "escort" else 45
    return 90 if int(match.group()) >= 90 else 45


def convert_shields(raw: str) -> tuple[int, list[str]]:
    """Numbers carry over; holofields give 0 and the Holofields rule; a Necron 'N+ Save'
    gives 7 − N shields (4+ → 3, 5+ → 2, 6+ → 1) and the Reactive hull rule."""
    text = str(raw).strip()
    if re.fullmatch(r"\d+", text):
        return int(text), []
    if "holofield" in text.lower():
        return 0, ["Holofields"]
    save = re.fullmatch(r"([2-6])\+\s*Save", text, re.IGNORECASE)
    if save:
        return 7 - int(save.group(1)), [f"Reactive hull ({save.group(1)}+)"]
    if text in ("-", ""):
        return 0, []
    raise ConversionError(f"shields: cannot read {raw!r}")


ARMOUR_PART_RE = re.compile(r"([2-6])\+\s*([A-Za-z]*)")


def convert_armour(raw: str) -> tuple[int, bool]:
    """The save is 10 − side armour, clamped to 2..6 (6+ → 4, 5+ → 5, 4+ → 6).

    Side armour is the value labelled 'sides', else the unlabelled one, else the only value;
    values labelled front/prow/rear/deflector are not side armour. Returns the save and whether
    the front is better armoured than the side (tag ``armoured-prow``).
    """
    parts = [(int(v), label.lower()) for v, label in ARMOUR_PART_RE.findall(str(raw))]
    if not parts:
        raise ConversionError(f"armour: cannot read {raw!r}")
    side = next((v for v, label in parts if label.startswith("side")), None)
    if side is None:
        side = next((v for v, label in parts if not label), parts[0][0])
    front = next((v for v, label in parts if label in ("front", "prow")), None)
    save = min(6, max(2, 10 - side))
    return save, front is not None and front > side


def classify(raw_type: str, name: str, hits: int) -> str | None:
    """The Void Command class, or None for a record that is not a ship (Defence)."""
    kind = raw_type.lower().replace(" ", "")
    lname = name.lower()
    if kind.startswith("defen"):
        return None
    if kind.startswith("escort"):
        return "escort"
    if kind.startswith("grandcruiser"):
        return "grand_cruiser"
    if kind.startswith("battleship"):
        return "battleship"
    if kind.startswith(("cru", "kroozer")):  # "Crusier", "Cruser", Ork "Kroozer"
        if re.search(r"battle ?(cruiser|kroozer)", lname):
            return "battlecruiser"
        if "heavy" in lname or hits >= 10:
            return "heavy_cruiser"
        if hits <= 6:
            return "light_cruiser"
        return "cruiser"
    raise ConversionError(f"type: cannot classify {raw_type!r}")


def leadership(spec: FactionSpec, ship_class: str, unique: bool) -> int:
    adjust = spec.class_ld.get(ship_class, CLASS_LD_ADJUSTMENT[ship_class])
    value = spec.leadership + adjust + (UNIQUE_LD_BONUS if unique else 0)
    return min(LD_MAX, max(LD_MIN, value))


# --- weapons ------------------------------------------------------------------------------

ARC_WORDS = {
    "front": "front",
    "prow": "front",
    "left": "left",
    "port": "left",
    "right": "right",
    "starboard": "right",
    "rear": "rear",
    "aft": "rear",
}
ARC_ORDER = ["left", "front", "right", "rear", "all_around"]


def convert_arcs(raw: str, weapon_type: str) -> list[str]:
    text = str(raw).lower().strip()
    if weapon_type == "launch_bay" or text in ("", "-", "n/a"):
        return ["all_around"]  # craft leave the bay in any direction
    if re.search(r"all\s*a?r+ou?nd", text):
        return ["all_around"]
    arcs = {ARC_WORDS[w] for w in re.findall(r"[a-z]+", text) if w in ARC_WORDS}
    if not arcs:
        raise ConversionError(f"arc: cannot read {raw!r}")
    return sorted(arcs, key=ARC_ORDER.index)


def weapon_type(name: str) -> str:
    n = name.lower()
    if "nova cannon" in n:
        return "nova_cannon"
    if "launch bay" in n:
        return "launch_bay"
    if re.search(r"orpedo|silo|gravitic la|missile", n):  # "Gravitic Lanchers" (sic)
        return "torpedo"
    if re.search(r"bombardment|cutting beam|portal|armageddon gun|star pulse", n):
        return "special"
    if re.search(r"lance|ion cannon|particle whip", n):
        return "lance"
    return "battery"  # weapons batteries, gunz, railguns, lightning arcs, hives …


SPECIAL_RULES = {
    "bombardment": "Bombardment cannon: rolls as a weapons battery; its hits ignore shields.",
    "cutting beam": "Cutting beam: rolls as a weapons battery at 15 cm; its hits ignore shields. "
    "The reference's 'Special (max 8)' is converted to half its maximum.",
    "portal": "Portal: rolls as a weapons battery at 10 cm; its hits ignore shields "
    "(Necron warriors phased aboard the target).",
    "armageddon gun": "Armageddon gun: rolls as a weapons battery; its hits ignore shields. "
    "The reference gives its strength as 'See Rules'; ruled 8.",
    "star pulse": "Star pulse generator: rolls as a weapons battery against every ship within "
    "15 cm; its hits ignore shields.",
}

DICE_RE = re.compile(r"^(\d*)D(\d)\s*(?:\+\s*(\d+))?", re.IGNORECASE)


def convert_strength(raw: str, what: str) -> tuple[int, str]:
    """An integer: dice take their mean rounded down (D6 → 3, D6+2 → 5, D3+1 → 3, 2D6 → 7);
    'Special (max N)' takes N // 2; otherwise the first number ('2 Squadrons' → 2)."""
    text = str(raw).strip()
    dice = DICE_RE.match(text)
    if dice:
        count = int(dice.group(1) or 1)
        sides = int(dice.group(2))
        plus = int(dice.group(3) or 0)
        mean = count * (sides + 1) / 2 + plus
        return max(1, math.floor(mean)), f"Strength {text} in the original; its mean, rounded down."
    cap = re.search(r"max\s*(\d+)", text, re.IGNORECASE)
    if cap:
        return max(1, int(cap.group(1)) // 2), ""
    return max(1, parse_int(text, what)), ""


def convert_range(raw: str, wtype: str, what: str) -> int:
    """cm; 'a-b' takes b (nova cannon 30–150 → 150, gravitic launcher 20–40 → 40)."""
    if wtype == "launch_bay":
        return 0
    values = [int(v) for v in re.findall(r"\d+", str(raw))]
    if not values:
        raise ConversionError(f"{what}: range {raw!r}")
    return min(150, max(values))


TYPO_WORDS = {
    "starbord": "Starboard",
    "starboad": "Starboard",
    "torpedos": "Torpedoes",
    "weappons": "Weapons",
    "weaponsbattery": "Weapons Battery",
    "dorsall": "Dorsal",
    "orpedoes": "Torpedoes",
    "lanchers": "Launchers",
    "vengance": "Vengeance",
    "apostatel": "Apostate",
}


def weapon_display_name(raw_name: str, ship_name: str) -> str:
    """The reference's weapon name without the ship's own name in front, typos mended."""
    ship_words = {w.lower() for w in re.findall(r"[A-Za-z']+", ship_name)}
    ship_words |= {w.strip("'") for w in ship_words}
    words = []
    for w in raw_name.replace("*", "").replace("\u00a0", " ").split():
        words.extend(TYPO_WORDS.get(w.lower(), w).split())
    # Drop leading words that repeat the ship's name ("Lunar Port Lance Battery").
    while len(words) > 2 and words[0].lower().strip("'") in ship_words | {"ork"}:
        words = words[1:]
    out: list[str] = []
    for w in words:
        if out and w.lower() == out[-1].lower():
            continue  # "Port Gunz Gunz Battery"
        out.append(w.capitalize() if w.islower() and len(w) > 2 else w)
    return " ".join(out)


def convert_weapon(
    raw: dict[str, str], ship_name: str, fix: dict[str, Any]
) -> tuple[dict[str, Any], bool]:
    """One weapon profile; also returns the alternative it stands for ('' if none)."""
    raw_name = fix.get("weapon_name", {}).get(raw["name"], raw["name"])
    rng = fix.get("weapon_range", {}).get(raw["name"], raw["range"])
    strength_raw = fix.get("weapon_strength", {}).get(raw["name"], raw["strength"])
    name = weapon_display_name(raw_name, ship_name)
    wtype = weapon_type(raw_name)
    what = f"{ship_name} / {raw['name']}"
    strength, dice_note = convert_strength(strength_raw, what)
    out: dict[str, Any] = {
        "name": name,
        "type": wtype,
        "arcs": convert_arcs(raw["arc"], wtype),
        "strength": min(40, strength),
        "range": convert_range(rng, wtype, what),
    }
    notes = [
        n for key, n in SPECIAL_RULES.items() if wtype == "special" and key in raw_name.lower()
    ]
    if dice_note and wtype != "launch_bay":
        notes.append(dice_note)
    elif dice_note:
        notes.append(f"Launch capacity {strength_raw} in the original; its mean, rounded down.")
    if wtype == "special" and not notes:
        raise ConversionError(f"{what}: a special weapon needs a rule text")
    if notes:
        out["rule"] = " ".join(notes)
    return out, ("*" in raw["name"])  # a starred weapon is an either/or option


def convert_armament(rec: dict[str, Any], pick: Pick) -> tuple[list[dict], list[str]]:
    weapons: list[dict] = []
    ship_rules: list[str] = []
    starred: list[dict] = []
    hooks: dict[str, int] = {}
    for raw in pick.armament if pick.armament is not None else rec["armament"]:
        if "gravitic hook" in raw["name"].lower():
            # Not a weapon: the escorts the hull carries, summed into one ship rule.
            cap = re.search(r"(\d+)\s*([A-Za-z]+)", str(raw["strength"]))
            if cap:
                hooks[cap.group(2).rstrip("s")] = hooks.get(cap.group(2).rstrip("s"), 0) + int(
                    cap.group(1)
                )
            continue
        weapon, is_option = convert_weapon(raw, rec["name"], pick.fix)
        (starred if is_option else weapons).append(weapon)
    if starred:
        # Starred weapons are alternatives for one mount: keep the first, name the others.
        first, *others = starred
        alt = ", ".join(
            f"{o['name']} ({o['type'].replace('_', ' ')} {o['strength']})" for o in others
        )
        first["rule"] = (first.get("rule", "") + f" May be exchanged for: {alt}.").strip()
        weapons.append(first)
    for craft, count in hooks.items():
        ship_rules.append(f"Gravitic hooks ({count} {craft})")
    return weapons, ship_rules


# --- ships --------------------------------------------------------------------------------


def find_record(records: list[dict], pick: Pick) -> dict:
    matches = [
        r for r in records if r["source_catalogue"] == pick.source and r["name"] == pick.name
    ]
    if len(matches) <= pick.nth:
        raise ConversionError(f"no record {pick.source!r} / {pick.name!r} #{pick.nth}")
    return matches[pick.nth]


def convert_ship(rec: dict, pick: Pick, spec: FactionSpec) -> dict[str, Any]:
    raw = {**rec, **{k: v for k, v in pick.fix.items() if not k.startswith("weapon_")}}
    hull = parse_int(raw["hits"], f"{rec['name']}: hits")
    ship_class = classify(raw["type"], raw["name"], hull)
    if ship_class is None:
        raise ConversionError(f"{rec['name']}: a defence, not a ship")
    if raw["points"] in (None, 0, 0.0):
        raise ConversionError(f"{rec['name']}: no points")
    speed, speed_rules = convert_speed(raw["speed"])
    shields, shield_rules = convert_shields(raw["shields"])
    armor, armoured_prow = convert_armour(raw["armour"])
    weapons, weapon_rules = convert_armament(rec, pick)
    if not weapons:
        raise ConversionError(f"{rec['name']}: no armament")
    tags = list(pick.tags)
    if pick.unique:
        tags.insert(0, "unique")
    if armoured_prow:
        tags.append("armoured-prow")
    ship: dict[str, Any] = {
        "slug": ship_slug(raw["name"]),
        "name": display_ship_name(raw["name"]),
        "class": ship_class,
        "points": int(round(float(raw["points"]))),
        "speed": speed,
        "turns": convert_turns(raw["turns"], ship_class),
        "leadership": leadership(spec, ship_class, pick.unique),
        "shields": min(6, shields),
        "hull": min(20, hull),
        "armor": armor,
        "turrets": min(8, parse_int(raw["turrets"], f"{rec['name']}: turrets")),
        "weapons": weapons,
    }
    if spec.all_ahead_full_bonus:
        base = int(default_all_ahead_full(ShipClass(ship_class))[0])
        ship["all_ahead_full"] = f"{base + spec.all_ahead_full_bonus}d6"
    if any(w["type"] == "launch_bay" for w in weapons):
        ship["attack_craft"] = [c["slug"] for c in spec.craft]
    rules = speed_rules + shield_rules + weapon_rules
    if rules:
        ship["special_rules"] = rules
    if tags:
        ship["tags"] = tags
    # Players read this on the ship's page: what the ship is, not where its numbers came from
    # (that is "source" below and docs/catalogue.md).
    ship["description"] = describe(ship)
    ship["source"] = "reference"
    return ship


def class_key(ship: dict[str, Any]) -> tuple[int, int, str]:
    return (CLASS_ORDER.index(ship["class"]), ship["points"], ship["name"])


def convert_all(records: list[dict]) -> dict[str, list[dict[str, Any]]]:
    """Ships per faction slug, slugs made unique across the whole set in FACTIONS order."""
    taken: set[str] = set()
    out: dict[str, list[dict[str, Any]]] = {}
    for spec in FACTIONS:
        ships = []
        for pick in spec.picks:
            ship = convert_ship(find_record(records, pick), pick, spec)
            if ship["slug"] in taken:
                word = spec.word
                base = ship["slug"]
                if base.startswith(word + "-"):
                    base = base[len(word) + 1 :]
                ship["slug"] = f"{word}-{base}"
            if ship["slug"] in taken:
                raise ConversionError(f"slug {ship['slug']} still collides")
            taken.add(ship["slug"])
            ships.append(ship)
        out[spec.slug] = sorted(ships, key=class_key)
    return out


# --- writing ------------------------------------------------------------------------------

FACTION_KEY_ORDER = [
    "slug",
    "name",
    "allegiance",
    "description",
    "leadership",
    "special_rules",
    "attack_craft",
    "variants",
    "upgrades",
    "composition",
    "ships",
]


def merge(existing: dict[str, Any] | None, spec: FactionSpec, ships: list[dict]) -> dict:
    data = dict(existing or {})
    data.setdefault("slug", spec.slug)
    data.setdefault("name", spec.name)
    data.setdefault("allegiance", spec.allegiance)
    data.setdefault("description", "TODO: describe the faction.")
    data.setdefault("special_rules", [])
    data.setdefault("variants", [])
    data.setdefault("upgrades", [])
    data.setdefault("composition", [])
    data["leadership"] = spec.leadership
    data["attack_craft"] = list(spec.craft)
    kept = [s for s in data.get("ships", []) if s.get("source") != "reference"]
    data["ships"] = ships + kept
    ordered = {k: data[k] for k in FACTION_KEY_ORDER if k in data}
    ordered.update({k: v for k, v in data.items() if k not in ordered})
    return ordered


def dumps(value: Any, indent: int = 0, width: int = 100) -> str:
    """JSON with short objects and lists on one line, so a ship reads like a profile card."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + dumps(v, indent + 2, width) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 2, width)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reference", nargs="?", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    try:
        records = json.loads(args.reference.read_text(encoding="utf-8"))
        converted = convert_all(records)
    except (OSError, json.JSONDecodeError, ConversionError) as exc:
        print(f"convert_reference: {exc}", file=sys.stderr)
        return 2
    stale = []
    for spec in FACTIONS:
        path = args.data / "factions" / f"{spec.slug}.json"
        existing = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        text = dumps(merge(existing, spec, converted[spec.slug])) + "\n"
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for spec in FACTIONS:
        print(f"{spec.slug}: {len(converted[spec.slug])} reference ships")
    if args.check and stale:
        print("stale: " + ", ".join(str(p) for p in stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
