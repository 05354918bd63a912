"""Geometry of the hull-damage chart: bars for P(exactly k), a line for P(at least k).

Plain numbers in a fixed viewBox; the template draws them and CSS colours them, so the chart
follows the light or dark theme.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .volley import Row

WIDTH, HEIGHT = 480, 250
LEFT, RIGHT, TOP, BOTTOM = 60, 10, 12, 48
PLOT_W, PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
SHOWN_FROM = 0.00005  # a row whose "at least" rounds to 0.00 % is left out of chart and table
MAX_X_LABELS = 16


@dataclass(frozen=True, slots=True)
class Bar:
    k: int
    x: float
    y: float
    width: float
    height: float
    label_x: float
    show_label: bool
    outcome: str
    title: str


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    bars: tuple[Bar, ...]
    line_points: str  # the polyline of P(at least k)
    dots: tuple[tuple[float, float], ...]
    grid: tuple[tuple[float, str], ...]  # (y, "50 %")
    plot_left: int
    plot_right: int
    plot_bottom: int
    axis_label_y: int


def shown_rows(rows: tuple[Row, ...]) -> tuple[tuple[Row, ...], float]:
    """The rows worth showing, and the probability of the damage left out (all below 0.01 %)."""
    shown = tuple(r for r in rows if r.k == 0 or r.at_least >= SHOWN_FROM)
    hidden = rows[len(shown)].at_least if len(shown) < len(rows) else 0.0
    return shown, hidden


def _y(p: float) -> float:
    return round(TOP + PLOT_H * (1 - p), 2)


def build_chart(rows: tuple[Row, ...]) -> Chart:
    n = max(len(rows), 1)
    slot = PLOT_W / n
    bar_w = slot * 0.72
    step = math.ceil(n / MAX_X_LABELS)
    bars = []
    dots = []
    for i, row in enumerate(rows):
        centre = LEFT + slot * (i + 0.5)
        top = _y(row.exactly)
        bars.append(
            Bar(
                k=row.k,
                x=round(centre - bar_w / 2, 2),
                y=top,
                width=round(bar_w, 2),
                height=round(TOP + PLOT_H - top, 2),
                label_x=round(centre, 2),
                show_label=i % step == 0,
                outcome=row.outcome,
                title=(
                    f"{row.k} hull damage: exactly {row.exactly:.2%}, at least {row.at_least:.2%}"
                ),
            )
        )
        dots.append((round(centre, 2), _y(row.at_least)))
    grid = tuple((_y(p / 4), f"{p * 25} %") for p in range(5))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        bars=tuple(bars),
        line_points=" ".join(f"{x},{y}" for x, y in dots),
        dots=tuple(dots),
        grid=grid,
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        plot_bottom=TOP + PLOT_H,
        axis_label_y=HEIGHT - 6,
    )
