"""Shooting (§7, §9, §11): arcs, ranges centre to centre, line of sight, cover, squadrons,
special weapons, crippling; blast markers (§3, §7); critical hits and repairs (§8);
catastrophic damage and chain reactions (§8, R-56)."""

from __future__ import annotations

import pytest

from rules_core import damage
from rules_core.damage import Critical, CriticalHit
from rules_core.sim import gunnery
from rules_core.sim.state import Terrain

from .conftest import cap, fleet, make_battle, put, squadron, text


def duel(
    sim_catalog, shooter, target, rolls, *, a_at=(90, 50, 90), t_at=(70, 50, 90), target_fleet=None
):
    b = make_battle(sim_catalog, fleet(cap(shooter)), target_fleet or fleet(cap(target)), rolls)
    a = put(b.sides[0][0], *a_at)
    t = put(b.sides[1][0], *t_at)
    return b, a, t


def test_only_weapons_whose_arc_holds_the_target_fire(sim_catalog):
    # Straight ahead: the prow lance fires (2 dice), the broadside batteries do not.
    # Pins R-71: 90° arcs about the centre.
    b, a, t = duel(sim_catalog, "gun-cruiser", "plain-cruiser", [1, 1], t_at=(90, 70, 270))
    gunnery.fire_guns(b, a, hesitant=False)
    assert "Prow Lance" in text(b) and "Battery" not in text(b)
    b.dice.assert_used_up()


@pytest.mark.parametrize("x, fires", [(45.0, True), (44.5, False)])
def test_range_is_measured_centre_to_centre(sim_catalog, x, fires):
    # The port battery reaches 45 cm: a target 45 cm away is in range, 45.5 cm is not.
    b, a, t = duel(sim_catalog, "gun-cruiser", "plain-cruiser", [1] * 6, t_at=(x, 50, 90))
    gunnery.fire_guns(b, a, hesitant=False)
    assert ("Port Battery" in text(b)) is fires
    assert b.dice.remaining == (0 if fires else 6)


@pytest.mark.parametrize("x, hits", [(75.0, 3), (74.5, 0)])
def test_batteries_hit_on_4_at_15_cm_and_5_beyond(sim_catalog, x, hits):
    rolls = [4, 4, 4, 3, 3, 3] + [6] * hits  # armor saves 6: every hit saved
    b, a, t = duel(sim_catalog, "gun-cruiser", "plain-cruiser", rolls, t_at=(x, 50, 90))
    gunnery.fire_guns(b, a, hesitant=False)
    assert f"{hits} hit{'s' if hits != 1 else ''} from 6 dice" in text(b)
    b.dice.assert_used_up()


@pytest.mark.parametrize("kind", ["gas", "planet"])
def test_gas_clouds_and_planets_block_line_of_sight(sim_catalog, kind):
    b, a, t = duel(sim_catalog, "gun-cruiser", "plain-cruiser", [])
    b.terrain.append(Terrain(kind, 80, 50, 3))
    gunnery.fire_guns(b, a, hesitant=False)
    assert "fires" not in text(b)


def test_a_ship_in_an_asteroid_belt_is_in_cover(sim_catalog):
    b, a, t = duel(sim_catalog, "gun-cruiser", "plain-cruiser", [5] * 6 + [6] * 6)
    b.terrain.append(Terrain("asteroids", 70, 50, 5))
    gunnery.fire_guns(b, a, hesitant=False)
    assert "cover, to-hit modifier -1): 0 hits" in text(b)  # 5s miss: 6+ needed at 20 cm


def test_only_the_closest_escort_of_a_squadron_may_be_chosen(sim_catalog):
    # Pins R-78: only the closest escort is a target.
    b = make_battle(
        sim_catalog, fleet(cap("gun-cruiser")), fleet(squadron("frigate", "frigate")), [1] * 6
    )
    a = put(b.sides[0][0], 90, 50, 90)
    far, near = b.sides[1]
    put(far, 60, 50, 90)
    put(near, 70, 50, 90)
    options = gunnery.sightings(b, a)
    assert [s.ship for s in options] == [near]


