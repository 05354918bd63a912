"""The standard policy's faction tactics (docs/simulator.md, "Faction tactics"; issue 12 §5,
issue 16 §2): in each rigged situation the aware policy makes the faction's choice and
``UnawarePolicy``, the same policy with its tactics off, does not. What the tactics are worth
over many battles is measured by tools/policy_tactics.py, not here."""

from __future__ import annotations

import math
from typing import Any

import pytest

from rules_core.catalog import Catalog, catalog_from_dicts
from rules_core.sim import POLICIES
from rules_core.sim import orders as o
from rules_core.sim.api import SimOptions
from rules_core.sim.geometry import segment_point_distance
from rules_core.sim.gunnery import sightings
from rules_core.sim.movement import end_point, limits
from rules_core.sim.policy import StandardPolicy, UnawarePolicy
from rules_core.sim.state import Terrain

from .conftest import ADMIRALS, LIGHT, NAVY, cap, fleet, make_battle, put, ship, weapon


def faction(slug: str, *ships: dict[str, Any], allegiance: str = "xenos") -> dict[str, Any]:
    return {
        "slug": slug,
        "name": slug.replace("-", " ").title(),
        "allegiance": allegiance,
        "description": "Faction-tactic tests.",
        "leadership": 8,
        "ships": list(ships),
        "attack_craft": [],
    }


FACTIONS = [
    faction(
        "grey-knights",
        ship(
            "gk-strike-cruiser",
            "cruiser",
            200,
            hull=6,
            shields=1,
            speed=25,
            special_rules=["Teleport Assault"],
            weapons=[
                weapon("Port Weapons Battery", "battery", ["left"], 4, 30),
                weapon("Starboard Weapons Battery", "battery", ["right"], 4, 30),
                weapon("Prow Bombardment Cannon", "special", ["front"], 3, 30),
            ],
        ),
        allegiance="imperium",
    ),
    faction(
        "craftworld-eldar",
        ship(
            "eldar-cruiser",
            "light_cruiser",
            120,
            hull=4,
            shields=0,
            armor=6,
            turrets=0,
            speed=30,
            weapons=LIGHT,
        ),
    ),
    faction("leagues-of-votann", ship("hekaton", "cruiser", 220, weapons=LIGHT)),
    faction(
        "archenemy",
        ship(
            "chaos-cruiser",
            "cruiser",
            180,
            weapons=[
                weapon("Port Battery", "battery", ["left"], 6, 45),
                weapon("Starboard Battery", "battery", ["right"], 6, 45),
            ],
        ),
        allegiance="chaos",
    ),
    faction(
        "imperial-navy",
        ship(
            "navy-torp-cruiser",
            "cruiser",
            170,
            ld=7,
            weapons=[
                weapon("Prow Torpedoes", "torpedo", ["front"], 4, 30),
                weapon("Dorsal Battery", "battery", ["left", "front", "right"], 6, 30),
            ],
        ),
        allegiance="imperium",
    ),
    faction(
        "adeptus-mechanicus",
        ship(
            "mech-frigate",
            "escort",
            35,
            speed=25,
            turns=90,
            hull=1,
            shields=1,
            weapons=[weapon("Battery", "battery", ["left", "front", "right"], 3, 30)],
        ),
    ),
    faction(
        "orks",
        ship(
            "lance-kroozer",
            "cruiser",
            150,
            weapons=[weapon("Prow Lances", "lance", ["front"], 3, 30)],
        ),
        ship(
            "gun-kroozer",
            "cruiser",
            150,
            speed=20,
            weapons=[weapon("Gunz", "battery", ["left", "front", "right"], 4, 45)],
        ),
        ship(
            "boarding-kroozer",
            "cruiser",
            150,
            ld=10,
            weapons=[weapon("Gunz", "battery", ["left", "front", "right"], 4, 30)],
        ),
    ),
    faction(
        "adeptus-astartes",
        ship(
            "assault-cruiser",
            "cruiser",
            150,
            ld=9,
            weapons=[weapon("Battery", "battery", ["left", "front", "right"], 4, 30)],
        ),
        allegiance="imperium",
    ),
    faction(
        "tau-empire",
        ship(
            "tau-cruiser",
            "cruiser",
            150,
            speed=20,
            weapons=[weapon("Prow Railguns", "battery", ["left", "front", "right"], 4, 45)],
        ),
    ),
]


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return catalog_from_dicts([NAVY, *FACTIONS], ADMIRALS, [], version="sim-test-tactics")


