"""One unit's activation (§3 Phase II): command check or disengagement, special order,
movement, then shooting and ordnance (§3, §4, §5, §6, §11, §15)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..damage import SpecialOrder
from . import advanced_movement, faction_actions, factions, gunnery, movement, ordnance
from . import orders as o
from .geometry import hypot as _hypot
from .state import Rank
from .terrain import check_orbits, in_well, orbit_manoeuvre

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Ship, Unit


def activate(b: Battle, unit: Unit) -> None:
    """The unit's whole activation, step by step; each step is a function below."""
    ships = unit.alive_ships()
    if not ships:
        return
    lead = _begin(b, unit, ships)
    if unit.disengaging or b.policies[unit.side].wants_disengage(b, unit):
        if disengage(b, unit, lead):
            return
        # The failed check is the activation's command check.
        may_order, hesitant = False, True
        for s in ships:
            s.hesitant_next = False
    else:
        may_order, hesitant = _command_check(b, unit, ships, lead)
    order, plan, bonus = _special_order(b, unit, ships, lead, may_order, hesitant)
    ships = _move(b, unit, ships, lead, order, plan, bonus, hesitant)
    if order == o.RELOAD:
        _reload(b, unit, ships)
    elif order != o.AAF:
        _shoot(b, ships, hesitant)
    if b.terrain:
        check_orbits(b, ships)  # after the ship's action


def _begin(b: Battle, unit: Unit, ships: list[Ship]) -> Ship:
    """Marks the unit activated, clears last round's orders; returns the ship whose Ld the
    unit's checks use."""
    unit.activated_round = b.round
    lead = ships[0] if len(ships) == 1 else squadron_lead(b, ships)
    for s in ships:
        s.order = None
        s.turned = False
    if b.logging:
        b.log(unit.side, f"{unit.spec.name} activates.")
    return lead


def _command_check(b: Battle, unit: Unit, ships: list[Ship], lead: Ship) -> tuple[bool, bool]:
    """Whether the unit may take a special order, and whether it is hesitant (§3): a Hesitant
    result from last round (which the Vice Admiral may ignore), the Rear Admiral's free order
    (R-86), the faction rules' checks (R-114, R-117) or the plain command check."""
    side = unit.side
    rnd = b.round
    policy = b.policies[side]
    forced = False
    for s in ships:
        if s.hesitant_next:
            forced = True
            s.hesitant_next = False
    flag = b.flagships[side]
    vice = (
        flag is not None
        and lead is flag
        and flag.spec.admiral == Rank.VICE_ADMIRAL
        and b.vice_admiral_used[side] != rnd
    )
    if forced:
        if vice:
            b.vice_admiral_used[side] = rnd
            b.log(side, "The Vice Admiral ignores the flagship's Hesitant result.")
            return False, False
        b.log(side, f"{unit.spec.name} is hesitant (no command check allowed).")
        return False, True
    # The Rear Admiral's free order goes to a unit whose player wants an order now: no
    # command check for it at all.
    rear = (
        flag is not None
        and flag.on_table
        and flag.spec.admiral == Rank.REAR_ADMIRAL
        and b.rear_admiral_used[side] != rnd
        and policy.wants_free_order(b, unit, lead)
        and policy.plan(b, unit, lead, True, False)[0] is not None
    )
    if rear:
        b.rear_admiral_used[side] = rnd
        b.log(
            side,
            f"The Rear Admiral issues {unit.spec.name} a special order without a command check.",
        )
        return True, False
    if (
        faction_actions.command_step(b, unit, lead, policy)
        if lead.spec.rules.order_rules
        else o.command_check(b, lead)
    ):
        return True, False
    if vice:
        b.vice_admiral_used[side] = rnd
        b.log(side, "The Vice Admiral ignores the flagship's Hesitant result.")
        return False, False
    return False, True


