"""Which faction rules each fleet plays (R-89, R-110 – R-121), as flags on every ship's spec
read in the hot path, and the rules that live on the ship's damage state.

The catalogue writes each faction's rules as text; docs/simulator.md lists those the simulator
plays and docs/rulings.md says how the ambiguous ones are read. What the flags do is in
:mod:`rules_core.sim.factions` (hooks the rules call) and
:mod:`rules_core.sim.faction_actions` (steps of the activation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from .. import damage

if TYPE_CHECKING:
    from .state import ShipSpec


@dataclass(frozen=True, slots=True)
class FactionRules:
    holofields: bool = False  # Eldar: hits ignored on 2+ (5+ within 15 cm); lost when crippled
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
    #
    acts_of_faith: bool = False  # Sororitas capital ships: one re-roll a battle
    boat_crit_on: int = damage.ORDNANCE_ATTACK_ROLL  # Astartes Orbital Assault: 3+ (R-111)
    auramite: bool = False  # Custodes capital ships: a critical ignored on a 6
    hatred: bool = False  # Archenemy: Lock On checks re-rolled against the Imperium
    webway: bool = False  # Drukhari: +1 Ld to disengage
    power_from_pain: bool = False  # Drukhari: +1 Ld after a kill within 30 cm
    teleport: bool = False  # Grey Knights: ships with Teleport Assault
    naval_discipline: bool = False  # Imperial Navy: a free Lock On / Reload a round
    torpedo_doctrine: bool = False  # Imperial Navy: Reload passes on 10 or less
    grudge: bool = False  # Votann: +1 to hit the grudge ship
    void_armour: bool = False  # Votann: Bulkhead Collapse d3 - 1
    seeking: bool = False  # T'au torpedoes turn 45° in the Drift
    dakka: bool = False  # Orks: batteries re-roll 1s to hit at 15 cm or less

    order_rules: bool = field(init=False)  # changes the activation's check (command_step)
    hardy: bool = field(init=False)  # lives on the ship's damage state (harden)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "order_rules", self.naval_discipline or self.torpedo_doctrine or self.hatred
        )
        object.__setattr__(self, "hardy", self.acts_of_faith or self.auramite or self.void_armour)


NONE: Final = FactionRules()

RULES: dict[str, FactionRules] = {
    "craftworld-eldar": FactionRules(holofields=True, solar_sails=True),
    "necrons": FactionRules(reactive_hulls=True, living_metal=True, inertialess=True),
    "orks": FactionRules(mob_rule=True, ram_freely=True, boarding=1, dakka=True),
    "adeptus-astartes": FactionRules(boarding=2, unshakeable=True, boat_crit_on=3),
    "grey-knights": FactionRules(boarding=2, boarding_vs_chaos=1, aegis=True, teleport=True),
    "adeptus-custodes": FactionRules(boarding=3, auramite=True),
    "adepta-sororitas": FactionRules(
        boarding=1, boarding_vs_chaos=1, crippled_ld=-1, acts_of_faith=True
    ),
    "leagues-of-votann": FactionRules(crippled_ld=-1, grudge=True, void_armour=True),
    "archenemy": FactionRules(fickle=True, marks=True, hatred=True),
    "drukhari": FactionRules(shadowfields=True, webway=True, power_from_pain=True),
    "tau-empire": FactionRules(greater_good=True, prows=True, seeking=True),
    "tyranids": FactionRules(synapse=True, bio_regeneration=True, spore_clouds=True),
    "adeptus-mechanicus": FactionRules(blessings=True, auspex=True),
    "imperial-navy": FactionRules(prows=True, naval_discipline=True, torpedo_doctrine=True),
}

CHAOS_MARKS: Final = frozenset({"nurgle", "slaanesh", "tzeentch"})


def rules_for(faction: str) -> FactionRules:
    return RULES.get(faction, NONE)


# --- the ship's damage state ---------------------------------------------------------------------


def harden(t: damage.Target, spec: ShipSpec) -> None:
    """Rules the damage resolver plays on the ship's :class:`~rules_core.damage.Target`:
    Acts of Faith (one re-roll, capital ships, R-110), Auramite Hulls (capital ships, R-112),
    Void Armour (every Votann ship, R-118)."""
    rules = spec.rules
    if rules.acts_of_faith and not spec.is_escort:
        t.brace_rerolls = 1
    if rules.auramite and not spec.is_escort:
        t.critical_ward = True
    if rules.void_armour:
        t.bulkhead_relief = 1
