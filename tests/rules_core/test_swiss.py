"""Swiss rounds and standings (rules_core.swiss), as an organiser runs them: R-170.

Each test is a small event played out with the module's own pairings, or games written down as
an organiser would record them; the rules checked are those of the module's docstring.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest

from rules_core import swiss
from rules_core.swiss import (
    ByeResultError,
    DuplicatePlayerError,
    Game,
    InvalidGameError,
    NegativeVictoryPointsError,
    PairedTwiceError,
    Pairing,
    Scoring,
    Standing,
    SwissError,
    UnfinishedRoundError,
    UnknownPlayerError,
    pair_round,
    round1_order,
    standings,
    standings_csv,
)


def names(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(1, n + 1)]


def play(pairings: list[Pairing], rng: random.Random) -> list[Game]:
    """Results for a round: a random winner (or draw) and VP to match."""
    out = []
    for p in pairings:
        if p.is_bye:
            out.append(p.as_game())
            continue
        result = rng.choice(["a", "b", "draw"])
        high, low = rng.randint(8, 20), rng.randint(0, 7)
        vp_a, vp_b = {"a": (high, low), "b": (low, high), "draw": (low, low)}[result]
        out.append(Game(p.round, p.a, p.b, result, vp_a, vp_b))  # type: ignore[arg-type]
    return out


def run_event(
    players: Sequence[str], rounds: int, *, seed: int = 1, withdrawn: Sequence[str] = ()
) -> Iterator[tuple[list[Game], list[Pairing]]]:
    """Pair and play ``rounds`` rounds; yields (games before the round, its pairings)."""
    rng = random.Random(seed)
    games: list[Game] = []
    for _ in range(rounds):
        pairings = pair_round(players, games, seed=seed, withdrawn=frozenset(withdrawn))
        yield list(games), pairings
        games += play(pairings, rng)


def met(games: Sequence[Game]) -> set[frozenset[str]]:
    return {frozenset((g.a, g.b)) for g in games if g.b is not None}


def assert_everyone_once(pairings: list[Pairing], expected: Sequence[str]) -> None:
    seated = [p for pairing in pairings for p in (pairing.a, pairing.b) if p is not None]
    assert sorted(seated) == sorted(expected)


# --- pairing ------------------------------------------------------------------------------


def test_round_one_winners_meet_in_round_two():
    players = ["ann", "bob", "cat", "dan"]
    round1 = pair_round(players, [], seed=7)
    assert [p.table for p in round1] == [1, 2]
    assert_everyone_once(round1, players)
    (first, second) = round1
    games = [
        Game(1, first.a, first.b, "a", 15, 5),
        Game(1, second.a, second.b, "b", 6, 12),
    ]
    round2 = pair_round(players, games, seed=7)
    assert {round2[0].a, round2[0].b} == {first.a, second.b}  # the two winners, table 1
    assert {round2[1].a, round2[1].b} == {first.b, second.a}  # the two losers
    assert round2[0].round == round2[1].round == 2
    # The winner with the better VP difference is the higher-ranked player of table 1.
    assert round2[0].a == first.a


def test_round_one_is_drawn_from_the_seed_and_the_same_input_gives_the_same_pairings():
    players = names(8)
    assert pair_round(players, [], seed=3) == pair_round(players, [], seed=3)
    assert pair_round(players, [], seed=3) != pair_round(players, [], seed=4)
    # Round 1 pairs the seeded order two by two: 1st v 2nd, 3rd v 4th...
    order = round1_order(players, 3)
    assert [(p.a, p.b) for p in pair_round(players, [], seed=3)] == [
        (order[0], order[1]), (order[2], order[3]), (order[4], order[5]), (order[6], order[7]),
    ]  # fmt: skip
    # Later rounds too: the same event replayed gives the same pairings throughout.
    first = [pairings for _, pairings in run_event(players, 4, seed=11)]
    again = [pairings for _, pairings in run_event(players, 4, seed=11)]
    assert first == again


def test_no_rematch_for_eight_players_over_three_rounds():
    players = names(8)
    for seed in range(20):
        seen: set[frozenset[str]] = set()
        for _, pairings in run_event(players, 3, seed=seed):
            assert_everyone_once(pairings, players)
            now = {frozenset((p.a, p.b)) for p in pairings if p.b is not None}
            assert not now & seen
            seen |= now


def test_an_odd_field_has_one_bye_a_round_and_nobody_gets_a_second_while_others_have_none():
    players = names(7)
    for seed in range(10):
        had_bye: list[str] = []
        for _, pairings in run_event(players, 7, seed=seed):
            assert_everyone_once(pairings, players)
            byes = [p.a for p in pairings if p.is_bye]
            assert len(byes) == 1 and pairings[-1].is_bye and pairings[-1].table is None
            assert byes[0] not in had_bye  # 7 rounds, 7 players: everyone's bye is different
            had_bye += byes
        assert sorted(had_bye) == players


def test_a_bye_goes_to_the_lowest_ranked_player_who_has_not_had_one():
    players = ["ann", "bob", "cat", "dan", "eve"]
    games = [
        Game(1, "ann", "bob", "a", 10, 0),
        Game(1, "cat", "dan", "a", 10, 5),
        Game(1, "eve", None),  # eve's bye: a win, but 0 VP
    ]
    # Standings: eve (3, VP 0) is below ann (+10) and cat (+5); bob (−10) is last.
    assert [s.player for s in standings(players, games)] == ["ann", "cat", "eve", "dan", "bob"]
    round2 = pair_round(players, games, seed=1)
    assert round2[-1] == Pairing(2, None, "bob", None)
    assert [(p.a, p.b) for p in round2[:-1]] == [("ann", "cat"), ("eve", "dan")]


def test_withdrawn_players_are_not_paired_but_keep_their_standing():
    players = names(6)
    games: list[Game] = []
    rng = random.Random(5)
    games += play(pair_round(players, games, seed=5), rng)
    round2 = pair_round(players, games, seed=5, withdrawn={"p002"})
    assert_everyone_once(round2, [p for p in players if p != "p002"])
    assert round2[-1].is_bye  # five players left: one has the bye
    assert "p002" in [s.player for s in standings(players, games)]


def brute_force(ranked: list[str], games: list[Game]) -> list[tuple[str, str | None]]:
    """The pairing the module's rules 1-4 describe, found by trying every pairing."""
    played = met(games)
    byes = {p: sum(1 for g in games if g.b is None and g.a == p) for p in ranked}
    rank = {p: i for i, p in enumerate(ranked)}

    def matchings(rest: list[str]) -> Iterator[list[tuple[str, str]]]:
        if not rest:
            yield []
            return
        p = rest[0]
        for q in rest[1:]:
            for m in matchings([r for r in rest if r not in (p, q)]):
                yield [(p, q), *m]

    fewest = min(byes.values())
    bye_options: list[str | None] = (
        [p for p in ranked if byes[p] == fewest] if len(ranked) % 2 else [None]
    )
    best = None
    for bye in bye_options:
        for m in matchings([p for p in ranked if p != bye]):
            rematches = sum(frozenset(pair) in played for pair in m)
            top_down = [(frozenset((p, q)) in played, rank[q]) for p, q in m]
            key = (rematches, -rank[bye] if bye else 0, top_down)
            if best is None or key < best[0]:
                best = (key, m, bye)
    assert best is not None
    _, m, bye = best
    return [*m, *([(bye, None)] if bye else [])]


