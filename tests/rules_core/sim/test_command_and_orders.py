"""Command Phase, command checks, hesitancy and the six special orders (§3, §4), with rigged
dice: each test is a scenario a player could set up on the table and the outcome the rules
give."""

from __future__ import annotations

import math

import pytest

from rules_core.damage import Critical, CriticalHit
from rules_core.sim import orders as o
from rules_core.sim.movement import Plan
from rules_core.sim.state import Rank

from .conftest import Scripted, cap, fleet, make_battle, put, text


def test_command_phase_rolls_d6_plus_highest_leadership_and_rerolls_ties(sim_catalog):
    # A: gun cruiser Ld 8. B: a frigate squadron, Ld 7. 3+8 = 4+7 is a tie, rolled again.
    # Pins R-86: 1d6 + highest Ld, ties rolled again.
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("frigate"), faction="test-navy"),
        [3, 4, 2, 6],
    )
    first = b.command_phase()
    assert first == 1  # 2 + 8 = 10 against 6 + 7 = 13: B wins and goes first
    assert "A 10 (rolled 2 + Ld 8), B 13 (rolled 6 + Ld 7)" in text(b)
    b.dice.assert_used_up()


def test_natural_two_always_passes_and_natural_twelve_always_fails(sim_catalog):
    b = make_battle(sim_catalog, fleet(cap("gun-cruiser")), fleet(cap("gun-cruiser")), [1, 1, 6, 6])
    assert o.roll_check(b, -3) == (True, 2)  # Ld -3 after penalties, still passes on a 2
    assert o.roll_check(b, 13) == (False, 12)  # Ld above 12 still fails on a 12


def test_leadership_in_play_counts_markers_crippling_breaches_and_bridge(sim_catalog):
    from rules_core.damage import Critical, CriticalHit

    b = make_battle(sim_catalog, fleet(cap("gun-cruiser")), fleet(cap("gun-cruiser")), [])
    s = b.sides[0][0]
    assert o.leadership(b, s) == 8
    s.target.blast_markers = 2
    s.target.hull = 4  # crippled at 4 of 8
    s.target.criticals.append(CriticalHit(10, Critical.HULL_BREACH))
    assert o.leadership(b, s) == 8 - 2 - 2 - 1
    s.target.criticals.append(CriticalHit(12, Critical.BRIDGE_DESTROYED))
    assert o.leadership(b, s) == 6 - 2 - 2 - 1


def test_failed_check_makes_the_ship_hesitant_minimum_move_and_minus_one_to_hit(sim_catalog):
    # The cruiser (speed 20) wants to go 20 cm; it fails on a natural 12, so it moves exactly
    # its 10 cm minimum. Its port battery (6 dice) then needs 6s at 22 cm (5+, hesitant -1).
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [6, 6, 5, 5, 5, 5, 5, 6, 1],
        policy_a=Scripted(plan=Plan(20.0)),
    )
    a, target = b.sides[0][0], b.sides[1][0]
    put(a, 90, 50, 90)
    put(target, 70, 50, 90)
    b.activate(b.units[0][0])
    assert (round(a.x), round(a.y)) == (90, 60)
    assert "1 hit from 6 dice" in text(b)
    assert "to-hit modifier -1" in text(b)
    assert target.target.shields == 0  # the one unsaved hit went into the shield
    b.dice.assert_used_up()


def test_hesitant_ship_cannot_launch_torpedoes(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("torp-cruiser")),
        fleet(cap("plain-cruiser")),
        [6, 6],
        policy_a=Scripted(plan=Plan(10.0)),
    )
    a, target = b.sides[0][0], b.sides[1][0]
    put(a, 90, 40, 90)
    put(target, 90, 80, 270)  # dead ahead, out of the port battery's arc
    b.activate(b.units[0][0])
    assert b.salvos == [] and a.torpedoes_ready
    b.dice.assert_used_up()


def test_all_ahead_full_adds_4d6_and_forbids_firing(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [2, 3, 6, 6, 6, 6],
        policy_a=Scripted(order=o.AAF, plan=Plan(100.0)),
    )
    a, target = b.sides[0][0], b.sides[1][0]
    put(a, 90, 20, 90)
    put(target, 80, 70, 90)  # to port when it arrives, in range: it still may not fire
    b.activate(b.units[0][0])
    assert a.y == pytest.approx(20 + 20 + 24)
    assert "All Ahead Full: +24 cm" in text(b)
    b.dice.assert_used_up()  # no battery dice were rolled


