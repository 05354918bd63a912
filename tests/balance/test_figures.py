"""The issue's summary figures and the heat map's colour bands, on hand-made numbers."""

from __future__ import annotations

import pytest

from fleetbuilder.balance.views import heat_band
from rules_core.balance import BalanceError, BalanceSpec, pair_seed, summary_figures

# The row's score against the column, each pair once.
MATRIX = {
    "a": {"b": 0.90, "c": 0.50, "d": 0.14},
    "b": {"c": 0.36, "d": 0.65},
    "c": {"d": 0.81},
}


def test_summary_figures_of_a_hand_made_matrix() -> None:
    s = summary_figures(MATRIX)
    # Means against the field: a 0.513, b 0.370, c 0.650, d 0.467.
    assert s["factions"] == 4 and s["factions_within_40_60"] == 2
    assert s["pairs"] == 6
    # 0.50, 0.36 and 0.65 (the band's edge counts as within).
    assert s["pairs_within_35_65"] == 3 and s["pairs_within_35_65_share"] == 0.5
    assert s["pairs_beyond_85_15"] == 2  # 0.90 and 0.14
    assert s["pairs_beyond_80_20"] == 3  # and 0.81
    assert s["most_lopsided"] == {"faction": "b", "against": "a", "score": 0.1}
    assert s["score_spread"] == pytest.approx(0.65 - 0.37, abs=1e-4)


def test_a_full_matrix_gives_the_same_figures_as_half_of_it() -> None:
    full = {x: dict(row) for x, row in MATRIX.items()}
    full["d"] = {}
    for x, row in MATRIX.items():
        for y, score in row.items():
            full[y][x] = 1 - score
    assert summary_figures(full) == summary_figures(MATRIX)


def test_the_edges_of_beyond_are_not_beyond() -> None:
    assert summary_figures({"x": {"y": 0.80}})["pairs_beyond_80_20"] == 0
    assert summary_figures({"x": {"y": 0.85}})["pairs_beyond_85_15"] == 0
    assert summary_figures({"x": {"y": 0.15}})["pairs_beyond_85_15"] == 0
    assert summary_figures({"x": {"y": 0.35}})["pairs_within_35_65"] == 1
    even = summary_figures({"x": {"y": 0.60}})
    assert even["factions_within_40_60"] == 2  # 0.60 and 0.40


@pytest.mark.parametrize(
    ("score", "band"),
    [
        (0.0, 0),
        (0.149, 0),
        (0.15, 1),
        (0.20, 2),
        (0.349, 2),
        (0.35, 3),
        (0.45, 4),
        (0.5, 4),
        (0.55, 4),
        (0.56, 5),
        (0.65, 5),
        (0.66, 6),
        (0.80, 6),
        (0.81, 7),
        (0.85, 7),
        (0.86, 8),
        (1.0, 8),
    ],
)
def test_heat_bands_follow_the_issues_edges(score: float, band: int) -> None:
    assert heat_band(score) == band


def test_a_pairs_seed_comes_from_the_run_seed_and_the_pair_only() -> None:
    assert pair_seed(1, "orks", "necrons") == pair_seed(1, "orks", "necrons")
    assert pair_seed(1, "orks", "necrons") != pair_seed(2, "orks", "necrons")
    assert pair_seed(1, "orks", "necrons") != pair_seed(1, "necrons", "orks")
    assert 0 <= pair_seed(7, "a", "b") < 2**63


@pytest.mark.parametrize(
    "kwargs",
    [
        {"battles": 3},
        {"battles": 0},
        {"size": "custom"},
        {"policy": "reckless"},
        {"terrain": "nebula"},
        {"factions": ("orks", "orks")},
    ],
)
def test_a_spec_that_cannot_be_played_is_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(BalanceError):
        BalanceSpec(**kwargs)  # type: ignore[arg-type]