@pytest.mark.parametrize("budget", [swiss.SEARCH_BUDGET, 0], ids=["search", "construction"])
@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_pairings_follow_the_rules_exactly_even_past_a_round_robin(size, budget, monkeypatch):
    """Against every possible pairing: no rematch while one can be avoided, then as few as
    can be; the bye low; then the top player meets the best opponent left. 9 rounds is more
    than a round robin of up to 7 players has, so late rounds must have rematches. The same
    with no search budget: the matching construction alone."""
    monkeypatch.setattr(swiss, "SEARCH_BUDGET", budget)
    players = names(size)
    for seed in range(8):
        for games, pairings in run_event(players, 9, seed=seed):
            ranked = (
                [s.player for s in standings(players, games)]
                if games
                else round1_order(players, seed)
            )
            assert [(p.a, p.b) for p in pairings] == brute_force(ranked, games)


def test_two_hundred_players_eight_rounds_pair_every_round_without_a_rematch():
    """The search is bounded (swiss.SEARCH_BUDGET): a big event pairs at once, never twice."""
    players = names(200)
    seen: set[frozenset[str]] = set()
    rounds = 0
    for games, pairings in run_event(players, 8, seed=2024):
        rounds += 1
        assert_everyone_once(pairings, players)
        now = {frozenset((p.a, p.b)) for p in pairings}
        assert len(now) == 100 and not now & seen
        seen |= now
        # Equal scores meet where they can: at most one float per score group.
        score = {s.player: s.score for s in standings(players, games)}
        floats = sum(score[p.a] != score[p.b] for p in pairings if p.b is not None)
        assert floats <= len(set(score.values()))
    assert rounds == 8


