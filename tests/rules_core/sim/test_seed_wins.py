"""Issue 12 §1: where a ruling contradicted a seed's plain words, the seed wins. Each test quotes
the seed line it pins and rigs the dice to it; turning uses the real catalogue."""

from __future__ import annotations

import math

import pytest

from rules_core.cards.model import build_cards, effective_stats
from rules_core.catalog import (
    CatalogError,
    CraftRole,
    ShipClass,
    catalog_from_dicts,
    crippled_threshold,
    turn_degrees,
)
from rules_core.damage import Critical, CriticalHit, Target, roll_critical
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip
from rules_core.sim import SimOptions, activation, gunnery, movement, ordnance
from rules_core.sim import orders as o
from rules_core.sim.gunnery import Sighting
from rules_core.sim.movement import DEG90, Plan
from rules_core.sim.policy import StandardPolicy
from rules_core.sim.state import BlastMarker, Wave
from rules_core.validator import validate

from .conftest import ADMIRALS, Scripted, cap, fleet, make_battle, put, squadron, text

# --- 1. Turning (§5), R-11 -------------------------------------------------------------------


def test_r11_every_real_ship_turns_as_its_class_says(real_catalog):
    """R-11, §5: "Cruisers and Battleships: May make one 45° turn"; "Escorts: may make up to
    two 45° turns". Only Solar Sails ("may turn up to 90° at any point") changes it."""
    for faction in real_catalog.factions:
        sails = any(r.name == "Solar Sails" for r in faction.special_rules)
        for ship in faction.ships:
            expected = 90 if ship.is_escort or sails else 45
            assert ship.turns == expected, (faction.slug, ship.slug)
    assert {
        f.slug
        for f in real_catalog.factions
        if any(r.name == "Solar Sails" for r in f.special_rules)
    } == {"craftworld-eldar"}


@pytest.mark.parametrize(
    "faction, slug, degrees",
    [
        ("adeptus-astartes", "strike-cruiser", 45),  # a light cruiser the catalogue had at 90°
        ("drukhari", "drukhari-torture-cruiser", 45),  # a cruiser it had at 90°
        ("orks", "grunt-assault-ship", 90),  # an escort it held to 45°
        ("imperial-navy", "sword-class-frigate", 90),
        ("craftworld-eldar", "shadow-class-cruiser", 90),  # Solar Sails
    ],
)
def test_r11_the_simulator_and_the_cards_turn_real_ships_by_class(
    real_catalog, faction, slug, degrees
):
    """R-11, §5: "Cruisers and Battleships: May make one 45° turn"; "Escorts: may make up to
    two 45° turns" — in play (real catalogue, a 90° plan clamped) and on the card."""
    unit = cap(slug) if degrees == 45 or faction == "craftworld-eldar" else squadron(slug, slug)
    ours = fleet(unit, faction=faction)
    b = make_battle(
        real_catalog, ours, fleet(cap("lunar-class-cruiser"), faction="imperial-navy"), []
    )
    ship = put(b.sides[0][0], 90, 40, 90)
    lim = movement.limits(b, ship, None, False)
    assert lim.max_turn == pytest.approx(math.radians(degrees))
    movement.move_ship(b, ship, Plan(ship.speed(), DEG90), lim)
    assert math.degrees(ship.heading) == pytest.approx(90 + degrees)
    assert ship.spec.turns == degrees
    report = validate(ours, real_catalog)
    profile = report.units[0].ships[0].profile
    assert profile is not None
    assert effective_stats(profile, report.units[0].ships[0]).turns == degrees
    assert build_cards(real_catalog, ours, report)[0].blocks[0].stats.turns == degrees


