"""Faction special rules the simulator plays (R-89), as flags read in the hot path.

The catalogue writes each faction's rules as text; the ones below are mechanical enough to play
exactly and change results most. A rule not listed here is not simulated (docs/simulator.md).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FactionRules:
    holofields: bool = False  # Eldar: hits from beyond 15 cm ignored on 2+, lost when crippled
    solar_sails: bool = False  # Eldar: no minimum move, 90° at any point
    reactive_hulls: bool = False  # Necrons: blast markers do not suppress shields
    living_metal: bool = False  # Necrons: 6 in the Command Phase restores a hull point
    inertialess: bool = False  # Necrons: disengage without the crippled penalty
    mob_rule: bool = False  # Orks: failed check within 15 cm of a friend re-rolled once
    ram_freely: bool = False  # Orks (Ere We Go): ram without a command check
    boarding: int = 0  # boarding bonus: Orks +1, Astartes +2, Grey Knights +2, Custodes +3 …
    boarding_vs_chaos: int = 0  # extra against the Archenemy (Grey Knights, Sororitas)
    crippled_ld: int = -2  # Sororitas and Votann -1; Archenemy -3 unless near the flagship
    fickle: bool = False  # Archenemy: the -3 applies only beyond 30 cm of the flagship
    unshakeable: bool = False  # Astartes: no test when the flagship is lost
    shadowfields: bool = False  # Drukhari: batteries firing at them beyond 30 cm -1 to hit
    greater_good: bool = False  # T'au: +1 Ld within 15 cm of another friendly ship
    synapse: bool = False  # Tyranids: Ld 6 beyond 30 cm of every synapse ship
    bio_regeneration: bool = False  # Tyranids: 6 in the End Phase restores a hull point
    spore_clouds: bool = False  # Tyranids: blast markers do not hamper turrets
    blessings: bool = False  # Mechanicus: repairs on 4+
    auspex: bool = False  # Mechanicus: batteries hit on 4+ out to 30 cm
    aegis: bool = False  # Grey Knights: the first blast marker costs no Ld
    prows: bool = False  # Imperial Navy / T'au: armoured-prow ships ignore a volley's first hit
    marks: bool = False  # Archenemy: a ship tagged with a god's mark boards at +1


NONE = FactionRules()

RULES: dict[str, FactionRules] = {
    "craftworld-eldar": FactionRules(holofields=True, solar_sails=True),
    "necrons": FactionRules(reactive_hulls=True, living_metal=True, inertialess=True),
    "orks": FactionRules(mob_rule=True, ram_freely=True, boarding=1),
    "adeptus-astartes": FactionRules(boarding=2, unshakeable=True),
    "grey-knights": FactionRules(boarding=2, boarding_vs_chaos=1, aegis=True),
    "adeptus-custodes": FactionRules(boarding=3),
    "adepta-sororitas": FactionRules(boarding=1, boarding_vs_chaos=1, crippled_ld=-1),
    "leagues-of-votann": FactionRules(crippled_ld=-1),
    "archenemy": FactionRules(fickle=True, marks=True),
    "drukhari": FactionRules(shadowfields=True),
    "tau-empire": FactionRules(greater_good=True, prows=True),
    "tyranids": FactionRules(synapse=True, bio_regeneration=True, spore_clouds=True),
    "adeptus-mechanicus": FactionRules(blessings=True, auspex=True),
    "imperial-navy": FactionRules(prows=True),
}

CHAOS_MARKS = frozenset({"nurgle", "slaanesh", "tzeentch"})
HOLOFIELD_RANGE_CM = 15.0
SHADOWFIELD_RANGE_CM = 30.0
AUSPEX_RANGE_CM = 30.0
SYNAPSE_CM = 30.0
SYNAPSE_LD = 6
NEAR_FRIEND_CM = 15.0  # Mob Rule, For the Greater Good


def rules_for(faction: str) -> FactionRules:
    return RULES.get(faction, NONE)
