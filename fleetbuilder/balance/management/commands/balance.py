"""``python manage.py balance --size skirmish|battle|patrol|armada --battles N [--policy P]
[--terrain T] [--seed S] [--factions a,b,…] [--json] [--workers W | --queue] [--publish]``

The round robin of the factions' built-in sample fleets (``rules_core.balance``):
every pair plays N battles (N even: each faction is side A in half of them), and the command
prints each faction's mean score against the field with its 95 % interval, the pair matrix and
the issue's summary figures (``--json``: the table's JSON). It plays in this process with
``--workers`` forked processes (default 1), or with ``--queue`` on the task queue's workers (a
``BalanceRun`` whose chunks are Celery tasks), waiting for them and printing progress on
stderr. The same inputs give the same output whichever way it is played. ``--publish`` stores
the table for the Balance page. Exit 0 on success, 2 on unusable input or a failed run, with a
one-line reason on stderr.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from typing import Any, NoReturn

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from fleetbuilder.catalog import loader
from fleetbuilder.ops.health import CheckFailed, celery_in_process, check_workers
from fleetbuilder.simulator.models import MAX_SEED
from rules_core.balance import (
    SIZES,
    BalanceError,
    BalanceSpec,
    RoundRobin,
    format_table,
)
from rules_core.sample_fleets import SampleFleetError
from rules_core.sim import POLICIES, SimError
from rules_core.sim.api import TERRAINS

from ...models import BalanceRun, BalanceTable

MAX_WORKERS = 64
POLL_SECONDS = 0.5


def command_line(spec: BalanceSpec) -> str:
    """The command that plays ``spec`` again (how it is played does not change the table)."""
    parts = [
        "python",
        "manage.py",
        "balance",
        "--size",
        spec.size,
        "--battles",
        str(spec.battles),
        "--policy",
        spec.policy,
        "--terrain",
        spec.terrain,
        "--seed",
        str(spec.seed),
    ]
    if spec.factions:
        parts += ["--factions", ",".join(spec.factions)]
    return shlex.join(parts)


class Command(BaseCommand):
    help = "Play the round robin of every faction's sample fleet and print the balance table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--size", choices=SIZES, required=True, help="game size")
        parser.add_argument(
            "--battles",
            type=int,
            required=True,
            help="battles a pair (even: half with each faction as side A)",
        )
        parser.add_argument(
            "--policy",
            choices=sorted(POLICIES),
            default="standard",
            help="how both sides are played (docs/simulator.md)",
        )
        parser.add_argument("--terrain", choices=TERRAINS, default="none")
        parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
        parser.add_argument(
            "--factions", default="", help="comma-separated faction slugs (default: all of them)"
        )
        parser.add_argument("--json", action="store_true", help="print the table's JSON")
        parser.add_argument(
            "--workers",
            type=int,
            default=1,
            help="processes on this machine; the results do not depend on it",
        )
        parser.add_argument(
            "--queue",
            action="store_true",
            help="play on the task queue's workers (scripts/serve worker)",
        )
        parser.add_argument(
            "--chunk",
            type=int,
            default=None,
            help="battles per chunk (default: SIM_CHUNK_BATTLES with --queue, "
            "else 10); the results do not depend on it",
        )
        parser.add_argument(
            "--publish",
            action="store_true",
            help="store the table for the Balance page (/balance/)",
        )
        parser.add_argument(
            "--note", default="", help="with --publish: a sentence the page shows with the table"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not 1 <= options["workers"] <= MAX_WORKERS:
            self.fail(f"--workers must be from 1 to {MAX_WORKERS}")
        if options["queue"] and options["workers"] != 1:
            self.fail("--workers is for playing here; with --queue the queue's workers play")
        if options["chunk"] is not None and not 1 <= options["chunk"] <= 10_000:
            self.fail("--chunk must be from 1 to 10000")
        if not 0 <= options["seed"] <= MAX_SEED:  # a published table stores it in 64 bits
            self.fail(f"--seed must be from 0 to {MAX_SEED} (as the simulator's)")
        factions = tuple(f.strip() for f in options["factions"].split(",") if f.strip())
        try:
            spec = BalanceSpec(
                size=options["size"],
                battles=options["battles"],
                seed=options["seed"],
                policy=options["policy"],
                terrain=options["terrain"],
                factions=factions,
            )
            rr = RoundRobin.prepare(loader.command_catalog(), spec)
        except (BalanceError, SampleFleetError, SimError) as exc:
            self.fail(str(exc))
        began = time.monotonic()
        if options["queue"]:
            table = self.on_queue(rr, options["chunk"] or int(settings.SIM_CHUNK_BATTLES))
            how = "on the task queue"
        else:
            table = rr.play(
                workers=options["workers"],
                progress=self.progress(began),
                chunk=options["chunk"] or 10,
            )
            how = f"with {options['workers']} worker{'s' if options['workers'] > 1 else ''}"
        seconds = time.monotonic() - began
        self.stderr.write(f"\n{rr.total_battles} battles in {seconds:.0f} s, {how}")
        if options["publish"]:
            published = BalanceTable.publish(
                table, command_line(spec), seconds, note=options["note"].strip()
            )
            self.stderr.write(f"Published as balance table {published.pk}: /balance/")
        if options["json"]:
            self.stdout.write(json.dumps(table, ensure_ascii=False, indent=2))
        else:
            self.stdout.write(format_table(table))

    def progress(self, began: float) -> Any:
        last = [0.0]

        def report(done: int, total: int) -> None:
            now = time.monotonic()
            if done < total and now - last[0] < 2:
                return
            last[0] = now
            self.stderr.write(
                f"\r{done} / {total} battles ({100 * done // total} %), {now - began:.0f} s",
                ending="",
            )
            self.stderr.flush()

        return report

    def on_queue(self, rr: RoundRobin, chunk: int) -> dict[str, Any]:
        """Create a BalanceRun, send its chunks to the workers and wait for them."""
        if not celery_in_process():
            try:
                check_workers()
            except (CheckFailed, OSError) as exc:
                self.fail(
                    f"No worker answered on the task queue ({exc}); run without --queue "
                    "to play here"
                )
        run = BalanceRun.create(rr, chunk)
        began = time.monotonic()
        report = self.progress(began)
        try:
            run.enqueue()
        except Exception as exc:
            run.fail("the queue could not be reached")
            self.fail(f"The task queue cannot be reached: {exc}")
        stall = int(settings.SIM_STALL_SECONDS)
        seen, moved = -1, time.monotonic()
        while True:
            run.refresh_from_db(fields=["done", "status", "error"])
            if run.done != seen:
                seen, moved = run.done, time.monotonic()
                report(run.done, run.total)
            if run.status == BalanceRun.Status.FAILED:
                self.fail(f"Balance run {run.pk} failed: {run.error}")
            if run.is_done:
                break
            if time.monotonic() - moved > stall:
                missing = run.missing_chunks()
                self.stderr.write(
                    f"\nNo progress for {stall} s: sending {len(missing)} chunks again"
                )
                run.enqueue(missing)
                moved = time.monotonic()
            time.sleep(POLL_SECONDS)
        counts = run.counts()
        return run.round_robin(rr.catalog).table(counts)

    def fail(self, reason: str) -> NoReturn:
        self.stderr.write(reason.replace("\n", " "))
        sys.exit(2)
