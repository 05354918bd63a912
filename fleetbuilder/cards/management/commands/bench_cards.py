"""``python manage.py bench_cards``: how long a 30-card Armada fleet takes to print.

Prints the median wall-clock time of several renders (the budget is 1.5 s) and the first
render's, with cold caches.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fleetbuilder.catalog import loader
from rules_core.cards import LAYOUTS
from rules_core.cards.bench import BUDGET_SECONDS, bench_cards, bench_fleet


class Command(BaseCommand):
    help = "Benchmark: render a 30-card Armada fleet's ship cards; print the median time."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=7, help="renders to time (default 7)")
        parser.add_argument("--layout", choices=LAYOUTS, default="a4")

    def handle(self, *args: Any, **options: Any) -> None:
        runs = max(1, options["runs"])
        fleet = bench_fleet()
        result = bench_cards(loader.command_catalog(), runs=runs, layout=options["layout"])
        verdict = "within" if result["median"] < BUDGET_SECONDS else "OVER"
        self.stdout.write(
            f"ship cards: {len(fleet.units)}-card Armada ({fleet.faction}), "
            f"{options['layout']} layout\n"
            f"  median {result['median']:.3f} s of {runs} renders "
            f"(min {result['min']:.3f}, max {result['max']:.3f}); {verdict} the "
            f"{BUDGET_SECONDS} s budget\n"
            f"  first render {result['first']:.3f} s (cold caches)")
