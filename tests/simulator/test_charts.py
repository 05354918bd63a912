"""The results charts draw what the numbers say: bar lengths proportional to rates, whiskers
at the interval's ends, histogram bars that add up to every battle, fates that fill one bar."""

from __future__ import annotations

import pytest

from fleetbuilder.simulator import charts
from fleetbuilder.simulator.templatetags.simulator_format import ci, pct0, pct1

SUMMARY = {
    "battles": 200,
    "a_wins": 120,
    "b_wins": 60,
    "draws": 20,
    "a_win_rate": 0.6,
    "a_win_ci95": [0.531, 0.665],
    "b_win_rate": 0.3,
    "b_win_ci95": [0.240, 0.367],
    "draw_rate": 0.1,
    "draw_ci95": [0.066, 0.149],
}


def test_outcome_bars_are_proportional_and_whiskers_sit_on_the_interval() -> None:
    chart = charts.outcome_chart(SUMMARY)
    plot_w = chart.plot_right - chart.plot_left
    a, draw, b = chart.rows
    assert [r.key for r in chart.rows] == ["a", "draw", "b"]
    assert a.bar_width == pytest.approx(plot_w * 0.6)
    assert b.bar_width == pytest.approx(plot_w * 0.3)
    assert draw.bar_width == pytest.approx(plot_w * 0.1)
    assert a.ci_x1 == pytest.approx(chart.plot_left + plot_w * 0.531, abs=0.01)
    assert a.ci_x2 == pytest.approx(chart.plot_left + plot_w * 0.665, abs=0.01)
    assert "120 of 200" in a.title and "53.1" in a.title and "66.5" in a.title
    assert chart.grid[0][1] == "0 %" and chart.grid[-1][1] == "100 %"
    assert chart.grid[-1][0] == chart.plot_right


def test_a_sure_win_puts_its_figure_inside_the_plot() -> None:
    sure = {
        **SUMMARY,
        "a_win_rate": 1.0,
        "a_win_ci95": [0.98, 1.0],
        "a_wins": 200,
        "b_win_rate": 0.0,
        "b_win_ci95": [0.0, 0.02],
        "b_wins": 0,
        "draw_rate": 0.0,
        "draw_ci95": [0.0, 0.02],
        "draws": 0,
    }
    chart = charts.outcome_chart(sure)
    for row in chart.rows:
        assert chart.plot_left <= row.text_x < chart.width


def test_vp_histograms_share_one_scale_and_count_every_battle() -> None:
    vp_a = {
        "mean": 150.0,
        "p10": 40,
        "p90": 260,
        "histogram": [
            {"lo": 0, "hi": 49, "count": 30},
            {"lo": 50, "hi": 149, "count": 70},
            {"lo": 150, "hi": 299, "count": 100},
        ],
    }
    vp_b = {
        "mean": 60.0,
        "p10": 0,
        "p90": 120,
        "histogram": [
            {"lo": 0, "hi": 99, "count": 150},
            {"lo": 100, "hi": 199, "count": 0},
            {"lo": 200, "hi": 399, "count": 50},
        ],
    }
    a, b = charts.vp_histograms(vp_a, vp_b, 200)
    assert len(a.bars) == 3 and len(b.bars) == 2  # empty bins draw nothing
    assert a.xticks == b.xticks and a.grid == b.grid  # the same axes
    plot_h = a.plot_bottom - a.plot_top
    top_share = float(a.grid[-1][1].rstrip(" %")) / 100
    heights = [bar.height for bar in (*a.bars,)]
    shares = [h / plot_h * top_share for h in heights]
    assert sum(shares) == pytest.approx(1.0, abs=0.01)
    assert b.bars[0].height > a.bars[-1].height  # 150 battles stand taller than 100
    assert a.band_x < a.mean_x < a.band_x + a.band_width
    assert a.mean_label == "mean 150.0"


def test_rounds_histogram_has_a_bar_for_every_round_allowed() -> None:
    chart = charts.rounds_histogram({"3": 20, "10": 180}, 200, 10)
    assert [label for _, label in chart.xticks] == [str(r) for r in range(1, 11)]
    assert [bar.height > 0 for bar in chart.bars] == [r in (3, 10) for r in range(1, 11)]
    assert "Ended in round 10: 180 battles (90.0" in chart.bars[9].title


def test_fate_segments_fill_one_bar_in_rules_order() -> None:
    segments = charts.fate_segments(
        {"destroyed": 0.25, "crippled": 0.0, "disengaged": 0.15, "intact": 0.6}
    )
    assert [s.fate for s in segments] == ["destroyed", "disengaged", "intact"]
    assert segments[0].x == 0 and segments[1].x == pytest.approx(25)
    assert sum(s.width for s in segments) == pytest.approx(100)


def test_rates_read_as_players_expect() -> None:
    assert pct1(0.5234) == "52.3\u00a0%"
    assert pct0(0.004) == "<1\u00a0%" and pct0(0.0) == "0\u00a0%" and pct0(0.996) == ">99\u00a0%"
    assert ci([0.4912, 0.5533]) == "49.1–55.3\u00a0%"