def duel(cat, a_slug, a_faction, b_slug, b_faction, policy, *, a_at, b_at):
    b = make_battle(
        cat,
        fleet(cap(a_slug), faction=a_faction),
        fleet(cap(b_slug), faction=b_faction),
        [],
        policy_a=policy,
        policy_b=StandardPolicy(),
    )
    return b, put(b.sides[0][0], *a_at), put(b.sides[1][0], *b_at)


def end_distance(b, ship, enemy, *, may_order: bool = False) -> float:
    order, plan = b.policies[0].plan(b, b.units[0][0], ship, may_order, False)
    x, y, _ = end_point(ship, plan, limits(b, ship, order, False))
    return math.hypot(enemy.x - x, enemy.y - y)


def consort_gap(
    cat,
    policy,
    mine: tuple[str, str],
    enemy: tuple[str, str],
    *,
    consort_at: tuple[float, float],
    enemy_at: tuple[float, float],
) -> float:
    """A cruiser at (90, 40) heading 90° with a consort of its class at ``consort_at`` and one
    enemy at ``enemy_at``: how far from the consort its move (no order) ends."""
    b = make_battle(
        cat,
        fleet(cap(mine[0]), cap(mine[0]), faction=mine[1]),
        fleet(cap(enemy[0]), faction=enemy[1]),
        [],
        policy_a=policy,
        policy_b=StandardPolicy(),
    )
    me = put(b.sides[0][0], 90, 40, 90)
    consort = put(b.sides[0][1], *consort_at, 90)
    put(b.sides[1][0], *enemy_at, 180)
    order, plan = b.policies[0].plan(b, b.units[0][0], me, False, False)
    x, y, _ = end_point(me, plan, limits(b, me, order, False))
    return math.hypot(consort.x - x, consort.y - y)


def both(cat, *args, **kw):
    """The same scene played by the aware policy and by the unaware one."""
    return (duel(cat, *args, StandardPolicy(), **kw), duel(cat, *args, UnawarePolicy(), **kw))


def test_the_unaware_copy_is_no_choice_on_the_preview_page():
    # It is a yardstick for tools/policy_tactics.py, registered there, not a way to play.
    assert "unaware" not in POLICIES
    assert UnawarePolicy().faction_tactics is False
    assert StandardPolicy().faction_tactics is True
    # It ignores the fleet's faction rules: it takes none of the options they offer.
    assert UnawarePolicy().takes_faction_options() is False
    assert StandardPolicy().takes_faction_options() is True


def test_grey_knights_close_to_teleport_range(cat):
    # An enemy 27 cm ahead and to port: the unaware strike cruiser stops at point blank
    # (15 cm); the aware one closes within 10 cm, where a broadside with nothing to shoot can
    # send a strike team aboard.
    scenes = both(
        cat,
        "gk-strike-cruiser",
        "grey-knights",
        "plain-cruiser",
        "test-navy",
        a_at=(90, 40, 90),
        b_at=(75, 65, 270),
    )
    (aware, gk, enemy), (unaware, gk2, enemy2) = scenes
    assert end_distance(aware, gk, enemy) <= 10.0
    assert end_distance(unaware, gk2, enemy2) > 10.0


def test_eldar_let_the_enemy_activate_first_while_closing_then_strike_first(cat):
    # Solar Sails: no minimum move and 90° at any point, so while the fleets close the Eldar
    # commit after the enemy. 80 cm apart, the enemy cruiser (Speed 20, All Ahead Full 4d6:
    # 14 on average) cannot end within 15 cm of the Eldar this round.
    (aware, _, _), (unaware, _, _) = both(
        cat,
        "eldar-cruiser",
        "craftworld-eldar",
        "plain-cruiser",
        "test-navy",
        a_at=(90, 20, 90),
        b_at=(90, 100, 270),
    )
    assert aware.policies[0].first_player(aware, 0) == 1
    assert unaware.policies[0].first_player(unaware, 0) == 0
    # 45 cm apart it could (20 + 14 + 15 = 49): the Eldar activate first, to strike first.
    (near, _, enemy), _ = both(
        cat,
        "eldar-cruiser",
        "craftworld-eldar",
        "plain-cruiser",
        "test-navy",
        a_at=(90, 20, 90),
        b_at=(90, 65, 270),
    )
    assert enemy.speed() + 3.5 * enemy.spec.aaf_dice + 15.0 >= 45.0
    assert near.policies[0].first_player(near, 0) == 0
    # A fleet without Solar Sails against one without keeps the first activation.
    b, _, _ = duel(
        cat,
        "plain-cruiser",
        "test-navy",
        "plain-cruiser",
        "test-navy",
        StandardPolicy(),
        a_at=(90, 20, 90),
        b_at=(90, 100, 270),
    )
    assert b.policies[0].first_player(b, 0) == 0


