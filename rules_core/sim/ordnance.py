"""Ordnance (§12): torpedo salvos and attack craft launched in the shooting phase, moving in
the Drift, meeting fighters, Interceptor Scramble (§10), turrets and the damage resolver.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from .. import damage
from ..catalog import CraftRole
from .factions import seek
from .geometry import hypot as _hypot
from .geometry import segment_first_contact, segment_point_distance
from .state import MARKER_RADIUS, Salvo, Wave

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Ship


TORPEDO_SPEED: Final = 30.0  # §3, §12
FIGHTER_SCREEN_CM: Final = 5.0  # §12: a fighter wing within 5 cm of a friendly ship intercepts
ROLE_NAMES: Final = {
    CraftRole.FIGHTER: "fighters",
    CraftRole.BOMBER: "bombers",
    CraftRole.ASSAULT_BOAT: "assault boats",
}


def craft_in_flight(b: Battle, carrier: Ship) -> int:
    return sum(w.count for w in b.waves if w.carrier is carrier)


def can_launch(b: Battle, ship: Ship) -> bool:
    """Not hesitant (§3), not crippled (§9), not after Interceptor Scramble this round (§10),
    not on Reload Ordnance (§4): checked by the caller for orders and hesitancy."""
    return not ship.crippled and ship.no_launch_round != b.round


def launch_torpedoes(b: Battle, ship: Ship) -> bool:
    """Each tube fires its whole capacity as one salvo, then the tubes are expended until
    reloaded (§12). A salvo is placed touching the launcher's base and first moves in the next
    Drift (R-83)."""
    if not ship.torpedoes_ready or not ship.spec.torpedoes or not can_launch(b, ship):
        return False
    t = ship.target
    launched = False
    for tube in ship.spec.torpedoes:
        if t.criticals and t.weapon_disabled(tube.index):
            continue
        heading = b.policies[ship.side].torpedo_heading(b, ship, tube)
        if heading is None:
            continue
        if ship.orbit is not None and ship.orbit.kind == "gravity_well":
            # Seed 001: torpedoes fired from orbit go straight onto the well.
            launched = True
            b.log(
                ship.side,
                f"{ship.label()} launches {tube.strength} torpedoes from orbit; "
                f"they go straight onto the {ship.orbit.name}.",
            )
            continue
        hx, hy = math.cos(heading), math.sin(heading)
        start = ship.radius + MARKER_RADIUS
        b.salvos.append(
            Salvo(ship.side, ship.x + hx * start, ship.y + hy * start, hx, hy, tube.strength, ship)
        )
        launched = True
        if b.logging:
            b.log(ship.side, f"{ship.label()} launches {tube.strength} torpedoes ({tube.name}).")
    if launched:
        ship.torpedoes_ready = False
        ship.fired_round = b.round
    return launched


def launch_craft(b: Battle, ship: Ship) -> bool:
    """Bays launch up to their capacity, never more than twice it in flight (§12); the bays are
    then spent until Reload Ordnance readies them (§4)."""
    spec = ship.spec
    if not ship.bays_ready or not spec.craft or not can_launch(b, ship):
        return False
    t = ship.target
    if t.criticals and all(t.weapon_disabled(bay.index) for bay in spec.bays):
        return False
    room = 2 * spec.launch_capacity - craft_in_flight(b, ship)
    count = min(spec.launch_capacity, room)
    if count <= 0:
        return False
    plan = b.policies[ship.side].launch_plan(b, ship, count)
    if not plan:
        return False
    speeds = {role: speed for role, speed in spec.craft}
    for role, n, target in plan:
        b.waves.append(Wave(ship.side, role, ship.x, ship.y, n, target, ship, speeds[role]))
        if b.logging:
            aim = "to screen it" if target is ship else f"at {target.label()}"
            b.log(ship.side, f"{ship.label()} launches {n} {ROLE_NAMES[role]} {aim}.")
    ship.bays_ready = False
    return True


# --- the Drift -----------------------------------------------------------------------------------


def drift(b: Battle) -> None:
    """Phase 0: torpedoes 30 cm straight on, attack craft 20 cm (their speed) towards their
    targets (§3), in launch order."""
    for salvo in list(b.salvos):
        if salvo in b.salvos:
            _move_salvo(b, salvo)
    for wave in list(b.waves):
        if wave in b.waves:
            _move_wave(b, wave)


def _screening_fighters(b: Battle, defender_side: int, ship: Ship) -> Wave | None:
    for w in b.waves:
        if (
            w.side == defender_side
            and w.role is CraftRole.FIGHTER
            and w.count > 0
            and _hypot(w.x - ship.x, w.y - ship.y) <= ship.radius + FIGHTER_SCREEN_CM
        ):
            return w
    return None


def _spend_fighter(b: Battle, wave: Wave) -> None:
    wave.count -= 1
    if wave.count <= 0:
        b.waves.remove(wave)


def _move_salvo(b: Battle, salvo: Salvo) -> None:
    launcher = salvo.launcher
    if launcher.spec.rules.seeking and b.policies[launcher.side].takes_faction_options():
        seek(b, salvo)  # T'au Seeking Missiles
    x0, y0 = salvo.x, salvo.y
    x1, y1 = x0 + salvo.hx * TORPEDO_SPEED, y0 + salvo.hy * TORPEDO_SPEED
    # The first ship whose base the salvo touches on its way (§7 ordnance contact): §12
    # "they impact whatever they contact", its own side's ships included.
    hit_t = None
    hit_ship = None
    reach = MARKER_RADIUS
    lo_x, hi_x = (x0, x1) if x0 <= x1 else (x1, x0)
    lo_y, hi_y = (y0, y1) if y0 <= y1 else (y1, y0)
    for side in b.sides:
        for s in side:
            if not s.on_table or (s is salvo.launcher and salvo.fresh):
                continue  # (leaving the tubes, it moves away from its launcher)
            r = s.radius + reach
            if s.x + r < lo_x or s.x - r > hi_x or s.y + r < lo_y or s.y - r > hi_y:
                continue  # nowhere near the salvo's path
            t = segment_first_contact(x0, y0, x1, y1, s.x, s.y, s.radius + reach)
            if t is not None and (hit_t is None or t < hit_t):
                hit_t, hit_ship = t, s
    if (
        hit_ship is not None
        and hit_ship.side == salvo.side
        and b.policies[salvo.side].detonate_salvo(b, salvo, hit_ship)
    ):
        b.salvos.remove(salvo)  # §12 remote control, before it moves
        if b.logging:
            b.log(
                salvo.side,
                f"A torpedo salvo ({salvo.count}) from {salvo.launcher.label()} "
                f"is detonated by remote control before it strikes {hit_ship.label()}.",
            )
        return
    end_t = 1.0 if hit_t is None else hit_t
    ex, ey = x0 + (x1 - x0) * end_t, y0 + (y1 - y0) * end_t
    salvo.fresh = False
    # Blast markers crossed: one d6 per salvo per Drift, a 6 detonates it (§7).
    lo_x, hi_x = (x0, ex) if x0 <= ex else (ex, x0)
    lo_y, hi_y = (y0, ey) if y0 <= ey else (ey, y0)
    near = 2 * MARKER_RADIUS
    for m in b.markers:
        if m.x + near < lo_x or m.x - near > hi_x or m.y + near < lo_y or m.y - near > hi_y:
            continue
        if segment_point_distance(x0, y0, ex, ey, m.x, m.y) <= near:
            roll = b.dice.d6()
            if roll == 6:
                b.salvos.remove(salvo)
                if b.logging:
                    b.log(
                        salvo.side,
                        f"A torpedo salvo ({salvo.count}) from "
                        f"{salvo.launcher.label()} crosses a blast marker and detonates "
                        f"harmlessly (rolled 6).",
                    )
                return
            break
    if b.terrain:
        for piece in b.terrain:
            if piece.kind == "debris" and b.seed001:
                if segment_point_distance(x0, y0, ex, ey, piece.x, piece.y) <= piece.r:
                    # Seed 001: each torpedo rolls a d6, 1-2 destroys it.
                    lost = sum(1 for _ in range(salvo.count) if b.dice.d6() <= 2)
                    salvo.count -= lost
                    if lost and b.logging:
                        b.log(
                            salvo.side,
                            f"{lost} torpedoes of a salvo from "
                            f"{salvo.launcher.label()} are lost in the {piece.name}.",
                        )
                    if salvo.count <= 0:
                        b.salvos.remove(salvo)
                        return
            elif piece.blocks_sight and piece.kind != "gas":
                if (
                    segment_first_contact(x0, y0, ex, ey, piece.x, piece.y, piece.r + reach)
                    is not None
                ):
                    b.salvos.remove(salvo)  # a planet or body stops it
                    return
    salvo.x, salvo.y = ex, ey
    if hit_ship is None:
        if not b.on_table(ex, ey):
            b.salvos.remove(salvo)
        return
    b.salvos.remove(salvo)
    _torpedo_impact(b, salvo, hit_ship)


def _torpedo_impact(b: Battle, salvo: Salvo, ship: Ship) -> None:
    who = f"{salvo.count} torpedoes from {salvo.launcher.label()}"
    fighters = _screening_fighters(b, ship.side, ship)
    if fighters is not None:
        _spend_fighter(b, fighters)
        if b.logging:
            b.log(
                ship.side,
                f"Fighters screening {ship.label()} intercept {who}: the salvo is "
                f"destroyed and the wing is spent.",
            )
        return
    if b.scramble(ship, None, salvo.count):
        if b.logging:
            b.log(ship.side, f"{ship.label()} scrambles interceptors: {who} are destroyed.")
        return
    react = b.brace_reaction(ship, salvo.count, -1)
    b.attack(
        ship,
        damage.torpedo_salvo,
        salvo.count,
        b.dice,
        source_xy=(salvo.x, salvo.y),
        log_as=(salvo.side, f"{who} strike {ship.label()}: ") if b.logging else None,
        react=react,
    )


def _move_wave(b: Battle, wave: Wave) -> None:
    """Attack craft fly at their target at their speed (§3, §12). Fighters fly cover over their
    carrier, or sent at an enemy ship fly at it and stay over it (R-84). On the way a wave of
    fighters or bombers that touches an enemy fighter wing fights it (§12, :func:`_dogfight`)."""
    x0, y0 = wave.x, wave.y
    if wave.role is CraftRole.FIGHTER:
        target = wave.target
        if not target.on_table:
            wave.target = target = wave.carrier  # the sweep's target is gone: back to cover
        if not target.on_table:
            b.waves.remove(wave)  # carrier gone too
            return
        if target is wave.carrier:
            wave.x, wave.y = target.x, target.y  # cover: over the carrier
        else:
            dx, dy = target.x - x0, target.y - y0
            dist = _hypot(dx, dy)
            step = min(wave.speed, dist)  # over the ship, where its cover flies
            if dist > 0:
                wave.x, wave.y = x0 + dx / dist * step, y0 + dy / dist * step
        _dogfight(b, wave, x0, y0)
        return
    target = wave.target
    if not target.on_table:
        new = b.policies[wave.side].craft_retarget(b, wave)
        if new is None:
            b.waves.remove(wave)  # recalled to reserves (§12)
            if b.logging:
                b.log(
                    wave.side,
                    f"{ROLE_NAMES[wave.role].capitalize()} from "
                    f"{wave.carrier.label()} lose their target and are recalled.",
                )
            return
        wave.target = target = new
    dx, dy = target.x - wave.x, target.y - wave.y
    dist = _hypot(dx, dy)
    reach = target.radius + MARKER_RADIUS
    if dist - reach > wave.speed:
        wave.x += dx / dist * wave.speed
        wave.y += dy / dist * wave.speed
        if wave.role is CraftRole.BOMBER:
            _dogfight(b, wave, x0, y0)
        return
    if dist > 0:
        step = max(0.0, dist - reach)
        wave.x += dx / dist * step
        wave.y += dy / dist * step
    if wave.role is CraftRole.BOMBER and not _dogfight(b, wave, x0, y0):
        return
    b.waves.remove(wave)
    _craft_attack(b, wave, target)


def _dogfight(b: Battle, wave: Wave, x0: float, y0: float) -> bool:
    """§12: "Opposing Fighter wings destroy each other on contact"; "Fighters and Bombers
    destroy each other on contact". ``wave`` (fighters or bombers) has just moved from (x0, y0);
    every enemy fighter wing whose marker its path touched, nearest first, destroys one of it
    for each of its own, one for one (R-84). Returns whether anything of ``wave`` is left."""
    if not b.waves:
        return True
    met = []
    for w in b.waves:
        if w.side != wave.side and w.role is CraftRole.FIGHTER and w.count > 0:
            t = segment_first_contact(x0, y0, wave.x, wave.y, w.x, w.y, 2 * MARKER_RADIUS)
            if t is not None:
                met.append((t, w))
    met.sort(key=lambda tw: tw[0])
    for _, w in met:
        lost = min(w.count, wave.count)
        w.count -= lost
        wave.count -= lost
        if w.count <= 0:
            b.waves.remove(w)
        if b.logging:
            b.log(
                wave.side,
                f"{lost} {ROLE_NAMES[wave.role]} from {wave.carrier.label()} meet "
                f"fighters from {w.carrier.label()}: {lost} of each are destroyed.",
            )
        if wave.count <= 0:
            if wave in b.waves:
                b.waves.remove(wave)
            return False
    return True


def _craft_attack(b: Battle, wave: Wave, ship: Ship) -> None:
    what = f"{wave.count} {ROLE_NAMES[wave.role]} from {wave.carrier.label()}"
    # Screening fighters intercept bombers, one for one; §12 names torpedoes and bombers, so
    # assault boats meet only the turrets.
    while wave.count > 0 and wave.role is CraftRole.BOMBER:
        fighters = _screening_fighters(b, ship.side, ship)
        if fighters is None:
            break
        _spend_fighter(b, fighters)
        wave.count -= 1
        if b.logging:
            b.log(
                ship.side,
                f"Fighters over {ship.label()} meet the {what}: one wing and "
                f"one of the attackers are destroyed.",
            )
    if (
        wave.count > 0
        and wave.role is CraftRole.BOMBER  # §10: torpedoes or bombers
        and b.scramble(ship, wave.role, wave.count)
    ):
        wave.count -= 1
        if b.logging:
            b.log(
                ship.side,
                f"{ship.label()} scrambles interceptors against the {what}: one is destroyed.",
            )
    if wave.count <= 0:
        return
    log_as = (
        (
            wave.side,
            f"{wave.count} {ROLE_NAMES[wave.role]} from "
            f"{wave.carrier.label()} attack {ship.label()}: ",
        )
        if b.logging
        else None
    )
    if wave.role is CraftRole.BOMBER:
        react = b.brace_reaction(ship, wave.count, -1)
        b.attack(
            ship,
            damage.bomber_attack,
            wave.count,
            b.dice,
            source_xy=(wave.x, wave.y),
            log_as=log_as,
            react=react,
        )
    else:
        b.attack(
            ship,
            damage.assault_boat_attack,
            wave.count,
            b.dice,
            need=wave.carrier.spec.rules.boat_crit_on,  # Orbital Assault
            source_xy=(wave.x, wave.y),
            log_as=log_as,
        )
