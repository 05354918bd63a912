"""Ordnance (§3 Drift, §10 reactions, §11 nova cannon, §12): torpedoes, attack craft,
fighters, turrets, Interceptor Scramble and the nova cannon's template and scatter."""

from __future__ import annotations

import pytest

from rules_core.catalog import CraftRole
from rules_core.sim import ordnance
from rules_core.sim.gunnery import fire_nova
from rules_core.sim.state import BlastMarker, Wave

from .conftest import Scripted, cap, fleet, make_battle, put, text


def torpedo_scene(sim_catalog, rolls, target="plain-cruiser", target_at=(90, 55, 270)):
    b = make_battle(
        sim_catalog, fleet(cap("torp-cruiser"), cap("plain-cruiser")), fleet(cap(target)), rolls
    )
    a = put(b.sides[0][0], 90, 30, 90)
    t = put(b.sides[1][0], *target_at)
    assert ordnance.launch_torpedoes(b, a)
    return b, a, t


def test_torpedoes_move_30_cm_in_the_drift_and_meet_turrets_then_deal_damage(sim_catalog):
    # 4 torpedoes; one turret die (4: one shot down); 3 damage, no armor save: the shield
    # takes one, the hull two (no criticals).
    b, a, t = torpedo_scene(sim_catalog, [4, 1, 1])
    assert not a.torpedoes_ready and len(b.salvos) == 1
    assert b.salvos[0].count == 4
    ordnance.drift(b)
    assert b.salvos == [] and t.target.hull == 6
    assert (
        "4 torpedoes from Torp Cruiser strike Plain Cruiser: 1 shot down by turrets, 3 "
        "strike home, 1 absorbed by shields, 2 hull lost." in text(b)
    )
    assert t.target.blast_markers == 1
    b.dice.assert_used_up()


def test_torpedoes_only_launch_again_after_reloading(sim_catalog):
    b, a, t = torpedo_scene(sim_catalog, [])
    assert not ordnance.launch_torpedoes(b, a)


def test_a_salvo_out_of_reach_keeps_going_until_it_leaves_the_table(sim_catalog):
    b, a, t = torpedo_scene(sim_catalog, [], target_at=(150, 110, 270))
    ordnance.drift(b)
    assert b.salvos and b.salvos[0].y == pytest.approx(62.6)
    ordnance.drift(b)
    ordnance.drift(b)
    assert b.salvos == []  # off the far edge at y = 122.6


def test_a_salvo_passes_a_friend_beside_its_lane(sim_catalog):
    """R-83: a salvo strikes the first ship it touches (a friend in the lane too, see
    test_seed_wins.py); a friend 5 cm beside the lane is not touched."""
    b, a, t = torpedo_scene(sim_catalog, [4, 1, 1])
    put(b.sides[0][1], 95, 45, 90)
    ordnance.drift(b)
    assert b.sides[0][1].target.hull == 8 and t.target.hull == 6


@pytest.mark.parametrize("roll, detonates", [(6, True), (5, False)])
def test_a_salvo_crossing_a_blast_marker_detonates_on_a_6(sim_catalog, roll, detonates):
    rolls = [roll] + ([] if detonates else [4, 1, 1])
    b, a, t = torpedo_scene(sim_catalog, rolls)
    b.markers.append(BlastMarker(90.5, 42.0, 1))
    ordnance.drift(b)
    assert (t.target.hull == 8) is detonates
    b.dice.assert_used_up()


def test_screening_fighters_destroy_a_whole_salvo_and_are_spent(sim_catalog):
    b, a, t = torpedo_scene(sim_catalog, [], target="carrier")
    t.bays_ready = False  # no scramble: only the wing already flying
    b.waves.append(Wave(1, CraftRole.FIGHTER, t.x, t.y, 1, t, t, 20.0))
    ordnance.drift(b)
    assert t.target.hull == 8 and b.salvos == [] and b.waves == []
    assert "Fighters screening Carrier intercept 4 torpedoes" in text(b)


def test_interceptor_scramble_stops_a_salvo_and_then_the_carrier_launches_nothing(sim_catalog):
    b, a, t = torpedo_scene(sim_catalog, [], target="carrier")
    ordnance.drift(b)
    assert t.target.hull == 8 and "scrambles interceptors" in text(b)
    assert t.no_launch_round == b.round
    assert not ordnance.launch_craft(b, t)


