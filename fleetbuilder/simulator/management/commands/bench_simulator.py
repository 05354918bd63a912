"""``python manage.py bench_simulator [--battles N] [--workers W]``: the simulator benchmark
(battles per second per core; wall time of a 1,000-battle run with 2 workers) on the loaded
catalogue. The same as ``python -m rules_core bench-sim``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fleetbuilder.catalog import loader
from rules_core.sim.bench import main


class Command(BaseCommand):
    help = "Benchmark the skirmish simulator on two fixed Skirmish fleets."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--battles", type=int, default=1000)
        parser.add_argument("--workers", type=int, default=2)

    def handle(self, *args: Any, **options: Any) -> None:
        main(
            loader.command_catalog(),
            battles=max(1, options["battles"]),
            workers=max(1, options["workers"]),
        )
