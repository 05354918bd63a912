"""Command: leadership in play, command checks, special orders, repairs (§3, §4, §8, §15).

Every function takes the battle first; dice come from ``b.dice`` only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..damage import Critical, SpecialOrder
from ..validator import LEADERSHIP_CAP
from .factions import NEAR_FRIEND_CM, SYNAPSE_CM, SYNAPSE_LD, pain_bonus
from .geometry import distance
from .state import Rank

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Ship

AAF: Final = SpecialOrder.ALL_AHEAD_FULL
NEW_HEADING: Final = SpecialOrder.COME_TO_NEW_HEADING
BURN_RETROS: Final = SpecialOrder.BURN_RETROS
LOCK_ON: Final = SpecialOrder.LOCK_ON
RELOAD: Final = SpecialOrder.RELOAD_ORDNANCE
BRACE: Final = SpecialOrder.BRACE_FOR_IMPACT
ORDERS: Final = (AAF, NEW_HEADING, BURN_RETROS, LOCK_ON, RELOAD, BRACE)
ORDER_LABELS: Final = {o: o.name.replace("_", " ").title() for o in ORDERS}
ORDER_LABELS[AAF] = "All Ahead Full"
ORDER_LABELS[NEW_HEADING] = "Come to New Heading"
ORDER_LABELS[BRACE] = "Brace for Impact"

BRIDGE_DESTROYED_LD: Final = 6


def in_command_radius(b: Battle, ship: Ship) -> bool:
    """Within the flagship's command radius, 30 cm or the admiral's (§15); the flagship is
    within its own (R-72)."""
    flag = b.flagships[ship.side]
    if flag is None or not flag.on_table:
        return False
    return distance(flag.x, flag.y, ship.x, ship.y) <= flag.spec.command_radius


def leadership(b: Battle, ship: Ship, *, disengaging: bool = False) -> int:
    """The Ld a command check is rolled against (R-73): the ship's effective Ld (R-25), then
    +1 in a Lord Admiral's command radius (R-06) and the faction rules' bonuses, capped at 10
    (§15) — or 6 with Bridge Destroyed, with no bonus on top ("reduced to 6", §8); then -1 per
    blast marker in contact (§7), -2 crippled (§9; disengaging crippled is the same -2, not
    another), -1 per Hull Breach (§8). Natural 2 and 12 decide first (§3). Disengaging, every
    modifier is added first and the cap of 10 comes last ("11 or 12 always fail", seed 002,
    R-73)."""
    t = ship.target
    spec = ship.spec
    rules = spec.rules
    criticals = t.criticals
    flag = b.flagships[ship.side]
    if criticals and t.has(Critical.BRIDGE_DESTROYED):
        ld = BRIDGE_DESTROYED_LD  # §8 crit 12: Ld is 6, bonuses do not raise it
    else:
        ld = spec.leadership
        if rules.synapse and not spec.synapse and not _near(b, ship, SYNAPSE_CM, synapse=True):
            ld = SYNAPSE_LD  # Tyranid instinctive behaviour
        if (
            flag is not None
            and flag.spec.admiral == Rank.LORD_ADMIRAL
            and in_command_radius(b, ship)
        ):
            ld += 1
        if rules.greater_good and _near(b, ship, NEAR_FRIEND_CM):
            ld += 1  # For the Greater Good
        if rules.power_from_pain:
            ld += pain_bonus(b, ship)  # Power from Pain
        if disengaging and rules.webway:
            ld += 1  # Webway Raiders: +1 to disengage
        if not disengaging:
            ld = min(LEADERSHIP_CAP, ld)  # §15: never above 10, whatever the bonuses
    markers = t.blast_markers
    if markers and rules.aegis:
        markers -= 1  # Aegis Wards: the first marker costs no Ld
    ld -= markers
    if t.hull <= ship.cripple_at and not (disengaging and rules.inertialess):
        penalty = rules.crippled_ld
        if rules.fickle and not (
            flag is not None and flag.on_table and distance(flag.x, flag.y, ship.x, ship.y) <= 30.0
        ):
            penalty = -3  # Fickle Crews: -3 unless the flagship is within 30 cm
        ld += penalty
    if criticals:
        ld -= t.hull_breaches
    if disengaging:
        ld = min(LEADERSHIP_CAP, ld)  # seed 002: all modifiers first, then 11 or 12 fail
    return ld


def _near(b: Battle, ship: Ship, reach: float, *, synapse: bool = False) -> bool:
    """Another friendly ship (a synapse ship, if asked) within ``reach`` cm, centre to
    centre."""
    x, y = ship.x, ship.y
    for s in b.sides[ship.side]:
        if (
            s is not ship
            and s.on_table
            and (not synapse or s.spec.synapse)
            and distance(s.x, s.y, x, y) <= reach
        ):
            return True
    return False


def roll_check(b: Battle, ld: int) -> tuple[bool, int]:
    """2d6 at or under Ld; a natural 2 always passes, a natural 12 always fails (§3)."""
    roll = b.dice.d6() + b.dice.d6()
    if roll == 2:
        return True, roll
    if roll == 12:
        return False, roll
    return roll <= ld, roll


def command_check(
    b: Battle,
    ship: Ship,
    *,
    reroll: bool = True,
    disengaging: bool = False,
    what: str = "command check",
    ld: int | None = None,
    also: str | None = None,
) -> bool:
    """A command check, re-rolled once on a failure within the flagship's command radius
    (§15), else by Mob Rule, by the rule named ``also`` (Hatred of the False Emperor) or by a
    Sororitas capital ship's Acts of Faith (R-110, R-114): a check is re-rolled once at most.
    ``ld``: a fixed Ld (Torpedo Doctrine's 10, R-117). Logged."""
    if ld is None:
        ld = leadership(b, ship, disengaging=disengaging)
    passed, roll = roll_check(b, ld)
    first = roll
    how = None  # why the check was re-rolled, for the log
    if not passed and reroll:
        if in_command_radius(b, ship):
            passed, roll = roll_check(b, ld)
            how = "in command radius"
        elif ship.spec.rules.mob_rule and _near(b, ship, NEAR_FRIEND_CM):
            passed, roll = roll_check(b, ld)  # Mob Rule: one re-roll, it stands
            how = "(Mob Rule)"
        elif also is not None:
            passed, roll = roll_check(b, ld)
            how = f"({also})"
        elif ship.target.brace_rerolls and ship.spec.rules.acts_of_faith:
            ship.target.brace_rerolls -= 1  # once a battle, shared with the brace save
            passed, roll = roll_check(b, ld)
            how = "(Acts of Faith)"
    if b.logging:  # the text only when logging
        text = f"{what}: rolled {first} against Ld {ld}"
        if how is not None:
            text += f", re-rolled {how}: {roll}"
        b.log(ship.side, f"{ship.label()} {text}: {'passed' if passed else 'failed'}.")
    return passed


def emergency_damage_control(b: Battle, ship: Ship) -> None:
    """Command Phase: one attempt on a Fire or a Hull Breach (§8); blast markers count."""
    t = ship.target
    effect = Critical.FIRE if t.fires else Critical.HULL_BREACH if t.hull_breaches else None
    if effect is None:
        return
    if command_check(b, ship, reroll=False, what=f"emergency damage control ({effect.label})"):
        t.repair(effect)
        if b.logging:
            b.log(
                ship.side,
                f"{ship.label()} puts out the {effect.label}."
                if effect is Critical.FIRE
                else f"{ship.label()} seals a Hull Breach.",
            )


REPAIR_PRIORITY: Final = (
    Critical.FIRE,
    Critical.THRUSTERS_DAMAGED,
    Critical.PROW_ARMAMENT_DAMAGED,
    Critical.PORT_ARMAMENT_DAMAGED,
    Critical.STARBOARD_ARMAMENT_DAMAGED,
    Critical.ARMAMENT_DAMAGED,
    Critical.DORSAL_ARMAMENT_DAMAGED,
    Critical.HULL_BREACH,
)


def end_phase_repair(b: Battle, ship: Ship) -> None:
    """End Phase: one repair of the player's choice on a command check (§8). With blast markers
    in contact the 2d6 are halved to 1d6 (R-75): 1d6 at or under Ld, still no re-roll."""
    t = ship.target
    effect = next((e for e in REPAIR_PRIORITY if t.has(e)), None)
    if effect is None:
        return
    ld = leadership(b, ship)
    if ship.spec.rules.blessings:
        roll = b.dice.d6()  # Blessings of the Omnissiah: a repair on 4+
        passed = roll >= 4
    elif t.blast_markers:
        roll = b.dice.d6()
        passed = roll <= ld
    else:
        passed, roll = roll_check(b, ld)
    if b.logging:
        how = (
            "needing 4+ (Blessings of the Omnissiah)"
            if ship.spec.rules.blessings
            else f"against Ld {ld}{' (1d6: blast markers)' if t.blast_markers else ''}"
        )
        b.log(
            ship.side,
            f"{ship.label()} tries to repair {effect.label}: rolled {roll} {how}: "
            f"{'repaired' if passed else 'failed'}.",
        )
    if passed:
        t.repair(effect)
