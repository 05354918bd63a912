"""Exact odds of one attack (rules_core.odds) and the `python -m rules_core odds` command.

The expected values are computed here independently, from math.comb and Fraction, straight
from the rules' closed forms.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from rules_core.damage import Target, fire_batteries, fire_lances
from rules_core.dice import SeededDice
from rules_core.odds import OddsInputError, volley_odds

ROOT = Path(__file__).resolve().parents[2]
SIXTH = Fraction(1, 6)


def binomial(n: int, p: Fraction) -> list[Fraction]:
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def after_shields(unsaved: list[Fraction], shields: int) -> list[Fraction]:
    """P(hull damage = k) when shields take the first `shields` points."""
    top = max(len(unsaved) - 1 - shields, 0)
    return [sum(unsaved[: shields + 1]) if k == 0 else unsaved[k + shields] for k in range(top + 1)]


def crippled_or_worse(dist: list[Fraction], hull: int, max_hull: int) -> Fraction:
    if max_hull == 1:
        return sum(dist[hull:], Fraction(0))
    return sum((p for k, p in enumerate(dist) if hull - k <= max_hull // 2), Fraction(0))


# --- batteries: the closed-form grid ------------------------------------------------------


@pytest.mark.parametrize("strength", range(1, 21))
def test_battery_volley_matches_the_closed_form_binomial(strength: int) -> None:
    for range_cm, to_hit in (
        (0, Fraction(3, 6)),
        (10, Fraction(3, 6)),
        (15, Fraction(3, 6)),
        (15.5, Fraction(2, 6)),
        (30, Fraction(2, 6)),
    ):
        for armor in range(2, 7):
            unsaved = binomial(strength, to_hit * Fraction(armor - 1, 6))
            for shields in range(0, 5):
                expected = after_shields(unsaved, shields)
                odds = volley_odds(
                    "battery", strength, range_cm=range_cm, armor=armor, shields=shields, hull=6
                )
                assert list(odds.hull_damage) == expected, (range_cm, armor, shields)
                assert odds.mean_hull_damage == sum(k * p for k, p in enumerate(expected))
                assert odds.p_destroyed == sum(expected[6:], Fraction(0))
                assert odds.p_crippled == crippled_or_worse(expected, 6, 6)
                out = odds.to_dict()
                assert out["hull_damage"] == [float(p) for p in expected]
                assert out["p_destroyed"] == float(odds.p_destroyed)


def test_a_point_blank_volley_of_six_against_armor_5_and_one_shield() -> None:
    # each die: 4+ to hit (1/2), then fails a 5+ save (2/3): 1/3 a die
    odds = volley_odds("battery", 6, range_cm=10, armor=5, shields=1, hull=8)
    p = Fraction(1, 3)
    assert odds.hull_damage[0] == (1 - p) ** 6 + 6 * p * (1 - p) ** 5
    assert odds.hull_damage[5] == p**6
    assert len(odds.hull_damage) == 6
    assert sum(odds.hull_damage) == 1


@pytest.mark.parametrize(
    ("range_cm", "mod", "to_hit"),
    [
        (10, +1, Fraction(4, 6)),  # Lock On: 3+
        (10, +2, Fraction(5, 6)),
        (10, +3, Fraction(5, 6)),  # a natural 1 always misses
        (20, +1, Fraction(3, 6)),
        (20, -1, Fraction(1, 6)),  # Come to New Heading at long range: 6+
        (20, -3, Fraction(1, 6)),  # hesitant, new heading and cover: a 6 still hits
        (10, -2, Fraction(1, 6)),
    ],
)
def test_to_hit_modifiers_are_clamped_to_two_plus_and_six_plus(range_cm, mod, to_hit) -> None:
    odds = volley_odds("battery", 5, range_cm=range_cm, armor=6, shields=0, hull=10, to_hit_mod=mod)
    assert list(odds.hull_damage) == binomial(5, to_hit * Fraction(5, 6))


@pytest.mark.parametrize("strength", [1, 4, 9, 16])
def test_brace_is_a_4_plus_save_after_armor_and_before_shields(strength: int) -> None:
    for armor in range(2, 7):
        for shields in range(0, 4):
            p = Fraction(2, 6) * Fraction(armor - 1, 6) * Fraction(1, 2)
            odds = volley_odds(
                "battery", strength, range_cm=25, armor=armor, shields=shields, hull=8, braced=True
            )
            assert list(odds.hull_damage) == after_shields(binomial(strength, p), shields)


def test_blast_markers_in_contact_suppress_the_shields() -> None:
    suppressed = volley_odds("battery", 8, range_cm=10, armor=4, shields=3, hull=8, blast_markers=1)
    unshielded = volley_odds("battery", 8, range_cm=10, armor=4, shields=0, hull=8)
    assert suppressed.hull_damage == unshielded.hull_damage


# --- lances --------------------------------------------------------------------------------


@pytest.mark.parametrize("strength", range(1, 21))
def test_lance_volley_ignores_armor_and_range(strength: int) -> None:
    for mod in range(-2, 4):
        to_hit = Fraction(min(5, max(1, 3 + mod)), 6)
        for shields in range(0, 5):
            expected = after_shields(binomial(strength, to_hit), shields)
            for armor, range_cm in ((2, 5), (6, 40)):
                odds = volley_odds(
                    "lance",
                    strength,
                    range_cm=range_cm,
                    armor=armor,
                    shields=shields,
                    hull=12,
                    to_hit_mod=mod,
                )
                assert list(odds.hull_damage) == expected
            braced = volley_odds(
                "lance", strength, armor=4, shields=shields, hull=12, to_hit_mod=mod, braced=True
            )
            assert list(braced.hull_damage) == after_shields(
                binomial(strength, to_hit / 2), shields
            )


# --- ordnance ------------------------------------------------------------------------------


def ordnance(count: int, turrets: int, markers: int, per: Fraction) -> list[Fraction]:
    kill = Fraction(max(1, 3 - markers), 6)  # 4+, -1 per marker, a 6 always hits
    dist = [Fraction(0)] * (count + 1)
    for removed, p_removed in enumerate(binomial(turrets, kill)):
        survivors = max(count - removed, 0)
        for k, p in enumerate(binomial(survivors, per)):
            dist[k] += p_removed * p
    return dist


def test_torpedoes_lose_one_per_turret_hit_and_deal_one_damage_each() -> None:
    for torpedoes in range(1, 9):
        for turrets in range(0, 5):
            for markers in range(0, 4):
                for shields in range(0, 3):
                    shields_up = 0 if markers else shields
                    for braced in (False, True):
                        per = Fraction(1, 2) if braced else Fraction(1)
                        expected = after_shields(
                            ordnance(torpedoes, turrets, markers, per), shields_up
                        )
                        odds = volley_odds(
                            "torpedo",
                            torpedoes,
                            armor=2,
                            shields=shields,
                            hull=10,
                            turrets=turrets,
                            blast_markers=markers,
                            braced=braced,
                        )
                        assert list(odds.hull_damage) == expected


def test_bombers_ignore_shields_and_hit_on_4_plus() -> None:
    for bombers in range(1, 9):
        for turrets in range(0, 5):
            for markers in (0, 2):
                expected = ordnance(bombers, turrets, markers, Fraction(1, 2))
                odds = volley_odds(
                    "bombers",
                    bombers,
                    armor=3,
                    shields=4,
                    hull=10,
                    turrets=turrets,
                    blast_markers=markers,
                )
                assert list(odds.hull_damage) == expected
                braced = volley_odds(
                    "bombers",
                    bombers,
                    armor=3,
                    shields=4,
                    hull=10,
                    turrets=turrets,
                    blast_markers=markers,
                    braced=True,
                )
                assert list(braced.hull_damage) == ordnance(
                    bombers, turrets, markers, Fraction(1, 4)
                )


def test_assault_boats_cause_criticals_not_hull_damage() -> None:
    odds = volley_odds("assault_boats", 4, armor=5, shields=2, hull=8, turrets=2)
    survivors = ordnance(4, 2, 0, Fraction(1))
    assert odds.hull_damage == (1,)
    assert odds.p_destroyed == 0
    assert odds.expected_criticals == sum(k * p for k, p in enumerate(survivors)) / 2


# --- crippled, destroyed, criticals -------------------------------------------------------


def test_expected_criticals_count_points_that_leave_the_ship_afloat() -> None:
    for hull in range(1, 9):
        odds = volley_odds("lance", 8, armor=4, shields=1, hull=hull)
        dist = list(odds.hull_damage)
        assert (
            odds.expected_criticals == sum(min(k, hull - 1) * p for k, p in enumerate(dist)) * SIXTH
        )
    # with hull to spare, one critical per six points of damage
    big = volley_odds("battery", 12, range_cm=10, armor=4, shields=0, hull=20)
    assert big.expected_criticals == 12 * Fraction(1, 2) * Fraction(1, 2) / 6


def test_crippled_uses_the_starting_hull_and_counts_destroyed() -> None:
    # an 8-hull cruiser at 6 hull is crippled at 4 or less: 2 or more damage
    odds = volley_odds("lance", 4, armor=4, shields=0, hull=6, max_hull=8)
    dist = binomial(4, Fraction(1, 2))
    assert odds.p_crippled == sum(dist[2:])
    assert odds.p_destroyed == 0
    already = volley_odds("lance", 4, armor=4, shields=0, hull=3, max_hull=8)
    assert already.p_crippled == 1


def test_a_one_hull_escort_is_destroyed_never_crippled() -> None:
    odds = volley_odds("battery", 3, range_cm=10, armor=4, shields=0, hull=1)
    assert odds.p_crippled == odds.p_destroyed == 1 - Fraction(3, 4) ** 3
    assert odds.expected_criticals == 0


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(strength=0),
        dict(armor=1),
        dict(armor=7),
        dict(shields=-1),
        dict(hull=0),
        dict(hull=5, max_hull=4),
        dict(range_cm=-1),
        dict(blast_markers=-2),
        dict(turrets=-1),
        dict(weapon="nova_cannon"),
    ],
)
def test_impossible_inputs_are_refused(kwargs) -> None:
    args = dict(weapon="battery", strength=4, armor=5, shields=1, hull=8) | kwargs
    weapon, strength = args.pop("weapon"), args.pop("strength")
    with pytest.raises(OddsInputError):
        volley_odds(weapon, strength, **args)


# --- the odds agree with the dice ----------------------------------------------------------


def _empirical(fire, trials: int) -> Counter[int]:
    dice = SeededDice("odds-cross-check")
    seen: Counter[int] = Counter()
    for _ in range(trials):
        target = Target(hull=20, max_hull=20, armor=4, shields=2)
        seen[fire(target, dice).hull_damage] += 1
    return seen


@pytest.mark.parametrize(
    ("fire", "odds"),
    [
        (
            lambda t, d: fire_batteries(t, 8, 20, d),
            volley_odds("battery", 8, range_cm=20, armor=4, shields=2, hull=20),
        ),
        (
            lambda t, d: fire_lances(t, 6, d, to_hit_mod=1),
            volley_odds("lance", 6, armor=4, shields=2, hull=20, to_hit_mod=1),
        ),
    ],
)
def test_the_damage_module_rolls_what_the_odds_predict(fire, odds) -> None:
    trials = 20_000
    seen = _empirical(fire, trials)
    for k, p in enumerate(odds.to_dict()["hull_damage"]):
        sigma = math.sqrt(p * (1 - p) / trials)
        assert abs(seen[k] / trials - p) <= 5 * sigma + 1e-9, k


# --- the command line ----------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules_core", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_prints_the_contract_json() -> None:
    done = run_cli(
        "odds",
        "--weapon",
        "battery",
        "--strength",
        "6",
        "--range",
        "20",
        "--armor",
        "5",
        "--shields",
        "1",
        "--hull",
        "8",
        "--to-hit-mod",
        "-1",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {
        "hull_damage",
        "mean_hull_damage",
        "p_crippled",
        "p_destroyed",
        "expected_criticals",
    }
    expected = after_shields(binomial(6, Fraction(1, 6) * Fraction(4, 6)), 1)
    assert data["hull_damage"] == [float(p) for p in expected]
    assert (
        data
        == volley_odds(
            "battery", 6, range_cm=20, armor=5, shields=1, hull=8, to_hit_mod=-1
        ).to_dict()
    )


def test_cli_passes_every_option() -> None:
    done = run_cli(
        "odds",
        "--weapon",
        "torpedo",
        "--strength",
        "6",
        "--armor",
        "5",
        "--shields",
        "2",
        "--hull",
        "6",
        "--max-hull",
        "8",
        "--brace",
        "--blast-markers",
        "1",
        "--turrets",
        "3",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    assert (
        json.loads(done.stdout)
        == volley_odds(
            "torpedo",
            6,
            armor=5,
            shields=2,
            hull=6,
            max_hull=8,
            braced=True,
            blast_markers=1,
            turrets=3,
        ).to_dict()
    )


def test_cli_without_json_prints_a_table() -> None:
    done = run_cli(
        "odds",
        "--weapon",
        "lance",
        "--strength",
        "3",
        "--armor",
        "5",
        "--shields",
        "1",
        "--hull",
        "8",
    )
    assert done.returncode == 0
    assert "mean hull damage" in done.stdout
    assert "destroyed" in done.stdout


@pytest.mark.parametrize(
    "bad",
    [
        ["--armor", "9"],
        ["--hull", "0"],
        ["--strength", "0"],
        ["--shields", "-1"],
        ["--range", "-5"],
        ["--max-hull", "3"],
        ["--weapon", "nova"],  # argparse's own refusal
        ["--strength", "many"],
    ],
)
def test_cli_refuses_bad_input_with_exit_2(bad: list[str]) -> None:
    args = {
        "--weapon": "battery",
        "--strength": "6",
        "--armor": "5",
        "--shields": "1",
        "--hull": "8",
    }
    args.update(dict(zip(bad[::2], bad[1::2], strict=True)))
    done = run_cli("odds", *[x for kv in args.items() for x in kv], "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines()[-1].startswith(("error:", "usage:", "python -m"))
    if bad[1] not in ("nova", "many"):  # ours, not argparse's: exactly one line
        assert len(done.stderr.strip().splitlines()) == 1


def test_bench_odds_prints_the_median_times() -> None:
    done = run_cli("bench-odds", "--runs", "3")
    assert done.returncode == 0, done.stderr
    assert "20 dice" in done.stdout and "40 dice" in done.stdout
