"""Seed 001 in full (issue #12 §2 and §1 item 8): velocity and Mass (R-130), debris fractures
(R-131), orbit round a gravity well (R-132), firing from orbit (R-133), exploding in orbit
(R-134), drifting bodies (R-135) and the preview's default terrain (R-136). Each test rigs the
dice and quotes the seed line it pins."""

from __future__ import annotations

import math

import pytest

from rules_core.catalog import ShipClass
from rules_core.dice import SeededDice
from rules_core.sim import SimOptions, gunnery, terrain
from rules_core.sim import orders as o
from rules_core.sim.battle import Battle
from rules_core.sim.movement import Plan
from rules_core.sim.state import Terrain, fleet_spec

from .conftest import Scripted, cap, fleet, make_battle, put, squadron, text

VOID = SimOptions(terrain="void")


class Orbiter(Scripted):
    """Scripted, and in orbit it ends its manoeuvre at ``velocity`` and slingshots out along
    ``exit`` radians."""

    def __init__(self, *args, velocity: int = 3, exit: float = 0.0, **kw):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kw)
        self.velocity = velocity
        self.exit = exit

    def orbit_velocity(self, b, ship, lo, hi):  # type: ignore[no-untyped-def]
        return self.velocity

    def orbit_exit(self, b, ship):  # type: ignore[no-untyped-def]
        return self.exit


def well_at(b: Battle, x: float, y: float) -> Terrain:
    w = Terrain("gravity_well", x, y, 5.5, name="gravity well")
    b.terrain.append(w)
    return w


# --- velocity and Mass ------------------------------------------------------------------


def test_velocity_is_the_move_in_whole_5_cm_steps_and_mass_comes_from_the_class():
    # one point of seed 001 velocity is 5 cm of a move, rounded down.
    assert [terrain.velocity_of(d) for d in (0, 4.9, 5, 14.9, 15, 20, 27.5)] == [
        0,
        0,
        1,
        2,
        3,
        4,
        5,
    ]
    assert terrain.MASS[ShipClass.ESCORT] == 1 and terrain.MASS[ShipClass.CRUISER] == 2
    assert terrain.MASS[ShipClass.BATTLESHIP] == 4 and len(terrain.MASS) == len(ShipClass)


# --- debris fractures -------------------------------------------------------------------


def test_a_ship_moving_through_debris_rolls_a_d6_per_velocity_each_at_or_below_mass_a_fracture(
    sim_catalog,
):
    # Seed 001: "after a ship moves, if any part of its base passes through or into a debris
    # field, roll 1D6 per point of its velocity. Each result equal to or less than its Mass is
    # 1 fracture, then test criticality if fractures were taken."
    # A cruiser (Mass 2) moves 20 cm (velocity 4) across a debris field: 1, 2, 3, 6 -> two
    # fractures, each 1 hull point past the shields, each rolling for a critical (1, 1: none).
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3, 1, 2, 3, 6, 1, 1],
        policy_a=Scripted(plan=Plan(20.0)),
        options=VOID,
    )
    s = put(b.sides[0][0], 90, 30, 90)
    b.terrain.append(Terrain("debris", 90, 42, 5.5, name="debris field"))
    b.activate(b.units[0][0])
    assert s.y == pytest.approx(50) and s.velocity == 4
    assert s.target.hull == 6 and s.target.shields == 1  # shields do not stop fractures
    assert "takes 2 fractures in the debris field" in text(b)
    assert len(b.markers) == 1  # hull damage places a blast marker (§7)
    b.dice.assert_used_up()


def test_an_escort_of_mass_1_only_fractures_on_a_1(sim_catalog):
    # Seed 001: "Small ships find debris fields easy to move through". A big escort (Mass 1)
    # moving 12.5 cm (velocity 2) rolls 2, 1: one fracture (critical die 3: none).
    b = make_battle(
        sim_catalog,
        fleet(squadron("big-escort", "big-escort")),
        fleet(cap("plain-cruiser")),
        [3, 3, 2, 1, 3],
        policy_a=Scripted(plan=Plan(12.5)),
        options=VOID,
    )
    one, two = b.sides[0]
    put(one, 90, 30, 90)
    put(two, 120, 30, 90)  # the second escort misses the field
    b.terrain.append(Terrain("debris", 90, 40, 5.5, name="debris field"))
    b.activate(b.units[0][0])
    assert one.target.hull == 1 and two.target.hull == 2
    b.dice.assert_used_up()