def _special_order(
    b: Battle, unit: Unit, ships: list[Ship], lead: Ship, may_order: bool, hesitant: bool
) -> tuple[SpecialOrder | None, movement.Plan, float]:
    """The policy's order and plan, the order given (§4): Brace for Impact's hesitancy next
    round, All Ahead Full's extra distance, a ram's command check. Returns the order, the plan
    and the extra distance."""
    side = unit.side
    kept = faction_actions.take_plan(b, unit) if may_order and lead.spec.rules.order_rules else None
    order, plan = (
        kept if kept is not None else b.policies[side].plan(b, unit, lead, may_order, hesitant)
    )
    if order is not None and not may_order:
        order = None
    if order is not None:
        for s in ships:
            s.order = order
        if b.logging:
            b.log(side, f"{unit.spec.name}: {o.ORDER_LABELS[order]}.")
    if order == o.BRACE:
        for s in ships:
            s.braced_round = b.round
            s.hesitant_next = True
    bonus = 0.0
    if order == o.AAF and not b.advanced:  # advanced: it pushes the plant instead
        # One roll for a whole squadron (seed 002 FAQ), the lead ship's dice.
        bonus = float(sum(b.dice.d6() for _ in range(lead.spec.aaf_dice)))
        if b.logging:
            b.log(side, f"All Ahead Full: +{bonus:.0f} cm.")
    if plan.ram is not None:
        free = lead.spec.rules.ram_freely and b.policies[side].takes_faction_options()
        if hesitant or not (
            free  # Ere We Go: no check
            or o.command_check(b, lead, what="command check to ram")
        ):
            plan.ram = None
    return order, plan, bonus


def _move(
    b: Battle,
    unit: Unit,
    ships: list[Ship],
    lead: Ship,
    order: SpecialOrder | None,
    plan: movement.Plan,
    bonus: float,
    hesitant: bool,
) -> list[Ship]:
    """Every ship's move (§5; seed 003's vector movement when in play, R-141; orbits, R-132),
    then the squadron's coherency (§6). Returns the unit's ships still on the table."""
    side = unit.side
    policy = b.policies[side]
    moved = []
    helm_plan: advanced_movement.Manoeuvre | None = None
    if b.advanced and lead.on_table and lead in ships and ships[0] is not lead:
        ships = [lead] + [s for s in ships if s is not lead]  # the lead's manoeuvre first
    for s in ships:
        if not s.on_table:
            continue
        lim = movement.limits(b, s, order, hesitant or s.out_of_coherency, bonus)
        s_plan = plan
        if s.out_of_coherency:
            s_plan = policy.rejoin_plan(b, s, lim)
        elif s is not lead and plan.ram is not None:
            s_plan = movement.Plan(plan.distance, plan.turn)
        x0, y0 = s.x, s.y
        if s.orbit is not None and in_well(s) is not None:
            orbit_manoeuvre(b, s, order)  # seed 001: a ship in orbit does not move
            continue
        if b.advanced:  # seed 003's vector movement (R-141)
            slow = hesitant or s.out_of_coherency
            if s.out_of_coherency or s is lead or helm_plan is None:
                m = policy.manoeuvre(b, s, order, slow, plan.ram if s is lead else None)
                if s is lead:
                    helm_plan = m
            else:  # a squadron flies the lead's manoeuvre, keeping formation
                m = advanced_movement.Manoeuvre(
                    helm_plan.dv,
                    helm_plan.turns,
                    helm_plan.facing,
                    helm_plan.push,
                    None,
                    helm_plan.late_turns,
                    helm_plan.late_at,
                )
            advanced_movement.move(b, s, m, order, slow)
        else:
            movement.move_ship(b, s, s_plan, lim)
        if s.on_table and s.orbit is not None and in_well(s) is not None:
            orbit_manoeuvre(b, s, order)  # it entered orbit: it manoeuvres at once
        elif b.logging and s.on_table:
            moved.append((s, _hypot(s.x - x0, s.y - y0)))
    if moved:
        s, d = moved[0]
        where = ", ".join(f"({m.x:.0f}, {m.y:.0f})" for m, _ in moved)
        who = unit.spec.name if unit.spec.is_squadron else s.label()
        b.log(
            side,
            f"{who} {'moves' if len(moved) == 1 else 'move'} {d:.0f} cm to {where}, "
            f"heading {math.degrees(s.heading) % 360:.0f}°{' (hesitant)' if hesitant else ''}.",
        )
    ships = [s for s in ships if s.on_table]
    if unit.spec.is_squadron:
        movement.check_coherency(b, ships)
    return ships