def test_when_the_search_runs_out_the_pairing_is_the_same(monkeypatch):
    """With no search budget at all, the matching construction pairs every round exactly as
    the search does."""
    players = names(31)
    searched = [pairings for _, pairings in run_event(players, 6, seed=9)]
    monkeypatch.setattr(swiss, "SEARCH_BUDGET", 0)
    constructed = [pairings for _, pairings in run_event(players, 6, seed=9)]
    assert constructed == searched


def test_pairing_waits_for_every_result_of_the_round():
    games = [Game(1, "ann", "bob", "a", 10, 0), Game(1, "cat", "dan")]
    with pytest.raises(UnfinishedRoundError, match="cat v dan has no result"):
        pair_round(["ann", "bob", "cat", "dan"], games, seed=1)


# --- standings ----------------------------------------------------------------------------


def test_score_ties_are_broken_by_vp_difference():
    players = ["ann", "bob", "cat", "dan"]
    games = [Game(1, "bob", "dan", "a", 12, 10), Game(1, "ann", "cat", "a", 15, 5)]
    table = standings(players, games)
    assert [(s.player, s.rank, s.score, s.vp_difference) for s in table] == [
        ("ann", 1, 3, 10),
        ("bob", 2, 3, 2),
        ("dan", 3, 0, -2),
        ("cat", 4, 0, -10),
    ]


def test_score_and_vp_ties_are_broken_by_strength_of_schedule_and_full_ties_share_a_rank():
    players = ["ann", "bob", "cat", "dan", "eve", "fay"]
    games = [
        Game(1, "ann", "bob", "a", 10, 0),
        Game(1, "dan", "eve", "a", 10, 0),
        Game(1, "cat", "fay", "a", 10, 0),
        Game(2, "ann", "cat", "b", 0, 10),
        Game(2, "dan", "fay", "b", 0, 10),
        Game(2, "bob", "eve", "a", 10, 0),
    ]
    table = {s.player: s for s in standings(players, games)}
    # ann, bob, dan and fay all have 3 points and VP difference 0. ann met bob (3) and cat (6),
    # fay met cat and dan (3): SoS 4.5 each; bob met ann and eve (0), dan met eve and fay: 1.5.
    assert {p: (s.score, s.vp_difference) for p, s in table.items()} == {
        "ann": (3, 0), "bob": (3, 0), "cat": (6, 20), "dan": (3, 0), "eve": (0, -20),
        "fay": (3, 0),
    }  # fmt: skip
    assert table["ann"].strength_of_schedule == Fraction(9, 2)
    assert table["dan"].strength_of_schedule == Fraction(3, 2)
    ranked = [(s.player, s.rank) for s in standings(players, games)]
    # Equal on everything: a shared rank, listed in seed order.
    assert ranked == [("cat", 1), ("ann", 2), ("fay", 2), ("bob", 4), ("dan", 4), ("eve", 6)]


def test_a_bye_is_a_win_worth_the_bye_vp_and_no_opponent():
    players = ["ann", "bob", "cat"]
    games = [Game(1, "ann", "bob", "draw", 7, 7), Game(1, "cat", None)]
    table = {s.player: s for s in standings(players, games)}
    assert table["cat"] == Standing(
        rank=1, player="cat", score=3, wins=0, draws=0, losses=0, byes=1,
        vp_for=0, vp_against=0, vp_difference=0, strength_of_schedule=Fraction(0),
    )  # fmt: skip
    generous = Scoring(win=2, draw=1, loss=0, bye_vp=10)
    cat = standings(players, games, scoring=generous)[0]
    assert (cat.player, cat.score, cat.vp_for, cat.vp_against) == ("cat", 2, 10, 0)
    # ann's SoS is bob's score (1): a bye given to someone else changes nothing for her.
    assert table["ann"].strength_of_schedule == 1 and table["ann"].draws == 1


def test_an_unplayed_game_counts_for_nothing_yet():
    games = [Game(1, "ann", "bob", None, 5, 3)]
    for s in standings(["ann", "bob"], games):
        assert (s.score, s.wins + s.draws + s.losses, s.vp_for, s.rank) == (0, 0, 0, 1)


# --- CSV ----------------------------------------------------------------------------------