def test_r11_a_catalogue_that_gives_a_capital_ship_90_degrees_is_refused():
    """R-11: the catalogue's `turns` must be the class's (a light cruiser "may make one 45°
    turn", §5); a file that says otherwise is a data error, not a faster ship."""
    ship = {
        "slug": "fast-cruiser",
        "name": "Fast Cruiser",
        "class": "light_cruiser",
        "points": 100,
        "speed": 25,
        "turns": 90,
        "leadership": 8,
        "shields": 1,
        "hull": 4,
        "armor": 5,
        "turrets": 1,
        "weapons": [],
    }
    faction = {
        "slug": "test",
        "name": "Test",
        "allegiance": "xenos",
        "description": "",
        "leadership": 8,
        "ships": [ship],
    }
    with pytest.raises(CatalogError, match="turns 45°"):
        catalog_from_dicts([faction], ADMIRALS, [])
    ship["turns"] = 45
    assert catalog_from_dicts([faction], ADMIRALS, []).factions[0].ships[0].turns == 45
    del ship["turns"]  # left out, it comes from the class
    assert catalog_from_dicts([faction], ADMIRALS, []).factions[0].ships[0].turns == 45
    assert turn_degrees(ShipClass.BATTLESHIP) == 45 and turn_degrees(ShipClass.ESCORT) == 90
    assert turn_degrees(ShipClass.CRUISER, ["Solar Sails"]) == 90


# --- 2. Brace (§10), R-85 ---------------------------------------------------------------------


def _lances_at(sim_catalog, rolls, *, brace=True):
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(cap("plain-cruiser")),
        rolls,
        policy_b=Scripted(brace=brace),
    )
    a = put(b.sides[0][0], 90, 30, 0)
    t = put(b.sides[1][0], 90, 50, 270)
    return b, a, t


def _lance_volley(b, a, t):
    lance = next(g for g in a.spec.guns if g.name == "Prow Lance")
    gunnery.volley(b, a, lance, 2, Sighting(t, 20.0, 1, False), 0)


def test_r85_a_brace_reaction_saves_against_the_current_attack_only(sim_catalog):
    """R-85, §10 Brace for Impact: "Gain a 4+ invulnerable save against the current attack."
    The first volley meets the save; a second volley the same round does not."""
    # Volley 1: lances 4, 4 hit; brace saves 4, 4: nothing through. Volley 2: 4, 4 hit, no
    # brace roll: the shield takes one, the hull one (crit roll 1).
    b, a, t = _lances_at(sim_catalog, [4, 4, 4, 4, 4, 4, 1])
    a.face(math.pi / 2)
    _lance_volley(b, a, t)
    assert t.target.hull == 8 and t.target.shields == 1
    assert t.unit.activated_round == b.round and t.hesitant_next
    assert t.braced_round != b.round
    assert "braces for impact against this attack" in text(b)
    _lance_volley(b, a, t)
    assert t.target.hull == 7 and t.target.shields == 0
    b.dice.assert_used_up()


def test_r85_brace_for_impact_as_an_order_saves_for_the_whole_round(sim_catalog):
    """R-85, §4 Brace for Impact (the order): "The ship gains a 4+ invulnerable save against
    all damage this turn." Two volleys, both braced."""
    b, a, t = _lances_at(sim_catalog, [4, 4, 4, 4, 4, 4, 4, 4], brace=False)
    a.face(math.pi / 2)
    t.braced_round = b.round  # the order, taken at its activation (activation.py)
    _lance_volley(b, a, t)
    _lance_volley(b, a, t)
    assert t.target.hull == 8 and t.target.shields == 1
    b.dice.assert_used_up()


# --- 3. Torpedoes (§12), R-83 -----------------------------------------------------------------


