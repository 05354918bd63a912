"""One attack on one ship, described in the game's words and priced by ``rules_core.odds``.

No Django here: the form turns a query string into these values, :func:`calculate` turns them
into the exact distribution (R-54) and the rows the page shows. Ruling ids refer to
docs/rulings.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.catalog import (
    CraftRole,
    Faction,
    ShipProfile,
    Weapon,
    WeaponType,
    crippled_threshold,
)
from rules_core.damage import SpecialOrder, to_hit_modifier, weapon_range
from rules_core.odds import OddsWeapon, VolleyOdds, volley_odds

CUSTOM = "custom"
GUNNERY = frozenset({OddsWeapon.BATTERY, OddsWeapon.LANCE})
CRAFT_WEAPONS = {
    CraftRole.BOMBER: OddsWeapon.BOMBERS,
    CraftRole.ASSAULT_BOAT: OddsWeapon.ASSAULT_BOATS,
}
WEAPON_LABELS = {
    OddsWeapon.BATTERY: "Weapons battery",
    OddsWeapon.LANCE: "Lance",
    OddsWeapon.TORPEDO: "Torpedoes",
    OddsWeapon.BOMBERS: "Bombers",
    OddsWeapon.ASSAULT_BOATS: "Assault boats",
}
ORDER_LABELS = {
    SpecialOrder.LOCK_ON: "Lock On",
    SpecialOrder.COME_TO_NEW_HEADING: "Come to New Heading",
    SpecialOrder.BURN_RETROS: "Burn Retros",
}


@dataclass(frozen=True, slots=True)
class Attack:
    """What is fired: how it rolls (``kind``), how many dice or craft, and how far it reaches."""

    label: str
    kind: OddsWeapon
    strength: int
    reach_cm: int | None = None  # None: no range to check (custom weapons, attack craft)
    ignores_shields: bool = False
    rule: str = ""
    weapon: Weapon | None = None


@dataclass(frozen=True, slots=True)
class WeaponChoice:
    key: str  # the form value: the weapon's index, with ":bombers" etc. for a launch bay
    label: str
    attack: Attack


@dataclass(frozen=True, slots=True)
class TargetValues:
    label: str
    armor: int
    shields: int
    max_hull: int
    hull: int  # current hull
    turrets: int  # profile turrets; halved when crippled

    @property
    def is_crippled(self) -> bool:
        threshold = crippled_threshold(self.max_hull)
        return threshold is not None and self.hull <= threshold

    @property
    def effective_turrets(self) -> int:
        return self.turrets // 2 if self.is_crippled else self.turrets


@dataclass(frozen=True, slots=True)
class Circumstances:
    range_cm: int = 0
    order: SpecialOrder | None = None
    hesitant: bool = False
    cover: bool = False
    blast_markers: int = 0
    braced: bool = False


@dataclass(frozen=True, slots=True)
class Row:
    k: int
    exactly: float
    at_least: float
    outcome: str  # "afloat", "crippled" or "destroyed" after k hull damage


@dataclass(frozen=True, slots=True)
class Calculation:
    attack: Attack
    target: TargetValues
    circumstances: Circumstances
    to_hit_mod: int
    reach_cm: int | None
    odds: VolleyOdds | None  # None when the target is out of reach
    rows: tuple[Row, ...]
    rulings: tuple[tuple[str, str], ...]

    @property
    def in_range(self) -> bool:
        return self.odds is not None

    @property
    def summary(self) -> dict[str, object]:
        return self.odds.to_dict() if self.odds is not None else {}


def _special_kind(weapon: Weapon) -> OddsWeapon:
    """Special weapons roll like a battery with armor saves, their hits ignoring shields; those
    whose rule says "no armor save" (feeder tentacles) hit on 4+ like a lance instead."""
    return OddsWeapon.LANCE if "no armor save" in weapon.rule.lower() else OddsWeapon.BATTERY


def weapon_choices(faction: Faction, ship: ShipProfile) -> list[WeaponChoice]:
    """The attacks a catalogue ship can make that the odds engine prices.

    A nova cannon has no odds model and is left out; launch bays give one choice per role of
    attack craft that damages ships (bombers, assault boats)."""
    craft = {c.slug: c for c in faction.attack_craft}
    choices: list[WeaponChoice] = []
    for index, weapon in enumerate(ship.weapons):
        where = f"{weapon.arc_label}, {weapon.range_cm} cm"
        if weapon.type in (WeaponType.BATTERY, WeaponType.LANCE, WeaponType.TORPEDO):
            kind = OddsWeapon(weapon.type.value)
            label = f"{weapon.name} — {weapon.strength} {kind.value} ({where})"
            choices.append(
                WeaponChoice(
                    str(index),
                    label,
                    Attack(weapon.name, kind, weapon.strength, weapon.range_cm, weapon=weapon),
                )
            )
        elif weapon.type is WeaponType.SPECIAL:
            label = f"{weapon.name} — {weapon.strength} special ({where})"
            attack = Attack(
                weapon.name,
                _special_kind(weapon),
                weapon.strength,
                weapon.range_cm,
                ignores_shields=True,
                rule=weapon.rule,
                weapon=weapon,
            )
            choices.append(WeaponChoice(str(index), label, attack))
        elif weapon.type is WeaponType.LAUNCH_BAY:
            carried = [craft[s] for s in ship.attack_craft if s in craft]
            for role, kind in CRAFT_WEAPONS.items():
                name = next((c.name for c in carried if c.role is role), None)
                if name is None:
                    continue
                label = f"{weapon.name} — {weapon.strength} {WEAPON_LABELS[kind].lower()} ({name})"
                choices.append(
                    WeaponChoice(
                        f"{index}:{kind.value}",
                        label,
                        Attack(f"{weapon.name} ({name})", kind, weapon.strength, weapon=weapon),
                    )
                )
    return choices


def custom_attack(kind: OddsWeapon, strength: int) -> Attack:
    return Attack(f"Custom {WEAPON_LABELS[kind].lower()}", kind, strength)


def ship_target(ship: ShipProfile, hull: int | None = None) -> TargetValues:
    return TargetValues(
        ship.name,
        ship.armor,
        ship.shields,
        ship.hull,
        ship.hull if hull is None else hull,
        ship.turrets,
    )


def calculate(attack: Attack, target: TargetValues, circ: Circumstances) -> Calculation:
    gunnery = attack.kind in GUNNERY
    to_hit_mod = (
        to_hit_modifier(circ.order, hesitant=circ.hesitant, cover=circ.cover) if gunnery else 0
    )
    reach = attack.reach_cm
    if reach is not None and attack.weapon is not None:
        reach = weapon_range(attack.weapon, lock_on=circ.order is SpecialOrder.LOCK_ON)
    rulings = _rulings(attack, target, circ, to_hit_mod)
    if reach is not None and circ.range_cm > reach:
        return Calculation(attack, target, circ, to_hit_mod, reach, None, (), rulings)
    odds = volley_odds(
        attack.kind,
        attack.strength,
        armor=target.armor,
        shields=0 if attack.ignores_shields else target.shields,
        hull=target.hull,
        max_hull=target.max_hull,
        range_cm=circ.range_cm,
        to_hit_mod=to_hit_mod,
        braced=circ.braced,
        blast_markers=circ.blast_markers,
        turrets=target.effective_turrets,
    )
    return Calculation(attack, target, circ, to_hit_mod, reach, odds, _rows(odds, target), rulings)


def _outcome(k: int, target: TargetValues) -> str:
    left = target.hull - k
    if left <= 0:
        return "destroyed"
    threshold = crippled_threshold(target.max_hull)
    if threshold is not None and left <= threshold:
        return "crippled"
    return "afloat"


def _rows(odds: VolleyOdds, target: TargetValues) -> tuple[Row, ...]:
    d = odds.denominator
    tail = d
    rows = []
    for k, weight in enumerate(odds.weights):
        rows.append(Row(k, weight / d, tail / d, _outcome(k, target)))
        tail -= weight
    return tuple(rows)


def _rulings(
    attack: Attack, target: TargetValues, circ: Circumstances, to_hit_mod: int
) -> tuple[tuple[str, str], ...]:
    """The rulings this calculation applies, as (id, what it did here)."""
    out: list[tuple[str, str]] = []
    kind = attack.kind
    if kind is OddsWeapon.BATTERY:
        out.append(("R-41", "4+ to hit up to 15 cm, 5+ beyond"))
    elif kind is OddsWeapon.LANCE:
        out.append(
            (
                "R-41",
                "lances hit on 4+ at any range"
                + (", Lock On adds 15 cm" if circ.order is SpecialOrder.LOCK_ON else ""),
            )
        )
    if kind in GUNNERY:
        if to_hit_mod:
            out.append(("R-40", f"to-hit modifier {to_hit_mod:+d}, a 6 always hits"))
        if circ.cover:
            out.append(("R-42", "cover is −1 to hit once"))
        out.append(
            (
                "R-43",
                "hits allow armor saves"
                if kind is OddsWeapon.BATTERY
                else "lance damage ignores armor",
            )
        )
    else:
        if circ.cover or circ.order:
            out.append(("R-42", "ordnance rolls no to-hit dice: orders and cover do not apply"))
        turrets = target.effective_turrets
        out.append(
            (
                "R-51",
                f"{turrets} turret {'die' if turrets == 1 else 'dice'} on 4+, −1 per blast marker",
            )
        )
        if target.is_crippled and target.turrets:
            out.append(
                (
                    "R-50",
                    f"turrets halved for crippling ({target.turrets} → {target.effective_turrets})",
                )
            )
    if kind is OddsWeapon.BOMBERS:
        out.append(("R-52", "4+ each for 1 damage, shields ignored"))
    if kind is OddsWeapon.ASSAULT_BOATS:
        out.append(("R-53", "4+ each for a critical, no hull damage"))
    if circ.braced and kind is not OddsWeapon.ASSAULT_BOATS:
        out.append(("R-44", "brace 4+ for each point of damage, before shields"))
    if attack.ignores_shields:
        out.append(("R-43", "this weapon's hits ignore shields"))
    elif circ.blast_markers and kind not in (OddsWeapon.BOMBERS, OddsWeapon.ASSAULT_BOATS):
        out.append(("R-03", "blast markers in contact: shields are down"))
    if kind is not OddsWeapon.ASSAULT_BOATS:
        out.append(("R-09", "crippled at half the starting hull or less, rounded down"))
    out.append(("R-46", "a 6 on each point that leaves the ship afloat is a critical"))
    out.append(("R-54", "exact odds; Bulkhead Collapse's extra d3 left out"))
    return tuple(out)