def bomber_scene(sim_catalog, rolls, role=CraftRole.BOMBER):
    b = make_battle(
        sim_catalog,
        fleet(cap("carrier")),
        fleet(cap("plain-cruiser")),
        rolls,
        policy_a=Scripted(craft=lambda b, s, n: [(role, n, b.sides[1][0])]),
    )
    a = put(b.sides[0][0], 90, 30, 90)
    t = put(b.sides[1][0], 90, 60, 270)
    assert ordnance.launch_craft(b, a)
    return b, a, t


def test_bombers_fly_20_cm_a_drift_then_turrets_then_4_plus_for_damage(sim_catalog):
    b, a, t = bomber_scene(sim_catalog, [4, 4, 1])
    assert b.waves[0].count == 2 and not a.bays_ready
    ordnance.drift(b)
    assert b.waves[0].y == pytest.approx(50) and t.target.hull == 8
    ordnance.drift(b)  # contact: one turret die (4) downs one; the other rolls 4: 1 damage
    assert b.waves == [] and t.target.hull == 7
    assert t.target.shields == 1 and t.target.blast_markers == 0  # ignores shields, no marker
    b.dice.assert_used_up()


def test_assault_boats_cause_criticals_on_4_plus(sim_catalog):
    b, a, t = bomber_scene(sim_catalog, [1, 4, 1, 3, 3], role=CraftRole.ASSAULT_BOAT)
    ordnance.drift(b)
    ordnance.drift(b)
    assert [c.effect.label for c in t.target.criticals] == ["Starboard Armament Damaged"]
    assert t.target.hull == 8


def test_fighters_and_bombers_destroy_each_other_one_for_one(sim_catalog):
    b, a, t = bomber_scene(sim_catalog, [1, 4, 1])
    b.waves.append(Wave(1, CraftRole.FIGHTER, t.x, t.y, 1, t, t, 20.0))
    ordnance.drift(b)
    ordnance.drift(b)  # one fighter and one bomber die; the turret misses; 4: 1 damage
    assert t.target.hull == 7 and not any(w.side == 1 for w in b.waves)


def test_a_carrier_has_at_most_twice_its_launch_capacity_in_flight(sim_catalog):
    b, a, t = bomber_scene(sim_catalog, [])
    a.bays_ready = True
    assert ordnance.launch_craft(b, a)
    a.bays_ready = True
    assert not ordnance.launch_craft(b, a)  # 4 in flight = 2 x capacity 2
    assert ordnance.craft_in_flight(b, a) == 4


def test_craft_whose_target_is_gone_are_recalled(sim_catalog):
    b, a, t = bomber_scene(sim_catalog, [])
    t.on_table = False
    ordnance.drift(b)
    assert b.waves == [] and "are recalled" in text(b)


def nova_scene(sim_catalog, rolls, aim=(90, 60)):
    b = make_battle(
        sim_catalog,
        fleet(cap("nova-ship")),
        fleet(cap("plain-cruiser"), cap("plain-cruiser")),
        rolls,
        policy_a=Scripted(nova=aim),
    )
    a = put(b.sides[0][0], 90, 10, 90)
    t = put(b.sides[1][0], 90, 60, 270)
    ring = put(b.sides[1][1], 94, 60, 270)
    return b, a, t, ring


def test_nova_cannon_on_target_d6_under_the_hole_and_1_under_the_ring(sim_catalog):
    # Pins R-81: d6 under the hole, 1 under the template, as damage.
    b, a, t, ring = nova_scene(sim_catalog, [12, 4, 1, 1, 1])
    assert fire_nova(b, a, hesitant=False)
    assert t.target.hull == 5 and ring.target.shields == 0 and ring.target.hull == 8
    assert "on target" in text(b)
    b.dice.assert_used_up()


def test_nova_cannon_scatters_by_a_clock_direction_and_2d6(sim_catalog):
    # 3 o'clock from the line of fire (north) is east; 3 + 4 = 7 cm: the shot lands on the
    # second ship at (97, 60) and misses the first.
    # Pins R-81: d12 clock scatter by 2d6 cm.
    b, a, t, ring = nova_scene(sim_catalog, [3, 3, 4, 2, 1])
    put(ring, 97, 60, 270)
    fire_nova(b, a, hesitant=False)
    assert "scatters 7 cm towards 3 o'clock" in text(b)
    assert t.target.hull == 8 and ring.target.hull == 7
    b.dice.assert_used_up()


@pytest.mark.parametrize("state", ["turned", "crippled"])
def test_nova_cannon_may_not_fire_after_turning_or_when_crippled(sim_catalog, state):
    # Pins R-81: not after a turn, not crippled.
    b, a, t, ring = nova_scene(sim_catalog, [])
    if state == "turned":
        a.turned = True
    else:
        a.target.hull = 6
    assert not fire_nova(b, a, hesitant=False)
