"""Resolving attacks (rules_core.damage) and the dice behind them, one rule per scenario.

Each scenario rigs the exact rolls, in the order damage.py documents: to-hit, armor saves,
brace saves, then per hull point its critical die (and the table's 2d6 and that result's dice),
and the catastrophic 2d6 when the hull reaches 0. `assert_used_up` checks that nothing was
rolled that the scenario did not expect.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from rules_core.catalog import Arc, ShipClass, ShipProfile, Weapon, WeaponType
from rules_core.damage import (
    Catastrophe,
    Critical,
    SpecialOrder,
    Target,
    assault_boat_attack,
    battery_base_to_hit,
    bomber_attack,
    fire_batteries,
    fire_lances,
    needed_to_hit,
    resolve_fires,
    resolve_hits,
    roll_catastrophic_damage,
    roll_critical,
    to_hit_modifier,
    torpedo_salvo,
    turret_needed,
    weapon_range,
)
from rules_core.dice import DiceExhausted, RiggedDice, SeededDice


def cruiser(**overrides) -> Target:
    values = dict(hull=8, max_hull=8, armor=5, shields=2, turrets=2)
    values.update(overrides)
    return Target(**values)


# --- dice ----------------------------------------------------------------------------------


def test_seeded_dice_repeat_for_the_same_seed() -> None:
    assert SeededDice(7).nd6(30) == SeededDice(7).nd6(30)
    assert SeededDice(7).nd6(30) != SeededDice(8).nd6(30)
    rolls = SeededDice("x").nd6(600)
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert all(1 <= SeededDice(1).two_d6() <= 12 for _ in range(50))


def test_battle_dice_are_the_same_in_every_process() -> None:
    code = "from rules_core.dice import SeededDice;print(SeededDice.for_battle(42, 3).nd6(20))"
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            # a bare environment, writing no bytecode into the work tree
            env={"PYTHONHASHSEED": seed, "PATH": "", "PYTHONDONTWRITEBYTECODE": "1"},
        ).stdout
        for seed in ("0", "1", "random")
    }
    assert len(outputs) == 1
    assert outputs.pop().strip() == str(SeededDice.for_battle(42, 3).nd6(20))
    assert SeededDice.for_battle(42, 3).nd6(20) != SeededDice.for_battle(42, 4).nd6(20)


def test_rigged_dice_give_their_values_then_refuse() -> None:
    dice = RiggedDice([3, 6, 2, 1, 12])
    assert dice.d6() == 3
    assert dice.two_d6() == 8
    assert dice.d3() == 1
    assert dice.d12() == 12
    with pytest.raises(DiceExhausted):
        dice.d6()


def test_rigged_dice_refuse_a_value_the_die_cannot_show() -> None:
    with pytest.raises(ValueError):
        RiggedDice([4]).d3()
    with pytest.raises(ValueError):
        RiggedDice([0]).d6()


# --- to hit --------------------------------------------------------------------------------


def test_special_orders_hesitation_and_cover_add_up() -> None:
    assert to_hit_modifier(SpecialOrder.LOCK_ON) == 1
    assert to_hit_modifier(SpecialOrder.COME_TO_NEW_HEADING) == -1
    assert to_hit_modifier(SpecialOrder.BURN_RETROS, hesitant=True, cover=True) == -3
    assert to_hit_modifier(SpecialOrder.ALL_AHEAD_FULL) == 0


def test_fifteen_cm_is_still_point_blank() -> None:
    assert battery_base_to_hit(15) == 4
    assert battery_base_to_hit(15.1) == 5
    assert battery_base_to_hit(0) == 4


def test_a_natural_six_always_hits_and_a_natural_one_always_misses() -> None:
    assert needed_to_hit(5, -3) == 6
    assert needed_to_hit(4, +5) == 2
    assert turret_needed(0) == 4
    assert turret_needed(4) == 6


def test_lock_on_adds_15_cm_to_lances_only() -> None:
    lance = Weapon("Prow Lance", WeaponType.LANCE, (Arc.FRONT,), 2, 30)
    battery = Weapon("Port Battery", WeaponType.BATTERY, (Arc.LEFT,), 6, 30)
    assert weapon_range(lance, lock_on=True) == 45
    assert weapon_range(lance) == 30
    assert weapon_range(battery, lock_on=True) == 30


# --- batteries -----------------------------------------------------------------------------


def test_battery_volley_at_point_blank_hits_then_armor_then_shields() -> None:
    target = cruiser()
    # to hit 4+: 4, 3, 6, 1 -> 2 hits; armor 5+: 5 saves, 2 fails; one shield absorbs it
    dice = RiggedDice([4, 3, 6, 1, 5, 2])
    report = fire_batteries(target, 4, 10, dice)
    dice.assert_used_up()
    assert (report.hits, report.armor_saves, report.shields_absorbed, report.hull_damage) == (
        2,
        1,
        1,
        0,
    )
    assert target.hull == 8 and target.shields == 1
    assert target.blast_markers == 1  # the shields absorbed damage


def test_battery_at_long_range_needs_a_five() -> None:
    dice = RiggedDice([4, 4, 4, 5, 1, 2])  # one hit; its armor save fails; crit die 2
    report = fire_batteries(cruiser(shields=0), 4, 16, dice)
    dice.assert_used_up()
    assert report.hits == 1 and report.hull_damage == 1


def test_lock_on_hits_on_four_at_long_range_and_hesitant_cover_still_hits_on_six() -> None:
    dice = RiggedDice([4, 3, 6])  # Lock On: 4 hits, 3 misses; armor 6+ saves both
    report = fire_batteries(
        cruiser(armor=6), 2, 30, dice, to_hit_mod=to_hit_modifier(SpecialOrder.LOCK_ON)
    )
    dice.assert_used_up()
    assert report.hits == 1 and report.armor_saves == 1
    dice = RiggedDice([5, 6, 6])  # -3 at long range: only the natural 6 hits
    report = fire_batteries(cruiser(armor=6), 2, 30, dice, to_hit_mod=-3)
    dice.assert_used_up()
    assert report.hits == 1


def test_a_natural_one_misses_even_with_every_bonus() -> None:
    dice = RiggedDice([1, 2, 6])
    report = fire_batteries(cruiser(armor=6), 2, 5, dice, to_hit_mod=+4)
    dice.assert_used_up()
    assert report.hits == 1


def test_an_armor_roll_equal_to_the_armor_value_ignores_the_hit() -> None:
    dice = RiggedDice([6, 6, 4, 3])  # armor 4+: 4 saves, 3 fails
    target = cruiser(armor=4, shields=1)
    report = fire_batteries(target, 2, 10, dice)
    dice.assert_used_up()
    assert report.armor_saves == 1 and report.shields_absorbed == 1


def test_shields_absorb_the_whole_volley_before_its_blast_marker_lands() -> None:
    # two points against 2 shields are both absorbed; the marker comes afterwards
    target = cruiser(armor=6, shields=2)
    report = fire_batteries(target, 2, 10, RiggedDice([5, 5, 1, 1]))
    assert report.shields_absorbed == 2 and target.hull == 8
    assert target.blast_markers == 1
    # the next volley meets suppressed shields: straight to the hull (crit dice 2)
    report = fire_lances(target, 1, RiggedDice([4, 2]))
    assert report.shields_absorbed == 0 and report.hull_damage == 1 and target.hull == 7


def test_a_blast_marker_already_in_contact_suppresses_shields() -> None:
    target = cruiser(shields=3, blast_markers=1)
    dice = RiggedDice([6, 1, 3])  # hit, armor fails, crit die 3
    report = fire_batteries(target, 1, 10, dice)
    dice.assert_used_up()
    assert report.hull_damage == 1 and target.hull == 7 and target.shields == 3
    assert target.blast_markers == 2


def test_brace_saves_after_armor_and_before_shields() -> None:
    # Pins R-02: armor, then the brace save, then shields, then hull.
    target = cruiser(armor=5, shields=1, braced=True)
    # to hit: 3 hits; armor: 1 save (5), 2 fail; brace 4+: 4 saves, 3 fails; shield takes it
    dice = RiggedDice([4, 5, 6, 5, 1, 2, 4, 3])
    report = fire_batteries(target, 3, 10, dice)
    dice.assert_used_up()
    assert (report.armor_saves, report.brace_saves, report.shields_absorbed, target.hull) == (
        1,
        1,
        1,
        8,
    )


# --- lances --------------------------------------------------------------------------------


def test_lances_roll_no_armor_save() -> None:
    # Pins R-43: lance hits are damage, no armor save.
    target = cruiser(armor=2, shields=1)
    dice = RiggedDice([4, 6, 3, 5])  # two hits: a shield, then hull (crit die 5)
    report = fire_lances(target, 3, dice)
    dice.assert_used_up()
    assert report.armor_saves == 0 and report.hull_damage == 1 and target.hull == 7


# --- hull damage, criticals, crippling, destruction --------------------------------------


def test_a_six_on_the_damage_die_is_a_critical_hit() -> None:
    # Pins R-46: each hull point that leaves the ship afloat rolls for a critical.
    target = cruiser(shields=0, turrets=4)
    dice = RiggedDice([6, 6, 4, 4])  # lance hit, crit die 6, table 4+4 = Dorsal Armament
    report = fire_lances(target, 1, dice)
    dice.assert_used_up()
    assert [c.effect for c in report.criticals] == [Critical.DORSAL_ARMAMENT_DAMAGED]
    assert target.effective_turrets == 2


def test_fire_burns_in_the_end_phase_until_repaired() -> None:
    target = cruiser(shields=0)
    fire_lances(target, 1, RiggedDice([5, 6, 4, 5]))  # table 9: Fire!
    assert target.fires == 1 and target.hull == 7
    dice = RiggedDice([2])  # the fire's point rolls its critical die
    report = resolve_fires(target, dice)
    dice.assert_used_up()
    assert report.hull_lost == 1 and target.hull == 6
    assert target.blast_markers == 2  # the lance's and the fire's
    target.repair(Critical.FIRE)
    assert resolve_fires(target, RiggedDice([])).hull_lost == 0


def test_two_fires_burn_twice() -> None:
    target = cruiser(shields=0)
    for _ in range(2):
        fire_lances(target, 1, RiggedDice([5, 6, 3, 6]))
    assert target.fires == 2 and target.hull == 6
    assert resolve_fires(target, RiggedDice([1, 1])).hull_lost == 2


def test_hull_breaches_are_cumulative() -> None:
    target = cruiser(shields=0)
    for _ in range(2):
        fire_lances(target, 1, RiggedDice([4, 6, 5, 5]))  # 10: Hull Breach
    assert target.hull_breaches == 2


def test_bulkhead_collapse_deals_d3_more_damage_that_may_crit() -> None:
    # Pins R-49: Bulkhead Collapse is d3 damage at once, rolling for criticals.
    target = cruiser(shields=0)
    # lance hit; crit die 6; table 5+6 = Bulkhead Collapse; d3 = 2; the two extra points roll
    # crit dice 6 (table 1+2 = Thrusters) and 1
    dice = RiggedDice([4, 6, 5, 6, 2, 6, 1, 2, 1])
    report = fire_lances(target, 1, dice)
    dice.assert_used_up()
    assert report.hull_damage == 1 and report.extra_damage == 2 and report.hull_lost == 3
    assert target.hull == 5
    assert [c.effect for c in report.criticals] == [
        Critical.BULKHEAD_COLLAPSE,
        Critical.THRUSTERS_DAMAGED,
    ]
    assert not target.has(Critical.BULKHEAD_COLLAPSE)  # an event, not a lasting effect
    assert target.blast_markers == 1


def test_repairable_criticals_stack_and_all_must_be_repaired() -> None:
    target = cruiser()
    for _ in range(2):
        roll_critical(target, RiggedDice([1, 2]))  # Thrusters Damaged
    assert target.count(Critical.THRUSTERS_DAMAGED) == 2
    target.repair(Critical.THRUSTERS_DAMAGED)
    assert target.has(Critical.THRUSTERS_DAMAGED)
    target.repair(Critical.THRUSTERS_DAMAGED)
    assert not target.has(Critical.THRUSTERS_DAMAGED)
    with pytest.raises(ValueError):
        target.repair(Critical.THRUSTERS_DAMAGED)


def test_a_second_bridge_destroyed_has_nothing_higher_to_become() -> None:
    target = cruiser()
    assert roll_critical(target, RiggedDice([6, 6])).effect is Critical.BRIDGE_DESTROYED
    assert roll_critical(target, RiggedDice([6, 6])).effect is None
    assert target.count(Critical.BRIDGE_DESTROYED) == 1
    with pytest.raises(ValueError):
        target.repair(Critical.BRIDGE_DESTROYED)


def test_shields_collapse_is_an_event_and_the_shields_return_clear_of_markers() -> None:
    """R-48 (§8 crit 2, §7 "Restore all Shields to full"): the shields drop to 0 at once;
    nothing stays to repair, and moving clear of blast markers restores them. A second
    collapse is not moved up the table (R-47: it is not a lasting critical)."""
    target = cruiser(shields=2)
    assert roll_critical(target, RiggedDice([1, 1])).effect is Critical.SHIELDS_COLLAPSE
    assert target.shields == 0 and target.criticals == []
    assert roll_critical(target, RiggedDice([1, 1])).effect is Critical.SHIELDS_COLLAPSE
    target.blast_markers = 3
    target.leave_blast_markers()
    assert target.blast_markers == 0 and target.shields == 2


def test_armament_damaged_disables_a_random_working_weapon() -> None:
    # Pins R-14: one working weapon chosen at random.
    weapons = (
        Weapon("Prow Torpedoes", WeaponType.TORPEDO, (Arc.FRONT,), 6, 30),
        Weapon("Port Battery", WeaponType.BATTERY, (Arc.LEFT,), 6, 30),
        Weapon("Dorsal Lance", WeaponType.LANCE, (Arc.LEFT, Arc.FRONT, Arc.RIGHT), 2, 30),
    )
    target = cruiser(weapons=weapons)
    hit = roll_critical(target, RiggedDice([2, 2, 2]))  # 4: Armament; 2nd of 3 working
    assert hit.weapon == 1 and target.weapon_disabled(1)
    hit = roll_critical(target, RiggedDice([1, 3, 2]))  # of the 2 still working, the 2nd
    assert hit.weapon == 2
    roll_critical(target, RiggedDice([3, 1, 1]))
    assert all(target.weapon_disabled(i) for i in range(3))
    assert roll_critical(target, RiggedDice([2, 2])).effect is None  # nothing left


def test_arc_criticals_disable_weapons_in_that_arc_but_not_all_around_mounts() -> None:
    # Pins R-57: arc criticals spare all-around mounts.
    weapons = (
        Weapon("Prow Lance", WeaponType.LANCE, (Arc.FRONT,), 2, 30),
        Weapon("Dorsal Battery", WeaponType.BATTERY, (Arc.LEFT, Arc.FRONT, Arc.RIGHT), 4, 30),
        Weapon("Turret Battery", WeaponType.BATTERY, (Arc.ALL_AROUND,), 2, 30),
        Weapon("Port Battery", WeaponType.BATTERY, (Arc.LEFT,), 6, 30),
    )
    target = cruiser(weapons=weapons)
    roll_critical(target, RiggedDice([2, 3]))  # 5: Prow Armament Damaged
    assert [target.weapon_disabled(i) for i in range(4)] == [True, True, False, False]


def test_a_cruiser_is_crippled_at_half_hull() -> None:
    target = cruiser(hull=6, shields=0)
    dice = RiggedDice([4, 4, 1, 1])
    report = fire_lances(target, 2, dice)
    dice.assert_used_up()
    assert target.hull == 4 and target.crippled and report.became_crippled


def test_crippled_and_dorsal_damage_each_halve_turrets() -> None:
    target = cruiser(turrets=5, hull=4)
    assert target.effective_turrets == 2
    roll_critical(target, RiggedDice([4, 4]))
    roll_critical(target, RiggedDice([5, 3]))  # a second copy halves nothing more
    assert target.effective_turrets == 1


def test_the_last_hull_point_destroys_the_ship_and_the_rest_is_lost() -> None:
    # Pins R-46: the point that reaches 0 destroys; the rest is lost.
    target = cruiser(hull=2, shields=0)
    # 4 lance hits; first point: crit die 3; second point: destroyed, catastrophic 3+4 = 7
    dice = RiggedDice([4, 4, 4, 4, 3, 3, 4])
    report = fire_lances(target, 4, dice)
    dice.assert_used_up()
    assert report.destroyed and target.destroyed and not report.became_crippled
    assert report.hull_damage == 4 and report.hull_lost == 2
    assert report.catastrophe.result is Catastrophe.PLASMA_DRIVE_OVERLOAD
    assert target.blast_markers == 0  # the catastrophe rules the markers
    with pytest.raises(ValueError):
        fire_lances(target, 1, RiggedDice([6]))


def test_a_one_hull_escort_is_destroyed_not_crippled() -> None:
    escort = Target(hull=1, max_hull=1, armor=4)
    assert not escort.crippled
    report = fire_batteries(escort, 1, 10, RiggedDice([5, 1, 1, 1]))
    assert report.destroyed and report.catastrophe.result is Catastrophe.DRIFTING_HULK


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (2, Catastrophe.DRIFTING_HULK),
        (3, Catastrophe.DRIFTING_HULK),
        (4, Catastrophe.BLAZING_WRECK),
        (5, Catastrophe.BLAZING_WRECK),
        (6, Catastrophe.PLASMA_DRIVE_OVERLOAD),
        (7, Catastrophe.PLASMA_DRIVE_OVERLOAD),
        (8, Catastrophe.WARP_DRIVE_IMPLOSION),
        (9, Catastrophe.WARP_DRIVE_IMPLOSION),
        (10, Catastrophe.CATASTROPHIC_EXPLOSION),
        (11, Catastrophe.CATASTROPHIC_EXPLOSION),
        (12, Catastrophe.WARP_RIFT),
    ],
)
def test_catastrophic_damage_table(roll: int, result: Catastrophe) -> None:
    first = min(6, roll - 1)
    assert roll_catastrophic_damage(RiggedDice([first, roll - first])).result is result


def test_explosions_radius_by_class_and_hits_with_armor_saves() -> None:
    warp = roll_catastrophic_damage(RiggedDice([4, 4]))  # Warp Drive Implosion: 2d6 cm, d3 hits
    assert warp.roll_radius(RiggedDice([3, 4]), ShipClass.CRUISER) == 7
    assert warp.roll_radius(RiggedDice([1, 1, 6]), ShipClass.ESCORT) == 0
    assert warp.roll_radius(RiggedDice([3, 4, 2]), ShipClass.BATTLESHIP) == 9
    assert warp.roll_hits(RiggedDice([3])) == 3
    hulk = roll_catastrophic_damage(RiggedDice([1, 1]))
    assert hulk.leaves_debris_field and hulk.roll_radius(RiggedDice([]), ShipClass.CRUISER) == 0
    neighbour = cruiser(shields=1)
    report = resolve_hits(neighbour, 3, RiggedDice([5, 1, 1, 2]), attack="explosion")
    assert report.armor_saves == 1 and report.shields_absorbed == 1 and neighbour.hull == 7


# --- ordnance ------------------------------------------------------------------------------


def test_turrets_shoot_down_torpedoes_then_each_deals_damage_without_armor() -> None:
    # Pins: torpedoes are damage (no armor); turrets 4+ each.
    target = cruiser(armor=2, shields=1, turrets=2, blast_markers=1)
    # one marker: turrets need 5+ (5 hits, 4 misses); 3 torpedoes reach the ship; shields are
    # suppressed; three crit dice
    dice = RiggedDice([5, 4, 1, 2, 3])
    report = torpedo_salvo(target, 4, dice)
    dice.assert_used_up()
    assert report.intercepted == 1 and report.hull_damage == 3 and target.hull == 5
    assert target.blast_markers == 2


def test_blasted_turrets_still_hit_on_a_six() -> None:
    # Pins R-51: -1 per blast marker, a 6 always hits.
    target = cruiser(shields=2, turrets=1, blast_markers=5)
    report = torpedo_salvo(target, 1, RiggedDice([6]))
    assert report.intercepted == 1 and report.hull_damage == 0


def test_braced_torpedo_damage_is_saved_before_shields() -> None:
    target = cruiser(shields=1, turrets=0, braced=True)
    dice = RiggedDice([4, 1])  # brace saves one, fails one; shield absorbs the other
    report = torpedo_salvo(target, 2, dice)
    dice.assert_used_up()
    assert report.brace_saves == 1 and report.shields_absorbed == 1 and target.hull == 8


def test_bombers_ignore_shields_and_leave_no_blast_marker() -> None:
    # Pins R-52: bombers 4+ each, no shields, no blast marker.
    target = cruiser(shields=3, turrets=1)
    # turret 4 kills one bomber; two left roll 4 and 3; one damage to the hull, crit die 1
    dice = RiggedDice([4, 4, 3, 1])
    report = bomber_attack(target, 3, dice)
    dice.assert_used_up()
    assert report.intercepted == 1 and report.hits == 1
    assert target.hull == 7 and target.shields == 3 and target.blast_markers == 0


def test_assault_boats_cause_criticals_without_hull_damage() -> None:
    target = cruiser(turrets=0)
    dice = RiggedDice([5, 2, 4, 6])  # first boat 5: table 4+6 = Hull Breach; second misses
    report = assault_boat_attack(target, 2, dice)
    dice.assert_used_up()
    assert report.hits == 1 and report.hull_lost == 0
    assert target.hull == 8 and target.hull_breaches == 1 and target.blast_markers == 0


def test_assault_boat_bulkhead_collapse_still_deals_its_damage() -> None:
    target = cruiser(turrets=0)
    dice = RiggedDice([4, 5, 6, 1, 2])  # Bulkhead Collapse, d3 = 1, that point's crit die 2
    report = assault_boat_attack(target, 1, dice)
    dice.assert_used_up()
    assert report.extra_damage == 1 and target.hull == 7


def test_a_target_from_a_ship_profile() -> None:
    profile = ShipProfile(
        slug="lunar-class-cruiser",
        name="Lunar",
        ship_class=ShipClass.CRUISER,
        points=180,
        speed_cm=20,
        turns=45,
        leadership=8,
        shields=2,
        hull=8,
        armor=5,
        turrets=2,
    )
    target = Target.from_profile(profile)
    assert (
        target.hull,
        target.max_hull,
        target.shields,
        target.max_shields,
        target.armor,
        target.turrets,
    ) == (8, 8, 2, 2, 5, 2)
    assert target.crippled_at == profile.crippled_at == 4
