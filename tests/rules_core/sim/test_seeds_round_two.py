"""The seeds win, round two: where seed 001's void terrain meets seed 003's advanced
movement, the pieces of seed 003 still missing, and the rulings that overrode a seed's words.
Each test rigs the dice and quotes the seed line it pins; the precedence of the seeds is R-125."""

from __future__ import annotations

import math

import pytest

from rules_core.sim import SimOptions, activation, gunnery
from rules_core.sim import advanced_movement as adv
from rules_core.sim import orders as o
from rules_core.sim.battle import Battle
from rules_core.sim.state import Terrain

from .conftest import Scripted, cap, fleet, make_battle, put, squadron, text

VOID_ADV = SimOptions(terrain="void", movement="advanced")


class Orbiter(Scripted):
    """Scripted; in orbit it ends its manoeuvre at ``velocity`` and slingshots out along
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


def ready(b: Battle, ship, x: float, y: float, deg: float, velocity: int):  # type: ignore[no-untyped-def]
    put(ship, x, y, deg)
    h = adv.helm(b, ship)
    h.velocity, h.course = velocity, math.radians(deg)
    ship.velocity = velocity
    return h


# --- item 1: slingshot under advanced movement (R-132) ----------------------------------------


def test_r132_a_slingshot_sets_the_vector_under_advanced_movement(sim_catalog):
    # Seed 001: "it slingshots out. Place it anywhere in base contact with the gravity well,
    # with the ship's front line and its vector facing directly away from the centre of the
    # well. Increase its velocity by 1 without adding a burn token." A cruiser orbiting at
    # velocity 3, course north, accelerates to 4 in orbit (its burn) and slingshots out east:
    # its vector is then east at velocity 5, and its next move coasts 25 cm east.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Orbiter(velocity=4, exit=0.0),
        options=VOID_ADV,
    )
    s = b.sides[0][0]
    h = ready(b, s, 90, 63, 90, 3)
    s.orbit = well_at(b, 90, 63)
    b.activate(b.units[0][0])
    assert s.orbit is None and s.velocity == 5
    assert h.velocity == 5 and math.degrees(h.course) % 360 == pytest.approx(0)
    x0 = s.x
    adv.move(b, s, adv.Manoeuvre(), None, False)
    assert s.x == pytest.approx(x0 + 25.0) and s.y == pytest.approx(63)
    b.dice.assert_used_up()


def test_r132_the_velocity_gained_in_orbit_stays_with_the_vector(sim_catalog):
    # Seed 001: "Accelerate: +1 velocity per burn token." / "The ship keeps its velocity". A
    # ship that accelerates from 3 to 4 in orbit and is then slingshotted carries 4 + 1, not
    # the velocity it entered orbit with + 1; one that stays at 3 keeps 3 on its helm.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Orbiter(velocity=3),
        options=VOID_ADV,
    )
    s = b.sides[0][0]
    h = ready(b, s, 90, 63, 90, 2)
    s.orbit = well_at(b, 90, 63)
    b.activate(b.units[0][0])  # must accelerate to 3, stays in orbit
    assert s.orbit is not None and s.velocity == 3 and h.velocity == 3
    b.dice.assert_used_up()


# --- item 2: debris rolled once a field a move (R-131) -------------------------------------------


def test_r131_an_out_of_control_ship_drifting_through_one_field_rolls_once(sim_catalog):
    # Seed 001: "roll 1D6 per point of its velocity ... Roll once for each debris field the ship
    # moved through." A cruiser (Mass 2) at velocity 3, still out of control (recovery 9 against
    # skill 5) with 1 thrust left after a damaged plant, rolls tumbles it cannot pay for and
    # drifts three hexes, all in one debris field: 3 dice (6, 6, 6: no fracture), not 3 a hex.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [9, 5, 5, 5, 5, 6, 6, 6],
        options=VOID_ADV,
    )
    s = b.sides[0][0]
    h = ready(b, s, 90, 40, 90, 3)
    h.out_of_control, h.plant_lost = True, 3
    b.terrain.append(Terrain("debris", 90, 47, 5.5, name="debris field"))
    adv.move(b, s, adv.Manoeuvre(), None, False)
    assert s.y == pytest.approx(55) and s.target.hull == 8
    assert text(b).count("comes through in the debris field unharmed (3 d6") == 1
    b.dice.assert_used_up()


def test_r131_a_controlled_advanced_move_through_two_fields_rolls_once_each(sim_catalog):
    # Seed 001: "Roll once for each debris field the ship moved through." Velocity 2 through
    # two fields: 2 dice each (the first field 1, 6: one fracture, critical die 1; the second
    # 6, 6).
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [1, 6, 1, 6, 6],
        options=VOID_ADV,
    )
    s = b.sides[0][0]
    ready(b, s, 90, 40, 90, 4)
    b.terrain.append(Terrain("debris", 90, 45, 2.0, name="debris field"))
    b.terrain.append(Terrain("debris", 90, 52, 2.0, name="second field"))
    adv.move(b, s, adv.Manoeuvre(dv=-2), None, False)
    assert s.y == pytest.approx(50) and s.target.hull == 7
    b.dice.assert_used_up()


# --- item 3: firing out of control (R-143) -------------------------------------------------------


def test_r143_an_out_of_control_ship_fires_at_minus_3_in_lieu_of_lock_on(sim_catalog):
    # Seed 003: "A randomly moving ship may still make direct fire attacks, but with a +3
    # To-Hit die roll modifier in lieu of all other modifiers; it may not attempt missile
    # lock-on." On Lock On (+1), an enemy 10 cm ahead would be hit on 3+; out of control the
    # battery's 4 dice need 6+ (4+ less 3, R-40's clamp): 5, 5, 5, 6 is one hit; armor save 1
    # fails and the shield takes it.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [5, 5, 5, 6, 1],
        options=SimOptions(movement="advanced"),
    )
    s = b.sides[0][0]
    h = ready(b, s, 90, 40, 90, 0)
    h.out_of_control = True
    s.order = o.LOCK_ON
    enemy = put(b.sides[1][0], 90, 50, 270)
    assert gunnery.fire_guns(b, s, False)
    assert "to-hit modifier -3" in text(b) and "1 hit from 4 dice" in text(b)
    assert enemy.target.shields == 0 and enemy.target.hull == 8
    b.dice.assert_used_up()


def test_r143_an_out_of_control_ship_gets_no_lock_on_lance_range(sim_catalog):
    # Seed 003: "it may not attempt missile lock-on": Lock On's +15 cm on lances is lost
    # too. The prow lance (30 cm) cannot reach an enemy 40 cm ahead.
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [],
        options=SimOptions(movement="advanced"),
    )
    s = b.sides[0][0]
    h = ready(b, s, 90, 40, 90, 0)
    s.order = o.LOCK_ON
    put(b.sides[1][0], 90, 80, 270)
    h.out_of_control = True
    assert not gunnery.fire_guns(b, s, False)
    b.dice.assert_used_up()


# --- item 4: exploding ships become drifting bodies (R-137) --------------------------------------


def _explode(b: Battle, ship, roll: int = 6) -> None:  # type: ignore[no-untyped-def]
    from rules_core import damage

    cat = damage.CatastrophicDamage(roll, damage._CATASTROPHE_BY_ROLL[roll])
    b.remove_destroyed(ship, cat)


def bodies(b: Battle) -> list[Terrain]:
    return [t for t in b.terrain if t.kind == "drifting_body"]


def test_r137_an_exploding_ship_becomes_a_drifting_body_on_its_vector(sim_catalog):
    # Seed 001: "When ships explode they also become drifting bodies and they keep whatever
    # vector and velocity they had previously." A cruiser that last moved 15 cm north (velocity
    # 3) blows its plasma drive (radius d6: 2, nobody near): its base drifts on north at 15 cm a
    # round, and moves so in the next Drift.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [2],
        options=SimOptions(terrain="void"),
    )
    s = put(b.sides[0][0], 90, 50, 90)
    s.velocity = 3
    _explode(b, s)
    [body] = bodies(b)
    assert (body.x, body.y, body.r) == pytest.approx((90, 50, s.radius))
    assert (body.vx, body.vy) == pytest.approx((0, 15))
    assert "becomes a drifting body" in text(b)
    from rules_core.sim.terrain import drift_bodies

    drift_bodies(b)
    assert (body.x, body.y) == pytest.approx((90, 65))
    b.dice.assert_used_up()


def test_r137_under_advanced_movement_the_body_keeps_the_helms_vector(sim_catalog):
    # Seed 001: "they keep whatever vector and velocity they had previously": the vector is the
    # helm's course and velocity, not the bow (yawed 90° off it).
    b = make_battle(
        sim_catalog, fleet(cap("plain-cruiser")), fleet(cap("plain-cruiser")), [2], options=VOID_ADV
    )
    s = b.sides[0][0]
    ready(b, s, 90, 50, 0, 2)
    s.face(math.radians(90))
    _explode(b, s)
    [body] = bodies(b)
    assert (body.vx, body.vy) == pytest.approx((10, 0))
    b.dice.assert_used_up()


@pytest.mark.parametrize("roll, options", [(2, "void"), (4, "void"), (6, "section13")])
def test_r137_only_an_explosion_with_seed_001_in_play_leaves_a_body(sim_catalog, roll, options):
    # A drifting hulk is §8's debris field and a blazing wreck its blast marker: neither
    # explodes. §13's terrain alone does not play seed 001 (R-130).
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [2] if roll == 6 else [],
        options=SimOptions(terrain=options),
    )
    s = put(b.sides[0][0], 90, 50, 90)
    s.velocity = 3
    _explode(b, s, roll)
    assert bodies(b) == []
    b.dice.assert_used_up()


# --- item 5: entering the interface zone (R-148) -------------------------------------------------


@pytest.mark.parametrize("yaw, effect", [(0, "enters"), (45, "bounces")])
def test_r148_only_a_ship_whose_bow_is_on_its_course_may_enter_the_zone(sim_catalog, yaw, effect):
    # Seed 003: "To enter the zone, the ship's heading and facing must be the same, and a
    # Piloting Skill Roll must be made." A cruiser coasting north past a planet's interface
    # zone (not onto the planet) rolls 1: with its bow on its course it enters; with its bow
    # one hexside off it cannot enter, so its roll is the bounce's, and it bounces.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [1],
        options=SimOptions(movement="advanced"),
    )
    s = b.sides[0][0]
    h = ready(b, s, 60, 30, 90, 4)
    s.face(math.radians(90 + yaw))
    b.terrain.append(Terrain("planet", 50, 55, 5.0, name="planet"))
    adv.move(b, s, adv.Manoeuvre(), None, False)
    assert f"{effect} the planet's interface zone" in text(b)
    assert (math.degrees(h.course) % 360 == pytest.approx(90)) == (effect == "enters")
    b.dice.assert_used_up()


def test_r148_gravity_pulling_a_ship_off_its_bow_into_the_zone_makes_it_bounce(sim_catalog):
    # Seed 003: gravity "If this takes ships into the interface zone or the atmosphere, resolve
    # this as shown above": a ship whose bow is off its course cannot enter, so it rolls to
    # bounce (1: it does) and stays outside the zone, its course turned away from the planet.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [1],
        options=SimOptions(movement="advanced"),
    )
    s = b.sides[0][0]
    h = ready(b, s, 60, 45, 90, 1)  # gap to the planet's edge 8.4 cm: in its gravity
    s.face(0.0)
    t = Terrain("planet", 60, 60, 5.0, name="planet")
    b.terrain.append(t)
    adv.gravity_pull(b)
    assert "bounces the planet's interface zone" in text(b)
    assert adv._gap(s, t, s.x, s.y) > adv.INTERFACE_CM
    assert math.degrees(h.course) % 360 == pytest.approx(270)
    b.dice.assert_used_up()


# --- item 6: the FAQ's escort-squadron example (R-88) --------------------------------------------


@pytest.mark.parametrize(
    "escorts, lost, expected",
    [
        (5, 2, 70 + 17),
        (5, 3, 105 + 43),  # the FAQ's own example
        (3, 1, 35 + 10),
        (3, 2, 70 + 26),
        (2, 1, 35 + 17),
        (4, 2, 70 + 35),
    ],
)
def test_r88_faq_half_a_squadron_as_the_worked_example_counts_it(
    sim_catalog, escorts, lost, expected
):
    # Seed 002: "For example, if a squadron of five escorts disengages, with two destroyed the
    # enemy gets only 10 % of its starting value, and with three destroyed before it
    # disengaged, 25 %." Half is counted in whole escorts and not rounded below half: 3 of 5,
    # 2 of 3, 1 of 2, 2 of 4. Frigates are 35 points; full value for each destroyed.
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(squadron(*["frigate"] * escorts)),
        [1, 1],
        options=SimOptions(scoring="faq"),
    )
    unit = b.units[1][0]
    for s in unit.ships[:lost]:
        s.on_table, s.destroyed = False, True
    assert activation.disengage(b, unit, unit.alive_ships()[0])
    assert b.victory_points()[0] == expected
    b.dice.assert_used_up()


# --- item 7: Brace for Impact saves against all damage this turn (R-44) --------------------------


def test_r44_a_braced_ship_saves_against_its_own_bulkhead_collapse():
    # Seed 000 §4, Brace for Impact: "The ship gains a 4+ invulnerable save against all damage
    # this turn"; §8 Bulkhead Collapse: "Roll an additional d3 damage immediately". A braced
    # cruiser (no shields) takes a lance hit (4), fails its brace (1); the hull point's critical
    # (6; 5 + 6: Bulkhead Collapse) adds d3 = 2 damage, braced again: 4 saves, 1 does not; that
    # point's critical die 1.
    from rules_core import damage
    from rules_core.dice import RiggedDice

    target = damage.Target(hull=8, max_hull=8, armor=5, shields=0, braced=True)
    dice = RiggedDice([4, 1, 6, 5, 6, 2, 4, 1, 1])
    report = damage.fire_lances(target, 1, dice)
    dice.assert_used_up()
    assert target.hull == 6 and report.hull_lost == 2 and report.extra_damage == 1
    assert report.brace_saves == 1


def test_r44_r55_a_ship_braced_this_round_saves_against_its_fire(sim_catalog):
    # Seed 000 §4: "against all damage this turn"; §8 Fire!: "The ship takes 1 damage at the
    # start of each End Phase until repaired." Braced by order this round, the cruiser saves
    # the fire's point on a 4; its repair (6, 6) fails; no marker is placed, so none is cleared.
    from rules_core.damage import Critical, CriticalHit

    b = make_battle(
        sim_catalog, fleet(cap("plain-cruiser")), fleet(cap("plain-cruiser")), [4, 6, 6]
    )
    s = b.sides[0][0]
    s.braced_round = b.round
    s.target.criticals.append(CriticalHit(9, Critical.FIRE))
    b.end_phase()
    assert s.target.hull == 8 and b.markers == []
    b.dice.assert_used_up()


def test_r44_r80_a_planets_orbit_save_is_not_a_brace_against_fire(sim_catalog):
    # §13's orbit save is against "attacks from outside orbit": a fire aboard is none, so an
    # unbraced ship in a planet's orbit burns (critical die 1; its marker halves the repair to
    # 1d6: 6, at Ld 8 repaired; the marker, touching it, stays: d6 1 clears none).
    from rules_core.damage import Critical, CriticalHit

    b = make_battle(
        sim_catalog, fleet(cap("plain-cruiser")), fleet(cap("plain-cruiser")), [1, 6, 1]
    )
    s = put(b.sides[0][0], 60, 60, 90)
    s.orbit = Terrain("planet", 60, 70, 5.0)
    s.target.criticals.append(CriticalHit(9, Critical.FIRE))
    b.end_phase()
    assert s.target.hull == 7 and len(b.markers) == 1 and s.target.fires == 0
    b.dice.assert_used_up()


# --- item 8: in a debris field if any part of the base is over it (R-138) ------------------------


@pytest.mark.parametrize("terrain_option", ["void", "section13"])
def test_r138_a_ship_whose_base_overlaps_a_debris_field_is_in_cover(sim_catalog, terrain_option):
    # Seed 001: "A ship counts as in an area void element if any part of its base is over
    # it." A cruiser's 32 mm base (1.6 cm radius, §2) whose centre is 1 cm outside the field's
    # edge overlaps it: in cover, and a ship 2 cm outside is not.
    from rules_core.sim.movement import limits

    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser"), cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [],
        options=SimOptions(terrain=terrain_option),
    )
    near, far = b.sides[0]
    b.terrain.append(Terrain("debris", 60, 60, 5.5, name="debris field"))
    put(near, 60 + 5.5 + 1.0, 60, 90)
    put(far, 60, 60 - 5.5 - 2.0, 90)
    assert b.in_cover(near) and not b.in_cover(far)
    # §13's half speed for a ship that starts its move in the field reads "in" the same way
    assert limits(b, near, None, False).max_move == 10.0
    assert limits(b, far, None, False).max_move == 20.0
    # and a ship firing at it sees it in cover
    shooter = put(b.sides[1][0], 60 + 6.5, 80, 270)
    [seen] = [v for v in gunnery.sightings(b, shooter) if v.ship is near]
    assert seen.cover


# --- argued or removed: the rulings that overrode a seed ----------------------------


def test_r73_disengaging_adds_every_modifier_before_the_cap_of_10(sim_catalog):
    # Seed 002: "When disengaging, ALL positive and negative modifiers must be added together
    # before taking the leadership test, but rolls of 11 or 12 always fail ... even though the
    # Ld needed to disengage is Ld13 ... the player must still roll no higher than 10." A Lord
    # Admiral's flagship (Ld 10) in its own radius (+1) with one blast marker (-1) disengages on
    # Ld 10, not 9: a roll of 10 passes. An ordinary check still caps first: Ld 9.
    from rules_core.sim import orders

    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser", flagship=True, admiral="lord-admiral")),
        fleet(cap("plain-cruiser")),
        [4, 6],
        policy_a=Scripted(disengage=True),
    )
    s = b.sides[0][0]
    s.target.blast_markers = 1
    assert orders.leadership(b, s) == 9
    assert orders.leadership(b, s, disengaging=True) == 10
    b.activate(b.units[0][0])
    assert s.disengaged and "rolled 10 against Ld 10: passed" in text(b)
    b.dice.assert_used_up()


def test_r73_disengaging_past_10_still_needs_10_or_less(sim_catalog):
    # Seed 002: "rolls of 11 or 12 always fail": Ld 11 after all modifiers is rolled as 10.
    from rules_core.sim import orders

    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser", flagship=True, admiral="lord-admiral")),
        fleet(cap("plain-cruiser")),
        [],
    )
    assert orders.leadership(b, b.sides[0][0], disengaging=True) == 10


def test_r87_when_an_escort_disengages_the_squadron_tries_to_follow_at_once(sim_catalog):
    # Seed 002: "If any ship in an escort squadron disengages, the whole squadron must then
    # immediately, and in subsequent turns, attempt to disengage using the usual rules." The
    # first frigate runs off the table edge (its command check 3, 3); the squadron tests at
    # once (3, 3: passed) and the second frigate jumps before it moves.
    from rules_core.sim.movement import Plan

    b = make_battle(
        sim_catalog,
        fleet(squadron("frigate", "frigate")),
        fleet(cap("plain-cruiser")),
        [3, 3, 3, 3],
        policy_a=Scripted(plan=Plan(25.0)),
    )
    one, two = b.sides[0]
    put(one, 50, 110, 90)
    put(two, 54, 80, 90)
    b.activate(b.units[0][0])
    assert one.disengaged and two.disengaged and (two.x, two.y) == (54, 80)
    assert "jumps to warp" in text(b)
    b.dice.assert_used_up()


def test_r87_a_failed_attempt_at_once_leaves_the_squadron_trying_each_activation(sim_catalog):
    # "immediately, and in subsequent turns": failed at once (6, 6), the second frigate moves
    # on and tries again at its next activation.
    from rules_core.sim.movement import Plan

    b = make_battle(
        sim_catalog,
        fleet(squadron("frigate", "frigate")),
        fleet(cap("plain-cruiser")),
        [3, 3, 6, 6],
        policy_a=Scripted(plan=Plan(25.0)),
    )
    one, two = b.sides[0]
    put(one, 50, 110, 90)
    put(two, 54, 80, 90)
    b.activate(b.units[0][0])
    assert one.disengaged and two.on_table and two.y == pytest.approx(105)
    assert b.units[0][0].disengaging
    b.dice.assert_used_up()


def test_r47_r48_a_repeated_shields_collapse_is_not_moved_up_the_table():
    # Seed 000 §8 answers what seed 002's "moved to the next higher result" would: "Shields
    # Collapse: All remaining shields are lost. If already at 0, no additional effect", and
    # only Bridge Destroyed cannot be repaired ("the effect is removed (except Bridge
    # Destroyed, which is permanent)"). A second collapse (1 + 1) on a ship at 0 shields does
    # nothing: not Thrusters Damaged (3).
    from rules_core import damage
    from rules_core.dice import RiggedDice

    target = damage.Target(hull=8, max_hull=8, armor=5, shields=2)
    first = damage.roll_critical(target, RiggedDice([1, 1]))
    assert first.effect is damage.Critical.SHIELDS_COLLAPSE and target.shields == 0
    again = damage.roll_critical(target, RiggedDice([1, 1]))
    assert again.effect is damage.Critical.SHIELDS_COLLAPSE and target.shields == 0
    assert not target.has(damage.Critical.THRUSTERS_DAMAGED) and target.criticals == []


def test_r79_a_hulk_is_seed_000s_debris_field_not_a_target(sim_catalog):
    # Seed 000 §8: "Drifting Hulk: The ship loses power and drifts. It remains on the table as
    # a Debris Field (see Terrain)." Seed 000 answers what a hulk is, so the FAQ's "enemy ships
    # may fire at a hulk" (the original game's hulks keep their hull) yields (R-125): the last
    # hull point (catastrophic 1 + 2) leaves a debris field that no gun can choose.
    from rules_core.sim.gunnery import damage_points, sightings

    b = make_battle(sim_catalog, fleet(cap("gun-cruiser")), fleet(cap("plain-cruiser")), [1, 2])
    a = put(b.sides[0][0], 90, 50, 90)
    wreck = put(b.sides[1][0], 70, 50, 90)
    wreck.target.hull, wreck.target.shields = 1, 0
    b.attack(wreck, damage_points, 1, b.dice)
    assert wreck.hulk and b.fate(wreck) == "destroyed"
    assert [t.kind for t in b.terrain] == ["debris"] and sightings(b, a) == []
    b.dice.assert_used_up()


def test_r134_an_explosion_in_orbit_falls_into_the_well_and_spares_ships_outside(sim_catalog):
    # Seed 001, Exploding in Orbit: "its wreck falls into the well. No drifting body is left.
    # Every other ship in orbit rolls 1D6 instead of using the normal distance bands ... Ships
    # outside the well are not affected." Seed 001 is switched on and covers this, so it
    # replaces §8's blast (R-125). A plasma drive overload in orbit: the other orbiter rolls 5
    # (above Mass 2: a fracture, critical die 1); the ship 3 cm off the well's edge takes
    # nothing, and no radius is rolled.
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(cap("plain-cruiser"), cap("gun-cruiser")),
        [5, 1],
        options=SimOptions(terrain="void"),
    )
    w = well_at(b, 90, 60)
    dying = put(b.sides[0][0], 90, 60, 90)
    one, outside = b.sides[1]
    put(one, 90, 60, 90)
    dying.orbit = one.orbit = w
    put(outside, 90 + 5.5 + 1.6 + 3.0, 60, 90)
    _explode(b, dying)
    assert one.target.hull == 7 and outside.target.hull == 8 and outside.target.shields == 2
    assert bodies(b) == [] and "falls into the gravity well" in text(b)
    b.dice.assert_used_up()


@pytest.mark.parametrize(
    "terrain_option, seen", [("void", True), ("voidscape", True), ("section13", False)]
)
def test_r80_with_seed_001_a_gas_cloud_gives_cover_instead_of_blocking_sight(
    sim_catalog, terrain_option, seen
):
    # Seed 001: "If line of sight passes through a gas cloud, including when the shooter or
    # the target is inside it, the target counts as in cover". Switched on, seed 001 replaces
    # §13's "Blocks Line of Sight entirely" for its gas clouds and §13's alike; with
    # §13's terrain alone the cloud still blocks.
    from rules_core.sim.gunnery import sightings

    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        [],
        options=SimOptions(terrain=terrain_option),
    )
    a = put(b.sides[0][0], 90, 40, 90)
    target = put(b.sides[1][0], 90, 70, 270)
    b.terrain.append(Terrain("gas", 90, 55, 5.5, name="gas cloud"))
    found = [v for v in sightings(b, a) if v.ship is target]
    assert bool(found) == seen
    if seen:
        assert found[0].cover
    inside = put(b.sides[1][0], 90, 57, 270)  # the target inside the cloud: cover too
    assert [v.cover for v in sightings(b, a) if v.ship is inside] == ([True] if seen else [])


def test_r146_a_ram_is_rolled_at_the_end_of_all_movement_and_combat(sim_catalog):
    # Seed 003: "The ramming ship must suffer any fire from the target ship or others during
    # its movement; assuming it makes it into the ram hex, the attempt takes place at the end of
    # all movement and combat." The rammer stops in contact and nothing is rolled; at the End
    # Phase's start the d10s (5, 3) are rolled: head on at 4 and 2, 20 hits, 2 damage each. The
    # pair rolls no accidental collision on top ("When neither unit is attempting to ram").
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [5, 3],
        options=SimOptions(movement="advanced"),
    )
    s, t = b.sides[0][0], b.sides[1][0]
    ready(b, s, 60, 40, 90, 4)
    ready(b, t, 60, 55, 270, 2)
    adv.move(b, s, adv.Manoeuvre(ram=t), None, False)
    assert b.dice.remaining == 2 and t.target.shields == 2
    adv.end_of_movement(b)
    assert "20 hits, 2 damage to each" in text(b) and t.target.shields == 0
    b.dice.assert_used_up()


def test_r146_a_target_that_moved_away_is_not_rammed(sim_catalog):
    # "assuming it makes it into the ram hex": the target moves off before the end of all
    # movement, so no ram is rolled.
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [],
        options=SimOptions(movement="advanced"),
    )
    s, t = b.sides[0][0], b.sides[1][0]
    ready(b, s, 60, 40, 90, 4)
    ready(b, t, 60, 55, 0, 2)
    adv.move(b, s, adv.Manoeuvre(ram=t), None, False)
    adv.move(b, t, adv.Manoeuvre(), None, False)
    adv.end_of_movement(b)
    assert "slipped away" in text(b) and "rams" not in text(b)
    b.dice.assert_used_up()


def test_r156_each_part_of_seed_003_left_out_quotes_the_seed():
    # Issue #31: "For each one left out, write in the ruling the seed's sentence that leaves it
    # undefined." Each quoted sentence is the seed's own.
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    seed = next((root.parent / "shared" / "seeds").glob("003_*.txt"), None)
    row = next(
        line
        for line in (root / "docs" / "rulings.md").read_text().splitlines()
        if line.startswith("| R-156 |")
    )
    for part in (
        "Atmospheric flight",
        "Altitude",
        "Variable mass",
        "pushing the plant",
        "heading changes during the move",
        "moving asteroids",
    ):
        assert part in row
    if seed is None:
        pytest.skip("the seeds are not beside this checkout")
    text_003 = " ".join(seed.read_text().split())
    for quote in (
        "see CAMPAIGNS",
        "Each scenario should define the altitude level",
        "Details will have to be agreed between the players before play",
        "he may push the powerplant at the risk of breakdown",
        "Marcos moves four hexes forward and then makes a heading change",
        "move each asteroid one hex in the direction of its arrow",
    ):
        assert quote in row and quote in text_003


# --- still not played from seed 003: pushing the plant on any order (R-144) --------------------


def test_r144_a_ship_on_no_order_pushes_the_plant(sim_catalog):
    # Seed 003: "In cases where he needs more Thrust Points than he has, he may push the
    # powerplant at the risk of breakdown" - no order asked. A cruiser of thrust 4 on no order
    # accelerates from 0 to 6, pushing 2 (a 6 or less): 7 damages the plant (thrust 3, SOT 4),
    # and "he must make both rolls": 6 spent needs 4 - 2 = 2 or less.
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [7, 2],
        options=SimOptions(movement="advanced"),
    )
    s = b.sides[0][0]
    h = ready(b, s, 60.0, 20.0, 90.0, 0)
    adv.move(b, s, adv.Manoeuvre(dv=6, push=2), None, False)
    assert h.velocity == 6 and s.y == pytest.approx(50.0)
    assert h.plant_lost == 1 and "pushes the plant for 2 thrust and damages it" in text(b)
    b.dice.assert_used_up()


def test_r144_the_standard_policy_pushes_on_no_order_when_it_pays(sim_catalog):
    # the pushed points are weighed on every order a ship may push on, not only All
    # Ahead Full. A cruiser at rest (thrust 4) with the enemy 25 cm dead ahead goes to
    # velocity 5 on no order, pushing one point (an 8 or less keeps the plant).
    from rules_core.sim.policy import StandardPolicy

    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [],
        options=SimOptions(movement="advanced"),
    )
    s, e = b.sides[0][0], b.sides[1][0]
    ready(b, s, 90.0, 15.0, 90.0, 0)
    ready(b, e, 90.0, 40.0, 0.0, 0)
    m = StandardPolicy().manoeuvre(b, s, None, False, None)
    assert (m.dv, m.push) == (5, 1)
    assert StandardPolicy().manoeuvre(b, s, None, True, None).push == 0  # hesitant


# --- still not played from seed 003: heading changes during the move (R-141) -----------------


def test_r141_a_heading_change_during_the_move(sim_catalog):
    # Seed 003: "Marcos moves four hexes forward and then makes a heading change. At a
    # velocity of 5, this will cost 2 Thrust Points ... Marcos now moves one last required
    # hex". A cruiser at velocity 5 heading north moves 20 cm, turns 45° to starboard for 2
    # points (SOT 5: no roll) and moves the last 5 cm on its new course, its bow with it.
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [],
        options=SimOptions(movement="advanced"),
    )
    s = b.sides[0][0]
    h = ready(b, s, 60.0, 20.0, 90.0, 5)
    m = adv.Manoeuvre(late_turns=-1, late_at=4)
    assert adv.costs(m, 5, None) == [(adv.LATE, 2)]
    adv.move(b, s, m, None, False)
    assert s.x == pytest.approx(60.0 + 5.0 * math.sqrt(0.5))
    assert s.y == pytest.approx(40.0 + 5.0 * math.sqrt(0.5))
    assert math.degrees(h.course) == pytest.approx(45.0)
    assert math.degrees(s.heading) % 360 == pytest.approx(45.0)
    assert h.velocity == 5 and "SOT" not in text(b)
    b.dice.assert_used_up()


def belt_at(b: Battle, x: float, y: float) -> Terrain:
    t = Terrain("asteroids", x, y, 8.0, name="asteroid belt")
    b.terrain.append(t)
    return t


def test_r142_the_sot_roll_comes_where_a_heading_change_during_the_move_exceeds_it(sim_catalog):
    # Seed 003: "At the point where the SOT is exceeded, make a Piloting skill roll." Thrust 8,
    # SOT 7: +2 velocity (2) and two 45° of course at velocity 6 (3 each) after 2 hexes is 8.
    # The belt the first 2 hexes enter is rolled first (1 + 2 threads it), then the SOT roll
    # before the second heading change (6 or less: 6 holds); then 4 hexes east.
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [1, 6],
        options=SimOptions(movement="advanced"),
    )
    s = b.sides[0][0]
    s.base_speed = 40
    h = ready(b, s, 60.0, 20.0, 90.0, 4)
    belt_at(b, 60.0, 30.0)
    adv.move(b, s, adv.Manoeuvre(dv=2, late_turns=-2, late_at=2), None, False)
    log = text(b)
    assert log.index("threads") < log.index("exceeds its SOT of 7 and holds it")
    assert (s.x, s.y) == (pytest.approx(80.0), pytest.approx(30.0))
    assert h.velocity == 6 and math.degrees(h.course) % 360 == pytest.approx(0.0)
    b.dice.assert_used_up()


def test_r143_hexes_moved_before_losing_control_count_against_the_drift(sim_catalog):
    # Seed 003: "Remember that each hex moved also counts against the movement limit of the
    # beginning velocity, no matter what the ending velocity turns out to be." As above, but
    # the SOT roll fails (7): the first heading change was made (course 45°), the second's 3
    # points go to random movement; maneuvers it cannot pay for (8: 6 points) drift it a hex
    # at a time, 6 - 2 = 4 hexes at most, so it ends 2 hexes north and 4 north-east.
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [1, 7, 8, 8, 8, 8, 8],
        options=SimOptions(movement="advanced"),
    )
    s = b.sides[0][0]
    s.base_speed = 40
    h = ready(b, s, 60.0, 20.0, 90.0, 4)
    belt_at(b, 60.0, 30.0)
    adv.move(b, s, adv.Manoeuvre(dv=2, late_turns=-2, late_at=2), None, False)
    assert h.out_of_control and "loses control" in text(b)
    assert s.x == pytest.approx(60.0 + 20.0 * math.sqrt(0.5))
    assert s.y == pytest.approx(30.0 + 20.0 * math.sqrt(0.5))
    b.dice.assert_used_up()


def test_r149_the_standard_policy_turns_during_the_move_to_reach_a_flank(sim_catalog):
    # the policy weighs heading changes during the move too. A cruiser at rest heading
    # north, its enemy 30 cm to starboard and 25 cm ahead, turns 45° to starboard, moves a hex
    # and turns 45° more: no turn made before moving ends where that move ends.
    from rules_core.sim.policy import StandardPolicy

    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [],
        options=SimOptions(movement="advanced"),
    )
    s, e = b.sides[0][0], b.sides[1][0]
    ready(b, s, 90.0, 15.0, 90.0, 0)
    ready(b, e, 120.0, 40.0, 0.0, 0)
    m = StandardPolicy().manoeuvre(b, s, None, False, None)
    assert (m.dv, m.turns, m.late_turns, m.late_at) == (2, -1, -1, 1)


# --- still not played from seed 003: asteroids in motion (R-147) ------------------------------

MOVING = SimOptions(movement="advanced", asteroids="moving")


def test_r147_the_asteroids_move_a_hex_each_end_phase_and_roll_for_the_ships_they_reach(
    sim_catalog,
):
    # Seed 003: "Before the game begins, simply roll a six-sided die to determine the direction
    # of travel of the entire field"; "At the end of each Movement Phase, move each asteroid
    # one hex in the direction of its arrow. If it enters a hex with a ship in it, add the
    # asteroid's velocity of 1 to that of the ship to find the Piloting Skill Roll modifier".
    # A d6 of 1 sends both belts toward fleet B's edge; the one below a cruiser at velocity 4
    # (skill 5) moves onto it: 4 + the modifier for 5 (+2) fails where +1 would pass, and it
    # takes the installation's damage, 2 tons x 10 x 4 // 3 = 20 hits, from behind.
    b = make_battle(
        sim_catalog, fleet(cap("gun-cruiser")), fleet(cap("gun-cruiser")), [1, 4, 4], options=MOVING
    )
    s = b.sides[0][0]
    ready(b, s, 60.0, 42.0, 0.0, 4)
    belt, far = belt_at(b, 60.0, 30.0), belt_at(b, 150.0, 60.0)
    adv.set_asteroids_moving(b)
    adv.end_of_movement(b)
    assert (belt.x, belt.y) == (pytest.approx(60.0), pytest.approx(35.0))
    assert (far.x, far.y) == (pytest.approx(150.0), pytest.approx(65.0))
    assert (
        "strikes an asteroid (the side it came from; rolled 4 + 2, skill 5) for 20 hits, "
        "2 damage" in text(b)
    )
    # "this direction of travel must be re-rolled for an asteroid that survives a collision
    # with a ship": at its next move it rolls again (4: toward fleet A's edge), and moves on.
    assert b.asteroid_hits[belt] == 20 and b.asteroid_reroll == [belt]
    adv.move_asteroids(b)
    assert (belt.x, belt.y) == (pytest.approx(60.0), pytest.approx(30.0))
    assert (far.x, far.y) == (pytest.approx(150.0), pytest.approx(70.0))
    b.dice.assert_used_up()


def test_r147_asteroids_that_meet_collide_and_two_collisions_pulverize_them(sim_catalog):
    # Seed 003: "If two or more asteroids end their movement in the same hex, consider it a
    # collision. During the next asteroid Movement Phase, roll new directions of travel for
    # each asteroid. If the results of the roll would send them all in the same direction, new
    # directions must be rolled in the next turn." "An asteroid can suffer 200 damage points
    # before being pulverized ... by collision with one another (which will inflict 100 hits
    # per collision)".
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("gun-cruiser")),
        [3, 3, 1, 4],
        options=MOVING,
    )
    p, q = belt_at(b, 60.0, 60.0), belt_at(b, 81.0, 60.0)
    adv._aim(p, 2)  # 30°
    adv._aim(q, 5)  # 210°
    adv.move_asteroids(b)
    assert "collide" in text(b) and b.asteroid_hits == {p: 100, q: 100}
    assert b.asteroid_reroll == [p, q]
    adv.move_asteroids(b)  # both roll 3: the same direction, so they roll again next time
    assert b.asteroid_reroll == [p, q]
    assert math.degrees(math.atan2(p.vy, p.vx)) == pytest.approx(-30.0)
    adv.move_asteroids(b)  # 1 and 4: apart at last
    assert b.asteroid_reroll == [] and p.vy > 0 > q.vy
    b.dice.assert_used_up()
    b.asteroid_hits[p] = 150
    adv._wear(b, p, adv.ASTEROID_CRASH, reroll=True)
    assert p not in b.terrain and "pulverized" in text(b)


def test_r147_moving_asteroids_are_an_option_of_advanced_movement():
    # Seed 003: "Truly adventurous players may put the asteroid field in motion": an option,
    # off by default and left out of stored options, and seed 003's (advanced movement) only.
    assert SimOptions().asteroids == "still" and "asteroids" not in SimOptions().to_dict()
    assert (
        SimOptions.from_dict({"movement": "advanced", "asteroids": "moving"}).to_dict()["asteroids"]
        == "moving"
    )
    with pytest.raises(ValueError, match="advanced"):
        SimOptions(asteroids="moving")
    with pytest.raises(ValueError, match="asteroids"):
        SimOptions(movement="advanced", asteroids="spinning")


def test_r147_whole_battles_play_with_the_asteroids_in_motion(real_catalog):
    from rules_core.sample_fleets import sample_fleet
    from rules_core.sim import play_battle

    a = sample_fleet(real_catalog, "imperial-navy", "skirmish")
    bf = sample_fleet(real_catalog, "orks", "skirmish")
    moved = 0
    for i in range(4):
        r = play_battle(
            real_catalog,
            a,
            bf,
            seed=7,
            index=i,
            log=True,
            options=SimOptions(movement="advanced", asteroids="moving", terrain="section13"),
        )
        assert r.rounds >= 1
        moved += sum(1 for e in r.log or [] if "The asteroids drift" in e.text)
    assert moved >= 1
