"""Faction special rules the simulator plays (R-89, R-110 – R-121), as flags read in the hot
path, and the few functions that play the rules needing more than a flag.

The catalogue writes each faction's rules as text; every rule with an effect in a battle is
played here (docs/simulator.md lists them; docs/rulings.md says how the ambiguous ones are
read). The other modules call into this one only behind a precomputed flag, so a fleet without
the rule pays one attribute test.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .. import damage
from ..damage import SpecialOrder

if TYPE_CHECKING:
    from ..dice import Dice
    from .battle import Battle
    from .gunnery import Sighting
    from .policy import Policy
    from .state import Salvo, Ship, ShipSpec, Unit


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
        object.__setattr__(self, "order_rules",
                           self.naval_discipline or self.torpedo_doctrine or self.hatred)
        object.__setattr__(self, "hardy",
                           self.acts_of_faith or self.auramite or self.void_armour)


NONE = FactionRules()

RULES: dict[str, FactionRules] = {
    "craftworld-eldar": FactionRules(holofields=True, solar_sails=True),
    "necrons": FactionRules(reactive_hulls=True, living_metal=True, inertialess=True),
    "orks": FactionRules(mob_rule=True, ram_freely=True, boarding=1, dakka=True),
    "adeptus-astartes": FactionRules(boarding=2, unshakeable=True, boat_crit_on=3),
    "grey-knights": FactionRules(boarding=2, boarding_vs_chaos=1, aegis=True, teleport=True),
    "adeptus-custodes": FactionRules(boarding=3, auramite=True),
    "adepta-sororitas": FactionRules(boarding=1, boarding_vs_chaos=1, crippled_ld=-1,
                                     acts_of_faith=True),
    "leagues-of-votann": FactionRules(crippled_ld=-1, grudge=True, void_armour=True),
    "archenemy": FactionRules(fickle=True, marks=True, hatred=True),
    "drukhari": FactionRules(shadowfields=True, webway=True, power_from_pain=True),
    "tau-empire": FactionRules(greater_good=True, prows=True, seeking=True),
    "tyranids": FactionRules(synapse=True, bio_regeneration=True, spore_clouds=True),
    "adeptus-mechanicus": FactionRules(blessings=True, auspex=True),
    "imperial-navy": FactionRules(prows=True, naval_discipline=True, torpedo_doctrine=True),
}

CHAOS_MARKS = frozenset({"nurgle", "slaanesh", "tzeentch"})
HOLOFIELD_RANGE_CM = 15.0
SHADOWFIELD_RANGE_CM = 30.0
AUSPEX_RANGE_CM = 30.0
SYNAPSE_CM = 30.0
SYNAPSE_LD = 6
NEAR_FRIEND_CM = 15.0  # Mob Rule, For the Greater Good
PAIN_CM = 30.0  # Power from Pain
TELEPORT_CM = 10.0  # Teleport Assault: base contact or within 10 cm (centre to centre, R-71)
TELEPORT_ON = 4
DOCTRINE_LD = 10  # Torpedo Doctrine: a natural 10 or less
SEEK_TURN = math.pi / 4  # Seeking Missiles: 45° once per Drift
DAKKA_CM = 15.0
LOCK_ON = SpecialOrder.LOCK_ON
RELOAD = SpecialOrder.RELOAD_ORDNANCE


def rules_for(faction: str) -> FactionRules:
    return RULES.get(faction, NONE)


def has_teleport(spec: ShipSpec) -> bool:
    """Teleport Assault is a ship's rule (the catalogue names it in the ship's special rules)."""
    return any(r.lower().startswith("teleport assault") for r in spec.profile.special_rules)


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


# --- command -------------------------------------------------------------------------------------


def pain_bonus(b: Battle, ship: Ship) -> int:
    """Power from Pain: +1 Ld until the end of the round after an enemy died within 30 cm."""
    until = b.memo.pain_until.get(ship)
    return 1 if until is not None and b.round <= until else 0


def power_from_pain(b: Battle, dead: Ship) -> None:
    """An enemy ship was destroyed: every Drukhari ship within 30 cm of it gains +1 Ld until
    the end of the next round (R-115)."""
    until = b.round + 1
    for s in b.sides[1 - dead.side]:
        if s.on_table and math.hypot(s.x - dead.x, s.y - dead.y) <= PAIN_CM:
            if b.memo.pain_until.get(s) != until and b.logging:
                b.log(s.side, f"{s.label()} feeds on the death of {dead.label()}: +1 Ld "
                      f"(Power from Pain).")
            b.memo.pain_until[s] = until


_ORDERS_MODULE: ModuleType | None = None


def _orders() -> ModuleType:
    """``rules_core.sim.orders``, which imports this module, so it is not imported at the top;
    fetched once (an import statement in a function runs the import machinery every call)."""
    global _ORDERS_MODULE
    if _ORDERS_MODULE is None:
        from . import orders

        _ORDERS_MODULE = orders
    return _ORDERS_MODULE


def command_step(b: Battle, unit: Unit, lead: Ship, policy: Policy) -> bool:
    """The activation's command check for a fleet whose rules change it (R-114, R-117).

    The policy is asked first which order it would give with a free hand; that answer is kept
    (:func:`take_plan`) for the activation when the check passes, so asking costs nothing then.

    - Naval Discipline: once a round, a single Imperial Navy capital ship in the flagship's
      command radius that wants Lock On or Reload Ordnance takes it with no check.
    - Torpedo Doctrine: a ship that is not crippled and wants Reload Ordnance checks at Ld 10.
    - Hatred of the False Emperor: a ship that wants Lock On against an Imperium fleet re-rolls
      a failed check (when no other re-roll applies: a check is re-rolled once).
    """
    o = _orders()

    rules = lead.spec.rules
    side = unit.side
    rnd = b.round
    naval = (rules.naval_discipline and not unit.spec.is_squadron
             and b.memo.naval_discipline_round[side] != rnd and o.in_command_radius(b, lead))
    doctrine = (rules.torpedo_doctrine and not lead.crippled
                and ((lead.spec.torpedoes and not lead.torpedoes_ready)
                     or (lead.spec.bays and not lead.bays_ready)))
    hatred = rules.hatred and b.specs[1 - side].allegiance == "imperium"
    if not (naval or doctrine or hatred):
        checked: bool = o.command_check(b, lead)
        return checked
    probe = policy.plan(b, unit, lead, True, False)
    order = probe[0]
    if naval and order in (LOCK_ON, RELOAD):
        b.memo.naval_discipline_round[side] = rnd
        b.memo.kept_plans[unit] = (rnd, probe)
        b.log(side, f"{lead.label()} takes {o.ORDER_LABELS[order]} without a command check "
              f"(Naval Discipline).")
        return True
    ld = DOCTRINE_LD if doctrine and order == RELOAD else None
    also = "Hatred of the False Emperor" if hatred and order == LOCK_ON else None
    what = "command check (Torpedo Doctrine: 10 or less)" if ld is not None else "command check"
    passed: bool = o.command_check(b, lead, ld=ld, also=also, what=what)
    if passed:
        b.memo.kept_plans[unit] = (rnd, probe)
    return passed


def take_plan(b: Battle, unit: Unit) -> tuple[Any, ...] | None:
    """The plan :func:`command_step` already asked the policy for this activation, if any."""
    kept = b.memo.kept_plans.pop(unit, None)
    if kept is None or kept[0] != b.round:
        return None
    plan: tuple[Any, ...] = kept[1]
    return plan


# --- shooting ------------------------------------------------------------------------------------


def teleport_assault(b: Battle, ship: Ship, seen: list[Sighting], hesitant: bool) -> int:
    """Teleport Assault (R-116): with an enemy within 10 cm the ship may give up one weapon
    system's fire to send a strike team aboard: on 4+ the enemy suffers a critical hit, shields
    or not. The ship gives up a weapon that has nothing to fire at (broadsides facing away), or
    else its weakest if that has strength 2 or less; the team goes to the fleet's focus target
    if it is that close, else to the most valuable enemy in reach. Returns the index of the
    weapon given up (-1: no assault)."""
    if not has_teleport(ship.spec):
        return -1
    near = [s for s in seen if s.dist <= TELEPORT_CM and s.ship.on_table]
    if not near:
        return -1
    from .gunnery import gun_range, gun_strength

    t = ship.target
    give_up = None
    weakest = None
    for gun in ship.spec.guns:
        if t.criticals and t.weapon_disabled(gun.index):
            continue
        strength = gun_strength(ship, gun)
        if strength <= 0:
            continue
        reach = gun_range(gun, ship.order)
        if not any(s.ship.on_table and s.dist <= reach and s.arcs & gun.arcs for s in seen):
            give_up = gun
            break
        if weakest is None or strength < gun_strength(ship, weakest):
            weakest = gun
    if give_up is None:
        if weakest is None or gun_strength(ship, weakest) > 2:
            return -1
        give_up = weakest
    pick_focus = getattr(b.policies[ship.side], "focus", None)
    focus_ship = pick_focus(b, ship.side) if pick_focus is not None else None
    enemy = next((s.ship for s in near if s.ship is focus_ship), None)
    if enemy is None:
        enemy = max(near, key=lambda s: (s.ship.spec.victory_points, -s.dist)).ship
    roll = b.dice.d6()
    ship.fired_round = b.round
    text = (f"{ship.label()} gives up its {give_up.name} to teleport a strike team aboard "
            f"{enemy.label()}: rolled {roll}") if b.logging else ""
    if roll < TELEPORT_ON:
        b.log(ship.side, text + ", the team is lost.")
        return give_up.index
    b.attack(enemy, strike_team, b.dice, source=ship,
             log_as=(ship.side, text + ": ") if b.logging else None)
    return give_up.index


def strike_team(target: damage.Target, dice: Dice) -> damage.AttackReport:
    """A critical hit, shields or not (Teleport Assault); Bulkhead Collapse deals its d3."""
    report = damage.AttackReport("teleport")
    hit = damage.roll_critical(target, dice)
    report.criticals.append(hit)
    if hit.extra_damage:
        report.extra_damage += hit.extra_damage
        damage.apply_hull_damage(target, hit.extra_damage, dice, report)
    return report


def dakka_volley(target: damage.Target, strength: int, range_cm: float, dice: Dice, *,
                 to_hit_mod: int = 0, holofields: bool = False,
                 prow: bool = False) -> damage.AttackReport:
    """Ork gunz at 15 cm or less (R-120): to-hit dice of 1 are re-rolled once; then the
    armoured prow and holofields (as :func:`gunnery.screened_volley`), armor, shields, hull."""
    need = damage.needed_to_hit(damage.battery_base_to_hit(range_cm), to_hit_mod)
    hits = 0
    ones = 0
    for _ in range(strength):
        r = dice.d6()
        if r >= need:
            hits += 1
        elif r == 1:
            ones += 1
    for _ in range(ones):
        if dice.d6() >= need:
            hits += 1
    through = hits
    prow_saved = 1 if prow and through else 0
    through -= prow_saved
    holo_saved = sum(1 for _ in range(through) if dice.d6() >= 2) if holofields else 0
    through -= holo_saved
    report = damage.AttackReport("battery", dice=strength)
    damage.resolve_damage(target, through, dice, report, armor_save=True, shields=True,
                          blast_marker=True)
    report.hits = hits
    if prow or holofields:
        report.attack = f"battery:screened:{prow_saved}:{holo_saved}"
    return report


def name_grudge(b: Battle, ship: Ship, source: Ship) -> None:
    """Ancestral Grudge (R-118): the first enemy capital ship to damage a Votann ship becomes
    the fleet's grudge (an escort only if the enemy fleet has no capital ship)."""
    if b.memo.grudge[ship.side] is not None or source.side == ship.side:
        return
    if source.spec.is_escort and any(not s.spec.is_escort for s in b.sides[source.side]):
        return
    b.memo.grudge[ship.side] = source
    b.log(ship.side, f"{source.label()} has wronged the Kin: it is named the fleet's grudge "
          f"(+1 to hit it, Ancestral Grudge).")


