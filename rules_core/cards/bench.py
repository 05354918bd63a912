"""How fast the cards print, against what WeasyPrint itself costs.

A 30-card Armada fleet (:func:`bench_fleet`) and a trivial 30-page document
(:func:`trivial_html`: a heading and a line a page, nothing else) are rendered in turns in one
run, so both see the same machine and the same load. The figure that matters is their
**ratio**: the share of the time our document adds over WeasyPrint's own floor, which does not
change with the machine. Times are CPU seconds of this process (``time.process_time``), so other
processes on a busy machine do not count; the wall-clock median is given beside them.

``python manage.py bench_cards`` prints the figures (the catalogue comes from the database or
the data files), each goal with PASS or MISS; ``--check`` exits 1 when one is missed.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from rules_core.catalog import Catalog
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip

from .render import render_cards

RATIO_GOAL = 3.0  # the cards at most 3× a trivial document of as many pages
BUDGET_SECONDS = 1.5  # a 30-card Armada fleet, median CPU seconds
PAGES = 30

# A legal 2500-point Imperial Navy Armada of 30 units: 14 light cruisers, 16 escort squadrons.
CAPITALS = (
    ["siluria-class-light-cruiser"] * 4
    + ["dauntless-class-light-cruiser"] * 4
    + ["endeavour-class-light-cruiser"] * 3
    + ["endurance-class-light-cruiser"] * 3
)
SQUADRONS = [("cobra-class-destroyer", "cobra-class-destroyer")] * 8 + [
    ("cobra-class-destroyer", "sword-class-frigate")
] * 8


def bench_fleet() -> Fleet:
    units: list[ShipUnit | Squadron] = [
        ShipUnit(slug, flagship=(i == 0)) for i, slug in enumerate(CAPITALS)
    ]
    units += [
        Squadron(tuple(SquadronShip(s) for s in pair), name=f"Patrol {n}")
        for n, pair in enumerate(SQUADRONS, start=1)
    ]
    return Fleet(
        faction="imperial-navy",
        game_size=GameSize.ARMADA,
        units=tuple(units),
        name="Benchmark Armada",
    )


def trivial_html(pages: int = PAGES) -> str:
    """WeasyPrint's floor: ``pages`` poker-size pages of a heading and a line each."""
    body = "".join(
        f"<section><h1>Page {n}</h1><p>A line of text on page {n}.</p></section>"
        for n in range(1, pages + 1)
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><style>"
        "@page { size: 63mm 88mm; margin: 3mm } section { break-after: page }"
        f"</style></head><body>{body}</body></html>"
    )


def render_trivial(pages: int = PAGES) -> bytes:
    from weasyprint import HTML

    pdf: bytes = HTML(string=trivial_html(pages)).write_pdf()
    return pdf


@dataclass(frozen=True)
class Timing:
    """One subject's renders: median CPU and wall seconds, the fastest and slowest CPU."""

    cpu: float
    wall: float
    low: float
    high: float

    @classmethod
    def of(cls, samples: list[tuple[float, float]]) -> Timing:
        cpu = [c for c, _ in samples]
        return cls(
            statistics.median(cpu), statistics.median(w for _, w in samples), min(cpu), max(cpu)
        )


@dataclass(frozen=True)
class BenchResult:
    cards: Timing
    trivial: Timing
    first: float  # the first cards render, wall seconds, with cold caches

    @property
    def ratio(self) -> float:
        return self.cards.cpu / self.trivial.cpu

    def goals(self) -> list[tuple[str, bool]]:
        """(what was measured against what, met) for each goal."""
        return [
            (f"ratio {self.ratio:.2f}× (goal ≤ {RATIO_GOAL:g}×)", self.ratio <= RATIO_GOAL),
            (
                f"30 cards {self.cards.cpu:.3f} s (goal ≤ {BUDGET_SECONDS:g} s)",
                self.cards.cpu <= BUDGET_SECONDS,
            ),
        ]


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def bench_cards(catalog: Catalog, *, runs: int = 7, layout: str = "a4") -> BenchResult:
    """The first cards render, then ``runs`` renders each of the cards and the trivial
    document, in turns."""
    fleet = bench_fleet()
    first = _timed(lambda: render_cards(catalog, fleet, layout=layout))[1]
    render_trivial()  # its first render pays for nothing the cards did not already
    cards, trivial = [], []
    for _ in range(max(1, runs)):
        cards.append(_timed(lambda: render_cards(catalog, fleet, layout=layout)))
        trivial.append(_timed(render_trivial))
    return BenchResult(Timing.of(cards), Timing.of(trivial), first)