def _torpedo_scene(sim_catalog, rolls, policy_a=None):
    b = make_battle(
        sim_catalog,
        fleet(cap("torp-cruiser"), cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        rolls,
        policy_a=policy_a,
    )
    a = put(b.sides[0][0], 90, 30, 90)
    t = put(b.sides[1][0], 90, 55, 270)
    friend = put(b.sides[0][1], 90, 45, 90)  # in the lane
    return b, a, t, friend


def test_r83_torpedoes_impact_whatever_they_contact_a_friend_included(sim_catalog):
    """R-83, §12: "Torpedoes do not roll to hit—they impact whatever they contact." A friend
    in the lane is struck: turret 4 downs one, the shield takes one, the hull two."""
    b, a, t, friend = _torpedo_scene(sim_catalog, [4, 1, 1])
    assert ordnance.launch_torpedoes(b, a)
    ordnance.drift(b)
    assert friend.target.hull == 6 and t.target.hull == 8 and b.salvos == []
    assert "4 torpedoes from Torp Cruiser strike Plain Cruiser" in text(b)
    b.dice.assert_used_up()


def test_r121_the_standard_policy_keeps_its_lanes_clear_and_detonates_a_stray_salvo(sim_catalog):
    """R-121 (after R-83, §12 "Remote Control ... detonate"): the standard policy does not aim
    through a friend, and a salvo about to strike one of its own is detonated."""
    b, a, t, friend = _torpedo_scene(sim_catalog, [], policy_a=StandardPolicy())
    tube = a.spec.torpedoes[0]
    assert b.policies[0].torpedo_heading(b, a, tube) is None  # the friend blocks the lane
    put(friend, 60, 45, 90)
    assert b.policies[0].torpedo_heading(b, a, tube) is not None
    put(friend, 90, 45, 90)
    b.policies = (Scripted(), b.policies[1])
    assert ordnance.launch_torpedoes(b, a)
    b.policies = (StandardPolicy(), b.policies[1])
    ordnance.drift(b)
    assert b.salvos == [] and friend.target.hull == 8 and t.target.hull == 8
    assert "detonated by remote control" in text(b)


# --- 4. Shields Collapse (§8 crit 2, §7), R-48 ---------------------------------------------


def test_r48_shields_collapse_then_return_to_full_clear_of_blast_markers(sim_catalog):
    """R-48, §8: "Shields Collapse: All remaining shields are lost"; §7: "Shields regenerate
    when a ship moves away from all Blast Markers ... Restore all Shields to full." """
    b = make_battle(sim_catalog, fleet(cap("gun-cruiser")), fleet(cap("plain-cruiser")), [1, 1])
    s = put(b.sides[0][0], 90, 30, 90)
    hit = roll_critical(s.target, b.dice)
    assert hit == CriticalHit(2, Critical.SHIELDS_COLLAPSE)
    assert s.target.shields == 0 and s.target.criticals == []  # an event: nothing to repair
    b.markers.append(BlastMarker(s.x, s.y + s.radius + 0.5, 1))
    b.settle(s)  # still touching a marker: suppressed and down
    assert s.target.blast_markers == 1 and s.target.shields == 0
    movement.move_ship(b, s, Plan(10.0), movement.limits(b, s, None, False))
    assert s.target.blast_markers == 0 and s.target.shields == 2
    b.dice.assert_used_up()


# --- 5. Fighters (§12, §10), R-84, R-85 --------------------------------------------------------


def _carriers(sim_catalog, rolls, craft):
    b = make_battle(
        sim_catalog,
        fleet(cap("carrier")),
        fleet(cap("carrier")),
        rolls,
        policy_a=Scripted(craft=craft),
    )
    a = put(b.sides[0][0], 90, 30, 90)
    t = put(b.sides[1][0], 90, 60, 270)
    return b, a, t


def test_r84_opposing_fighter_wings_destroy_each_other_on_contact(sim_catalog):
    """R-84, §12 vs Fighters: "Opposing Fighter wings destroy each other on contact." Two
    wings sent at the enemy carrier meet its one wing of cover: one of each is destroyed; the
    other wing stays over the carrier."""
    b, a, t = _carriers(sim_catalog, [], lambda b, s, n: [(CraftRole.FIGHTER, 2, b.sides[1][0])])
    b.waves.append(Wave(1, CraftRole.FIGHTER, t.x, t.y, 1, t, t, 20.0))  # its cover
    assert ordnance.launch_craft(b, a)
    ordnance.drift(b)  # 20 cm: from y 30 to 50, not yet in contact
    assert [w.count for w in b.waves] == [1, 2]
    ordnance.drift(b)  # on to the carrier's base: the wings meet
    assert [(w.side, w.count) for w in b.waves] == [(0, 1)]
    assert "1 fighters from Carrier meet fighters from Carrier: 1 of each" in text(b)
    ordnance.drift(b)  # the survivor stays over its target, attacking nothing
    assert t.target.hull == 8 and b.waves[0].y == pytest.approx(60)


def test_r84_r85_assault_boats_pass_fighters_and_interceptors(sim_catalog):
    """R-84, R-85: §12 fighters intercept "incoming Bombers or Torpedoes", and §10 Interceptor
    Scramble launches "a Fighter wing to intercept incoming Torpedoes or Bombers": assault
    boats meet only the turrets. Two boats: cover and scramble stay out; turret 1 misses;
    boats 4 and 1: one critical (2d6 = 3, 3: Starboard Armament Damaged)."""
    b, a, t = _carriers(
        sim_catalog, [1, 4, 1, 3, 3], lambda b, s, n: [(CraftRole.ASSAULT_BOAT, 2, b.sides[1][0])]
    )
    b.waves.append(Wave(1, CraftRole.FIGHTER, t.x, t.y, 1, t, t, 20.0))
    b.policies = (b.policies[0], Scripted())  # would scramble if it could (Policy's default)
    assert ordnance.launch_craft(b, a)
    t.target.turrets = 1
    ordnance.drift(b)
    ordnance.drift(b)
    assert [c.effect for c in t.target.criticals] == [Critical.STARBOARD_ARMAMENT_DAMAGED]
    assert t.no_launch_round != b.round and "scrambles" not in text(b)
    assert [(w.side, w.count) for w in b.waves] == [(1, 1)]  # the cover is untouched
    b.dice.assert_used_up()


# --- 6. Bridge Destroyed (§8 crit 12), R-73 ----------------------------------------------------


def test_r73_bridge_destroyed_is_ld_6_even_in_a_lord_admirals_radius(sim_catalog):
    """R-73, §8: "Bridge Destroyed: Ship's Ld is reduced to 6." A Lord Admiral's +1 does not
    raise it (it did: Ld 7)."""
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser", flagship=True, admiral="lord-admiral"), cap("plain-cruiser")),
        fleet(cap("plain-cruiser")),
        [],
    )
    flag = put(b.sides[0][0], 90, 30, 90)
    other = put(b.sides[0][1], 100, 30, 90)
    assert o.leadership(b, other) == 9  # Ld 8 + 1 in the Lord Admiral's radius
    other.target.criticals.append(CriticalHit(12, Critical.BRIDGE_DESTROYED))
    assert o.leadership(b, other) == 6
    flag.target.criticals.append(CriticalHit(12, Critical.BRIDGE_DESTROYED))
    assert o.leadership(b, flag) == 6 and b.highest_leadership(0) == 6
    other.target.blast_markers = 1  # penalties still apply below 6
    assert o.leadership(b, other) == 5