def test_a_section13_debris_field_only_halves_speed_and_gives_cover(sim_catalog):
    # §13 alone (no seed 001): "Debris Field | Half speed." No fracture dice are rolled.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Scripted(plan=Plan(20.0)),
    )
    s = put(b.sides[0][0], 90, 30, 90)
    b.terrain.append(Terrain("debris", 90, 42, 5.5))
    b.activate(b.units[0][0])
    assert s.target.hull == 8
    b.dice.assert_used_up()


# --- orbit ------------------------------------------------------------------------------


def test_a_ship_caught_at_velocity_2_must_accelerate_to_3_and_stays_in_orbit(sim_catalog):
    # Seed 001: "Below 3: it must Accelerate to at least velocity 3 if it can." / "Exactly 3:
    # it stays in orbit." A cruiser's minimum move of 10 cm is velocity 2; one burn makes 3.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Orbiter(plan=Plan(10.0), velocity=0),
        options=VOID,
    )
    s = put(b.sides[0][0], 90, 50, 90)
    w = well_at(b, 90, 63)
    b.activate(b.units[0][0])
    assert s.orbit is w and s.on_table and s.velocity == 3
    assert (s.x, s.y) == pytest.approx((90, 63))  # "anywhere fully inside the circle"
    assert "accelerates in orbit: velocity 2 → 3" in text(b)
    b.dice.assert_used_up()


def test_a_ship_in_orbit_below_velocity_3_crashes_without_exploding(sim_catalog):
    # Seed 001: "Below 3: the ship crashes and is destroyed. Remove it from the voidscape. It
    # doesn't explode, leave a wreck or cause a blast." Lock On allows no burn (R-132), so
    # velocity 2 stays 2: no catastrophic roll follows (the dice are only the command check).
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Orbiter(order=o.LOCK_ON, plan=Plan(10.0)),
        options=VOID,
    )
    s = put(b.sides[0][0], 90, 50, 90)
    well_at(b, 90, 63)
    b.activate(b.units[0][0])
    assert s.destroyed and not s.hulk and b.fate(s) == "destroyed"
    assert "crashes into the gravity well" in text(b)
    assert b.markers == [] and [t.kind for t in b.terrain] == ["gravity_well"]
    b.dice.assert_used_up()


def test_a_ship_in_orbit_above_velocity_3_slingshots_out_facing_away_with_one_more(sim_catalog):
    # Seed 001: "Above 3: it slingshots out. Place it anywhere in base contact with the gravity
    # well, with the ship's front line and its vector facing directly away from the centre of
    # the well. Increase its velocity by 1 without adding a burn token."
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Orbiter(plan=Plan(20.0), velocity=4, exit=0.0),
        options=VOID,
    )
    s = put(b.sides[0][0], 90, 50, 90)
    w = well_at(b, 90, 63)
    b.activate(b.units[0][0])
    assert s.orbit is None and s.velocity == 5
    assert s.x == pytest.approx(90 + 5.5 + s.radius, abs=0.02) and s.y == pytest.approx(63)
    assert math.degrees(s.heading) % 360 == pytest.approx(0)  # straight away from the centre
    # Its next move away from the well is not caught again.
    b.policies = (Orbiter(plan=Plan(20.0)), b.policies[1])
    b.dice = type(b.dice)([3, 3])
    b.round = 2
    b.activate(b.units[0][0])
    assert s.orbit is None and s.x > w.x + 20


def test_a_ship_that_starts_in_orbit_does_not_move_and_may_flip_and_burn_to_3(sim_catalog):
    # Seed 001: "A ship that starts its activation in orbit doesn't move." / "Above 3: it may
    # Drift, Accelerate or Flip and Burn, but it can't reduce its velocity below 3."
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Orbiter(plan=Plan(20.0), velocity=0),
        options=VOID,
    )
    s = put(b.sides[0][0], 90, 63, 90)
    s.orbit, s.velocity = well_at(b, 90, 63), 4
    b.activate(b.units[0][0])
    assert (s.x, s.y) == (90, 63) and s.velocity == 3 and s.on_table
    assert "flips and burns in orbit: velocity 4 → 3" in text(b)


# --- firing from orbit ------------------------------------------------------------------


