"""Whole battles: victory conditions and victory points (§14, R-13, R-15, R-88), the log, the
public API and its errors."""

from __future__ import annotations

import json

import pytest

from rules_core.dice import SeededDice
from rules_core.fleet import Fleet, GameSize
from rules_core.sim import BattleResult, SimError, SimOptions, Tally, play_battle, simulate
from rules_core.sim.battle import Battle
from rules_core.sim.state import fleet_spec

from .conftest import cap, fleet, make_battle, squadron


def scoring_battle(sim_catalog, scoring):
    b = make_battle(
        sim_catalog,
        fleet(cap("plain-cruiser")),
        fleet(
            cap("gun-cruiser"),
            cap("plain-cruiser"),
            cap("carrier"),
            cap("torp-cruiser"),
            squadron("frigate", "frigate"),
        ),
        [],
        options=SimOptions(scoring=scoring),
    )
    gun, plain, carrier, torp, f1, f2 = b.sides[1]
    gun.on_table, gun.destroyed = False, True  # 180: destroyed
    plain.target.hull = 4  # 150: crippled, still on the table
    carrier.on_table, carrier.disengaged = False, True  # 200: disengaged intact
    torp.on_table, torp.disengaged, torp.crippled_when_left = False, True, True  # 170
    f1.on_table, f1.destroyed, f1.hulk = False, True, True  # 35: a hulk
    return b


def test_seed_000_scoring_full_for_destroyed_half_for_crippled_and_crippled_disengaged(sim_catalog):
    b = scoring_battle(sim_catalog, "core")
    assert b.victory_points() == [180 + 150 // 2 + 170 // 2 + 35, 0]


def test_faq_scoring_counts_disengaged_ships_and_hulks(sim_catalog):
    b = scoring_battle(sim_catalog, "faq")
    # destroyed 180 + 35; crippled on the table 25% of 150; disengaged 10% of 200; crippled
    # disengaged 25% of 170; A holds the field (150 on the table against 150 + 35): no.
    expected_a = 180 + 35 + 150 * 25 // 100 + 200 * 10 // 100 + 170 * 25 // 100
    assert b.victory_points()[0] == expected_a
    hulk_bonus = 35 // 2
    assert b.victory_points()[1] == hulk_bonus  # B has more left on the table: holds the field


def test_a_battle_ends_by_annihilation_before_the_time_limit(sim_catalog):
    a = fleet_spec(sim_catalog, fleet(cap("gun-cruiser")), 0)
    bb = fleet_spec(sim_catalog, fleet(cap("frigate")), 1)
    b = Battle(a, bb, SeededDice("x"), SimOptions(max_rounds=10))
    b.sides[1][0].target.hull = 1
    b.sides[1][0].on_table = False
    b.sides[1][0].destroyed = True
    result = b.play()
    assert result.rounds == 1 and result.ended_by == "annihilation"
    assert result.winner == "a" and result.vp == {"a": 35, "b": 0}


def test_a_battle_lasts_max_rounds_and_the_side_with_more_vp_wins(sim_catalog):
    f = fleet(cap("plain-cruiser"))
    result = play_battle(sim_catalog, f, f, seed=5, options=SimOptions(max_rounds=1))
    assert result.rounds == 1 and result.ended_by == "time"
    va, vb = result.vp["a"], result.vp["b"]
    assert result.winner == (None if va == vb else "a" if va > vb else "b")


def test_the_log_tells_the_battle_round_by_round(real_catalog, fleets_real):
    a, b = fleets_real
    result = play_battle(real_catalog, a, b, seed=7, index=3, log=True)
    assert result.log is not None
    phases = {e.phase for e in result.log}
    assert {"setup", "command", "activation", "result"} <= phases
    rounds = sorted({e.round for e in result.log})
    assert rounds[0] == 0 and rounds[-1] == result.rounds
    assert "command check" in " ".join(e.text for e in result.log)
    assert result.log[-1].text.startswith(f"After {result.rounds} round")


def test_the_same_seed_and_index_replays_the_same_battle(real_catalog, fleets_real):
    a, b = fleets_real
    one = play_battle(real_catalog, a, b, seed=11, index=4, log=True)
    two = play_battle(real_catalog, a, b, seed=11, index=4, log=True)
    assert one.to_dict() == two.to_dict()
    other = play_battle(real_catalog, a, b, seed=11, index=5, log=True)
    assert other.to_dict() != one.to_dict()


def test_results_are_identical_with_one_and_with_two_workers(real_catalog, fleets_real):
    a, b = fleets_real
    one = simulate(real_catalog, a, b, battles=24, seed=42, workers=1)
    two = simulate(real_catalog, a, b, battles=24, seed=42, workers=2)
    assert json.dumps(one.summary(seed=42)) == json.dumps(two.summary(seed=42))


def test_a_tally_is_mergeable_and_round_trips_through_json(real_catalog, fleets_real):
    a, b = fleets_real
    whole = simulate(real_catalog, a, b, battles=12, seed=3)
    first = simulate(real_catalog, a, b, battles=5, seed=3)
    rest = simulate(real_catalog, a, b, battles=7, seed=3, first_index=5)
    again = Tally.from_state(json.loads(json.dumps(first.to_state())))
    assert again.merge(rest).summary(seed=3) == whole.summary(seed=3)


def test_the_summary_has_contract_3s_keys(real_catalog, fleets_real):
    a, b = fleets_real
    done = []
    s = simulate(
        real_catalog, a, b, battles=6, seed=1, progress=lambda n, total: done.append((n, total))
    ).summary(seed=1)
    for key in (
        "battles",
        "seed",
        "a_wins",
        "b_wins",
        "draws",
        "a_win_rate",
        "a_win_ci95",
        "a_vp_mean",
        "b_vp_mean",
        "rounds_mean",
        "ships",
        "vp",
        "rounds_histogram",
    ):
        assert key in s
    assert s["a_wins"] + s["b_wins"] + s["draws"] == 6
    row = s["ships"][0]
    assert {
        "side",
        "unit",
        "ship",
        "destroyed_rate",
        "crippled_rate",
        "disengaged_rate",
        "intact_rate",
    } <= set(row)
    assert sum(
        row[f"{f}_rate"] for f in ("destroyed", "crippled", "disengaged", "intact")
    ) == pytest.approx(1, abs=1e-5)
    assert sum(h["count"] for h in s["vp"]["a"]["histogram"]) == 6
    assert done[-1] == (6, 6)


def test_wilson_interval_of_known_values():
    from rules_core.sim import wilson

    lo, hi = wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 10)[0] == 0.0


