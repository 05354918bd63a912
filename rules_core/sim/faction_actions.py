"""Faction rules that replace a step of a unit's activation, built on the rules they change:
the command check of Naval Discipline, Torpedo Doctrine (R-117) and Hatred of the False Emperor
(R-114), and the Teleport Assault that takes a weapon's fire (R-116). The activation calls them
behind the ship's flags (:class:`~rules_core.sim.faction_rules.FactionRules`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import orders as o
from .factions import DOCTRINE_LD, TELEPORT_CM, TELEPORT_ON, has_teleport, strike_team
from .gunnery import gun_range, gun_strength

if TYPE_CHECKING:
    from .battle import Battle
    from .gunnery import Sighting
    from .policy import Policy
    from .state import Ship, Unit


# --- command -------------------------------------------------------------------------------------


def command_step(b: Battle, unit: Unit, lead: Ship, policy: Policy) -> bool:
    """The activation's command check for a fleet whose rules change it (R-114, R-117).

    The policy is asked first which order it would give with a free hand; that answer is kept
    (:func:`take_plan`) for the activation when the check passes, so asking costs nothing then.

    - Naval Discipline: once a round, a single Imperial Navy capital ship in the flagship's
      command radius that wants Lock On or Reload Ordnance takes it with no check, when its
      player takes the rule's option (``Policy.takes_faction_options``).
    - Torpedo Doctrine: a ship that is not crippled and wants Reload Ordnance checks at Ld 10.
    - Hatred of the False Emperor: a ship that wants Lock On against an Imperium fleet re-rolls
      a failed check (when no other re-roll applies: a check is re-rolled once).
    """
    rules = lead.spec.rules
    side = unit.side
    rnd = b.round
    naval = (
        rules.naval_discipline
        and policy.takes_faction_options()
        and not unit.spec.is_squadron
        and b.memo.naval_discipline_round[side] != rnd
        and o.in_command_radius(b, lead)
    )
    doctrine = (
        rules.torpedo_doctrine
        and not lead.crippled
        and (
            (lead.spec.torpedoes and not lead.torpedoes_ready)
            or (lead.spec.bays and not lead.bays_ready)
        )
    )
    hatred = rules.hatred and b.specs[1 - side].allegiance == "imperium"
    if not (naval or doctrine or hatred):
        checked: bool = o.command_check(b, lead)
        return checked
    probe = policy.plan(b, unit, lead, True, False)
    order = probe[0]
    if naval and order in (o.LOCK_ON, o.RELOAD):
        b.memo.naval_discipline_round[side] = rnd
        b.memo.kept_plans[unit] = (rnd, probe)
        b.log(
            side,
            f"{lead.label()} takes {o.ORDER_LABELS[order]} without a command check "
            f"(Naval Discipline).",
        )
        return True
    ld = DOCTRINE_LD if doctrine and order == o.RELOAD else None
    also = "Hatred of the False Emperor" if hatred and order == o.LOCK_ON else None
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
    text = (
        (
            f"{ship.label()} gives up its {give_up.name} to teleport a strike team aboard "
            f"{enemy.label()}: rolled {roll}"
        )
        if b.logging
        else ""
    )
    if roll < TELEPORT_ON:
        b.log(ship.side, text + ", the team is lost.")
        return give_up.index
    b.attack(
        enemy,
        strike_team,
        b.dice,
        source=ship,
        log_as=(ship.side, text + ": ") if b.logging else None,
    )
    return give_up.index
