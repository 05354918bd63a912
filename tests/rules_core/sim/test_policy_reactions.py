"""The standard policy's reactions (§10, R-121): escorts brace against a volley that would
wreck the squadron; carriers scramble interceptors only when it is worth their launch."""

from __future__ import annotations

from rules_core.catalog import CraftRole
from rules_core.sim import ordnance
from rules_core.sim.policy import CautiousPolicy, StandardPolicy
from rules_core.sim.state import BATTERY, LANCE, Salvo, Wave

from .conftest import cap, fleet, make_battle, put, squadron, text


def escorts_under_fire(sim_catalog, policy):
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(squadron("frigate", "frigate")),
        [],
        policy_b=policy,
    )
    put(b.sides[0][0], 90, 20, 0)
    put(b.sides[1][0], 90, 50, 270)
    put(b.sides[1][1], 94, 50, 270)
    return b, b.sides[1][0]


def test_an_escort_squadron_braces_against_a_volley_that_would_destroy_half_of_it(sim_catalog):
    # Two 1-hull, 1-shield frigates: six lances are expected to put 2 damage through (half the
    # squadron and more): the squadron braces and gives up its activation.
    for policy in (StandardPolicy(), CautiousPolicy()):
        b, frigate = escorts_under_fire(sim_catalog, policy)
        assert b.brace_reaction(frigate, 6, LANCE)  # for this attack only
        assert all(s.hesitant_next and s.braced_round != b.round for s in b.sides[1])
        assert frigate.unit.activated_round == b.round
        assert "braces for impact against this attack, giving up its activation" in text(b)


def test_an_escort_squadron_does_not_brace_against_a_light_volley(sim_catalog):
    # Four battery dice are expected to do 1 damage, which the shield takes.
    b, frigate = escorts_under_fire(sim_catalog, StandardPolicy())
    assert not b.brace_reaction(frigate, 4, BATTERY)
    assert not frigate.hesitant_next and frigate.unit.activated_round < b.round


def carrier_battle(sim_catalog, rolls):
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("carrier")),
        rolls,
        policy_b=StandardPolicy(),
    )
    enemy = put(b.sides[0][0], 90, 20, 90)
    carrier = put(b.sides[1][0], 90, 50, 270)
    return b, enemy, carrier


def test_a_carrier_scrambles_against_a_salvo_that_would_reach_its_hull(sim_catalog):
    # Six torpedoes against 2 turrets and 2 shields: about three would reach the hull.
    b, enemy, carrier = carrier_battle(sim_catalog, [])
    ordnance._torpedo_impact(b, Salvo(0, 90, 47, 0, 1, 6, enemy), carrier)
    assert "scrambles interceptors" in text(b) and carrier.target.hull == 8
    assert carrier.no_launch_round == b.round
    b.dice.assert_used_up()


def test_a_carrier_lets_turrets_and_shields_take_a_small_salvo(sim_catalog):
    # Three torpedoes: the turrets (both miss) and the shields are expected to stop them, so
    # the carrier keeps its launch; two shields absorb, one point reaches the hull (no critical).
    b, enemy, carrier = carrier_battle(sim_catalog, [1, 1, 1])
    ordnance._torpedo_impact(b, Salvo(0, 90, 47, 0, 1, 3, enemy), carrier)
    assert "scrambles" not in text(b)
    assert carrier.target.hull == 7 and carrier.no_launch_round != b.round
    b.dice.assert_used_up()


def test_a_carrier_keeps_its_launch_against_a_big_bomber_wave_when_it_has_a_target(sim_catalog):
    # Four bombers; the enemy is 30 cm away, a target for the carrier's own bombers this round:
    # one interception is not worth the launch. Turrets miss, every bomber misses (1s).
    b, enemy, carrier = carrier_battle(sim_catalog, [1] * 6)
    wave = Wave(0, CraftRole.BOMBER, 90, 47, 4, carrier, enemy, 20.0)
    ordnance._craft_attack(b, wave, carrier)
    assert "scrambles" not in text(b)
    b.dice.assert_used_up()
    # Against two bombers one interception halves the attack: it scrambles (turret 1, bomb 1).
    b2, enemy2, carrier2 = carrier_battle(sim_catalog, [1, 1, 1])
    ordnance._craft_attack(
        b2, Wave(0, CraftRole.BOMBER, 90, 47, 2, carrier2, enemy2, 20.0), carrier2
    )
    assert "scrambles interceptors against the 2 bombers" in text(b2)
    b2.dice.assert_used_up()