def test_against_solar_sails_a_fleet_lets_the_eldar_commit_first_then_strikes_first(cat):
    # The same order of play from the other side: 80 cm apart the cruiser (Speed 20, All
    # Ahead Full 14 on average) cannot end within 15 cm of the Eldar ship this round, so the
    # aware winner lets the Eldar move first; 45 cm apart it could, and it activates first.
    # The unaware copy always keeps the first activation.
    far, far_unaware = both(
        cat,
        "plain-cruiser",
        "test-navy",
        "eldar-cruiser",
        "craftworld-eldar",
        a_at=(90, 20, 90),
        b_at=(90, 100, 270),
    )
    assert far[0].policies[0].first_player(far[0], 0) == 1
    assert far_unaware[0].policies[0].first_player(far_unaware[0], 0) == 0
    (near, _, _), _ = both(
        cat,
        "plain-cruiser",
        "test-navy",
        "eldar-cruiser",
        "craftworld-eldar",
        a_at=(90, 20, 90),
        b_at=(90, 65, 270),
    )
    assert near.policies[0].first_player(near, 0) == 0


def test_a_lance_ship_closes_inside_holofields(cat):
    # A lance ship stands off just inside lance range (25 cm) as a rule; against an Eldar ship
    # whose holofields ignore hits on 2+ beyond 15 cm and only on 5+ within it closes
    # inside 15 cm.
    (aware, a, e), (unaware, a2, e2) = both(
        cat,
        "lance-kroozer",
        "orks",
        "eldar-cruiser",
        "craftworld-eldar",
        a_at=(90, 40, 90),
        b_at=(90, 75, 270),
    )
    assert end_distance(aware, a, e) <= 15.0
    assert end_distance(unaware, a2, e2) > 15.0
    # Once the Eldar ship is crippled its holofields are gone (Fragile Hulls): no need.
    e.target.hull = e.target.crippled_at
    assert end_distance(aware, a, e) > 15.0


def test_mechanicus_batteries_hold_inside_auspex_range_beyond_point_blank(cat):
    # Advanced Auspex: batteries hit on 4+ out to 30 cm; so the escort holds at about 24 cm,
    # where the enemy's batteries still roll 5+, instead of closing to 15 cm.
    (aware, a, e), (unaware, a2, e2) = both(
        cat,
        "mech-frigate",
        "adeptus-mechanicus",
        "plain-cruiser",
        "test-navy",
        a_at=(90, 40, 90),
        b_at=(90, 80, 270),
    )
    assert 15.0 < end_distance(aware, a, e) <= 30.0
    assert end_distance(unaware, a2, e2) <= 16.0


def test_votann_focus_fire_on_the_grudge(cat):
    b = make_battle(
        cat,
        fleet(cap("hekaton"), faction="leagues-of-votann"),
        fleet(cap("plain-cruiser"), cap("gun-cruiser"), faction="test-navy"),
        [],
        policy_a=StandardPolicy(),
        policy_b=StandardPolicy(),
    )
    put(b.sides[0][0], 90, 40, 90)
    plain = put(b.sides[1][0], 90, 70, 270)
    gun = put(b.sides[1][1], 120, 90, 270)
    assert b.policies[0].focus(b, 0) is plain  # nearer, fewer points of protection
    b.memo.grudge[0] = gun  # the gun cruiser hurt the Kin first
    b.memo.focus[0] = None
    assert b.policies[0].focus(b, 0) is gun
    # +1 to hit makes the grudge worth half as much again as a target, no more: far off
    # across the table it gives way to the nearer cruiser.
    put(gun, 170, 150, 270)
    b.memo.focus[0] = None
    assert b.policies[0].focus(b, 0) is plain
    put(gun, 120, 90, 270)
    b.policies = (UnawarePolicy(), b.policies[1])
    b.memo.focus[0] = None
    assert b.policies[0].focus(b, 0) is plain


