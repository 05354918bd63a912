"""Geometry of the matchup charts: outcome rates with their intervals, victory-point and rounds
histograms, and one bar per ship for its fates.

Plain numbers in fixed viewBoxes (as the gunnery chart, ``fleetbuilder/gunnery/chart.py``); the
template draws them and CSS colours them, so the charts follow the light or dark theme.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

WIDTH = 480
FATES = ("destroyed", "crippled", "disengaged", "intact")


def pct(p: float) -> str:
    return f"{p * 100:.1f}\u00a0%"


# --- outcomes: one bar per result with its 95 % interval ------------------------------------


@dataclass(frozen=True, slots=True)
class OutcomeRow:
    key: str  # "a", "draw", "b"
    label: str
    rate: float
    lo: float
    hi: float
    count: int
    y: float
    bar_width: float
    ci_x1: float
    ci_x2: float
    text_x: float
    inside: bool  # the figure is written on the bar (a rate near 100 %)
    title: str


@dataclass(frozen=True, slots=True)
class OutcomeChart:
    width: int
    height: int
    rows: tuple[OutcomeRow, ...]
    grid: tuple[tuple[float, str], ...]  # (x, "50 %")
    plot_left: int
    plot_right: int
    bar_height: int
    plot_top: int
    plot_bottom: int


OUT_LEFT, OUT_RIGHT, OUT_TOP, OUT_ROW, OUT_BAR, OUT_BOTTOM = 70, 28, 8, 40, 24, 26


def outcome_chart(summary: dict[str, Any]) -> OutcomeChart:
    plot_w = WIDTH - OUT_LEFT - OUT_RIGHT
    battles = summary["battles"]
    rows = []
    spec = (
        ("a", "A wins", "a_win_rate", "a_win_ci95", "a_wins"),
        ("draw", "Draws", "draw_rate", "draw_ci95", "draws"),
        ("b", "B wins", "b_win_rate", "b_win_ci95", "b_wins"),
    )
    for i, (key, label, rate_key, ci_key, count_key) in enumerate(spec):
        rate = summary[rate_key]
        lo, hi = summary[ci_key]
        y = OUT_TOP + i * OUT_ROW
        width = round(plot_w * rate, 2)
        rows.append(
            OutcomeRow(
                key=key,
                label=label,
                rate=rate,
                lo=lo,
                hi=hi,
                count=summary[count_key],
                y=y,
                bar_width=width,
                ci_x1=round(OUT_LEFT + plot_w * lo, 2),
                ci_x2=round(OUT_LEFT + plot_w * hi, 2),
                # the figure sits right of the interval, or on the bar when near 100 %
                text_x=round(OUT_LEFT + plot_w * hi + 6, 2) if hi < 0.8 else round(OUT_LEFT + 6, 2),
                inside=hi >= 0.8,
                title=f"{label}: {summary[count_key]} of {battles} ({pct(rate)}, "
                f"95 % interval {pct(lo)}–{pct(hi)})",
            )
        )
    bottom = OUT_TOP + 3 * OUT_ROW
    grid = tuple((round(OUT_LEFT + plot_w * q / 4, 2), f"{q * 25} %") for q in range(5))
    return OutcomeChart(
        width=WIDTH,
        height=bottom + OUT_BOTTOM,
        rows=tuple(rows),
        grid=grid,
        plot_left=OUT_LEFT,
        plot_right=WIDTH - OUT_RIGHT,
        bar_height=OUT_BAR,
        plot_top=OUT_TOP,
        plot_bottom=bottom - (OUT_ROW - OUT_BAR),
    )


# --- histograms -----------------------------------------------------------------------------

H_HEIGHT, H_LEFT, H_RIGHT, H_TOP, H_BOTTOM = 200, 50, 12, 12, 40


@dataclass(frozen=True, slots=True)
class HistBar:
    x: float
    y: float
    width: float
    height: float
    title: str


@dataclass(frozen=True, slots=True)
class Histogram:
    width: int
    height: int
    bars: tuple[HistBar, ...]
    grid: tuple[tuple[float, str], ...]  # (y, "25 %"): share of battles
    xticks: tuple[tuple[float, str], ...]  # (x, label)
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    axis_label: str
    plot_height: int
    mean_x: float | None = None
    band_x: float | None = None  # the 10th–90th percentile band
    band_width: float | None = None
    mean_label: str = ""
    mean_on_left: bool = False  # the label goes left of the line near the right edge


def _nice_step(span: float, target: int) -> float:
    raw = span / max(target, 1)
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * power:
            return m * power
    return 10 * power


def _share_grid(top_share: float) -> tuple[float, tuple[float, ...]]:
    """A y scale in share of battles, rounded up to a tidy top; and its grid values."""
    step = _nice_step(max(top_share, 0.01), 4)
    top = min(1.0, step * math.ceil(max(top_share, 0.01) / step))
    n = max(1, round(top / step))
    return top, tuple(step * i for i in range(n + 1))


def _share_label(value: float) -> str:
    percent = value * 100
    return f"{percent:.0f} %" if abs(percent - round(percent)) < 1e-9 else f"{percent:.1f} %"


def vp_histograms(
    vp_a: dict[str, Any],
    vp_b: dict[str, Any],
    battles: int,
) -> tuple[Histogram, Histogram]:
    """Victory points of each side on one shared x scale, so the two can be compared."""
    bins = [*vp_a.get("histogram", []), *vp_b.get("histogram", [])]
    lo = min([b["lo"] for b in bins] + [0])
    hi = max([b["hi"] for b in bins] + [lo + 1])
    top_count = max([b["count"] for b in bins] + [0])
    top, shares = _share_grid(top_count / battles if battles else 0)
    return (
        _vp_histogram(vp_a, battles, lo, hi, top, shares, "Fleet A"),
        _vp_histogram(vp_b, battles, lo, hi, top, shares, "Fleet B"),
    )


def _vp_histogram(
    vp: dict[str, Any],
    battles: int,
    lo: float,
    hi: float,
    top: float,
    shares: Sequence[float],
    who: str,
) -> Histogram:
    plot_w, plot_h = WIDTH - H_LEFT - H_RIGHT, H_HEIGHT - H_TOP - H_BOTTOM
    bottom = H_TOP + plot_h
    # bins hold whole victory points lo..hi inclusive: each spans [lo, hi + 1) on the axis
    span = (hi + 1) - lo

    def x(v: float) -> float:
        return round(H_LEFT + plot_w * (v - lo) / span, 2)

    def y(share: float) -> float:
        return round(H_TOP + plot_h * (1 - share / top), 2)

    bars = []
    for b in vp.get("histogram", []):
        if not b["count"]:
            continue
        share = b["count"] / battles if battles else 0
        x1, x2 = x(b["lo"]), x(b["hi"] + 1)
        gap = min(1.0, (x2 - x1) * 0.1)
        points = f"{b['lo']}" if b["lo"] == b["hi"] else f"{b['lo']}–{b['hi']}"
        bars.append(
            HistBar(
                x=round(x1 + gap / 2, 2),
                y=y(share),
                width=round(max(x2 - x1 - gap, 0.5), 2),
                height=round(bottom - y(share), 2),
                title=f"{who}: {points} victory points in {b['count']} battle"
                f"{'' if b['count'] == 1 else 's'} ({pct(share)})",
            )
        )
    step = max(1, round(_nice_step(span, 6)))
    first = math.ceil(lo / step) * step
    ticks = tuple((x(v + 0.5), f"{v}") for v in range(int(first), int(hi) + 1, step))
    mean, p10, p90 = vp.get("mean"), vp.get("p10"), vp.get("p90")
    centre = 0.5  # a value v is drawn at the middle of its whole-point slot
    return Histogram(
        width=WIDTH,
        height=H_HEIGHT,
        bars=tuple(bars),
        grid=tuple((y(s), _share_label(s)) for s in shares),
        xticks=ticks,
        plot_left=H_LEFT,
        plot_right=WIDTH - H_RIGHT,
        plot_top=H_TOP,
        plot_bottom=bottom,
        axis_label="victory points",
        plot_height=bottom - H_TOP,
        mean_x=x(mean + centre) if mean is not None else None,
        band_x=x(p10 + centre) if p10 is not None else None,
        band_width=round(x(p90 + centre) - x(p10 + centre), 2)
        if p10 is not None and p90 is not None
        else None,
        mean_label=f"mean {mean:.1f}" if mean is not None else "",
        mean_on_left=mean is not None and x(mean + centre) > H_LEFT + plot_w * 0.7,
    )


def rounds_histogram(rounds: dict[str, int], battles: int, max_rounds: int) -> Histogram:
    """Battles by the round they ended in, 1 .. the last round played or allowed."""
    counts = {int(k): v for k, v in rounds.items()}
    last = max([max_rounds, *counts]) if counts else max_rounds
    plot_w, plot_h = WIDTH - H_LEFT - H_RIGHT, H_HEIGHT - H_TOP - H_BOTTOM
    bottom = H_TOP + plot_h
    top, shares = _share_grid(max(counts.values(), default=0) / battles if battles else 0)
    slot = plot_w / last
    bar_w = slot * 0.72
    bars, ticks = [], []
    for r in range(1, last + 1):
        centre = H_LEFT + slot * (r - 0.5)
        count = counts.get(r, 0)
        share = count / battles if battles else 0
        top_y = round(H_TOP + plot_h * (1 - share / top), 2)
        bars.append(
            HistBar(
                x=round(centre - bar_w / 2, 2),
                y=top_y,
                width=round(bar_w, 2),
                height=round(bottom - top_y, 2),
                title=(
                    f"Ended in round {r}: {count} battle{'' if count == 1 else 's'} ({pct(share)})"
                ),
            )
        )
        ticks.append((round(centre, 2), str(r)))
    return Histogram(
        width=WIDTH,
        height=H_HEIGHT,
        bars=tuple(bars),
        grid=tuple((round(H_TOP + plot_h * (1 - s / top), 2), _share_label(s)) for s in shares),
        xticks=tuple(ticks),
        plot_left=H_LEFT,
        plot_right=WIDTH - H_RIGHT,
        plot_top=H_TOP,
        plot_bottom=bottom,
        axis_label="round the battle ended",
        plot_height=bottom - H_TOP,
    )


# --- per-ship fates -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FateSegment:
    fate: str
    x: float
    width: float
    rate: float


def fate_segments(rates: dict[str, float]) -> tuple[FateSegment, ...]:
    """One ship's fates as a 100-wide stacked bar: destroyed, crippled, disengaged, intact."""
    segments, x = [], 0.0
    for fate in FATES:
        rate = rates.get(fate, 0.0)
        width = round(100 * rate, 3)
        if width > 0:
            segments.append(FateSegment(fate, round(x, 3), width, rate))
        x += width
    return tuple(segments)
