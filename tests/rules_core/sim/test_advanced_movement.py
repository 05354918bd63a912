"""Seed 003 as the optional "advanced movement" module (R-140 – R-149). Each
test rigs the dice (seed 003's d10 is a d10) and quotes the seed line it pins."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rules_core.sim import SimOptions
from rules_core.sim import advanced_movement as adv
from rules_core.sim import orders as o
from rules_core.sim.battle import Battle
from rules_core.sim.policy import StandardPolicy
from rules_core.sim.state import Terrain

from .conftest import cap, fleet, make_battle, put, text

ADV = SimOptions(movement="advanced")


def battle(sim_catalog, rolls, a="gun-cruiser", b="gun-cruiser", **kw) -> Battle:  # type: ignore[no-untyped-def]
    return make_battle(sim_catalog, fleet(cap(a)), fleet(cap(b)), rolls, options=ADV, **kw)


def ready(b: Battle, ship, x: float, y: float, deg: float, velocity: int):  # type: ignore[no-untyped-def]
    put(ship, x, y, deg)
    h = adv.helm(b, ship)
    h.velocity, h.course = velocity, math.radians(deg)
    return h


# --- conversions, thrust and momentum ------------------------------------------


def test_conversions_speed_to_thrust_ld_to_skill_and_the_sot_is_the_rounded_up_average():
    # Seed 003: "Erskine's SOT is 8 -- ([5 + 10]/2 = 7.5, rounding up)": skill 5
    # is Ld 8; thrust is Speed / 5 cm.
    assert adv.piloting_skill(8) == 5 and adv.piloting_skill(2) == 0
    assert adv.safe_operating_thrust(10, 8) == 8
    assert [adv.thrust_from_speed(s) for s in (15, 20, 25, 30)] == [3, 4, 5, 6]
    assert adv.hits_to_hull(5) == 1 and adv.hits_to_hull(15) == 2 and adv.hits_to_hull(25) == 3


def test_heading_costs_velocity_over_three_rounded_down_plus_one():
    # R-141. Seed 003: "At a velocity of 5, this will cost 2 Thrust Points -- (5 / 3 = 1.67,
    # rounding down to 1) + 1"; "at a velocity of 12 would have to use 5".
    assert adv.heading_cost(5) == 2 and adv.heading_cost(12) == 5 and adv.heading_cost(9) == 4
    assert adv.heading_cost(0) == 1


def test_a_ship_keeps_its_velocity_and_spends_thrust_to_change_speed_course_and_facing(sim_catalog):
    # R-141. Seed 003: "The ship's velocity remains constant until the ship's commander changes
    # it by applying thrust"; "He chooses to speed up to a velocity of 5 by spending 2".
    b = battle(sim_catalog, [])
    s = b.sides[0][0]
    h = ready(b, s, 60.0, 40.0, 90.0, 3)
    adv.move(b, s, adv.Manoeuvre(), None, False)  # coasting: 15 cm, velocity kept
    assert (round(s.x), round(s.y)) == (60, 55) and h.velocity == 3
    # +1 velocity (1), one 45° of course at velocity 4 (2), one 45° of facing (1): thrust 4
    adv.move(b, s, adv.Manoeuvre(dv=1, turns=1, facing=1), None, False)
    assert h.velocity == 4
    assert math.degrees(h.course) == pytest.approx(135.0)
    assert math.degrees(s.heading) == pytest.approx(180.0)  # the bow: course + 45° of facing
    assert s.x == pytest.approx(60.0 - 20.0 * math.sqrt(0.5))
    assert "SOT" not in text(b)  # 4 spent, SOT 5: no roll


def test_a_manoeuvre_is_trimmed_to_the_thrust_and_lock_on_does_not_turn(sim_catalog):
    # R-141, R-144. Seed 003: "the maximum number of Thrust Points that a player may spend in
    # one turn"; hesitant ships half of it and no push, Lock On no turn. Seed 003: "he may
    # push the powerplant" on any order: thrust 4 + 3 pushed pays 2 + one 45° at
    # velocity 6 (3) = 5, so the push needed is 1.
    b = battle(sim_catalog, [])
    s = b.sides[0][0]
    ready(b, s, 60.0, 40.0, 90.0, 4)
    m = adv.legal(b, s, adv.Manoeuvre(dv=2, turns=2, facing=1, push=3), None, False)
    assert (m.dv, m.turns, m.facing, m.push) == (2, 1, 0, 1)  # dropped from the last part
    m = adv.legal(b, s, adv.Manoeuvre(dv=2, turns=2, facing=1, push=3), None, True)
    assert (m.dv, m.turns, m.facing, m.push) == (2, 0, 0, 0)  # hesitant: 2 of thrust 4
    m = adv.legal(b, s, adv.Manoeuvre(dv=1, turns=1), o.LOCK_ON, False)
    assert (m.dv, m.turns) == (1, 0)
    m = adv.legal(b, s, adv.Manoeuvre(dv=4), None, True)
    assert m.dv == 2  # hesitant: half of thrust 4
    # Burn Retros slows for nothing; Come to New Heading's first 45° is free
    assert adv.costs(adv.Manoeuvre(dv=-3, turns=1), 4, o.BURN_RETROS) == [
        ("speed", 0),
        ("course", 1),
    ]
    assert adv.costs(adv.Manoeuvre(turns=2), 4, o.NEW_HEADING) == [("course", 0), ("course", 2)]


# --- exceeding the SOT, random movement ------------------------------------------


def test_exceeding_the_sot_rolls_sot_minus_the_excess_and_success_completes_the_move(sim_catalog):
    # R-142. Seed 003: "He must make a roll of 8 (his SOT) - 2 (the number of Thrust Points over
    # the pilot's SOT) = 6 or less. If the roll succeeds, he will end his movement as shown."
    b = battle(sim_catalog, [6])
    s = b.sides[0][0]
    s.base_speed = 40  # thrust 8, SOT (8 + 5) / 2 = 7
    h = ready(b, s, 60.0, 20.0, 90.0, 0)
    assert adv.ship_sot(b, s) == 7 and adv.sot_target(7, 8) == 6
    adv.move(b, s, adv.Manoeuvre(dv=8), None, False)
    assert h.velocity == 8 and s.y == pytest.approx(60.0) and not h.out_of_control
    b.dice.assert_used_up()


def test_a_failed_sot_roll_spends_the_whole_manoeuvre_on_random_movement(sim_catalog):
    # R-142, R-143. Seed 003: "he would then have to roll for 4 points on the Random Movement
    # Table, NOT the 2 Thrust Points by which he exceeded his SOT." Rolled 7 against 6: the 8
    # points go to the d10 table: 5 tumble (3), 10 spin (3), 8 course 90° starboard (2).
    b = battle(sim_catalog, [7, 5, 10, 8])
    s = b.sides[0][0]
    s.base_speed = 40
    h = ready(b, s, 60.0, 20.0, 90.0, 0)
    adv.move(b, s, adv.Manoeuvre(dv=8), None, False)
    assert h.out_of_control and h.velocity == 0  # the failed velocity change was not made
    assert math.degrees(h.course) == pytest.approx(0.0)  # 90° to starboard of 90°
    assert (s.x, s.y) == (60.0, 20.0)
    assert "loses control" in text(b) and "tumbles" in text(b) and "spins" in text(b)
    b.dice.assert_used_up()


def test_the_random_movement_thrust_cost_table_matches_the_seed_examples():
    # R-143. Seed 003: "His current velocity is 5. His first roll is a 2 ... an increase of 1
    # point in velocity, at a cost of 1 Thrust Point"; "His next roll is a 6 ... At a velocity
    # of 6, this costs 3 Thrust Points."
    assert adv.random_cost(5, adv.FAST) == 1 and adv.random_cost(6, adv.HEAD_R) == 3
    assert [adv.random_cost(v, adv.HEAD_RR) for v in (1, 3, 6, 9, 12, 15)] == [2, 4, 6, 8, 10, 12]
    assert adv.random_cost(7, adv.FAST) == 2 and adv.random_cost(0, 3) == 1
    assert adv.random_cost(40, adv.TUMBLE) == 3 and len(adv.RANDOM_COST) == 15


def test_random_movement_drifts_a_hex_per_unaffordable_roll_up_to_the_beginning_velocity(
    sim_catalog,
):
    # R-143. Seed 003: "If the rolled maneuver costs more Thrust Points than the ship has left,
    # the ship will drift one hex while a new maneuver is rolled ... it may never drift more
    # than its beginning velocity." 2 points at velocity 5: a 2 (+1 velocity, 1 point), then
    # 6s (3 points each) until it has drifted five hexes.
    b = battle(sim_catalog, [2, 6, 6, 6, 6, 6, 6])
    s = b.sides[0][0]
    h = ready(b, s, 60.0, 20.0, 90.0, 5)
    assert adv.random_movement(b, s, h, 2, 5) == 5
    assert h.velocity == 6 and s.y == pytest.approx(45.0)
    b.dice.assert_used_up()


def test_an_out_of_control_ship_recovers_on_its_skill_or_spends_its_thrust_at_random(sim_catalog):
    # R-143. Seed 003: "To recover from random movement, a pilot must roll less than or equal
    # to his Piloting Skill Level. This roll is made before movement".
    b = battle(sim_catalog, [5])
    s = b.sides[0][0]
    h = ready(b, s, 60.0, 20.0, 90.0, 2)
    h.out_of_control = True
    adv.move(b, s, adv.Manoeuvre(dv=1), None, False)
    assert not h.out_of_control and h.velocity == 3 and s.y == pytest.approx(35.0)
    # failed (6 > 5): the whole thrust rating (4) at random: 1 (−1 velocity), 5 (tumble, 3)
    b2 = battle(sim_catalog, [6, 1, 5])
    s2 = b2.sides[0][0]
    h2 = ready(b2, s2, 60.0, 20.0, 90.0, 2)
    h2.out_of_control = True
    adv.move(b2, s2, adv.Manoeuvre(dv=2), None, False)
    assert h2.out_of_control and h2.velocity == 1 and s2.y == pytest.approx(30.0)
    b2.dice.assert_used_up()


# --- pushing the plant ------------------------------------------------------------------


def test_the_pushing_the_plant_table():
    # R-144. Seed 003: "his current maximum velocity at 4. He needs to spend 6 Thrust Points
    # (pushing the plant by 2 thrust points) ... he must roll a 6 or less".
    assert adv.push_target(4, 2) == 6
    assert (
        adv.push_target(5, 1) == 8
        and adv.push_target(9, 4) == 2
        and adv.push_target(5, 5) == adv.AUTO
    )
    assert adv.push_target(2, 2) == adv.AUTO and adv.push_target(2, 3) == adv.NONE
    assert adv.push_target(1, 1) == 8 and adv.push_target(4, 6) == adv.NONE


def test_all_ahead_full_pushes_the_plant_and_a_failure_costs_a_quarter_of_the_thrust(sim_catalog):
    # R-144. Seed 003: "Pushing the plant always results in the pilot obtaining the extra
    # Thrust Points ... mark off one-quarter of the total original number of his power plant
    # boxes (rounding up)". Thrust 4 pushed by 2: 7 > 6 fails, and the damaged plant (thrust 3)
    # lowers the SOT to 4: "he must make both rolls": 6 spent needs 4 − 2 = 2 or less.
    b = battle(sim_catalog, [7, 2])
    s = b.sides[0][0]
    h = ready(b, s, 60.0, 20.0, 90.0, 0)
    adv.move(b, s, adv.Manoeuvre(dv=6, push=2), o.AAF, False)
    assert h.velocity == 6 and s.y == pytest.approx(50.0)
    assert h.plant_lost == 1 and adv.thrust_rating(b, s) == 3
    assert "damages it" in text(b)
    b.dice.assert_used_up()
    # Seed 003 ties the push to no order: the damaged plant's thrust 3
    # pushes 2 (a 6 or less) on any order but a hesitant ship's.
    assert adv.legal(b, s, adv.Manoeuvre(dv=5, push=2), None, False).push == 2
    assert adv.legal(b, s, adv.Manoeuvre(dv=5, push=2), None, True).push == 0


def test_all_ahead_full_rolls_no_extra_dice_under_the_module(sim_catalog):
    # the order's natural risk is the plant, not +4d6 cm. One command check (2d6)
    # and nothing else is rolled for an order with no push.
    class Aaf(StandardPolicy):
        def plan(self, b, unit, lead, may_order, hesitant):  # type: ignore[no-untyped-def]
            from rules_core.sim.movement import Plan

            return o.AAF, Plan(0.0)

        def manoeuvre(self, b, ship, order, hesitant, ram):  # type: ignore[no-untyped-def]
            return adv.Manoeuvre(dv=1)

    b = battle(sim_catalog, [3, 3], policy_a=Aaf())
    s = b.sides[0][0]
    h = ready(b, s, 60.0, 20.0, 90.0, 2)
    b.activate(s.unit)
    assert h.velocity == 3 and s.y == pytest.approx(35.0)
    b.dice.assert_used_up()


# --- collisions and ramming -------------------------------------------------------


def test_the_collision_damage_table():
    # R-146. Seed 003: "Ramming Ship's Tonnage x ( [Velocity of ramming ship] - [Velocity of
    # target ship] / 3, rounding down; minimum of 1 ) if rammer strikes through any of
    # target's three rear hexsides -- OR ( [...] + [...] / 3 ...) ... front hexsides";
    # "Ram Die Roll Differential ... 1 25% 2 50% 3 75%"; "Unintentional: 75%"; "The minimum
    # amount of damage inflicted by a collision is always 10 hits."
    assert adv.collision_hits(2, 6, 3, adv.FRONT_CONTACT) == 60  # 20 tons × (9 // 3)
    assert adv.collision_hits(2, 6, 3, adv.REAR_CONTACT) == 20  # 20 × max(1, 3 // 3)
    assert adv.collision_hits(4, 9, 3, adv.FRONT_CONTACT, differential=1) == 120  # 160 − 25 %
    assert adv.collision_hits(4, 9, 3, adv.FRONT_CONTACT, differential=2) == 80
    assert adv.collision_hits(4, 9, 3, adv.FRONT_CONTACT, differential=3) == 40
    assert adv.collision_hits(4, 9, 3, adv.FRONT_CONTACT, unintentional=True) == 40
    assert adv.collision_hits(1, 1, 0, adv.REAR_CONTACT, differential=3) == 10  # the minimum
    assert adv.collision_hits(3, 7, 0, adv.INSTALLATION) == 60


def test_ships_ending_in_contact_collide_on_equal_d10s(sim_catalog):
    # R-145. Seed 003: "When neither unit is attempting to ram the other, resolve all combat
    # and then roll one die for each ship. If the numbers are the same, there has been a
    # collision." Rolled 3 and 3: 20 tons × (4 + 0) // 3 = 20 hits, less 75 %, minimum 10:
    # 1 damage each, taken by the shields.
    b = battle(sim_catalog, [3, 3])
    s, t = b.sides[0][0], b.sides[1][0]
    ready(b, s, 60.0, 40.0, 90.0, 4)
    ready(b, t, 60.0, 42.0, 270.0, 0)
    adv.accidental_collisions(b)
    assert "collide: 10 hits, 1 damage to each" in text(b)
    assert s.target.shields == 1 and t.target.shields == 1
    b2 = battle(sim_catalog, [3, 4])
    s2, t2 = b2.sides[0][0], b2.sides[1][0]
    ready(b2, s2, 60.0, 40.0, 90.0, 4)
    ready(b2, t2, 60.0, 42.0, 270.0, 0)
    adv.accidental_collisions(b2)
    assert "collide" not in text(b2)
    b2.dice.assert_used_up()


def test_a_ram_hits_within_three_on_the_d10s_and_the_differential_reduces_the_damage(sim_catalog):
    # R-146. Seed 003: "if the rammer's roll is within 3 points of the target's, a collision
    # has taken place. The differential between the rammer's and target's rolls will affect the
    # amount of damage to both". Head on at 4 and 2: 20 tons × 2 = 40 hits, 5 v 3 is 50 % off:
    # 20 hits, 2 damage to each (the shields take it).
    b = battle(sim_catalog, [5, 3])
    s, t = b.sides[0][0], b.sides[1][0]
    ready(b, s, 60.0, 40.0, 90.0, 4)
    ready(b, t, 60.0, 55.0, 270.0, 2)
    adv.move(b, s, adv.Manoeuvre(ram=t), None, False)
    assert math.hypot(s.x - t.x, s.y - t.y) == pytest.approx(s.radius + t.radius)
    adv.end_of_movement(b)  # rams are rolled at the end of all movement
    assert "through its front" in text(b) and "20 hits, 2 damage to each" in text(b)
    b.dice.assert_used_up()
    b2 = battle(sim_catalog, [9, 3])
    s2, t2 = b2.sides[0][0], b2.sides[1][0]
    ready(b2, s2, 60.0, 40.0, 90.0, 4)
    ready(b2, t2, 60.0, 55.0, 270.0, 2)
    adv.move(b2, s2, adv.Manoeuvre(ram=t2), None, False)
    adv.end_of_movement(b2)
    assert "misses" in text(b2) and t2.target.shields == 2


# --- asteroids ----------------------------------------------------------------------------


def test_the_asteroid_roll_adds_the_velocity_modifier_to_the_piloting_roll(sim_catalog):
    # R-147. Seed 003: "At the instant that a ship enters a hex occupied by an asteroid, the
    # pilot must make a Piloting skill roll, modified as below" (3 - 4: +1); "if he fails the
    # skill roll, his ship suffers damage as though it had rammed an orbital installation".
    assert [adv.asteroid_modifier(v) for v in (0, 2, 3, 6, 8, 10, 14, 20, 21)] == [
        0,
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
    ]
    b = battle(sim_catalog, [4])
    s = b.sides[0][0]
    ready(b, s, 60.0, 30.0, 90.0, 4)
    b.terrain.append(Terrain("asteroids", 60.0, 45.0, 8.0, name="asteroid belt"))
    adv.move(b, s, adv.Manoeuvre(), None, False)
    assert "threads" in text(b) and s.y == pytest.approx(50.0)
    b2 = battle(sim_catalog, [5])  # 5 + 1 > 5: 20 tons × 4 // 3 = 20 hits, 2 damage
    s2 = b2.sides[0][0]
    ready(b2, s2, 60.0, 30.0, 90.0, 4)
    b2.terrain.append(Terrain("asteroids", 60.0, 45.0, 8.0, name="asteroid belt"))
    adv.move(b2, s2, adv.Manoeuvre(), None, False)
    assert "for 20 hits, 2 damage: 2 damage, 2 absorbed by shields" in text(b2)
    b2.dice.assert_used_up()


def test_an_out_of_control_ship_rolls_where_the_asteroid_strikes():
    # R-147. Seed 003: "A ship in Random Movement that collides with an asteroid must roll on
    # the table below to see where it takes the damage": 1 - 4 Forward ... 10 Right Aft.
    assert [adv.asteroid_location(r) for r in (1, 4, 5, 7, 9, 10)] == [
        "Forward",
        "Forward",
        "Left Forward",
        "Right Forward",
        "Left Aft",
        "Right Aft",
    ]


# --- planets ------------------------------------------------------------------------------


def test_the_failed_entry_and_failed_bounce_tables():
    # R-148. Seed 003: Failed Entry "1 Ship enters zone but suffers 5 points ... 5 Ship bounces
    # and suffers 10 points ... 8 or more Ship burns up during reentry"; Failed Bounce "1 Ship
    # bounces and takes 5 points ... 5 Ship enters zone and suffers 10 points".
    assert adv.failed_table_row(adv.FAILED_ENTRY, 1) == (adv.ENTER, 5)
    assert adv.failed_table_row(adv.FAILED_ENTRY, 4) == (adv.ENTER, 25)
    assert adv.failed_table_row(adv.FAILED_ENTRY, 5) == (adv.BOUNCE, 10)
    assert adv.failed_table_row(adv.FAILED_BOUNCE, 3) == (adv.BOUNCE, 15)
    assert adv.failed_table_row(adv.FAILED_BOUNCE, 7) == (adv.ENTER, 25)
    assert adv.failed_table_row(adv.FAILED_BOUNCE, 9) == (adv.BURN, 0)


def planet(b: Battle, x: float, y: float) -> Terrain:
    t = Terrain("planet", x, y, 5.0, name="planet")
    b.terrain.append(t)
    return t


def test_a_ship_bounces_off_the_interface_zone_on_its_skill_plus_four(sim_catalog):
    # R-148. Seed 003: "Basic Chance of Success = Piloting Skill Level +4"; "If the roll is
    # successful, the ship's heading may be changed up to 180° without changing velocity."
    b = battle(sim_catalog, [9])
    s = b.sides[0][0]
    h = ready(b, s, 60.0, 30.0, 90.0, 4)
    planet(b, 60.0, 55.0)
    adv.move(b, s, adv.Manoeuvre(), None, False)
    assert s.on_table and h.velocity == 4
    assert math.degrees(h.course) == pytest.approx(270.0)  # straight back
    # it met the zone at 43.4 cm (11.6 from the centre) and goes back the 6.6 cm left
    assert "bounces" in text(b) and s.y == pytest.approx(36.8)
    b.dice.assert_used_up()


def test_a_failed_bounce_by_eight_burns_up_and_by_five_enters_onto_the_planet(sim_catalog):
    # Seed 003: "8 or more Ship burns up during reentry: ship and crew destroyed".
    # Skill 5 + 4 = 9; a 10 with 7 hull of 8 lost... here: half the hull lost (+5): 10 + 5 = 15
    b = battle(sim_catalog, [10])
    s = b.sides[0][0]
    ready(b, s, 60.0, 30.0, 90.0, 4)
    s.target.hull = 4
    planet(b, 60.0, 55.0)
    assert adv.zone_modifier(b, s) == 5 + 2  # +1 per 10 % of hull lost; crippled: half thrust
    adv.move(b, s, adv.Manoeuvre(), None, False)
    assert not s.on_table and "burns up" in text(b)


def test_gravity_pulls_ships_a_hex_toward_the_planet_and_speeds_those_falling_straight_in(
    sim_catalog,
):
    # R-148. Seed 003: "all ships are moved one hex closer to the mapedge that has been
    # designated as the ground at the end of all movement"; "ships traveling directly toward
    # the ground increase their velocity by 1 at the beginning of each turn".
    b = battle(sim_catalog, [1])  # pulled into the interface zone: the entry roll, made
    s = b.sides[0][0]
    h = ready(b, s, 60.0, 30.0, 90.0, 1)
    planet(b, 60.0, 60.0)  # the gap: 30 − 5 − 1.6 > 15: out of reach
    adv.gravity_pull(b)
    assert s.y == pytest.approx(30.0)
    ready(b, s, 60.0, 45.0, 90.0, 1)  # gap 8.4: in reach
    adv.gravity_pull(b)
    assert s.y == pytest.approx(50.0) and "enters the planet's interface zone" in text(b)
    adv._gravity_velocity(b, s, h)
    assert h.velocity == 2
    h.course = math.radians(270.0)
    adv._gravity_velocity(b, s, h)
    assert h.velocity == 1


# --- the standard policy ------------------------------------------------------------------


def test_the_policy_turns_toward_the_enemy_and_does_not_fly_off_the_table(sim_catalog):
    # near the far edge at velocity 6 on a course off the table, the policy brakes or
    # turns (it may not leave); an enemy on its beam is brought into its broadside. It may push
    # the plant on no order (seed 003): it pushes 1, and the d10 (1) keeps the plant.
    b = battle(sim_catalog, [1])
    s, e = b.sides[0][0], b.sides[1][0]
    ready(b, s, 90.0, 100.0, 90.0, 6)
    ready(b, e, 40.0, 60.0, 0.0, 0)
    m = StandardPolicy().manoeuvre(b, s, None, False, None)
    adv.move(b, s, m, None, False)
    assert s.on_table and 0.0 <= s.y <= b.depth
    coast = max(0, adv.helm(b, s).velocity - 2) * adv.HEX_CM
    assert s.y + coast * math.sin(adv.helm(b, s).course) <= b.depth


def test_the_policy_does_not_exceed_its_sot_for_nothing(sim_catalog):
    # a ship that can reach a good firing position within its SOT does not risk the roll.
    b = battle(sim_catalog, [])
    s, e = b.sides[0][0], b.sides[1][0]
    s.base_speed = 40  # thrust 8, SOT 7
    ready(b, s, 90.0, 40.0, 90.0, 2)
    ready(b, e, 90.0, 75.0, 270.0, 0)
    m = StandardPolicy().manoeuvre(b, s, None, False, None)
    spent = sum(c for _, c in adv.costs(m, 2, None))
    assert spent <= adv.ship_sot(b, s)


def test_whole_battles_play_under_advanced_movement(real_catalog):
    # in play: sample fleets fight to the end on every terrain, and few ships
    # leave the table (those that do are mostly ships that wanted to disengage).
    from rules_core.sample_fleets import sample_fleet
    from rules_core.sim import play_battle

    a = sample_fleet(real_catalog, "imperial-navy", "skirmish")
    bf = sample_fleet(real_catalog, "orks", "skirmish")
    left = 0
    ships = 0
    for i, terrain in enumerate(("none", "section13", "void", "voidscape")):
        r = play_battle(
            real_catalog,
            a,
            bf,
            seed=11,
            index=i,
            log=True,
            options=SimOptions(movement="advanced", terrain=terrain),
        )
        assert r.rounds >= 1
        ships += len(r.fates)
        left += sum(1 for e in r.log or [] if "leaves the table" in e.text)
    assert left <= ships // 8


def test_sim_options_take_a_movement_and_keep_the_old_shape_for_standard():
    # "standard" | "advanced"; the standard default is left out of stored options.
    assert SimOptions().movement == "standard" and "movement" not in SimOptions().to_dict()
    assert SimOptions.from_dict({"movement": "advanced"}).to_dict()["movement"] == "advanced"
    with pytest.raises(ValueError, match="movement"):
        SimOptions(movement="vector")
    with pytest.raises(ValueError, match="movement"):
        SimOptions.from_dict({"movement": 3})


def test_every_module_ruling_is_in_the_rulings(tmp_path: Path):
    # are written down (docs/rulings.md), each with seed 003 as a source.
    rulings = (Path(__file__).resolve().parents[3] / "docs" / "rulings.md").read_text()
    for n in range(140, 150):
        row = next(line for line in rulings.splitlines() if line.startswith(f"| R-{n} |"))
        assert "seed 003" in row
