"""The faction rules added to the simulator after R-89 (R-110 – R-121), each as a scenario a
player would recognise, with rigged dice (rules_core.dice.RiggedDice)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from rules_core.catalog import Catalog, CraftRole, catalog_from_dicts
from rules_core.damage import Critical
from rules_core.sim import gunnery, ordnance
from rules_core.sim import orders as o
from rules_core.sim.movement import Plan
from rules_core.sim.policy import UnawarePolicy
from rules_core.sim.state import Salvo, Wave

from .conftest import (
    ADMIRALS,
    BROADSIDES,
    LIGHT,
    NAVY,
    Scripted,
    cap,
    fleet,
    make_battle,
    put,
    ship,
    squadron,
    text,
    weapon,
)


def faction(
    slug: str,
    *ships: dict[str, Any],
    allegiance: str = "xenos",
    craft: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "slug": slug,
        "name": slug.replace("-", " ").title(),
        "allegiance": allegiance,
        "description": "Faction-rule tests.",
        "leadership": 8,
        "ships": list(ships),
        "attack_craft": craft or [],
    }


FACTIONS = [
    faction(
        "adepta-sororitas",
        ship("sisters-cruiser", "cruiser", 180, weapons=LIGHT),
        ship("sisters-frigate", "escort", 40, hull=1, shields=1, speed=25, turns=90, weapons=LIGHT),
        allegiance="imperium",
    ),
    faction(
        "adeptus-astartes",
        ship(
            "battle-barge",
            "battleship",
            300,
            hull=10,
            weapons=[weapon("Launch Bays", "launch_bay", ["left", "right"], 2, 30)],
            attack_craft=["thunderhawk"],
        ),
        allegiance="imperium",
        craft=[{"slug": "thunderhawk", "name": "Thunderhawk", "role": "assault_boat"}],
    ),
    faction(
        "adeptus-custodes",
        ship("auramite-cruiser", "cruiser", 250, weapons=LIGHT),
        ship("vigil-frigate", "escort", 50, hull=2, shields=1, speed=25, turns=90, weapons=LIGHT),
        allegiance="imperium",
    ),
    faction(
        "grey-knights",
        ship(
            "gk-strike-cruiser",
            "cruiser",
            200,
            hull=6,
            shields=1,
            special_rules=["Teleport Assault"],
            weapons=[
                weapon("Port Weapons Battery", "battery", ["left"], 4, 30),
                weapon("Starboard Weapons Battery", "battery", ["right"], 4, 30),
                weapon("Prow Bombardment Cannon", "special", ["front"], 3, 30),
            ],
        ),
        allegiance="imperium",
    ),
    faction("leagues-of-votann", ship("hekaton", "cruiser", 220, weapons=LIGHT)),
    faction("archenemy", ship("chaos-cruiser", "cruiser", 180, weapons=LIGHT), allegiance="chaos"),
    faction("drukhari", ship("torture-cruiser", "cruiser", 160, shields=1, weapons=LIGHT)),
    faction(
        "tau-empire",
        ship(
            "tau-torpedo-ship",
            "cruiser",
            180,
            weapons=[weapon("Prow Gravitic Launcher", "torpedo", ["front"], 4, 40)],
        ),
    ),
    faction(
        "orks",
        ship(
            "ork-kroozer",
            "cruiser",
            150,
            ld=7,
            weapons=[weapon("Prow Gunz", "battery", ["front"], 4, 30)],
        ),
    ),
    faction(
        "imperial-navy",
        ship("navy-cruiser", "cruiser", 180, weapons=BROADSIDES, tags=["armoured-prow"]),
        ship(
            "navy-torp-cruiser",
            "cruiser",
            170,
            weapons=[weapon("Prow Torpedoes", "torpedo", ["front"], 4, 30)],
        ),
        allegiance="imperium",
    ),
]


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return catalog_from_dicts([NAVY, *FACTIONS], ADMIRALS, [], version="sim-test-more")


def duel(
    cat, a_slug, a_faction, b_slug, b_faction, rolls, *, a_at=(90, 50, 90), b_at=(70, 50, 90), **kw
):
    b = make_battle(
        cat,
        fleet(cap(a_slug), faction=a_faction),
        fleet(cap(b_slug), faction=b_faction),
        rolls,
        **kw,
    )
    return b, put(b.sides[0][0], *a_at), put(b.sides[1][0], *b_at)


class IgnoresFactionRules(Scripted):
    """A side that ignores its faction rules (issue 12 §5's yardstick, as UnawarePolicy): it
    takes none of the options they offer."""

    def takes_faction_options(self) -> bool:
        return False


# --- Adepta Sororitas: Acts of Faith (R-110) ------------------------------------------------------


def test_acts_of_faith_rerolls_one_failed_command_check_per_battle(cat):
    # Far from any flagship: 12 fails, the Sisters' faith re-rolls it to a 2. The next failure
    # that battle stands: the act of faith is spent.
    b, sisters, _ = duel(
        cat, "sisters-cruiser", "adepta-sororitas", "plain-cruiser", "test-navy", [6, 6, 1, 1, 6, 6]
    )
    assert o.command_check(b, sisters)
    assert "re-rolled (Acts of Faith): 2" in text(b)
    assert not o.command_check(b, sisters)
    b.dice.assert_used_up()


def test_acts_of_faith_rerolls_a_failed_brace_save_that_would_reach_the_hull(cat):
    # A braced Sisters cruiser (2 shields) takes 4 damage: all four brace saves fail (1s), so two
    # would get past the shields; faith re-rolls one save (5: saved). 3 points: 2 on the
    # shields, 1 on the hull (no critical: 1).
    b, sisters, _ = duel(
        cat,
        "sisters-cruiser",
        "adepta-sororitas",
        "plain-cruiser",
        "test-navy",
        [1, 1, 1, 1, 5, 1, 6, 6],
    )
    sisters.braced_round = b.round
    report = b.attack(sisters, gunnery.damage_points, 4, b.dice)
    assert report.brace_saves == 1 and report.shields_absorbed == 2
    assert sisters.target.hull == 7
    # The act of faith is spent: a failed command check now stands.
    assert not o.command_check(b, sisters)
    b.dice.assert_used_up()


def test_acts_of_faith_is_not_spent_when_the_shields_would_take_the_failures(cat):
    b, sisters, _ = duel(
        cat, "sisters-cruiser", "adepta-sororitas", "plain-cruiser", "test-navy", [1, 1]
    )
    sisters.braced_round = b.round
    b.attack(sisters, gunnery.damage_points, 2, b.dice)  # both fail; the 2 shields take them
    assert sisters.target.hull == 8 and sisters.target.brace_rerolls == 1


def test_sororitas_escorts_have_no_act_of_faith(cat):
    b = make_battle(
        cat,
        fleet(squadron("sisters-frigate", "sisters-frigate"), faction="adepta-sororitas"),
        fleet(cap("plain-cruiser")),
        [6, 6],
    )
    assert not o.command_check(b, b.sides[0][0])
    b.dice.assert_used_up()


# --- Adeptus Astartes: Orbital Assault (R-111) ----------------------------------------------------


@pytest.mark.parametrize(
    "carrier, faction_, criticals",
    [
        ("battle-barge", "adeptus-astartes", 1),  # a 3 gets the Thunderhawks aboard
        ("carrier", "test-navy", 0),  # Navy assault boats need 4+
    ],
)
def test_astartes_assault_boats_cause_criticals_on_3(cat, carrier, faction_, criticals):
    # Two boats reach a cruiser with one turret: the turret misses (1); attack rolls 3 and 2.
    # Pins R-111: Orbital Assault, criticals on 3+.
    rolls = [1, 3, 2] + ([3, 4] if criticals else [])  # the critical: 7, port armament
    b, barge, victim = duel(cat, carrier, faction_, "plain-cruiser", "test-navy", rolls)
    boats = next(c for c in barge.spec.craft if c[0] is CraftRole.ASSAULT_BOAT)
    wave = Wave(0, CraftRole.ASSAULT_BOAT, victim.x, victim.y, 2, victim, barge, boats[1])
    ordnance._craft_attack(b, wave, victim)
    assert len(victim.target.criticals) == criticals
    b.dice.assert_used_up()


# --- Adeptus Custodes: Auramite Hulls (R-112) -----------------------------------------------------


def test_auramite_hulls_ignore_a_critical_on_a_6(cat):
    # Two points of damage on a Custodes cruiser with its shields down: each rolls a 6 for a
    # critical; the auramite shrugs off the first (6), not the second (5: Fire!, 2d6 = 9).
    # Pins R-112: a critical ignored on a 6.
    b, custodes, _ = duel(
        cat,
        "auramite-cruiser",
        "adeptus-custodes",
        "plain-cruiser",
        "test-navy",
        [6, 6, 6, 5, 4, 5],
    )
    custodes.target.shields = 0
    report = b.attack(custodes, gunnery.damage_points, 2, b.dice, shields=False)
    assert [c.effect for c in custodes.target.criticals] == [Critical.FIRE]
    assert custodes.target.hull == 6
    assert "a critical hit ignored (Auramite Hulls)" in gunnery.describe(report)
    b.dice.assert_used_up()


def test_custodes_escorts_have_no_auramite_ward(cat):
    # An escort's critical is rolled straight on the table (2d6 = 9: Fire!), no ward die.
    # Pins R-112: capital ships only.
    b = make_battle(
        cat,
        fleet(squadron("vigil-frigate", "vigil-frigate"), faction="adeptus-custodes"),
        fleet(cap("plain-cruiser")),
        [6, 4, 5],
    )
    escort = b.sides[0][0]
    b.attack(escort, gunnery.damage_points, 1, b.dice, shields=False)
    assert [c.effect for c in escort.target.criticals] == [Critical.FIRE]
    b.dice.assert_used_up()


# --- Archenemy: Hatred of the False Emperor (R-114) -----------------------------------------------


@pytest.mark.parametrize("enemy_faction, rerolled", [("test-navy", True), ("orks", False)])
def test_hatred_rerolls_a_failed_lock_on_check_against_the_imperium(cat, enemy_faction, rerolled):
    # A traitor cruiser wants to Lock On; it rolls 11 against Ld 8. Against an Imperial fleet
    # its hatred re-rolls the check (6: passed, Lock On); against Orks it is hesitant.
    # Pins R-114: Lock On named before the roll, a failure re-rolled.
    enemy = "plain-cruiser" if enemy_faction == "test-navy" else "ork-kroozer"
    b = make_battle(
        cat,
        fleet(cap("chaos-cruiser"), faction="archenemy"),
        fleet(cap(enemy), faction=enemy_faction),
        [6, 5] + ([3, 3] if rerolled else []),
        policy_a=Scripted(order=o.LOCK_ON),
    )
    b.activate(b.units[0][0])
    log = text(b)
    if rerolled:
        assert "re-rolled (Hatred of the False Emperor): 6: passed" in log
        assert "Chaos Cruiser: Lock On." in log
    else:
        assert "Hatred" not in log and "Lock On" not in log
    b.dice.assert_used_up()


def test_hatred_does_not_reroll_checks_for_other_orders(cat):
    # Pins R-114: only for Lock On.
    b = make_battle(
        cat,
        fleet(cap("chaos-cruiser"), faction="archenemy"),
        fleet(cap("plain-cruiser")),
        [6, 5],
        policy_a=Scripted(order=o.RELOAD),
    )
    b.activate(b.units[0][0])
    assert "Hatred" not in text(b) and "Reload" not in text(b)
    b.dice.assert_used_up()


# --- Drukhari: Webway Raiders, Power from Pain (R-115) --------------------------------------------


def test_webway_raiders_disengage_at_plus_one(cat):
    # Ld 8; a roll of 9 to disengage passes with the Webway Raiders' +1.
    # Pins R-115: +1 Ld to disengage.
    b, raider, _ = duel(
        cat,
        "torture-cruiser",
        "drukhari",
        "plain-cruiser",
        "test-navy",
        [5, 4],
        policy_a=Scripted(disengage=True),
    )
    assert o.leadership(b, raider) == 8
    assert o.leadership(b, raider, disengaging=True) == 9
    b.activate(b.units[0][0])
    assert raider.disengaged and "rolled 9 against Ld 9: passed" in text(b)


def test_power_from_pain_lifts_ld_after_a_kill_within_30_cm(cat):
    # A Navy cruiser with one hull point left dies 20 cm from a Drukhari cruiser (a drifting
    # hulk, 2d6 = 2): the Drukhari ship checks at Ld 9 for the rest of this round and the next.
    # Pins R-115: +1 Ld after a kill within 30 cm.
    b, raider, victim = duel(
        cat, "torture-cruiser", "drukhari", "plain-cruiser", "test-navy", [1, 1]
    )
    victim.target.hull, victim.target.shields = 1, 0
    b.attack(victim, gunnery.damage_points, 1, b.dice)
    assert victim.destroyed and "Power from Pain" in text(b)
    assert o.leadership(b, raider) == 9
    b.round += 1
    assert o.leadership(b, raider) == 9
    b.round += 1
    assert o.leadership(b, raider) == 8


def test_power_from_pain_needs_the_kill_within_30_cm(cat):
    # Pins R-115: not beyond 30 cm.
    b, raider, victim = duel(
        cat, "torture-cruiser", "drukhari", "plain-cruiser", "test-navy", [1, 1], b_at=(40, 50, 90)
    )
    victim.target.hull, victim.target.shields = 1, 0
    b.attack(victim, gunnery.damage_points, 1, b.dice)
    assert victim.destroyed and o.leadership(b, raider) == 8


# --- Grey Knights: Teleport Assault (R-116) -------------------------------------------------------


def test_teleport_assault_gives_up_an_idle_broadside_for_a_critical(cat):
    # The strike cruiser passes its check (6) and moves its 10 cm minimum north, ending with
    # an enemy 8 cm off its port side. The starboard battery has nothing to shoot, so it is
    # given up: the strike team lands on 4 and the enemy takes a critical (2d6 = 7: port
    # armament) with its shield untouched. Then the port battery fires (8 cm: 4+; all miss).
    # Pins R-116: one gun given up, a critical on 4+.
    b, gk, enemy = duel(
        cat,
        "gk-strike-cruiser",
        "grey-knights",
        "plain-cruiser",
        "test-navy",
        [3, 3, 4, 3, 4, 1, 1, 1, 1],
        a_at=(90, 50, 90),
        b_at=(82, 60, 90),
    )
    b.activate(b.units[0][0])
    log = text(b)
    assert "gives up its Starboard Weapons Battery to teleport a strike team aboard" in log
    assert [c.effect for c in enemy.target.criticals] == [Critical.PORT_ARMAMENT_DAMAGED]
    assert enemy.target.shields == 1
    assert "fires Port Weapons Battery" in log and "Starboard Weapons Battery (" not in log
    b.dice.assert_used_up()


def test_teleport_assault_fails_on_3_and_needs_an_enemy_within_10_cm(cat):
    # Pins R-116: 4+ only, within 10 cm.
    b, gk, enemy = duel(
        cat,
        "gk-strike-cruiser",
        "grey-knights",
        "plain-cruiser",
        "test-navy",
        [3, 3, 3, 1, 1, 1, 1],
        a_at=(90, 50, 90),
        b_at=(82, 60, 90),
    )
    b.activate(b.units[0][0])
    assert "the team is lost" in text(b) and not enemy.target.criticals
    b.dice.assert_used_up()
    # 14 cm away: no teleport, the port battery fires alone (4+ at point blank; all miss).
    b2, gk2, enemy2 = duel(
        cat,
        "gk-strike-cruiser",
        "grey-knights",
        "plain-cruiser",
        "test-navy",
        [3, 3, 1, 1, 1, 1],
        a_at=(90, 50, 90),
        b_at=(76, 60, 90),
    )
    b2.activate(b2.units[0][0])
    assert "teleport" not in text(b2)
    b2.dice.assert_used_up()


def test_a_side_that_ignores_its_faction_rules_sends_no_strike_team(cat):
    # The scene above, played by UnawarePolicy (issue 12 §5's yardstick): the rule says "may",
    # and a player who ignores the rule does not take it. Passed check (6), then the port
    # battery fires alone (all miss); the starboard battery has nothing to shoot.
    b, gk, enemy = duel(
        cat,
        "gk-strike-cruiser",
        "grey-knights",
        "plain-cruiser",
        "test-navy",
        [3, 3, 1, 1, 1, 1],
        a_at=(90, 50, 90),
        b_at=(82, 60, 90),
        policy_a=UnawarePolicy(),
    )
    b.activate(b.units[0][0])
    assert "teleport" not in text(b) and not enemy.target.criticals
    b.dice.assert_used_up()


# --- Imperial Navy: Naval Discipline, Torpedo Doctrine (R-117) ------------------------------------


def test_naval_discipline_one_free_lock_on_a_round_in_command_radius(cat):
    # Flagship and a second cruiser 10 cm apart, both wanting Lock On. The first takes it with
    # no command check; the second must pass one (rolled 6: passed).
    # Pins R-117: one free Lock On or Reload a round in command radius.
    b = make_battle(
        cat,
        fleet(cap("navy-cruiser", flagship=True), cap("navy-cruiser"), faction="imperial-navy"),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Scripted(order=o.LOCK_ON),
    )
    put(b.sides[0][0], 50, 20, 90)
    put(b.sides[0][1], 60, 20, 90)
    b.activate(b.units[0][0])
    b.activate(b.units[0][1])
    log = text(b)
    assert log.count("without a command check (Naval Discipline)") == 1
    assert "command check: rolled 6 against Ld" in log
    assert log.count(": Lock On.") == 2
    b.dice.assert_used_up()


def test_a_side_that_ignores_its_faction_rules_takes_no_free_order(cat):
    # The first scene, with a player who ignores Naval Discipline (issue 12 §5's yardstick):
    # both cruisers take their command checks (6 and 6: passed).
    b = make_battle(
        cat,
        fleet(cap("navy-cruiser", flagship=True), cap("navy-cruiser"), faction="imperial-navy"),
        fleet(cap("plain-cruiser")),
        [3, 3, 3, 3],
        policy_a=IgnoresFactionRules(order=o.LOCK_ON),
    )
    put(b.sides[0][0], 50, 20, 90)
    put(b.sides[0][1], 60, 20, 90)
    b.activate(b.units[0][0])
    b.activate(b.units[0][1])
    log = text(b)
    assert "Naval Discipline" not in log
    assert log.count("command check: rolled 6 against Ld") == 2
    assert log.count(": Lock On.") == 2
    b.dice.assert_used_up()


def test_naval_discipline_not_outside_command_radius_nor_for_other_orders(cat):
    # Pins R-117: not outside the radius, not other orders.
    b = make_battle(
        cat,
        fleet(cap("navy-cruiser", flagship=True), cap("navy-cruiser"), faction="imperial-navy"),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Scripted(order=o.LOCK_ON),
    )
    put(b.sides[0][0], 20, 20, 90)
    put(b.sides[0][1], 100, 20, 90)  # 80 cm from the flagship
    b.activate(b.units[0][1])
    assert "Naval Discipline" not in text(b)
    b.dice.assert_used_up()
    b2 = make_battle(
        cat,
        fleet(cap("navy-cruiser", flagship=True), faction="imperial-navy"),
        fleet(cap("plain-cruiser")),
        [3, 3],
        policy_a=Scripted(order=o.NEW_HEADING),
    )
    b2.activate(b2.units[0][0])
    assert "Naval Discipline" not in text(b2)
    b2.dice.assert_used_up()


@pytest.mark.parametrize("crippled, passes", [(False, True), (True, False)])
def test_torpedo_doctrine_reloads_on_10_or_less_unless_crippled(cat, crippled, passes):
    # Spent tubes, Ld 8, two blast markers (Ld 6): the reload check rolls 10. Doctrine passes it
    # for a sound ship; a crippled one checks at its own Ld and fails.
    # Pins R-117: Reload on 10 or less unless crippled.
    b = make_battle(
        cat,
        fleet(cap("navy-torp-cruiser"), faction="imperial-navy"),
        fleet(cap("plain-cruiser")),
        [5, 5],
        policy_a=Scripted(order=o.RELOAD),
    )
    s = b.sides[0][0]
    s.torpedoes_ready = False
    s.target.blast_markers = 2
    if crippled:
        s.target.hull = 4
    b.activate(b.units[0][0])
    assert s.torpedoes_ready is passes
    assert ("Torpedo Doctrine" in text(b)) is passes
    b.dice.assert_used_up()


# --- Leagues of Votann: Ancestral Grudge, Void Armour (R-118) -------------------------------------


def test_ancestral_grudge_the_first_ship_to_hurt_the_kin_is_hit_at_plus_one(cat):
    # Pins R-118: the first capital ship to damage the kin, +1 to hit.
    b, kin, navy = duel(
        cat,
        "hekaton",
        "leagues-of-votann",
        "plain-cruiser",
        "test-navy",
        [1, 4, 4, 1, 1, 1, 1, 1],
        b_at=(90, 70, 270),
    )
    kin.target.shields = 0
    b.attack(kin, gunnery.damage_points, 1, b.dice, shields=False, source=navy)  # no crit (1)
    assert "named the fleet's grudge" in text(b)
    # 20 cm dead ahead: 5+ to hit, +1 for the grudge: the two 4s hit; armor 5 fails twice.
    gunnery.fire_guns(b, kin, hesitant=False)
    assert "to-hit modifier +1): 2 hits from 4 dice" in text(b)
    b.dice.assert_used_up()


def test_void_armour_bulkhead_collapse_deals_d3_minus_1(cat):
    # One point on a Votann cruiser: critical (6), 2d6 = 11 Bulkhead Collapse, d3 = 3 - 1 = 2
    # more points (no further criticals): 3 hull lost in all, not 4.
    # Pins R-118: Void Armour, d3 - 1.
    b, kin, _ = duel(
        cat, "hekaton", "leagues-of-votann", "plain-cruiser", "test-navy", [6, 5, 6, 3, 1, 1]
    )
    report = b.attack(kin, gunnery.damage_points, 1, b.dice, shields=False)
    assert kin.target.hull == 5 and report.extra_damage == 2
    b.dice.assert_used_up()


# --- T'au: Seeking Missiles (R-119) ---------------------------------------------------------------


@pytest.mark.parametrize(
    "launcher, faction_, turned",
    [("tau-torpedo-ship", "tau-empire", True), ("torp-cruiser", "test-navy", False)],
)
def test_seeking_missiles_turn_45_degrees_towards_the_nearest_enemy(
    cat, launcher, faction_, turned
):
    # A salvo heading east with the only enemy due north of it: T'au torpedoes turn 45° towards
    # it before moving their 30 cm; others fly straight on.
    # Pins R-119: up to 45° at the start of each Drift move.
    b, ship_, enemy = duel(
        cat,
        launcher,
        faction_,
        "plain-cruiser",
        "test-navy",
        [],
        a_at=(20, 20, 90),
        b_at=(50, 100, 270),
    )
    salvo = Salvo(0, 50.0, 50.0, 1.0, 0.0, 4, ship_)
    b.salvos.append(salvo)
    ordnance.drift(b)
    if turned:
        assert (salvo.x, salvo.y) == (
            pytest.approx(50 + 30 / math.sqrt(2)),
            pytest.approx(50 + 30 / math.sqrt(2)),
        )
    else:
        assert (salvo.x, salvo.y) == (pytest.approx(80.0), pytest.approx(50.0))


# --- Orks: Dakka (R-120) --------------------------------------------------------------------------


def test_dakka_rerolls_ones_at_point_blank(cat):
    # 10 cm: gunz need 4+; rolled 1, 1, 4, 2: the two 1s are re-rolled (4, 6): three hits.
    # Armor 5 saves none (1s); the shield takes one, the hull two (no criticals).
    # Pins R-120: each 1 rolled again at 15 cm or less.
    b, ork, navy = duel(
        cat,
        "ork-kroozer",
        "orks",
        "plain-cruiser",
        "test-navy",
        [1, 1, 4, 2, 4, 6, 1, 1, 1, 1, 1],
        b_at=(90, 60, 270),
    )
    gunnery.fire_guns(b, ork, hesitant=False)
    assert "3 hits from 4 dice" in text(b)
    assert navy.target.hull == 6
    b.dice.assert_used_up()


def test_dakka_does_not_reroll_beyond_15_cm(cat):
    # Pins R-120: not beyond point blank.
    b, ork, navy = duel(
        cat,
        "ork-kroozer",
        "orks",
        "plain-cruiser",
        "test-navy",
        [1, 1, 5, 2, 1],
        b_at=(90, 70, 270),
    )
    gunnery.fire_guns(b, ork, hesitant=False)  # 20 cm: 5+, one hit, the shield takes it
    assert "1 hit from 4 dice" in text(b)
    b.dice.assert_used_up()


def test_dakka_and_an_armoured_prow(cat):
    # Orks firing at a Navy cruiser's armoured prow head-on at 10 cm: 1, 4, 4, 4, the 1
    # re-rolled to a 5: four hits, the prow ignores the first; armor fails three times, the two
    # shields take two and the hull one (no critical).
    b, ork, navy = duel(
        cat,
        "ork-kroozer",
        "orks",
        "navy-cruiser",
        "imperial-navy",
        [1, 4, 4, 4, 5, 1, 1, 1, 1],
        b_at=(90, 60, 270),
    )
    gunnery.fire_guns(b, ork, hesitant=False)
    assert "4 hits from 4 dice, 1 ignored by the armoured prow" in text(b)
    assert navy.target.hull == 7
    b.dice.assert_used_up()


def test_acts_of_faith_is_kept_when_the_command_radius_reroll_applies(cat):
    # In its flagship's command radius the failed check is re-rolled there (and fails again):
    # a check is re-rolled once, so the act of faith is not spent on it.
    b = make_battle(
        cat,
        fleet(cap("sisters-cruiser", flagship=True), faction="adepta-sororitas"),
        fleet(cap("plain-cruiser")),
        [6, 6, 6, 6],
    )
    sisters = b.sides[0][0]
    assert not o.command_check(b, sisters)
    assert "re-rolled in command radius" in text(b) and "Acts of Faith" not in text(b)
    assert sisters.target.brace_rerolls == 1
    b.dice.assert_used_up()


@pytest.mark.parametrize(
    "a, b",
    [
        ("grey-knights", "leagues-of-votann"),
        ("tau-empire", "drukhari"),
        ("adepta-sororitas", "archenemy"),
        ("adeptus-custodes", "adeptus-astartes"),
    ],
)
def test_battles_with_the_new_rules_repeat_exactly_whatever_the_workers(real_catalog, a, b):
    from rules_core.sample_fleets import sample_fleet
    from rules_core.sim import simulate

    fa, fb = sample_fleet(real_catalog, a, "skirmish"), sample_fleet(real_catalog, b, "skirmish")
    one = simulate(real_catalog, fa, fb, battles=12, seed=5, workers=1).summary(seed=5)
    two = simulate(real_catalog, fa, fb, battles=12, seed=5, workers=2).summary(seed=5)
    assert one == two


# --- A side that ignores its faction rules takes none of their options ------------


def test_a_side_that_ignores_its_faction_rules_has_no_act_of_faith(cat):
    # Acts of Faith "may re-roll": the 12 stands.
    b, sisters, _ = duel(
        cat,
        "sisters-cruiser",
        "adepta-sororitas",
        "plain-cruiser",
        "test-navy",
        [6, 6],
        policy_a=UnawarePolicy(),
    )
    assert sisters.target.brace_rerolls == 0
    assert not o.command_check(b, sisters)
    assert "Acts of Faith" not in text(b)
    b.dice.assert_used_up()


def test_a_side_that_ignores_its_faction_rules_names_no_grudge(cat):
    # Ancestral Grudge: "the player may name it".
    b, kin, navy = duel(
        cat,
        "hekaton",
        "leagues-of-votann",
        "plain-cruiser",
        "test-navy",
        [1],
        b_at=(90, 70, 270),
        policy_a=IgnoresFactionRules(),
    )
    kin.target.shields = 0
    b.attack(kin, gunnery.damage_points, 1, b.dice, shields=False, source=navy)
    assert b.memo.grudge[0] is None and "grudge" not in text(b)
    b.dice.assert_used_up()


def test_a_side_that_ignores_its_faction_rules_fires_its_torpedoes_straight(cat):
    # Seeking Missiles "may turn": the scene of the test above, T'au torpedoes flying on east.
    b, ship_, _ = duel(
        cat,
        "tau-torpedo-ship",
        "tau-empire",
        "plain-cruiser",
        "test-navy",
        [],
        a_at=(20, 20, 90),
        b_at=(50, 100, 270),
        policy_a=UnawarePolicy(),
    )
    salvo = Salvo(0, 50.0, 50.0, 1.0, 0.0, 4, ship_)
    b.salvos.append(salvo)
    ordnance.drift(b)
    assert (salvo.x, salvo.y) == (pytest.approx(80.0), pytest.approx(50.0))


@pytest.mark.parametrize("policy, checked", [(Scripted, False), (IgnoresFactionRules, True)])
def test_an_ork_side_that_ignores_ere_we_go_checks_before_it_rams(cat, policy, checked):
    # Ere We Go: Orks "may attempt to ram without a Command Check"; ignoring the rule, they
    # take the check as every other fleet does.
    b, ork, enemy = duel(
        cat,
        "ork-kroozer",
        "orks",
        "plain-cruiser",
        "test-navy",
        [1] * 60,
        a_at=(90, 30, 90),
        b_at=(90, 45, 270),
    )
    b.policies = (policy(plan=Plan(20.0, 0.0, ram=enemy)), b.policies[1])
    b.activate(b.units[0][0])
    assert ("command check to ram" in text(b)) is checked