@pytest.mark.parametrize(
    "enemy_faction, enemy, lock_on",
    [
        ("test-navy", "plain-cruiser", True),  # imperium: a failed check is re-rolled
        ("craftworld-eldar", "eldar-cruiser", False),  # xenos: no Hatred, a free move is better
    ],
)
def test_hatred_makes_lock_on_worth_naming_against_the_imperium(cat, enemy_faction, enemy, lock_on):
    # The enemy sits 41 cm off the port bow: after Lock On's straight minimum move the port
    # battery (45 cm) bears, so Lock On (+1 to hit, no turn) scores nearly as well as a free
    # move that closes in.
    (aware, a, _), (unaware, a2, _) = both(
        cat,
        "chaos-cruiser",
        "archenemy",
        enemy,
        enemy_faction,
        a_at=(90, 40, 90),
        b_at=(50, 50, 90),
    )
    aware_order, _ = aware.policies[0].plan(aware, aware.units[0][0], a, True, False)
    unaware_order, _ = unaware.policies[0].plan(unaware, unaware.units[0][0], a2, True, False)
    assert (aware_order == o.LOCK_ON) is lock_on
    assert unaware_order != o.LOCK_ON


def test_torpedo_doctrine_does_not_make_a_ship_give_up_its_guns_to_reload(cat):
    # Spent tubes with the enemy 25 cm away, in the battery's reach: Reload Ordnance would
    # pass on 10 or less but the ship could not fire (§4). Reloading there cost the
    # Imperial Navy at Battle size (docs/simulator.md), so neither policy does it.
    for b, a, _ in both(
        cat,
        "navy-torp-cruiser",
        "imperial-navy",
        "plain-cruiser",
        "test-navy",
        a_at=(90, 40, 90),
        b_at=(90, 65, 270),
    ):
        a.torpedoes_ready = False
        assert b.policies[0].plan(b, b.units[0][0], a, True, False)[0] != o.RELOAD
    # Beyond its guns' reach it reloads, as every fleet does.
    for b, a, _ in both(
        cat,
        "navy-torp-cruiser",
        "imperial-navy",
        "plain-cruiser",
        "test-navy",
        a_at=(90, 40, 90),
        b_at=(90, 120, 270),
    ):
        a.torpedoes_ready = False
        assert b.policies[0].plan(b, b.units[0][0], a, True, False)[0] == o.RELOAD


@pytest.mark.parametrize(
    "slug, faction_slug", [("tau-cruiser", "tau-empire"), ("gun-kroozer", "orks")]
)
def test_keep_within_15_cm_of_a_friend(cat, slug, faction_slug):
    # For the Greater Good: +1 Ld within 15 cm of another friendly ship; Mob Rule: a failed
    # check re-rolled with another Ork within 15 cm. The cruiser's
    # target lies abeam 40 cm off, its consort 25 cm ahead on the other side: the unaware
    # cruiser turns for the target and leaves the consort behind; the aware one keeps
    # formation, ending within 15 cm of it.
    def scene(policy):
        return consort_gap(
            cat,
            policy,
            (slug, faction_slug),
            ("plain-cruiser", "test-navy"),
            consort_at=(80, 64),
            enemy_at=(130, 40),
        )

    assert scene(StandardPolicy()) <= 15.0
    assert scene(UnawarePolicy()) > 15.0


def test_against_holofields_the_fleet_arrives_together(cat):
    # A cruiser with its consort 15 cm abeam, the enemy 40 cm abeam on the other side and 20 cm
    # ahead: against a plain cruiser it turns for it and leaves the consort 28 cm off; against an
    # Eldar cruiser (holofields, R-89) it ends within 20 cm of the consort, so the two enter
    # the Eldar's 15 cm together. The unaware policy runs ahead either way.
    def scene(policy, enemy, enemy_faction):
        return consort_gap(
            cat,
            policy,
            ("plain-cruiser", "test-navy"),
            (enemy, enemy_faction),
            consort_at=(75, 40),
            enemy_at=(130, 60),
        )

    assert scene(StandardPolicy(), "eldar-cruiser", "craftworld-eldar") <= 20.0
    assert scene(UnawarePolicy(), "eldar-cruiser", "craftworld-eldar") > 25.0
    assert scene(StandardPolicy(), "plain-cruiser", "test-navy") > 25.0


