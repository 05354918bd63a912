"""``python manage.py bench_cards [--runs 7] [--layout a4] [--check]``: how fast cards print.

In one run: a 30-card Armada fleet's PDF and a trivial 30-page WeasyPrint document, rendered in
turns (median CPU seconds, wall beside them), and their ratio; then a repeat download answered
from the PDF cache. Each goal says PASS or MISS; ``--check`` exits 1 when one is missed. A
benchmark, not a test: CI does not run it.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fleetbuilder import pdfcache
from fleetbuilder.catalog import loader
from rules_core.cards import LAYOUTS
from rules_core.cards.bench import PAGES, bench_cards, bench_fleet
from rules_core.fleet import fleet_to_dict

CACHED_GOAL_MS = 50.0  # a repeat download answers in under 50 ms


class Command(BaseCommand):
    help = (
        "Benchmark: a 30-card fleet's PDF against a trivial 30-page document, and a "
        "cached repeat; --check exits 1 when a goal is missed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=7, help="renders of each (default 7)")
        parser.add_argument("--layout", choices=LAYOUTS, default="a4")
        parser.add_argument(
            "--check", action="store_true", help="exit 1 if a goal is missed (the output says MISS)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        runs = max(1, options["runs"])
        layout = options["layout"]
        catalog = loader.command_catalog()
        fleet = bench_fleet()
        result = bench_cards(catalog, runs=runs, layout=layout)
        cached_ms = self.cached_repeat_ms(fleet_to_dict(fleet), layout)
        c, t = result.cards, result.trivial
        goals = [
            *result.goals(),
            (
                f"cached repeat {cached_ms:.1f} ms (goal < {CACHED_GOAL_MS:g} ms)",
                cached_ms < CACHED_GOAL_MS,
            ),
        ]
        lines = [
            f"ship cards: {len(fleet.units)}-card Armada ({fleet.faction}), {layout} layout, "
            f"median of {runs} renders each (CPU s; wall in brackets)",
            f"  cards    {c.cpu:.3f} s  (min {c.low:.3f}, max {c.high:.3f}; wall {c.wall:.3f})",
            f"  trivial  {t.cpu:.3f} s  ({PAGES} pages of a heading and a line; wall {t.wall:.3f})",
            f"  ratio    {result.ratio:.2f}×",
            f"  first cards render {result.first:.3f} s wall (cold caches)",
            f"  cached repeat {cached_ms:.2f} ms (key and cache read, median of 50)",
        ]
        lines += [f"  {'PASS' if met else 'MISS'} {what}" for what, met in goals]
        self.stdout.write("\n".join(lines))
        if options["check"] and not all(met for _, met in goals):
            self.stderr.write("bench_cards: a goal was missed (MISS above)")
            sys.exit(1)

    @staticmethod
    def cached_repeat_ms(document: dict[str, Any], layout: str) -> float:
        """A repeat download's work before the response: the key, then the cache read."""
        options = pdfcache.PrintOptions(layout=layout, ink_saver=False, share_url=None)
        pdfcache.put(pdfcache.pdf_key(document, options), b"%PDF-" + b"x" * 400_000)
        times = []
        for _ in range(50):
            start = time.perf_counter()
            key = pdfcache.pdf_key(document, options)
            assert pdfcache.get(key) is not None
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)
