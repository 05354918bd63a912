"""``python manage.py bench_hostile [--check]``: the worst-case time of each expensive endpoint
over hostile inputs (R-95), against the 3 s goal.

Runs Django's test Client against a temporary test database with the catalogue loaded; rate
limits are off (they are what a real attacker meets first) and the simulator's chunks are not
sent to any queue (starting a run only checks the fleets and stores it). Each endpoint's worst
input is named; ``--check`` exits 1 if any endpoint misses the goal. CI does not run it.

It holds the simulator's task queue back, so it is the simulator's command: fleets, below the
simulator, import nothing of it (docs/architecture.md, "The layers").
"""

from __future__ import annotations

import io
import os
import time
import zipfile
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.test import Client, override_settings

from rules_core import fleet as rf
from rules_core import textlist
from rules_core.limits import MAX_UNITS
from rules_core.validator import validate

GOAL_SECONDS = 3.0


class Command(BaseCommand):
    help = "Benchmark: worst-case time of the expensive endpoints over hostile inputs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="exit 1 if an endpoint misses the 3 s goal"
        )
        parser.add_argument(
            "--repeat",
            type=int,
            default=1,
            help="times each request is made; the slowest counts (default 1)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from django.db import connection
        from django.test.utils import setup_test_environment, teardown_test_environment

        setup_test_environment()
        old_name = connection.creation.create_test_db(
            verbosity=0, autoclobber=True, serialize=False
        )
        try:
            with override_settings(RATE_LIMITS={}, CELERY_TASK_ALWAYS_EAGER=False):
                misses = self.run_all(max(1, options["repeat"]))
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
            teardown_test_environment()
        if misses and options["check"]:
            raise SystemExit(1)

    def run_all(self, repeat: int) -> int:
        from fleetbuilder.catalog import loader
        from fleetbuilder.fleets import hostile
        from fleetbuilder.fleets.models import Fleet
        from fleetbuilder.simulator.tasks import play_chunk

        loader.load(force=True)
        catalog = loader.core_catalog()
        play_chunk.apply_async = lambda *a, **k: None  # type: ignore[assignment]
        client = Client()
        client.get("/fleets/")

        def own(doc: rf.Fleet) -> int:
            response = client.post(
                "/fleets/new/",
                {"faction": doc.faction, "variant": "", "game_size": "armada", "name": "bench"},
            )
            fleet = Fleet.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
            fleet.store(doc, catalog)
            fleet.save()  # as a fleet stored before the bounds could be
            return fleet.pk

        fleets = {
            name: getattr(hostile, name)(catalog)
            for name in ("max_ships", "max_cards", "big_squadrons", "over_ships", "over_points")
        }
        escort = hostile.cheapest_escort(catalog).slug
        fleets["41_cards"] = hostile.squadrons_of(escort, 41, 2)
        pks = {name: own(fleet) for name, fleet in fleets.items()}
        codes = {name: hostile.raw_code(fleet) for name, fleet in fleets.items()}
        codes["issue_100x32"] = hostile.issue_code(catalog)
        codes["deflate_bomb"] = hostile.bomb_code()
        codes["3001_chars"] = "v1." + "A" * 2998
        bundle = io.BytesIO()
        with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as z:
            for n in range(MAX_UNITS):
                z.writestr(f"fleet-{n}.json", hostile.file_text(fleets["max_ships"]))
        texts = {f"file {n}": hostile.file_text(f) for n, f in fleets.items()}
        for name in ("max_ships", "over_points"):
            texts[f"text list {name}"] = textlist.to_text(
                catalog, fleets[name], validate(fleets[name], catalog)
            )
        texts.update({f"code {n}": c for n, c in codes.items()})
        texts["deep JSON"] = hostile.deep_json()

        sim = {
            "battles": 10000,
            "max_rounds": 20,
            "scoring": "faq",
            "terrain": "void",
            "b_source": "shared",
            "a_source": "shared",
        }
        cases: dict[str, list[tuple[str, Callable[..., Any]]]] = {
            "cards PDF": [
                (f"{n} (fleet)", lambda pk=pk: client.get(f"/cards/fleet/{pk}/?layout=poker"))
                for n, pk in pks.items()
            ]
            + [
                (f"{n} (code)", lambda c=c: client.get(f"/fleets/code/{c}/cards.pdf?layout=a4"))
                for n, c in codes.items()
            ],
            # A fresh browser each time: a player may have only two unfinished runs.
            "simulator start": [
                (n, lambda c=c: Client().post("/simulator/", {**sim, "a_share": c, "b_share": c}))
                for n, c in codes.items()
            ],
            "import preview": [
                (n, lambda t=t: client.post("/fleets/import/", {"text": t}))
                for n, t in texts.items()
            ]
            + [
                (
                    "zip of 100 max_ships files",
                    lambda: client.post("/fleets/import/", {"file": _upload(bundle.getvalue())}),
                )
            ],
            "share-code page": [
                (n, lambda c=c: client.get(f"/fleets/code/{c}/")) for n, c in codes.items()
            ],
            "builder page": [
                (n, lambda pk=pk: client.get(f"/fleets/{pk}/")) for n, pk in pks.items()
            ],
        }
        misses = 0
        load = os.getloadavg()[0]
        self.stdout.write(
            f"Hostile inputs, worst of {repeat} request(s) each; goal "
            f"{GOAL_SECONDS:.0f} s a request (wall clock; the CPU time of that "
            f"request beside it). Load average {load:.1f} on {os.cpu_count()} "
            "cores"
            + (": other work slows the wall clock" if load > (os.cpu_count() or 1) else "")
            + "."
        )
        for endpoint, runs in cases.items():
            worst = (0.0, 0.0, "", 0)
            for name, run in runs:
                for _ in range(repeat):
                    start, cpu = time.perf_counter(), time.process_time()
                    response = run()
                    took = time.perf_counter() - start
                    if took > worst[0]:
                        worst = (took, time.process_time() - cpu, name, response.status_code)
            verdict = "PASS" if worst[0] < GOAL_SECONDS else "MISS"
            misses += verdict == "MISS"
            self.stdout.write(
                f"  {endpoint:<16} {worst[0]:6.2f} s (cpu {worst[1]:5.2f} s)  "
                f"{verdict}  worst: {worst[2]} ({worst[3]}), {len(runs)} inputs"
            )
        return misses


def _upload(data: bytes) -> io.BytesIO:
    upload = io.BytesIO(data)
    upload.name = "fleets.zip"
    return upload