def grudge_of(b: Battle, side: int) -> Ship | None:
    return b.memo.grudge[side]


# --- ordnance ------------------------------------------------------------------------------------


def seek(b: Battle, salvo: Salvo) -> None:
    """Seeking Missiles (R-119): at the start of its Drift move a T'au salvo turns up to 45°
    towards the nearest enemy ship on the table."""
    best = None
    best_d = 0.0
    for s in b.sides[1 - salvo.side]:
        if s.on_table:
            d = math.hypot(s.x - salvo.x, s.y - salvo.y)
            if best is None or d < best_d:
                best, best_d = s, d
    if best is None or best_d < 1e-9:
        return
    heading = math.atan2(salvo.hy, salvo.hx)
    want = math.atan2(best.y - salvo.y, best.x - salvo.x)
    turn = (want - heading + math.pi) % (2 * math.pi) - math.pi
    turn = max(-SEEK_TURN, min(SEEK_TURN, turn))
    if abs(turn) < 1e-9:
        return
    heading += turn
    salvo.hx, salvo.hy = math.cos(heading), math.sin(heading)
    if b.logging:
        b.log(salvo.side, f"Seeking missiles from {salvo.launcher.label()} turn "
              f"{abs(math.degrees(turn)):.0f}° towards {best.label()}.")
