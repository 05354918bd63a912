"""The faction rules the simulator plays (R-89), each as a scenario with rigged dice."""

from __future__ import annotations

import math

import pytest

from rules_core.damage import Critical, CriticalHit
from rules_core.sim import gunnery
from rules_core.sim import orders as o
from rules_core.sim.movement import Plan

from .conftest import Scripted, cap, fleet, make_battle, put, text


def duel(
    sim_catalog,
    shooter,
    shooter_faction,
    target,
    target_faction,
    rolls,
    *,
    a_at=(90, 50, 90),
    t_at=(70, 50, 90),
):
    b = make_battle(
        sim_catalog,
        fleet(cap(shooter), faction=shooter_faction),
        fleet(cap(target), faction=target_faction),
        rolls,
    )
    return b, put(b.sides[0][0], *a_at), put(b.sides[1][0], *t_at)


def test_holofields_ignore_hits_on_2_beyond_15_cm(sim_catalog):
    # 20 cm: 5+ to hit, two hits; holofields save one (4), not the other (1); armor 6+ fails
    b, a, t = duel(
        sim_catalog,
        "gun-cruiser",
        "test-navy",
        "eldar-cruiser",
        "craftworld-eldar",
        [5, 5, 1, 1, 1, 1, 4, 1, 1, 1],
    )
    gunnery.fire_guns(b, a, hesitant=False)
    assert t.target.hull == 3
    assert "2 hits from 6 dice, 1 ignored by holofields" in text(b)
    b.dice.assert_used_up()


def test_holofields_ignore_hits_only_on_5_within_15_cm(sim_catalog):
    # 10 cm: 4+ to hit, two hits; within 15 cm the holofields need a 5+ (R-89): the 5 ignores
    # one, the 4 does not; armor 6+ fails.
    b, a, t = duel(
        sim_catalog,
        "gun-cruiser",
        "test-navy",
        "eldar-cruiser",
        "craftworld-eldar",
        [4, 4, 1, 1, 1, 1, 5, 4, 1, 1],
        t_at=(80, 50, 90),
    )
    gunnery.fire_guns(b, a, hesitant=False)
    assert t.target.hull == 3
    assert "2 hits from 6 dice, 1 ignored by holofields" in text(b)
    b.dice.assert_used_up()


def test_holofields_are_lost_once_crippled(sim_catalog):
    # Fragile Hulls: a crippled Eldar ship rolls no holofield save, at any range.
    b, a, t = duel(
        sim_catalog,
        "gun-cruiser",
        "test-navy",
        "eldar-cruiser",
        "craftworld-eldar",
        [5, 1, 1, 1, 1, 1, 1, 1],
    )
    t.target.hull = 2
    gunnery.fire_guns(b, a, hesitant=False)  # 20 cm: one hit, no holofield roll
    assert t.target.hull == 1
    assert "holofields" not in text(b)
    b.dice.assert_used_up()


def test_solar_sails_need_no_minimum_move_and_turn_90_anywhere(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("eldar-cruiser"), faction="craftworld-eldar"),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Scripted(plan=Plan(0.0, math.pi / 2)),
    )
    s = put(b.sides[0][0], 90, 20, 90)
    b.activate(b.units[0][0])
    assert (s.x, s.y) == (90, 20) and math.degrees(s.heading) == pytest.approx(180)


def test_necron_reactive_hulls_are_not_suppressed_by_blast_markers(sim_catalog):
    b, a, t = duel(
        sim_catalog, "plain-cruiser", "test-navy", "necron-cruiser", "necrons", [1, 1, 1, 6, 1]
    )
    b.place_marker(t, a.x, a.y)
    b.settle(t)
    gunnery.fire_guns(b, a, hesitant=False)  # one unsaved hit: the shield still takes it
    assert t.target.hull == 8 and t.target.shields == 1