def test_unplayable_fleets_are_refused_with_a_readable_error(sim_catalog):
    empty = Fleet(faction="test-navy", game_size=GameSize.SKIRMISH, units=())
    with pytest.raises(SimError, match="no units"):
        play_battle(sim_catalog, empty, fleet(cap("plain-cruiser")), seed=1)
    with pytest.raises(SimError, match="does not know \\('no-such-ship'\\)"):
        play_battle(sim_catalog, fleet(cap("no-such-ship")), fleet(cap("plain-cruiser")), seed=1)


def test_options_round_trip_and_refuse_bad_values():
    opts = SimOptions(max_rounds=6, scoring="faq", terrain="void", table="armada")
    assert SimOptions.from_dict(opts.to_dict()) == opts
    for bad in (
        {"scoring": "points"},
        {"max_rounds": 0},
        {"terrain": 3},
        {"colour": "red"},
        {"policy_a": "berserk"},
        {"table": "kitchen"},
    ):
        with pytest.raises(ValueError):
            SimOptions.from_dict(bad)


def test_battle_result_fates_cover_every_ship(sim_catalog):
    f = fleet(cap("plain-cruiser"), squadron("frigate", "frigate"))
    result = play_battle(sim_catalog, f, f, seed=2)
    assert isinstance(result, BattleResult)
    assert len(result.fates) == 6
    assert {r["fate"] for r in result.fates} <= {"destroyed", "crippled", "disengaged", "intact"}