def test_all_ahead_full_may_not_turn_more_than_45(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("frigate")),
        fleet(cap("plain-cruiser")),
        [2, 3, 1, 1, 1, 1],
        policy_a=Scripted(order=o.AAF, plan=Plan(25.0, math.pi / 2)),
    )
    a = b.sides[0][0]
    put(a, 90, 20, 90)
    b.activate(b.units[0][0])
    assert math.degrees(a.heading) == pytest.approx(135)  # escorts turn 90°, but not on AAF


def test_come_to_new_heading_turns_90_without_moving_and_fires_at_minus_one(sim_catalog):
    # A turns 90° to port on the spot (minimum move 0), then the enemy 25 cm to its north is
    # on its starboard side: 6 dice need 6+ (5+ long range, -1).
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3, 6, 5, 5, 5, 5, 5, 6],
        policy_a=Scripted(order=o.NEW_HEADING, plan=Plan(0.0, math.pi / 2)),
    )
    a, target = b.sides[0][0], b.sides[1][0]
    put(a, 90, 50, 90)
    put(target, 90, 75, 270)
    b.activate(b.units[0][0])
    assert (a.x, a.y) == (90, 50)
    assert math.degrees(a.heading) == pytest.approx(180)
    assert "Starboard Battery (battery 6)" in text(b) and "1 hit from 6 dice" in text(b)
    assert "1 saved by armor" in text(b)
    b.dice.assert_used_up()


def test_burn_retros_may_stop_where_a_normal_move_may_not(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser"), cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3, 3, 3],
        policy_a=Scripted(order=o.BURN_RETROS, plan=Plan(0.0)),
    )
    stopper, mover = b.sides[0]
    put(stopper, 40, 50, 90)
    put(mover, 140, 50, 90)
    b.activate(b.units[0][0])
    assert (stopper.x, stopper.y) == (40, 50)
    b.policies = (Scripted(plan=Plan(0.0)), b.policies[1])
    b.activate(b.units[0][1])
    assert mover.y == pytest.approx(60)  # without the order: at least half its speed


def test_lock_on_adds_one_to_hit_and_fifteen_cm_to_lances_but_no_turn(sim_catalog):
    # Prow lance (range 30) at a target 40 cm ahead after the 10 cm minimum move: in range
    # only with Lock On's +15 cm, and hitting on 3+ (4+, +1).
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3, 3, 2],
        policy_a=Scripted(order=o.LOCK_ON, plan=Plan(20.0, 0.5)),
    )
    a, target = b.sides[0][0], b.sides[1][0]
    put(a, 90, 30, 90)
    put(target, 90, 80, 270)
    b.activate(b.units[0][0])
    assert (round(a.x), round(a.y)) == (90, 40) and math.degrees(a.heading) == pytest.approx(90)
    assert "Prow Lance (lance 2) at Plain Cruiser (40 cm, to-hit modifier +1): 1 hit" in text(b)
    b.dice.assert_used_up()


def test_reload_ordnance_readies_the_tubes_and_the_ship_does_not_fire(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("torp-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Scripted(order=o.RELOAD, plan=Plan(10.0)),
    )
    a, target = b.sides[0][0], b.sides[1][0]
    a.torpedoes_ready = False
    put(a, 90, 30, 90)
    put(target, 75, 40, 90)  # to port, in range of the battery
    b.activate(b.units[0][0])
    assert a.torpedoes_ready and b.salvos == []
    b.dice.assert_used_up()


def test_brace_for_impact_order_saves_on_4_and_makes_the_next_activation_hesitant(sim_catalog):
    from rules_core import damage

    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("gun-cruiser")),
        [
            3,
            3,  # A's command check: Brace for Impact
            1,
            1,
            4,
            6,  # then 4 damage (lance-like: no armor): brace saves two
            1,
            1,
        ],  # two hull points, no criticals
        policy_a=Scripted(order=o.BRACE, plan=Plan(10.0)),
    )
    a = b.sides[0][0]
    put(a, 90, 30, 90)
    b.activate(b.units[0][0])
    assert a.braced_round == 1 and a.hesitant_next
    from rules_core.sim.gunnery import damage_points

    report = b.attack(a, damage_points, 4, b.dice)
    assert report.brace_saves == 2
    assert report.shields_absorbed == 1 and report.hull_lost == 1
    # Next round: hesitant, no command check rolled, the minimum move exactly.
    b.round = 2
    b.activate(b.units[0][0])
    assert "is hesitant (no command check allowed)" in text(b)
    assert a.order is None
    assert isinstance(report, damage.AttackReport)