def test_living_metal_and_bio_regeneration_regrow_a_hull_point_on_a_6(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("necron-cruiser"), faction="necrons"),
        fleet(cap("hive-ship"), faction="tyranids"),
        [6, 4, 5, 6, 6],
    )
    necron, hive = b.sides[0][0], b.sides[1][0]
    necron.target.hull, hive.target.hull = 5, 9
    b.command_phase()  # Living Metal 6; then the command dice 4 and 5
    assert necron.target.hull == 6
    b.end_phase()  # Bio-regeneration 6 (no markers to clear)
    assert hive.target.hull == 10 and "Bio-regeneration" in text(b)


def test_mob_rule_rerolls_a_failed_check_near_another_ork(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("ork-kroozer"), cap("ork-kroozer"), faction="orks"),
        fleet(cap("plain-cruiser")),
        [6, 5, 3, 3],
    )
    one, two = b.sides[0]
    put(one, 50, 30, 90)
    put(two, 60, 30, 90)
    assert o.command_check(b, one)
    assert "re-rolled (Mob Rule): 6" in text(b)


def test_tyranids_far_from_synapse_check_at_ld_6(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("hive-ship"), cap("kraken"), faction="tyranids"),
        fleet(cap("plain-cruiser")),
        [],
    )
    hive, kraken = b.sides[0]
    put(hive, 20, 20, 90)
    put(kraken, 40, 20, 90)
    assert o.leadership(b, kraken) == 8
    put(kraken, 100, 20, 90)
    assert o.leadership(b, kraken) == 6
    assert o.leadership(b, hive) == 8  # the synapse ship itself


def test_for_the_greater_good_adds_one_near_a_friend(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("tau-cruiser"), cap("tau-cruiser"), faction="tau-empire"),
        fleet(cap("plain-cruiser")),
        [],
    )
    one, two = b.sides[0]
    put(one, 50, 30, 90)
    put(two, 60, 30, 90)
    assert o.leadership(b, one) == 9
    put(two, 90, 30, 90)
    assert o.leadership(b, one) == 8


def test_an_armoured_prow_ignores_the_first_hit_from_ahead(sim_catalog):
    b, a, t = duel(
        sim_catalog,
        "plain-cruiser",
        "test-navy",
        "tau-cruiser",
        "tau-empire",
        [5, 5, 1, 1, 1],
        t_at=(90, 70, 270),
    )
    gunnery.fire_guns(b, a, hesitant=False)  # 20 cm, two hits; the prow takes one
    assert "1 ignored by the armoured prow" in text(b)
    assert t.target.shields == 1 and t.target.hull == 8
    b.dice.assert_used_up()


def test_shadowfields_make_batteries_beyond_30_cm_hit_at_minus_one(sim_catalog):
    b, a, t = duel(
        sim_catalog,
        "gun-cruiser",
        "test-navy",
        "torture-cruiser",
        "drukhari",
        [5] * 6,
        t_at=(55, 50, 90),
    )
    gunnery.fire_guns(b, a, hesitant=False)
    assert "to-hit modifier -1): 0 hits" in text(b)


def test_advanced_auspex_hits_on_4_out_to_30_cm(sim_catalog):
    b, a, t = duel(
        sim_catalog,
        "ark-cruiser",
        "adeptus-mechanicus",
        "plain-cruiser",
        "test-navy",
        [4, 1, 1, 1, 1, 1, 6],
        t_at=(65, 50, 90),
    )
    gunnery.fire_guns(b, a, hesitant=False)
    assert "1 hit from 6 dice" in text(b)


def test_blessings_of_the_omnissiah_repair_on_4(sim_catalog):
    b, a, t = duel(
        sim_catalog, "ark-cruiser", "adeptus-mechanicus", "plain-cruiser", "test-navy", [4]
    )
    a.target.criticals.append(CriticalHit(3, Critical.THRUSTERS_DAMAGED))
    b.end_phase()
    assert not a.target.criticals and "needing 4+" in text(b)