def _reload(b: Battle, unit: Unit, ships: list[Ship]) -> None:
    """Reload Ordnance (§4): the unit's torpedoes and launch bays are ready again; it fires
    nothing this activation."""
    for s in ships:
        if s.spec.torpedoes:
            s.torpedoes_ready = True
        if s.spec.bays:
            s.bays_ready = True
    if b.logging:
        b.log(unit.side, f"{unit.spec.name} reloads its ordnance.")


def _shoot(b: Battle, ships: list[Ship], hesitant: bool) -> None:
    """Each ship in coherency boards (§11, R-82) or fires its guns (with a Teleport Assault in
    place of a weapon, R-116), its nova cannon, then launches ordnance (not when hesitant, §3)."""
    for s in ships:
        if not s.on_table or s.out_of_coherency:
            continue
        seen = gunnery.sightings(b, s)
        # Boarding needs base contact (§11): only worth asking when an enemy is that close.
        if seen and seen[0].dist <= s.radius + gunnery.LARGEST_RADIUS + 1e-6:
            enemy = b.policies[s.side].board_target(b, s)
            if enemy is not None:
                gunnery.board(b, s, enemy)  # a boarding ship fires nothing else
                continue
        if seen:
            skip = (
                faction_actions.teleport_assault(b, s, seen, hesitant)
                if s.spec.rules.teleport
                and seen[0].dist <= factions.TELEPORT_CM
                and b.policies[s.side].takes_faction_options()
                else -1
            )
            gunnery.fire_guns(b, s, hesitant, seen, skip)
            if not s.on_table:
                continue
        spec = s.spec
        if spec.nova is not None:
            gunnery.fire_nova(b, s, hesitant)
        if not hesitant:  # §3: a hesitant ship cannot launch ordnance
            if spec.torpedoes:
                ordnance.launch_torpedoes(b, s)
            if spec.bays:
                ordnance.launch_craft(b, s)


def squadron_lead(b: Battle, ships: list[Ship]) -> Ship:
    """The ship whose Ld a squadron's check uses: its highest (§6), the first on a tie."""
    clean = True
    for s in ships:
        t = s.target
        if t.criticals or t.blast_markers or t.hull <= s.cripple_at:
            clean = False
            break
    if clean:
        flag = b.flagships[ships[0].side]
        if flag is None or flag.spec.admiral != Rank.LORD_ADMIRAL:
            # max() by (Ld, -index): the first of the highest Ld
            best = ships[0]
            for s in ships[1:]:
                if s.spec.leadership > best.spec.leadership:
                    best = s
            return best
    return max(ships, key=lambda s: (o.leadership(b, s), -s.spec.index))


def disengage(b: Battle, unit: Unit, lead: Ship) -> bool:
    """§5 voluntary disengagement: a command check (crippled -2, R-73) and the unit jumps out.
    A squadron tests once, with its highest Ld (§6)."""
    if not o.command_check(b, lead, disengaging=True, what="disengage check"):
        return False
    unit.note_disengaging()
    for s in unit.alive_ships():
        s.on_table = False
        s.disengaged = True
        s.crippled_when_left = s.crippled
    b.log(unit.side, f"{unit.spec.name} jumps to warp and has disengaged.")
    return True