def test_against_holofields_the_guns_pick_the_target_the_dice_can_hurt(cat):
    # Two Eldar cruisers to port: the fleet's focus (damaged, 20 cm off) and a fresh one 12 cm
    # off. Beyond 15 cm holofields ignore a hit on 2+, within it on 5+ (R-89): a volley at the
    # nearer one does about six times the harm, so the aware broadside fires there; the unaware
    # one keeps to the focus target.
    def scene(policy):
        b = make_battle(
            cat,
            fleet(cap("chaos-cruiser"), faction="archenemy"),
            fleet(cap("eldar-cruiser"), cap("eldar-cruiser"), faction="craftworld-eldar"),
            [],
            policy_a=policy,
            policy_b=StandardPolicy(),
        )
        me = put(b.sides[0][0], 90, 50, 90)
        far = put(b.sides[1][0], 70, 50, 90)
        near = put(b.sides[1][1], 78, 50, 90)
        far.target.hull = 3  # damaged, not crippled: its holofields stand
        port = next(g for g in me.spec.guns if g.name == "Port Battery")
        options = [s for s in sightings(b, me) if s.arcs & port.arcs]
        assert {s.ship for s in options} == {far, near}
        assert b.policies[0].focus(b, 0) is far
        return b.policies[0].gun_target(b, me, port, options).ship, far, near

    picked, _, near = scene(StandardPolicy())
    assert picked is near
    picked, far, _ = scene(UnawarePolicy())
    assert picked is far


def test_boarders_close_to_base_contact_when_they_would_board(cat):
    # Boarding: 1d6 + hull + Ld, Astartes +2. The strike cruiser (hull 8, Ld 9,
    # +2) beats a plain cruiser (hull 8, Ld 8) by 3 before the dice, so with the enemy 20 cm
    # ahead the aware ship ends its move in base contact, to board in its shooting step; the
    # unaware one stops at point blank and fires.
    (aware, a, e), (unaware, a2, e2) = both(
        cat,
        "assault-cruiser",
        "adeptus-astartes",
        "plain-cruiser",
        "test-navy",
        a_at=(90, 40, 90),
        b_at=(95, 60, 270),
    )
    assert end_distance(aware, a, e) <= a.radius + e.radius
    assert end_distance(unaware, a2, e2) > a2.radius + e2.radius + 5.0
    # Crippled (−2 to board, §11) it no longer has the margin: it fights at range instead.
    a.target.hull = a.target.crippled_at
    assert end_distance(aware, a, e) > a.radius + e.radius + 5.0


def test_orks_fire_their_gunz_at_point_blank_rather_than_close_to_board(cat):
    # The same scene with an Ork kroozer (hull 8, Ld 10, Ere We Go +1: the margin of 3 too).
    # At 15 cm or less its gunz re-roll 1s to hit (Dakka, R-120), and closing to board cost
    # the Orks in the Battle mirror and against the field (docs/simulator.md), so the aware
    # policy plays it as the unaware one does: point blank, not base contact.
    for b, a, e in both(
        cat,
        "boarding-kroozer",
        "orks",
        "plain-cruiser",
        "test-navy",
        a_at=(90, 40, 90),
        b_at=(95, 60, 270),
    ):
        assert end_distance(b, a, e) > a.radius + e.radius + 5.0


# --- seed 001's debris: not crossed at speed where its fractures are played (R-131) -----------


@pytest.mark.parametrize("terrain, crosses", [("void", False), ("section13", True)])
def test_a_frigate_goes_round_debris_only_where_crossing_it_fractures_the_hull(
    cat, terrain, crosses
) -> None:
    """A frigate (Mass 1, 1 hull) closing on a cruiser has a debris field straight ahead. With
    seed 001's rules its 25 cm move through it would roll five dice, each 1 a lost hull point,
    so it goes round or stops short; with §13's terrain alone debris is only cover and half
    speed, and it goes straight on."""
    b = make_battle(
        cat,
        fleet(cap("mech-frigate"), faction="adeptus-mechanicus"),
        fleet(cap("chaos-cruiser"), faction="archenemy"),
        [],
        policy_a=StandardPolicy(),
        policy_b=StandardPolicy(),
        options=SimOptions(terrain=terrain),
    )
    frigate = put(b.sides[0][0], 60.0, 30.0, 90.0)
    put(b.sides[1][0], 60.0, 100.0, 270.0)
    debris = Terrain("debris", 60.0, 45.0, 6.0, name="debris field")
    b.terrain.append(debris)
    order, plan = b.policies[0].plan(b, b.units[0][0], frigate, False, False)
    x, y, _ = end_point(frigate, plan, limits(b, frigate, order, False))
    gap = segment_point_distance(60.0, 30.0, x, y, debris.x, debris.y)
    moved = math.hypot(x - 60.0, y - 30.0)
    assert (gap <= debris.r + frigate.radius and moved >= 5.0) is crosses
