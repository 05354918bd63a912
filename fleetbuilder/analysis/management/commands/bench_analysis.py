"""Benchmark (a command, not a test): one "Which ship matters?" analysis of an 8-unit Skirmish
fleet, 500 battles a variant, against the Archenemy's Skirmish sample, on 2 workers.

    manage.py bench_analysis [--battles 500] [--workers 2] [--queue] [--check] [--keep]

It starts the analysis as the page does (``Analysis.start``, the same limits, variants and
chunks) and times it from the start to the last chunk recorded. Without ``--queue`` the chunks
are played by ``--workers`` forked processes calling the Celery task's own function (each chunk
written once under the row lock, as on a worker); with ``--queue`` they go to the task queue
and the running workers (``scripts/serve worker``) play them. Prints the figure and PASS or
MISS against 60 s; ``--check`` exits 1 on a MISS. The analysis is deleted afterwards unless
``--keep``. It writes to the configured database: point DATABASE_URL at a scratch one.
"""

from __future__ import annotations

import multiprocessing
import secrets
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from fleetbuilder.catalog import loader
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet
from rules_core.sim import SimOptions
from rules_core.whatif import what_if_variants

from ...models import Analysis, variant_records
from ...tasks import play_analysis_chunk

GOAL_SECONDS = 60.0


def bench_fleet() -> rf.Fleet:
    """8 units, 955 points: a Lunar flagship with a Commodore, a Gothic, three light cruisers
    and three escort squadrons."""

    def squadron(slug: str, n: int) -> rf.Squadron:
        return rf.Squadron((rf.SquadronShip(slug),) * n)

    return rf.Fleet(
        faction="imperial-navy",
        game_size=rf.GameSize.SKIRMISH,
        name="Bench Skirmish",
        units=(
            rf.ShipUnit("lunar-class-cruiser", flagship=True, admiral="commodore"),
            rf.ShipUnit("gothic-class-cruiser"),
            rf.ShipUnit("dauntless-class-light-cruiser"),
            rf.ShipUnit("endeavour-class-light-cruiser"),
            rf.ShipUnit("siluria-class-light-cruiser"),
            squadron("cobra-class-destroyer", 3),
            squadron("sword-class-frigate", 3),
            squadron("firestorm-class-frigate", 2),
        ),
    )


def _play(task: tuple[int, int, int]) -> int:
    return int(play_analysis_chunk(*task))


class Command(BaseCommand):
    help = "Time one what-if analysis of an 8-unit Skirmish fleet on N workers (goal: < 60 s)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--battles", type=int, default=500, help="battles per variant")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument(
            "--terrain", default="voidscape", help="the preview's default terrain (R-136)"
        )
        parser.add_argument("--seed", type=int, default=20261201)
        parser.add_argument(
            "--queue",
            action="store_true",
            help="send the chunks to the task queue's running workers",
        )
        parser.add_argument("--check", action="store_true", help="exit 1 on a MISS")
        parser.add_argument("--keep", action="store_true", help="keep the analysis")

    def handle(self, *args: Any, **opts: Any) -> None:
        catalog = loader.core_catalog()
        fleet = bench_fleet()
        opponent = sample_fleet(catalog, "archenemy", "skirmish")
        variants, skipped = what_if_variants(catalog, fleet)
        if opts["workers"] < 1:
            raise CommandError("--workers must be 1 or more")
        began = time.perf_counter()
        analysis = Analysis.start(
            fleet=fleet,
            opponent=opponent,
            variants=variant_records(variants),
            skipped=[{"label": s.label, "reason": s.reason} for s in skipped],
            sources={
                "a": {"kind": "bench", "label": "Bench Skirmish"},
                "b": {"kind": "sample", "label": "Archenemy Skirmish (sample)"},
            },
            options=SimOptions(terrain=opts["terrain"]),
            seed=opts["seed"],
            battles=opts["battles"],
            owner_token=f"bench-{secrets.token_hex(8)}",
            send=opts["queue"],
        )
        where = "the queue" if opts["queue"] else f"{opts['workers']} worker processes"
        self.stdout.write(
            f"bench_analysis: {len(fleet.units)} units, {len(variants)} versions "
            f"(1 baseline, {sum(v.kind == 'remove' for v in variants)} removals, "
            f"{sum(v.kind == 'swap' for v in variants)} swaps; {len(skipped)} notes), "
            f"{opts['battles']} battles each = {analysis.total_battles} battles in "
            f"{len(analysis.all_tasks())} chunks of {analysis.chunk_battles}, on {where}"
        )
        try:
            if opts["queue"]:
                while True:
                    analysis.refresh_from_db(fields=["status", "done", "error"])
                    if analysis.is_done:
                        break
                    time.sleep(0.2)
            else:
                tasks = [(analysis.pk, v, c) for v, c in analysis.all_tasks()]
                connections.close_all()  # each forked worker opens its own connection
                ctx = multiprocessing.get_context("fork")
                with ctx.Pool(opts["workers"]) as pool:
                    list(pool.imap_unordered(_play, tasks))
            seconds = time.perf_counter() - began
            analysis.refresh_from_db()
            if analysis.status != Analysis.Status.DONE:
                raise CommandError(
                    f"the analysis did not finish: {analysis.status} {analysis.error}"
                )
            results = analysis.results()
            ok = seconds < GOAL_SECONDS
            per = seconds / analysis.total_battles * 1000
            self.stdout.write(
                f"baseline score {results['base_score'] * 100:.1f} %; "
                f"the ship that matters most: "
                f"{(results['matters_most'] or {}).get('label', '-')}"
            )
            self.stdout.write(
                f"{analysis.total_battles} battles in {seconds:.1f} s "
                f"({per:.2f} ms a battle): {'PASS' if ok else 'MISS'} "
                f"(goal < {GOAL_SECONDS:.0f} s)"
            )
        finally:
            if not opts["keep"]:
                Analysis.objects.filter(pk=analysis.pk).delete()
        if opts["check"] and not ok:
            raise SystemExit(1)