# --- 7. FAQ scoring (seed 002), R-88 ----------------------------------------------------------


@pytest.mark.parametrize("lost, expected", [(0, 14), (1, 35 + 14), (2, 70 + 35), (3, 105 + 35)])
def test_r88_faq_a_disengaging_escort_squadron_scores_as_a_squadron(sim_catalog, lost, expected):
    """R-88, seed 002: "An escort squadron gives 10% of the squadron's value, or 25% if at
    least half of it (rounded down) was destroyed first." Four 35-point frigates (140): 10 %
    is 14, 25 % is 35, plus full value for each one destroyed."""
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(squadron("frigate", "frigate", "frigate", "frigate")),
        [1, 1],
        options=SimOptions(scoring="faq"),
    )
    unit = b.units[1][0]
    for s in unit.ships[:lost]:
        s.on_table, s.destroyed = False, True
    assert activation.disengage(b, unit, unit.alive_ships()[0])
    vp = b.victory_points()
    assert vp[0] == expected
    b.dice.assert_used_up()


def test_r88_faq_a_single_ship_still_scores_ship_by_ship(sim_catalog):
    """R-88, seed 002: "A disengaged ship gives the enemy 10% of its value, or 25% if it was
    crippled"; seed 000's default scoring is untouched (nothing for an intact ship)."""
    for scoring, expected in (("faq", 18), ("core", 0)):
        b = make_battle(
            sim_catalog,
            fleet(cap("plain-cruiser")),
            fleet(cap("gun-cruiser")),
            [],
            options=SimOptions(scoring=scoring),
        )
        b.leave_table(b.sides[1][0])
        assert b.victory_points()[0] == expected


