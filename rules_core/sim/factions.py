"""Faction special rules the simulator plays (R-89, R-110 – R-121): the hooks the rules call
for the rules that need more than a flag, and the ranges and values they use.

The flags themselves are :class:`~rules_core.sim.faction_rules.FactionRules`, on every ship's
spec; the rules that replace a step of the activation (a command check, a weapon's fire) are in
:mod:`rules_core.sim.faction_actions`. The rules modules call into this one only behind a
precomputed flag, so a fleet without the rule pays one attribute test. This module imports no
rule of the simulator: it sits below them (tests/rules_core/sim/test_import_layers.py).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from .. import damage
from .geometry import hypot as _hypot

if TYPE_CHECKING:
    from ..dice import Dice
    from .battle import Battle
    from .state import Salvo, Ship, ShipSpec

_atan2: Final = math.atan2  # a C static for mypyc, not a look-up in math


HOLOFIELD_RANGE_CM: Final = 15.0
# The d6 at or above which holofields ignore a hit: from beyond HOLOFIELD_RANGE_CM, and
# from within it.
HOLOFIELD_SAVE: Final = 2
HOLOFIELD_NEAR_SAVE: Final = 5
SHADOWFIELD_RANGE_CM: Final = 30.0
AUSPEX_RANGE_CM: Final = 30.0
SYNAPSE_CM: Final = 30.0
SYNAPSE_LD: Final = 6
NEAR_FRIEND_CM: Final = 15.0  # Mob Rule, For the Greater Good
PAIN_CM: Final = 30.0  # Power from Pain
TELEPORT_CM: Final = 10.0  # Teleport Assault: base contact or within 10 cm (centre to centre, R-71)
TELEPORT_ON: Final = 4
DOCTRINE_LD: Final = 10  # Torpedo Doctrine: a natural 10 or less
SEEK_TURN: Final = math.pi / 4  # Seeking Missiles: 45° once per Drift
DAKKA_CM: Final = 15.0


def has_teleport(spec: ShipSpec) -> bool:
    """Teleport Assault is a ship's rule (the catalogue names it in the ship's special rules)."""
    return any(r.lower().startswith("teleport assault") for r in spec.profile.special_rules)


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
        if s.on_table and _hypot(s.x - dead.x, s.y - dead.y) <= PAIN_CM:
            if b.memo.pain_until.get(s) != until and b.logging:
                b.log(
                    s.side,
                    f"{s.label()} feeds on the death of {dead.label()}: +1 Ld (Power from Pain).",
                )
            b.memo.pain_until[s] = until


# --- shooting ------------------------------------------------------------------------------------


def strike_team(target: damage.Target, dice: Dice) -> damage.AttackReport:
    """A critical hit, shields or not (Teleport Assault); Bulkhead Collapse deals its d3, which
    a braced ship saves against like all damage (R-44)."""
    report = damage.AttackReport("teleport")
    hit = damage.roll_critical(target, dice)
    report.criticals.append(hit)
    extra = damage.braced_through(target, hit.extra_damage, dice, report)
    if extra:
        report.extra_damage += extra
        damage.apply_hull_damage(target, extra, dice, report)
    return report


def holofield_save(ship: Ship, dist: float) -> int:
    """The d6 at or above which ``ship``'s holofields ignore a hit fired from ``dist`` cm
    (R-89): 2+ from beyond 15 cm, 5+ from within; 0 for a ship without them or crippled
    (Fragile Hulls)."""
    if not ship.spec.rules.holofields or ship.target.hull <= ship.cripple_at:
        return 0
    return HOLOFIELD_SAVE if dist > HOLOFIELD_RANGE_CM else HOLOFIELD_NEAR_SAVE


def dakka_volley(
    target: damage.Target,
    strength: int,
    range_cm: float,
    dice: Dice,
    *,
    to_hit_mod: int = 0,
    holofields: int = 0,
    prow: bool = False,
) -> damage.AttackReport:
    """Ork gunz at 15 cm or less (R-120): to-hit dice of 1 are re-rolled once; then the
    armoured prow and holofields (as :func:`gunnery.screened_volley`; ``holofields`` is the
    save, 0 for none), armor, shields, hull."""
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
    holo_saved = damage.count_at_least(dice, through, holofields) if holofields else 0
    through -= holo_saved
    report = damage.AttackReport("battery", dice=strength)
    damage.resolve_damage(
        target, through, dice, report, armor_save=True, shields=True, blast_marker=True
    )
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
    b.log(
        ship.side,
        f"{source.label()} has wronged the Kin: it is named the fleet's grudge "
        f"(+1 to hit it, Ancestral Grudge).",
    )


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
            d = _hypot(s.x - salvo.x, s.y - salvo.y)
            if best is None or d < best_d:
                best, best_d = s, d
    if best is None or best_d < 1e-9:
        return
    heading = _atan2(salvo.hy, salvo.hx)
    want = _atan2(best.y - salvo.y, best.x - salvo.x)
    turn = (want - heading + math.pi) % (2 * math.pi) - math.pi
    turn = max(-SEEK_TURN, min(SEEK_TURN, turn))
    if abs(turn) < 1e-9:
        return
    heading += turn
    salvo.hx, salvo.hy = math.cos(heading), math.sin(heading)
    if b.logging:
        b.log(
            salvo.side,
            f"Seeking missiles from {salvo.launcher.label()} turn "
            f"{abs(math.degrees(turn)):.0f}° towards {best.label()}.",
        )