@pytest.mark.parametrize(
    "slug, faction_, crippled_ld",
    [
        ("sisters-cruiser", "adepta-sororitas", 8 - 1),
        ("chaos-cruiser", "archenemy", 8 - 3),
        ("plain-cruiser", "test-navy", 8 - 2),
    ],
)
def test_crippled_leadership_penalties(sim_catalog, slug, faction_, crippled_ld):
    b = make_battle(
        sim_catalog, fleet(cap(slug), faction=faction_), fleet(cap("plain-cruiser")), []
    )
    s = b.sides[0][0]
    s.target.hull = 4
    assert o.leadership(b, s) == crippled_ld


def test_fickle_crews_are_steadier_near_the_flagship(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("chaos-cruiser", flagship=True), cap("chaos-cruiser"), faction="archenemy"),
        fleet(cap("plain-cruiser")),
        [],
    )
    flag, s = b.sides[0]
    put(flag, 50, 30, 90)
    put(s, 70, 30, 90)
    s.target.hull = 4
    assert o.leadership(b, s) == 8 - 2


def test_astartes_are_unshakeable_when_the_flagship_is_lost(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(
            cap("strike-cruiser", flagship=True), cap("strike-cruiser"), faction="adeptus-astartes"
        ),
        fleet(cap("plain-cruiser")),
        [2, 2],
    )
    flag, other = b.sides[0]
    flag.target.hull, flag.target.shields = 1, 0
    b.attack(flag, gunnery.damage_points, 1, b.dice)
    assert flag.destroyed and not other.hesitant_next
    b.dice.assert_used_up()


def test_orks_ram_without_a_command_check(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("ork-kroozer"), faction="orks"),
        fleet(cap("frigate")),
        [3, 3, 4, 2, 1, 1, 2, 2],
    )
    put(b.sides[0][0], 90, 30, 90)
    t = put(b.sides[1][0], 90, 45, 270)
    b.policies = (Scripted(plan=Plan(20.0, 0.0, ram=t)), b.policies[1])
    b.activate(b.units[0][0])
    assert "command check to ram" not in text(b) and "rams Frigate" in text(b)


def test_boarding_bonuses_by_faction(sim_catalog):
    b = make_battle(
        sim_catalog,
        fleet(cap("sisters-cruiser"), faction="adepta-sororitas"),
        fleet(cap("chaos-cruiser"), faction="archenemy"),
        [],
    )
    sister, chaos = b.sides[0][0], b.sides[1][0]
    # Sororitas +1, +2 against the Archenemy; a marked Archenemy ship +1.
    assert gunnery.boarding_score_base(b, sister, chaos) == 8 + 8 + 2
    assert gunnery.boarding_score_base(b, chaos, sister) == 8 + 8 + 1


def test_solar_sails_move_before_shooting_and_never_after(sim_catalog):
    # Solar Sails change how an Eldar ship moves, not when. It moves (10 cm, no minimum),
    # then fires from where it stopped, and its activation ends there: no move after shooting.
    class Volleys:
        def __init__(self):
            self.fired_from = []

        def step(self, battle, entry):
            pass

        def attack(self, battle, ship, source, source_xy, ordnance, report):
            if source is not None:  # where the shooter stands as its volley lands
                self.fired_from.append((source.x, source.y))

    b = make_battle(
        sim_catalog,
        fleet(cap("eldar-cruiser"), faction="craftworld-eldar"),
        fleet(cap("plain-cruiser")),
        [1, 1] + [1] * 20,
        policy_a=Scripted(plan=Plan(10.0)),
    )
    volleys = Volleys()
    b.observer = volleys
    eldar = put(b.sides[0][0], 60, 20, 90)
    put(b.sides[1][0], 60, 50, 270)
    b.activate(b.units[0][0])
    assert (eldar.x, eldar.y) == pytest.approx((60, 30))  # moved first
    assert volleys.fired_from, "the Eldar cruiser fired"
    assert all(xy == pytest.approx((60, 30)) for xy in volleys.fired_from)
    assert text(b).index("activates") < text(b).index("dice")