def test_damage_carries_on_along_an_escort_squadron(sim_catalog):
    # 4 hits at 10 cm, none saved: the nearest frigate's shield and hull take two, the rest
    # carries on to the next frigate in arc and range.
    # Pins R-78: leftover damage carries on to the next closest escort.
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(squadron("frigate", "frigate", "frigate")),
        [
            6,
            6,
            6,
            6,
            1,
            1,  # to hit
            1,
            1,
            1,
            1,  # armor saves
            2,
            2,  # the first frigate: a drifting hulk
            2,
            3,
        ],
    )  # the second: a drifting hulk
    a = put(b.sides[0][0], 90, 50, 90)
    one, two, three = b.sides[1]
    put(one, 80, 50, 90)
    put(two, 78, 52, 90)
    put(three, 76, 54, 90)
    gunnery.fire_guns(b, a, hesitant=False)
    assert one.destroyed and two.destroyed and three.on_table
    assert "2 damage carries on to Frigate" in text(b)
    b.dice.assert_used_up()


def test_special_weapons_ignore_shields(sim_catalog):
    b, a, t = duel(
        sim_catalog,
        "special-ship",
        "plain-cruiser",
        [4, 4, 4, 1, 1, 1, 1, 1, 1],
        t_at=(90, 60, 270),
    )
    gunnery.fire_guns(b, a, hesitant=False)
    assert t.target.hull == 5 and t.target.shields == 1


def test_a_crippled_ship_fires_at_half_strength(sim_catalog):
    b, a, t = duel(sim_catalog, "gun-cruiser", "plain-cruiser", [1, 1, 1])
    a.target.hull = 4
    gunnery.fire_guns(b, a, hesitant=False)
    assert "Port Battery (battery 3)" in text(b)
    b.dice.assert_used_up()


def test_a_crippled_ship_moves_at_half_speed(sim_catalog):
    b, a, t = duel(sim_catalog, "gun-cruiser", "plain-cruiser", [])
    a.target.hull = 4
    assert a.speed() == 10


# --- blast markers --------------------------------------------------------------------------


def test_a_blast_marker_goes_down_when_shields_absorb_and_suppresses_them_after(sim_catalog):
    b, a, t = duel(
        sim_catalog,
        "plain-cruiser",
        "plain-cruiser",
        [
            1,
            1,
            1,
            6,  # one hit at 20 cm
            1,  # armor fails: the shield absorbs it, a blast marker goes down
            1,
            1,
            1,
            6,
            1,  # the next volley: one hit, unsaved
            1,
        ],
    )  # no shields now: hull, no critical
    gunnery.fire_guns(b, a, hesitant=False)
    assert len(b.markers) == 1 and t.target.blast_markers == 1 and t.target.shields == 0
    gunnery.fire_guns(b, a, hesitant=False)
    assert t.target.hull == 7 and len(b.markers) == 2
    b.dice.assert_used_up()


def test_moving_clear_of_blast_markers_restores_the_shields(sim_catalog):
    b, a, t = duel(sim_catalog, "plain-cruiser", "plain-cruiser", [])
    t.target.shields = 0
    b.place_marker(t, a.x, a.y)
    b.settle(t)
    assert t.target.blast_markers == 1 and t.target.shields == 0
    t.y += 10
    b.settle(t)
    assert t.target.blast_markers == 0 and t.target.shields == 1


def test_a_ship_that_neither_fired_nor_was_hit_sheds_a_marker_in_the_drift(sim_catalog):
    # Pins R-75: the oldest marker is shed in the Drift.
    b, a, t = duel(sim_catalog, "plain-cruiser", "plain-cruiser", [])
    b.place_marker(t, a.x, a.y)
    b.place_marker(a, t.x, t.y)
    b.settle(t)
    b.settle(a)
    a.fired_round = 1  # a fired in round 1; t did nothing
    b.round = 2
    b.drift_phase()
    assert t.target.blast_markers == 0 and a.target.blast_markers == 1