def test_brace_reaction_spends_the_activation_and_saves_the_current_attack(sim_catalog):
    from rules_core.sim import gunnery

    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [
            4,
            4,
            4,
            1,
            1,
            1,  # battery at 10 cm: three hits
            1,
            1,
            1,  # three failed armor saves
            4,
            1,
            1,  # braced: one saved
            1,
        ],  # shield takes one, one hull point: no critical
        policy_b=Scripted(brace=True),
    )
    a, target = b.sides[0][0], b.sides[1][0]
    put(a, 90, 50, 90)
    put(target, 80, 50, 90)
    gunnery.fire_guns(b, a, hesitant=False)
    assert "braces for impact" in text(b)
    assert target.unit.activated_round == 1 and target.hesitant_next
    assert target.target.hull == 7
    b.dice.assert_used_up()


def test_command_radius_rerolls_a_failed_check(sim_catalog):
    # Pins R-72: one re-roll within the command radius.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser", flagship=True), cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [5, 5, 3, 3],
        policy_a=Scripted(plan=Plan(10.0)),
    )
    flag, other = b.sides[0]
    put(flag, 60, 30, 90)
    put(other, 80, 30, 90)  # 20 cm from the flagship
    b.activate(b.units[0][1])
    assert "re-rolled in command radius: 6: passed" in text(b)
    b.dice.assert_used_up()


def test_no_reroll_outside_the_command_radius(sim_catalog):
    # Pins R-72: none outside it.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser", flagship=True), cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [5, 5],
        policy_a=Scripted(plan=Plan(10.0)),
    )
    flag, other = b.sides[0]
    put(flag, 20, 30, 90)
    put(other, 80, 30, 90)  # 60 cm away
    b.activate(b.units[0][1])
    assert "rolled 10 against Ld 8: failed" in text(b)
    b.dice.assert_used_up()


def test_commodore_extends_the_command_radius_to_45(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser", flagship=True, admiral="commodore"), cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [],
    )
    flag, other = b.sides[0]
    put(flag, 40, 30, 90)
    put(other, 80, 30, 90)  # 40 cm
    assert o.in_command_radius(b, other)


def test_lord_admiral_gives_plus_one_in_the_command_radius(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(
            cap("plain-cruiser", flagship=True, admiral="lord-admiral"),
            cap("gun-cruiser"),
            cap("gun-cruiser"),
        ),
        fleet(cap("plain-cruiser")),
        [],
    )
    flag, near, far = b.sides[0]
    put(flag, 40, 30, 90)
    put(near, 60, 30, 90)
    put(far, 140, 30, 90)
    assert o.leadership(b, near) == 9 and o.leadership(b, far) == 8
    assert o.leadership(b, flag) == 10  # 8 + 1 flagship + 2 admiral (cap 10), +1 still 10+


def test_losing_the_flagship_tests_every_ship(sim_catalog):
    from rules_core.sim.gunnery import damage_points

    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser", flagship=True), cap("gun-cruiser"), cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [
            2,
            2,  # catastrophic damage: a drifting hulk
            6,
            5,  # first survivor fails (11 > 8)
            2,
            2,
        ],
    )  # second passes
    flag, one, two = b.sides[0]
    put(flag, 40, 30, 90)
    flag.target.hull = 1
    flag.target.shields = 0
    b.attack(flag, damage_points, 1, b.dice)
    assert flag.destroyed and one.hesitant_next and not two.hesitant_next
    b.dice.assert_used_up()