def test_a_ship_in_orbit_fires_any_direction_from_the_wells_edge_at_a_target_in_cover(sim_catalog):
    # Seed 001: "Ships in orbit can fire guns in any direction. Measure from the edge of the
    # well. The ships they target count as in cover." The enemy is astern, 19.5 cm from the
    # well's centre: 14 cm from its edge, point blank (4+), cover -1: 5+. Dice 5, 6, 4, 1: two
    # hits; armor saves 1, 1 both fail; the shield takes one, the hull one (critical die 2).
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [5, 6, 4, 1, 1, 1, 2],
        options=VOID,
    )
    s = put(b.sides[0][0], 90, 63, 90)
    s.orbit = well_at(b, 90, 63)
    enemy = put(b.sides[1][0], 90, 43.5, 90)  # dead astern: the rear arc, no gun there
    seen = gunnery.sightings(b, s)
    assert [(v.ship, round(v.dist, 2), v.cover) for v in seen] == [(enemy, 14.0, True)]
    assert gunnery.fire_guns(b, s, False, seen)
    assert "2 hits from 4 dice" in text(b)
    assert enemy.target.hull == 7
    b.dice.assert_used_up()


def test_a_gravity_well_blocks_sight_except_for_ships_orbiting_it(sim_catalog):
    # Seed 001: "It blocks line of sight for everything (targeting, guns and so on), except for
    # ships in orbit around it." / "Ships not in orbit can target and fire at ships in orbit as
    # normal, measuring to the edge of the well." / "Ships in orbit can't target or fire guns
    # at other ships in orbit."
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser"), cap("gun-cruiser")),
        fleet(cap("plain-cruiser"), cap("gun-cruiser")),
        [],
        options=VOID,
    )
    orbiting, outside = b.sides[0]
    e_orbit, e_beyond = b.sides[1]
    w = well_at(b, 90, 60)
    put(orbiting, 90, 60, 90)
    orbiting.orbit = w
    put(outside, 70, 60, 0)  # facing the well: its port and starboard guns point away
    put(e_beyond, 110, 60, 180)  # across the well from ``outside``
    put(e_orbit, 90, 60, 270)
    e_orbit.orbit = w
    assert [v.ship for v in gunnery.sightings(b, orbiting)] == [e_beyond]
    seen = gunnery.sightings(b, outside)
    assert [v.ship for v in seen] == [e_orbit]  # the well hides e_beyond, not the orbiter
    assert seen[0].dist == pytest.approx(20 - 5.5)
    assert not gunnery.in_contact(orbiting, e_orbit)  # "never in contact with each other"


def test_a_ship_in_a_wells_orbit_has_no_planet_save(sim_catalog):
    # Seed 001: ships outside fire at ships in orbit "as normal"; §13's 4+ orbit save is a
    # planet's. Two damage points: the shield takes one, the hull one (critical die 1).
    b = make_battle(
        sim_catalog, fleet(cap("plain-cruiser")), fleet(cap("plain-cruiser")), [1], options=VOID
    )
    s = put(b.sides[0][0], 90, 60, 90)
    s.orbit = well_at(b, 90, 60)
    report = b.attack(s, gunnery.damage_points, 2, b.dice, source=b.sides[1][0])
    assert report.brace_saves == 0 and s.target.hull == 7
    b.dice.assert_used_up()


def test_torpedoes_fired_from_orbit_go_straight_onto_the_well(sim_catalog):
    # Seed 001: "Torpedoes fired by a ship in orbit go straight onto the gravity well."
    from rules_core.sim import ordnance

    b = make_battle(
        sim_catalog, fleet(cap("torp-cruiser")), fleet(cap("plain-cruiser")), [], options=VOID
    )
    s = put(b.sides[0][0], 90, 60, 90)
    s.orbit = well_at(b, 90, 60)
    assert ordnance.launch_torpedoes(b, s)
    assert b.salvos == [] and not s.torpedoes_ready
    assert "go straight onto the gravity well" in text(b)


# --- exploding in orbit -----------------------------------------------------------------