def test_the_end_phase_removes_d6_markers_not_touching_any_ship(sim_catalog):
    # Pins R-75: d6 loose markers, oldest first.
    from rules_core.sim.state import BlastMarker

    b, a, t = duel(sim_catalog, "plain-cruiser", "plain-cruiser", [2])
    b.place_marker(t, a.x, a.y)  # touching t: stays
    for i in range(3):
        b.markers.append(BlastMarker(150.0, 20.0 + i * 5, 1))
    b.end_phase()
    assert len(b.markers) == 2  # 1 touching + 3 loose - 2 rolled


# --- critical hits and repairs ---------------------------------------------------------------


def test_a_fire_burns_in_the_end_phase_and_a_repair_puts_it_out(sim_catalog):
    b, a, t = duel(
        sim_catalog,
        "plain-cruiser",
        "plain-cruiser",
        [
            1,  # the fire's hull point: no critical
            5,  # repair: 1d6 (a blast marker from the fire), 5 <= Ld 8 - 1
            6,
        ],
    )  # the d6 of blast markers to clear (the fire's stays: it touches)
    a.target.criticals.append(CriticalHit(9, Critical.FIRE))
    b.end_phase()
    assert a.target.hull == 7 and not a.target.fires
    assert "(1d6: blast markers): repaired" in text(b)
    b.dice.assert_used_up()


def test_a_repair_without_markers_is_a_2d6_command_check(sim_catalog):
    b, a, t = duel(sim_catalog, "plain-cruiser", "plain-cruiser", [5, 4])
    a.target.criticals.append(CriticalHit(3, Critical.THRUSTERS_DAMAGED))
    b.end_phase()
    assert a.target.has(Critical.THRUSTERS_DAMAGED)  # 9 > 8: failed
    assert a.speed() == 10


def test_bridge_destroyed_is_never_repaired(sim_catalog):
    b, a, t = duel(sim_catalog, "plain-cruiser", "plain-cruiser", [])
    a.target.criticals.append(CriticalHit(12, Critical.BRIDGE_DESTROYED))
    b.end_phase()  # nothing to roll
    assert a.target.has(Critical.BRIDGE_DESTROYED)


# --- catastrophic damage ----------------------------------------------------------------------


def test_an_explosion_hits_every_ship_in_its_radius_and_can_chain(sim_catalog):
    # The cruiser dies: catastrophic explosion (10), radius 3d6 = 6, d6 = 2 hits each. The
    # frigate 5 cm away dies too and rolls its own table: a drifting hulk.
    # Pins R-74: every base in the radius, nearest first, chain reactions.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser"), squadron("frigate", "frigate")),
        [
            5,
            5,  # catastrophic: 10
            2,
            2,
            2,  # radius 6 cm
            2,  # 2 hits
            1,
            1,  # the frigate's armor saves fail: shield 1, hull 1
            1,
            2,  # its catastrophic damage: 3, a drifting hulk
        ],
    )
    a = put(b.sides[0][0], 20, 20, 90)
    victim, near, far = b.sides[1]
    put(victim, 90, 60, 270)
    put(near, 95, 60, 270)
    put(far, 120, 60, 270)
    victim.target.hull = 1
    victim.target.shields = 0
    report = b.attack(victim, gunnery.damage_points, 1, b.dice, source=a)
    assert report.destroyed
    assert near.destroyed and near.hulk and far.on_table
    assert any(t.kind == "debris" for t in b.terrain)  # the hulk is a debris field
    assert "catastrophic explosion (rolled 10): the blast reaches 6 cm with 2 hits" in text(b)
    b.dice.assert_used_up()