def test_vice_admiral_ignores_the_flagships_first_hesitant_result(sim_catalog):
    # Pins R-86: the Vice Admiral ignores the first hesitant result of a round.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser", flagship=True, admiral="vice-admiral")),
        fleet(cap("plain-cruiser")),
        [],
        policy_a=Scripted(plan=Plan(10.0)),
    )
    flag = b.sides[0][0]
    put(flag, 40, 30, 90)
    flag.hesitant_next = True
    b.activate(b.units[0][0])
    assert "Vice Admiral ignores" in text(b)
    assert "is hesitant" not in text(b)


def test_rear_admiral_issues_a_free_special_order(sim_catalog):
    # Pins R-86: the Rear Admiral's free order, no command check.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser", flagship=True, admiral="rear-admiral")),
        fleet(cap("plain-cruiser")),
        [],
        policy_a=Scripted(order=o.BURN_RETROS, plan=Plan(0.0)),
    )
    flag = b.sides[0][0]
    put(flag, 40, 30, 90)
    b.activate(b.units[0][0])  # no dice at all: no command check
    assert flag.order == o.BURN_RETROS and (flag.x, flag.y) == (40, 30)


def test_fleet_captain_rerolls_a_losing_command_phase_die_once_a_game(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser", flagship=True, admiral="fleet-captain")),
        fleet(cap("gun-cruiser")),
        [1, 5, 6],
    )
    first = b.command_phase()  # A: 1 + 9 = 10 < B: 5 + 8 = 13; re-rolled 6: 15 > 13
    assert first == 0 and b.fleet_captain_used[0]
    assert "re-rolls the command die: 1 → 6" in text(b)


def test_every_admiral_of_the_catalogue_is_a_rank_the_simulator_plays(real_catalog):
    # A flagship's admiral is a Rank in the simulator (Fleet Captain to Lord Admiral, §15):
    # an admiral added to admirals.json needs its rules played before a fleet can field it.
    assert {a.slug for a in real_catalog.admirals} == {r.value for r in Rank}


def test_emergency_damage_control_puts_out_a_fire_in_the_command_phase(sim_catalog):
    from rules_core.damage import Critical, CriticalHit

    b = make_battle(
        sim_catalog, fleet(cap("plain-cruiser")), fleet(cap("plain-cruiser")), [3, 3, 6, 1]
    )
    s = b.sides[0][0]
    s.target.criticals.append(CriticalHit(9, Critical.FIRE))
    b.command_phase()
    assert not s.target.fires
    assert "puts out the Fire!" in text(b)
    b.dice.assert_used_up()


def test_players_alternate_units_and_the_side_with_more_finishes(sim_catalog):
    # Pins R-86: alternate, then the side with units left activates the rest.
    b = make_battle(
        sim_catalog,
        fleet(
            cap("plain-cruiser", name="A1"),
            cap("plain-cruiser", name="A2"),
            cap("plain-cruiser", name="A3"),
        ),
        fleet(cap("plain-cruiser", name="B1")),
        [3, 3] * 4,
        policy_a=Scripted(plan=Plan(10.0)),
        policy_b=Scripted(plan=Plan(10.0)),
    )
    for i, s in enumerate(b.sides[0]):
        put(s, 30 + 40 * i, 10, 90)
    put(b.sides[1][0], 150, 110, 270)
    b.activation_phase(first=1)
    order = [e.text.split(" activates")[0] for e in b.entries if e.text.endswith("activates.")]
    assert order == ["B1", "A1", "A2", "A3"]
    b.dice.assert_used_up()


def test_a_damaged_arc_silences_its_weapons(sim_catalog):
    from rules_core.sim import gunnery

    b = make_battle(
        sim_catalog, fleet(cap("gun-cruiser")), fleet(cap("plain-cruiser")), [1, 1, 1, 1, 1, 1]
    )
    a = put(b.sides[0][0], 90, 50, 90)
    put(b.sides[1][0], 100, 60, 90)  # on the line between the prow and starboard arcs
    a.target.criticals.append(CriticalHit(5, Critical.PROW_ARMAMENT_DAMAGED))
    gunnery.fire_guns(b, a, hesitant=False)
    assert "Starboard Battery" in text(b) and "Prow Lance" not in text(b)
    b.dice.assert_used_up()
