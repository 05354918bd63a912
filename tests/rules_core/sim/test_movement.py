"""Movement (§5, §6, §13): minimum move, turns by class, leaving the table, disengaging,
gravity slingshot, planets, asteroid belts, debris fields, squadron coherency."""

from __future__ import annotations

import math

import pytest

from rules_core.sim import SimOptions
from rules_core.sim.movement import Plan, check_coherency
from rules_core.sim.state import Terrain

from .conftest import Scripted, cap, fleet, make_battle, put, squadron, text


def activate_alone(sim_catalog, slug, plan, rolls, *, at=(90, 30, 90), **kw):
    b = make_battle(
        sim_catalog,
        fleet(cap(slug)),
        fleet(cap("plain-cruiser")),
        rolls,
        policy_a=Scripted(plan=plan, **kw),
    )
    s = put(b.sides[0][0], *at)
    return b, s


def test_a_capital_ship_moves_half_its_speed_straight_before_turning(sim_catalog):
    # Pins R-76: the minimum move straight, then the turn.
    b, s = activate_alone(sim_catalog, "plain-cruiser", Plan(0.0, math.pi / 4), [3, 3])
    b.activate(b.units[0][0])
    assert (s.x, s.y) == pytest.approx((90, 40))  # speed 20: at least 10 cm
    assert math.degrees(s.heading) == pytest.approx(135)


def test_a_cruiser_turns_at_most_45_degrees(sim_catalog):
    b, s = activate_alone(sim_catalog, "plain-cruiser", Plan(20.0, math.pi / 2), [3, 3])
    b.activate(b.units[0][0])
    assert math.degrees(s.heading) == pytest.approx(135)
    # 10 cm north, then 10 cm north-west
    assert (s.x, s.y) == pytest.approx((90 - 10 / math.sqrt(2), 40 + 10 / math.sqrt(2)))


def test_an_escort_may_turn_90_degrees(sim_catalog):
    b, s = activate_alone(sim_catalog, "frigate", Plan(25.0, math.pi / 2), [3, 3])
    b.activate(b.units[0][0])
    assert math.degrees(s.heading) == pytest.approx(180)


def test_a_ship_that_moves_off_the_table_has_disengaged(sim_catalog):
    b, s = activate_alone(sim_catalog, "plain-cruiser", Plan(20.0), [3, 3], at=(90, 112, 90))
    b.activate(b.units[0][0])
    assert s.disengaged and not s.on_table
    assert b.fate(s) == "disengaged"
    assert "leaves the table and has disengaged" in text(b)


