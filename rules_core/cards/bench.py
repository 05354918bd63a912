"""How fast the cards print: a 30-card Armada fleet, median of several renders.

``python manage.py bench_cards`` prints the figure (the catalogue comes from the database or the
data files); :func:`bench_fleet` is the fleet it prints.
"""

from __future__ import annotations

import statistics
import time

from rules_core.catalog import Catalog
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip

from .render import render_cards

BUDGET_SECONDS = 1.5  # the issue's: a 30-card Armada fleet, median of several renders

# A legal 2500-point Imperial Navy Armada of 30 units: 14 light cruisers, 16 escort squadrons.
CAPITALS = (["siluria-class-light-cruiser"] * 4 + ["dauntless-class-light-cruiser"] * 4
            + ["endeavour-class-light-cruiser"] * 3 + ["endurance-class-light-cruiser"] * 3)
SQUADRONS = ([("cobra-class-destroyer", "cobra-class-destroyer")] * 8
             + [("cobra-class-destroyer", "sword-class-frigate")] * 8)


def bench_fleet() -> Fleet:
    units: list[ShipUnit | Squadron] = [
        ShipUnit(slug, flagship=(i == 0)) for i, slug in enumerate(CAPITALS)
    ]
    units += [Squadron(tuple(SquadronShip(s) for s in pair), name=f"Patrol {n}")
              for n, pair in enumerate(SQUADRONS, start=1)]
    return Fleet(faction="imperial-navy", game_size=GameSize.ARMADA, units=tuple(units),
                 name="Benchmark Armada")


def bench_cards(catalog: Catalog, *, runs: int = 7, layout: str = "a4") -> dict[str, float]:
    """Seconds: the first render (with WeasyPrint's import) and the median of ``runs`` more."""
    fleet = bench_fleet()
    start = time.perf_counter()
    render_cards(catalog, fleet, layout=layout)
    first = time.perf_counter() - start
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        render_cards(catalog, fleet, layout=layout)
        times.append(time.perf_counter() - start)
    return {"first": first, "median": statistics.median(times), "min": min(times),
            "max": max(times)}