# --- 9. Crippling with odd hulls (§9), R-09 ----------------------------------------------------


@pytest.mark.parametrize(
    "hull, crippled_at", [(1, None), (2, 1), (3, 2), (5, 3), (8, 4), (9, 5), (10, 5), (12, 6)]
)
def test_r09_crippled_once_half_the_hull_rounded_down_is_lost(hull, crippled_at):
    """R-09, §9: "A ship is Crippled when it has lost half or more of its starting Hull points
    (round down)" and "Escorts with only 1 Hull point ... cannot be Crippled": crippled after
    losing max(1, floor(hull / 2)) points, which for 1 hull is its last."""
    assert crippled_threshold(hull) == crippled_at
    target = Target(hull=hull, max_hull=hull, armor=5)
    lost = max(1, hull // 2)
    target.hull = hull - lost + 1
    assert not target.crippled
    target.hull -= 1
    assert target.crippled is (hull > 1)


def test_r09_reinforced_hull_on_a_real_cruiser_cripples_at_5_of_9(real_catalog):
    """R-09, §9 "(round down)" with the Reinforced Hull refit (+1 hull): a Lunar of 9 hull is
    crippled once it has lost 4 (at 5 left) — in the simulator and on its card."""
    ours = Fleet(
        faction="imperial-navy",
        game_size=GameSize.SKIRMISH,
        units=(ShipUnit("lunar-class-cruiser", upgrades=("reinforced-hull",)),),
    )
    b = make_battle(
        real_catalog, ours, fleet(cap("lunar-class-cruiser"), faction="imperial-navy"), []
    )
    lunar = b.sides[0][0]
    assert lunar.target.max_hull == 9 and lunar.cripple_at == 5
    lunar.target.hull = 6
    assert not lunar.crippled
    lunar.target.hull = 5
    assert lunar.crippled and lunar.speed() == lunar.base_speed // 2
    card = build_cards(real_catalog, ours, validate(ours, real_catalog))[0]
    assert card.tracks[0].hull == 9 and card.tracks[0].crippled_at == 5


def test_r09_a_two_hull_escort_cripples_and_a_one_hull_escort_never_does(sim_catalog):
    """R-09, §9: "Escorts with 2 or more Hull points may become Crippled. Escorts with only 1
    Hull point are destroyed when they lose their last Hull point"."""
    b = make_battle(
        sim_catalog,
        fleet(cap("gun-cruiser")),
        fleet(Squadron(ships=(SquadronShip("big-escort"), SquadronShip("frigate")))),
        [],
    )
    big, frigate = b.sides[1]
    assert big.cripple_at == 1 and frigate.cripple_at == -1
    big.target.hull = 1
    assert big.crippled and not frigate.crippled


# --- Few but Peerless (Custodes), R-113 --------------------------------------------------------


def test_r113_few_but_peerless_has_nothing_to_reroll(real_catalog):
    """R-113: an escort out of coherency is hesitant and steers back with no command check of
    its own (§6), so a Custodes squadron rolls only its one check: nothing to re-roll."""
    b = make_battle(
        real_catalog,
        fleet(
            squadron("custodes-vigil-frigate", "custodes-vigil-frigate"), faction="adeptus-custodes"
        ),
        fleet(cap("lunar-class-cruiser"), faction="imperial-navy"),
        [3, 3],
        policy_a=Scripted(plan=Plan(10.0)),
    )
    one, two = b.sides[0]
    put(one, 50, 30, 90)
    put(two, 75, 30, 90)
    two.out_of_coherency = True
    b.activate(b.units[0][0])
    b.dice.assert_used_up()  # the squadron's one check (3 + 3), nothing else
    assert math.hypot(two.x - 75, two.y - 30) > 0  # it moved, towards the squadron
    assert "Few but Peerless" not in text(b)