def test_voluntary_disengagement_needs_a_command_check_crippled_at_minus_two(sim_catalog):
    b, s = activate_alone(sim_catalog, "plain-cruiser", Plan(0.0), [3, 4, 3, 3], disengage=True)
    s.target.hull = 4  # crippled: Ld 8 - 2 = 6
    b.activate(b.units[0][0])
    assert s.on_table and "disengage check: rolled 7 against Ld 6: failed" in text(b)
    assert s.y == pytest.approx(35)  # failed: hesitant, the minimum of its halved speed 10
    b.round = 2
    b.activate(b.units[0][0])
    assert s.disengaged and s.crippled_when_left
    # Seed 000: the enemy scores half points for a ship that disengages crippled.
    assert b.victory_points() == [0, 150 // 2]
    b.dice.assert_used_up()


def test_gravity_slingshot_gives_a_free_90_degree_turn_near_a_planet(sim_catalog):
    b, s = activate_alone(
        sim_catalog, "plain-cruiser", Plan(10.0), [3, 3], at=(90, 50, 90), slingshot=math.pi / 2
    )
    b.terrain.append(Terrain("planet", 90, 75, 5))
    b.activate(b.units[0][0])
    assert (s.x, s.y) == pytest.approx((90, 60))  # 10 cm from the planet's edge
    assert math.degrees(s.heading) == pytest.approx(180)
    assert "slingshots round the planet" in text(b)


def test_a_ship_in_orbit_saves_on_4_against_attacks_from_outside(sim_catalog):
    from rules_core.sim.gunnery import damage_points

    b, s = activate_alone(sim_catalog, "plain-cruiser", Plan(10.0), [3, 3, 4, 1], at=(90, 50, 90))
    b.terrain.append(Terrain("planet", 90, 75, 5))
    b.activate(b.units[0][0])
    assert s.orbit is not None
    report = b.attack(s, damage_points, 2, b.dice, source=b.sides[1][0])
    assert report.brace_saves == 1


def test_colliding_with_a_planet_destroys_the_ship(sim_catalog):
    b, s = activate_alone(sim_catalog, "plain-cruiser", Plan(20.0), [3, 3], at=(90, 50, 90))
    b.terrain.append(Terrain("planet", 90, 72, 5))
    b.activate(b.units[0][0])
    assert s.destroyed and b.fate(s) == "destroyed"
    assert "collides with the planet" in text(b)


def test_an_asteroid_belt_needs_an_ld_check_or_deals_d3_damage(sim_catalog):
    # Ld check 11 fails; d3 = 2 damage: the shield takes one, the hull the other (no critical).
    b, s = activate_alone(
        sim_catalog, "plain-cruiser", Plan(20.0), [3, 3, 6, 5, 2, 1], at=(90, 50, 90)
    )
    b.terrain.append(Terrain("asteroids", 90, 62, 5))
    b.activate(b.units[0][0])
    assert s.target.hull == 7
    assert "is struck in the asteroids for 2 damage" in text(b)
    b.dice.assert_used_up()


def test_a_debris_field_halves_speed(sim_catalog):
    b, s = activate_alone(sim_catalog, "plain-cruiser", Plan(20.0), [3, 3], at=(90, 50, 90))
    b.terrain.append(Terrain("debris", 90, 50, 6))
    b.activate(b.units[0][0])
    assert s.y == pytest.approx(60)  # 20 halved to 10


def test_an_escort_more_than_10_cm_from_its_squadron_breaks_coherency(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(squadron("frigate", "frigate", "frigate")),
        fleet(cap("plain-cruiser")),
        [],
    )
    one, two, three = b.sides[0]
    put(one, 50, 30, 90)
    put(two, 58, 30, 90)
    put(three, 75, 30, 90)
    check_coherency(b, [one, two, three])
    assert not one.out_of_coherency and not two.out_of_coherency
    assert three.out_of_coherency


def test_an_escort_out_of_coherency_is_hesitant_and_does_not_fire(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(squadron("frigate", "frigate")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Scripted(plan=Plan(25.0)),
    )
    one, two = b.sides[0]
    put(one, 50, 30, 90)
    put(two, 75, 30, 90)
    put(b.sides[1][0], 62, 50, 270)  # in reach of both frigates' guns
    one.out_of_coherency = two.out_of_coherency = True
    b.activate(b.units[0][0])
    assert one.y == pytest.approx(30 + 12.5) and two.y == pytest.approx(30 + 12.5)
    b.dice.assert_used_up()  # the command check only: no battery dice


def test_squadrons_move_together_and_check_once_with_the_highest_ld(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(squadron("frigate", "big-escort")),
        fleet(cap("plain-cruiser")),
        [4, 3],
        policy_a=Scripted(plan=Plan(25.0)),
    )
    one, two = b.sides[0]
    put(one, 50, 30, 90)
    put(two, 54, 30, 90)
    b.activate(b.units[0][0])
    assert one.y == pytest.approx(55) and two.y == pytest.approx(55)
    assert text(b).count("command check") == 1
    b.dice.assert_used_up()


def test_terrain_options_place_pieces_from_the_battles_own_dice(sim_catalog):
    from rules_core.dice import SeededDice
    from rules_core.sim.battle import Battle
    from rules_core.sim.state import fleet_spec

    a = fleet_spec(sim_catalog, fleet(cap("plain-cruiser")), 0)
    bb = fleet_spec(sim_catalog, fleet(cap("plain-cruiser")), 1)
    for option in ("section13", "void"):
        first = Battle(a, bb, SeededDice("t"), SimOptions(terrain=option))
        again = Battle(a, bb, SeededDice("t"), SimOptions(terrain=option))
        assert first.terrain and [(t.kind, t.x, t.y) for t in first.terrain] == [
            (t.kind, t.x, t.y) for t in again.terrain
        ]
        for t in first.terrain:  # in no man's land, clear of the deployment zones
            assert 40 <= t.y <= first.depth - 40 and 20 <= t.x <= first.width - 20


def test_deployment_zones_face_each_other_mirrored(sim_catalog):
    # Pins R-70: zones along the long edges, B the point reflection of A.
    from rules_core.dice import SeededDice
    from rules_core.sim.battle import Battle
    from rules_core.sim.state import fleet_spec

    units = fleet(cap("plain-cruiser"), squadron("frigate", "frigate"))
    b = Battle(fleet_spec(sim_catalog, units, 0), fleet_spec(sim_catalog, units, 1), SeededDice(1))
    assert (b.width, b.depth) == (180, 120)  # Skirmish: 4' x 6'
    for sa, sb in zip(b.sides[0], b.sides[1], strict=True):
        assert sa.y <= 30 and sb.y >= b.depth - 30  # within 30 cm of their own long edge
        assert (sa.x, sa.y) == pytest.approx((b.width - sb.x, b.depth - sb.y))
        assert math.degrees(sa.heading) == pytest.approx(90)
        assert math.degrees(sb.heading) == pytest.approx(270)