def test_csv_has_a_header_and_a_row_per_player_quoted_as_rfc_4180_says():
    players = ["a", "b", "c"]
    games = [Game(1, "a", "b", "a", 10, 3), Game(1, "c", None)]
    text = standings_csv(
        standings(players, games), {"a": 'Ann "Ace", Jr.', "b": "Bob\nSmith", "c": "Cat"}
    )
    assert text.splitlines()[0] == (
        "Rank,Player,Score,Wins,Draws,Losses,Byes,VP for,VP against,VP difference,"
        "Strength of schedule"
    )
    assert '"Ann ""Ace"", Jr."' in text and text.endswith("\r\n")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[1:] == [
        ["1", 'Ann "Ace", Jr.', "3", "1", "0", "0", "0", "10", "3", "7", "0.00"],
        ["2", "Cat", "3", "0", "0", "0", "1", "0", "0", "0", "0.00"],
        ["3", "Bob\nSmith", "0", "0", "0", "1", "0", "3", "10", "-7", "3.00"],
    ]


@pytest.mark.parametrize("name", ['=HYPERLINK("x")', "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"])
def test_csv_names_that_would_run_as_formulas_are_kept_as_text(name):
    text = standings_csv(standings(["a"], []), {"a": name})
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[1][1] == "'" + name


def test_csv_leaves_ordinary_names_alone():
    text = standings_csv(standings(["a"], []), {"a": "Zoë d'Arc"})
    assert list(csv.reader(io.StringIO(text, newline="")))[1][1] == "Zoë d'Arc"


# --- errors -------------------------------------------------------------------------------


def test_a_game_naming_an_unknown_player_is_refused():
    with pytest.raises(UnknownPlayerError, match="round 1: zed is not a player of this event"):
        standings(["ann", "bob"], [Game(1, "ann", "zed", "a")])
    with pytest.raises(UnknownPlayerError, match="withdrawn player zed"):
        pair_round(["ann", "bob"], [], seed=1, withdrawn={"zed"})
    with pytest.raises(UnknownPlayerError, match="no name given for player bob"):
        standings_csv(standings(["ann", "bob"], []), {"ann": "Ann"})


def test_a_player_paired_twice_in_a_round_is_refused():
    games = [Game(2, "ann", "bob", "a"), Game(2, "cat", "ann", "b")]
    with pytest.raises(PairedTwiceError, match="round 2: ann is paired twice"):
        standings(["ann", "bob", "cat"], games)
    with pytest.raises(PairedTwiceError, match="round 1: cat is paired twice"):
        pair_round(["ann", "bob", "cat"], [Game(1, "cat", None), Game(1, "cat", None)], seed=1)


def test_negative_victory_points_are_refused():
    with pytest.raises(NegativeVictoryPointsError, match="cannot be negative"):
        Game(1, "ann", "bob", "a", 10, -1)
    with pytest.raises(NegativeVictoryPointsError, match="a bye cannot be worth -5 VP"):
        Scoring(bye_vp=-5)


def test_a_bye_with_a_result_or_victory_points_is_refused():
    with pytest.raises(ByeResultError, match="round 3: ann v bye: a bye has no result"):
        Game(3, "ann", None, "a")
    with pytest.raises(ByeResultError):
        Game(3, "ann", None, None, 10, 0)


def test_impossible_games_and_player_lists_are_refused():
    with pytest.raises(InvalidGameError, match="cannot play themselves"):
        Game(1, "ann", "ann", "draw")
    with pytest.raises(InvalidGameError, match="numbered from 1"):
        Game(0, "ann", "bob")
    with pytest.raises(InvalidGameError, match="'win' is none of"):
        Game(1, "ann", "bob", "win")  # type: ignore[arg-type]
    with pytest.raises(DuplicatePlayerError, match="player ann is listed twice"):
        standings(["ann", "bob", "ann"], [])


def test_every_error_is_a_value_error():
    for error in (
        UnknownPlayerError, DuplicatePlayerError, PairedTwiceError, NegativeVictoryPointsError,
        ByeResultError, InvalidGameError, UnfinishedRoundError,
    ):  # fmt: skip
        assert issubclass(error, SwissError) and issubclass(error, ValueError)


def test_tiny_events():
    assert pair_round([], [], seed=1) == []
    assert pair_round(["ann"], [], seed=1) == [Pairing(1, None, "ann", None)]
    two = pair_round(["ann", "bob"], [Game(1, "ann", "bob", "a", 1, 0)], seed=1)
    assert [(p.a, p.b) for p in two] == [("ann", "bob")]  # the only game left is a rematch