def test_a_ship_exploding_in_orbit_gives_each_other_orbiter_a_fracture_above_its_mass(sim_catalog):
    # Seed 001: "Every other ship in orbit rolls 1D6 ... Each result greater than that ship's
    # Mass gives it 1 fracture, and then it tests criticality." Cruisers, Mass 2: 3 fractures
    # one (critical die 4: none), 2 does not; the ship outside the well rolls nothing here.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser"), cap("gun-cruiser"), cap("torp-cruiser")),
        [3, 4, 2],
        options=VOID,
    )
    w = well_at(b, 90, 60)
    dying = put(b.sides[0][0], 90, 60, 90)
    one, two, outside = b.sides[1]
    for s in (dying, one, two):
        put(s, 90, 60, 90)
        s.orbit = w
    put(outside, 110, 60, 90)
    terrain.orbit_explosion(b, dying)
    assert (one.target.hull, two.target.hull, outside.target.hull) == (7, 8, 8)
    b.dice.assert_used_up()


# --- drifting bodies --------------------------------------------------------------------


@pytest.mark.parametrize("velocity, falls_in", [(2, True), (3, False)])
def test_a_drifting_body_meeting_a_well_falls_in_or_bounces_and_shakes_the_orbiters(
    sim_catalog, velocity, falls_in
):
    # Seed 001: "Velocity 1–2: it falls in and is removed from the game. Velocity 3 or more: it
    # stops at the edge of the well. Its vector turns to point the opposite way, and its
    # velocity increases by 1. Either way, every ship in orbit rolls for damage as if it had
    # moved through a debris field. Use whichever velocity is higher, the ship's or the
    # drifting body's final velocity." The orbiter's velocity is 3; the body's final is 2 or 4.
    dice = [1, 3, 3] if falls_in else [1, 3, 3, 6]
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [*dice, 5],
        options=VOID,
    )  # one fracture, its critical die 5
    w = well_at(b, 90, 60)
    s = put(b.sides[0][0], 90, 60, 90)
    s.orbit, s.velocity = w, 3
    body = Terrain("drifting_body", 75, 60, 2.5, velocity * 5.0, 0.0, name="drifting body")
    b.terrain.append(body)
    b.round = 2
    b.drift_phase()
    assert s.target.hull == 7
    if falls_in:
        assert body not in b.terrain and "falls into the gravity well" in text(b)
    else:
        assert body in b.terrain and body.x == pytest.approx(90 - 5.5 - 2.5)
        assert (body.vx, body.vy) == pytest.approx((-20.0, 0.0))  # reversed, velocity 4
    b.dice.assert_used_up()


def test_a_ship_crossing_a_drifting_body_rolls_as_for_debris_at_the_higher_velocity(sim_catalog):
    # Seed 001: "rolls for damage as if it had moved through a debris field. Use whichever
    # velocity is higher" (R-135, replacing R-80's asteroid test). The ship moves 20 cm
    # (velocity 4), the body has velocity 1: 4 dice, Mass 2: 2, 5, 6, 6 -> one fracture.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3, 2, 5, 6, 6, 4],
        policy_a=Scripted(plan=Plan(20.0)),
        options=VOID,
    )
    s = put(b.sides[0][0], 90, 30, 90)
    b.terrain.append(Terrain("drifting_body", 91, 40, 2.5, 0.0, 5.0, name="drifting body"))
    b.activate(b.units[0][0])
    assert s.target.hull == 7 and "takes 1 fracture against the drifting body" in text(b)
    b.dice.assert_used_up()


# --- the preview's default terrain ------------------------------------------------------


def test_voidscape_places_section13_pieces_and_seed_001_elements(sim_catalog):
    a = fleet_spec(sim_catalog, fleet(cap("plain-cruiser")), 0)
    bb = fleet_spec(sim_catalog, fleet(cap("plain-cruiser")), 1)
    kinds: set[str] = set()
    for seed in range(40):
        battle = Battle(a, bb, SeededDice(f"v{seed}"), SimOptions(terrain="voidscape"))
        assert battle.seed001 and len(battle.terrain) >= 2
        assert sum(t.kind == "planet" for t in battle.terrain) <= 1
        kinds |= {t.kind for t in battle.terrain}
    assert kinds == {"asteroids", "gas", "planet", "debris", "gravity_well", "drifting_body"}
    assert SimOptions(terrain="none").terrain == "none"  # open space stays an option


def test_battles_on_every_terrain_play_to_the_end(real_catalog, fleets_real):
    from rules_core.sim import play_battle

    a, b = fleets_real
    for option in ("voidscape", "void"):
        for i in range(6):
            r = play_battle(
                real_catalog, a, b, seed=12, index=i, options=SimOptions(terrain=option), log=True
            )
            assert r.rounds >= 1 and r.log