def test_a_blazing_wreck_leaves_a_blast_marker(sim_catalog):
    # Pins R-74: a blazing wreck leaves one marker at its centre.
    b, a, t = duel(sim_catalog, "plain-cruiser", "plain-cruiser", [2, 2])
    t.target.hull = 1
    t.target.shields = 0
    b.attack(t, gunnery.damage_points, 1, b.dice)
    assert t.destroyed and len(b.markers) == 1
    assert (b.markers[0].x, b.markers[0].y) == (t.x, t.y)


def test_an_escorts_explosion_radius_loses_a_d6(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(squadron("frigate", "frigate")),
        [3, 3, 4, 6],
    )
    one, two = b.sides[1]
    put(one, 90, 60, 270)
    put(two, 93, 60, 270)
    one.target.shields = 0
    b.attack(one, gunnery.damage_points, 1, b.dice)  # 6: plasma drive overload, d6 4 - 6
    assert two.on_table and "the blast reaches 0 cm" in text(b)
    b.dice.assert_used_up()


def test_boarding_compares_d6_plus_hull_plus_ld_and_ignores_shields(sim_catalog):
    # Strike cruiser (Space Marines +2): 3 + 6 + 8 + 2 = 19; plain cruiser: 1 + 8 + 8 = 17.
    # Pins R-82: 1d6 + hull + Ld, the difference as damage past shields.
    b = make_battle(
        sim_catalog,
        fleet(cap("strike-cruiser"), faction="adeptus-astartes"),
        fleet(cap("plain-cruiser")),
        [3, 1, 1, 1],
    )
    a = put(b.sides[0][0], 90, 50, 90)
    t = put(b.sides[1][0], 93.2, 50, 90)
    gunnery.board(b, a, t)
    assert t.target.hull == 6 and t.target.shields == 1
    assert "19 (rolled 3) against 17 (rolled 1)" in text(b)
    b.dice.assert_used_up()


def test_ramming_deals_d6_to_both_and_the_better_armor_takes_the_lower_of_two(sim_catalog):
    # Pins R-77: d6 damage each, the better armor rolls twice.
    from rules_core.sim.movement import Plan

    from .conftest import Scripted

    b = make_battle(
        sim_catalog,
        fleet(cap("grand-cruiser")),
        fleet(cap("frigate")),
        [
            3,
            3,  # the activation's command check
            3,
            3,  # the check to ram
            5,
            2,  # the grand cruiser (armor 4+ beats 5+) rolls twice, takes 2
            2,  # the frigate's damage die
            2,
            2,
        ],
    )  # grand cruiser: shields take both; frigate: shield 1, then
    # destroyed: 2 + 2, a blazing wreck
    a = put(b.sides[0][0], 90, 30, 90)
    t = put(b.sides[1][0], 90, 45, 270)
    b.policies = (Scripted(plan=Plan(20.0, 0.0, ram=t)), b.policies[1])
    b.activate(b.units[0][0])
    assert t.destroyed and a.target.hull == 10
    assert "Grand Cruiser takes 2 ramming damage: 2 damage, 2 absorbed by shields" in text(b)
    assert "rams Frigate" in text(b)
    b.dice.assert_used_up()


def test_damage_resolution_goes_through_the_shared_resolver(sim_catalog):
    # The simulator's volleys are rules_core.damage's, roll for roll.
    from rules_core.dice import RiggedDice

    rolls = [4, 4, 5, 1, 2, 3, 1, 1, 1, 6, 2]
    b, a, t = duel(sim_catalog, "plain-cruiser", "plain-cruiser", list(rolls), t_at=(80, 50, 90))
    gunnery.fire_guns(b, a, hesitant=False)
    reference = damage.Target.from_profile(t.spec.profile)
    expected = damage.fire_batteries(reference, 4, 10.0, RiggedDice(rolls))
    assert (t.target.hull, t.target.shields) == (reference.hull, reference.shields)
    assert expected.hits == 3
