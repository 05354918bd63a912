"""More scenarios: seed 001's void elements (R-80), squadrons leaving together (R-87), crippled
ships and ordnance (§9), hulks as cover (R-79), the Drift's drifting bodies."""

from __future__ import annotations

import math

import pytest

from rules_core.sim import SimOptions, ordnance
from rules_core.sim.movement import Plan
from rules_core.sim.state import Salvo, Terrain

from .conftest import Scripted, cap, fleet, make_battle, put, squadron, text


def test_a_gravity_well_stops_a_ship_and_places_it_inside_in_orbit(sim_catalog):
    # Seed 001: "the ship stops moving. Place the ship anywhere fully inside the circle" (R-132;
    # it was left at the edge before). 15 cm is velocity 3: it stays in orbit.
    class Stays(Scripted):
        def orbit_velocity(self, b, ship, lo, hi):  # type: ignore[no-untyped-def]
            return 3

    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Stays(plan=Plan(15.0)),
    )
    s = put(b.sides[0][0], 90, 50, 90)
    well = Terrain("gravity_well", 90, 70, 5.5, name="gravity well")
    b.terrain.append(well)
    b.activate(b.units[0][0])
    assert s.on_table and s.orbit is well and s.velocity == 3
    assert (s.x, s.y) == pytest.approx((90, 70))
    assert "enters orbit at velocity 3" in text(b)


def test_void_debris_destroys_torpedoes_on_1_or_2(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("torp-cruiser")),
        fleet(cap("plain-cruiser")),
        [1, 2, 3, 6],
        options=SimOptions(terrain="void"),
    )
    a = put(b.sides[0][0], 90, 30, 90)
    put(b.sides[1][0], 150, 110, 270)
    b.terrain.append(Terrain("debris", 90, 50, 5.5, name="debris field"))
    ordnance.launch_torpedoes(b, a)
    ordnance.drift(b)
    assert b.salvos and b.salvos[0].count == 2
    assert "2 torpedoes of a salvo from Torp Cruiser are lost in the debris field" in text(b)
    b.dice.assert_used_up()


def test_a_drifting_body_moves_smashes_salvos_and_hazards_ships(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("torp-cruiser")),
        [6, 6, 1, 1, 3, 4],
        options=SimOptions(terrain="void"),
    )
    s = put(b.sides[0][0], 100, 60, 90)
    launcher = b.sides[1][0]
    body = Terrain("drifting_body", 80, 60, 2.5, 20.0, 0.0, name="drifting body")
    b.terrain.append(body)
    b.salvos.append(Salvo(1, 95, 90.5, 0.0, -1.0, 3, launcher))  # ends at (95, 60.5)
    b.round = 2
    b.drift_phase()
    # It would end on the ship at (100, 60): seed 001 moves it on along its vector until clear.
    assert (body.x, body.y) == (105, 60) and b.salvos == []
    # Seed 001 (R-135): the ship crossed "rolls for damage as if it had moved through a debris
    # field", at the body's velocity 4: 4 d6, the 1s are fractures (Mass 2); no criticals (3, 4).
    assert s.target.hull == 6 and s.target.shields == 1
    assert "smashed by the drifting body" in text(b)
    b.dice.assert_used_up()


def test_when_one_escort_disengages_the_squadron_tries_to_follow(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(squadron("frigate", "frigate")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Scripted(plan=Plan(25.0)),
    )
    one, two = b.sides[0]
    put(one, 50, 110, 90)
    put(two, 54, 110, 90)
    b.leave_table(one)
    assert b.units[0][0].disengaging
    b.activate(b.units[0][0])
    assert two.disengaged and "jumps to warp" in text(b)


def test_a_crippled_ship_launches_no_ordnance(sim_catalog):
    b = make_battle(
        sim_catalog, fleet(cap("torp-cruiser"), cap("carrier")), fleet(cap("plain-cruiser")), []
    )
    torp, carrier = b.sides[0]
    put(torp, 90, 30, 90)
    put(carrier, 60, 30, 90)
    put(b.sides[1][0], 90, 60, 270)
    torp.target.hull = carrier.target.hull = 4
    assert not ordnance.launch_torpedoes(b, torp)
    assert not ordnance.launch_craft(b, carrier)


def test_a_drifting_hulk_gives_cover(sim_catalog):
    from rules_core.sim.gunnery import damage_points, sightings

    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("plain-cruiser"), cap("plain-cruiser")),
        [1, 2],
    )
    a = put(b.sides[0][0], 90, 50, 90)
    wreck = put(b.sides[1][0], 70, 50, 90)
    behind = put(b.sides[1][1], 68, 51, 90)
    wreck.target.hull = 1
    wreck.target.shields = 0
    b.attack(wreck, damage_points, 1, b.dice)  # 1 + 2 = 3: a drifting hulk
    assert wreck.hulk and not wreck.on_table
    seen = sightings(b, a)
    assert [s.ship for s in seen] == [behind] and seen[0].cover


def test_all_ahead_full_is_one_roll_for_a_whole_squadron(sim_catalog):
    from rules_core.sim import orders as o

    b = make_battle(
        sim_catalog,
        fleet(squadron("frigate", "frigate", "frigate")),
        fleet(cap("plain-cruiser")),
        [3, 3, 1, 2, 3, 4],
        policy_a=Scripted(order=o.AAF, plan=Plan(100.0)),
    )
    ships = b.sides[0]
    for i, s in enumerate(ships):
        put(s, 50 + 4 * i, 20, 90)
    b.activate(b.units[0][0])
    assert [s.y for s in ships] == pytest.approx([20 + 25 + 10] * 3)
    b.dice.assert_used_up()


def test_escorts_keep_their_formation_when_they_turn_together(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(squadron("frigate", "frigate")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Scripted(plan=Plan(25.0, math.pi / 2)),
    )
    one, two = b.sides[0]
    put(one, 50, 20, 90)
    put(two, 54, 20, 90)
    b.activate(b.units[0][0])
    assert math.hypot(one.x - two.x, one.y - two.y) == pytest.approx(4.0)
    assert not one.out_of_coherency and not two.out_of_coherency
