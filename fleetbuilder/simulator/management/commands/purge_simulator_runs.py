"""Delete simulator runs untouched for SIM_RUN_DAYS (default 30), with their played chunks.

Run it from cron (daily, say) beside ``clearsessions`` and ``purge_anonymous_fleets``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from fleetbuilder.simulator.models import stale_runs


class Command(BaseCommand):
    help = "Delete simulator runs untouched for SIM_RUN_DAYS days (--days to override)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=None,
            help=f"untouched for this many days (default SIM_RUN_DAYS, "
            f"now {settings.SIM_RUN_DAYS})",
        )
        parser.add_argument("--dry-run", action="store_true", help="count, delete nothing")

    def handle(self, *args: Any, days: int | None, dry_run: bool, **options: Any) -> None:
        if days is not None and days < 1:
            self.stderr.write("--days must be 1 or more")
            raise SystemExit(2)
        runs = stale_runs(days)
        count = runs.count()
        noun = "simulator run" if count == 1 else "simulator runs"
        if dry_run:
            self.stdout.write(f"{count} {noun} would be deleted.")
            return
        runs.delete()
        self.stdout.write(f"Deleted {count} {noun}.")
