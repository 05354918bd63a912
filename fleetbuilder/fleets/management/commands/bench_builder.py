"""``python manage.py bench_builder``: how fast the builder answers on a 40-ship Armada fleet.

Times the add-ship request end to end through Django (the test client, htmx request, CSRF off)
and the validator alone, counts the add-ship request's SQL queries and measures its answer on a
5-ship, a 40-ship and an 80-ship fleet (about the most R-95's 5000 points allow), and the
answers to other edits on the 40-ship fleet (rename, remove and +1 on the first unit: the rows
after it are renumbered in the page, not sent) and to an add refused at the bound.
Works in a transaction it rolls back: nothing is left behind. Goals (issue 13): validator
< 2 ms, add-ship < 10 ms at 40 ships and not growing with the fleet, every answer < 12 KB, the
same query count whatever the fleet's size. The click-to-page time in Chromium is
``bench_builder_browser``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings

from fleetbuilder.catalog import loader
from fleetbuilder.dbready import require_database
from rules_core.validator import validate

from ...bench import FACTION, QueryCounter, armada_units, median_ms
from ...models import Fleet


class Command(BaseCommand):
    help = "Benchmark the builder's add-ship request and the validator on a 40-ship fleet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--repeat", type=int, default=50)
        parser.add_argument("--ships", type=int, default=40)
        parser.add_argument("--check", action="store_true",
                            help="exit 1 if a goal is missed")

    def handle(self, *args: Any, **options: Any) -> None:
        require_database()
        catalog = loader.core_catalog()
        if catalog.faction(FACTION) is None:
            raise CommandError("the catalogue is not loaded: run manage.py load_catalog first")
        with override_settings(ALLOWED_HOSTS=["testserver"]), transaction.atomic():
            missed = self.run(options["repeat"], options["ships"])
            transaction.set_rollback(True)
        if missed and options["check"]:
            raise SystemExit(1)

    def run(self, repeat: int, ships: int) -> bool:
        catalog = loader.core_catalog()
        client = Client()
        response = client.post("/fleets/new/", {"faction": FACTION, "game_size": "armada",
                                                "name": "Benchmark"})
        fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
        url = f"/fleets/{fleet.pk}/add-ship/"
        headers = {"HX-Request": "true"}
        data = {"ship": "lunar-class-cruiser"}

        def reset(units: list[dict[str, Any]]) -> None:
            fleet.document = {**fleet.document, "units": units}
            fleet.store(fleet.to_core(), catalog)
            fleet.save()

        sizes: dict[int, int] = {}

        def add_ship() -> None:
            response = client.post(url, data, headers=headers)
            assert response.status_code == 200
            sizes[fleet.pk] = len(response.content)

        results = {}
        for size in (5, ships, 80):
            units = armada_units(catalog, size)
            reset(units)
            add_ship()  # warm up
            reset(units)
            with QueryCounter() as queries:
                add_ship()
            times = []
            for _ in range(repeat if size != 80 else max(repeat // 5, 3)):
                reset(units)
                times.append(median_ms(add_ship, 1))
            times.sort()
            results[size] = (times[len(times) // 2], queries.count, sizes[fleet.pk])
        units = armada_units(catalog, ships)
        others = {}
        for name, path, payload in (
                (f"rename unit 1 of {ships} ships", "units/0/rename/", {"name": "X"}),
                (f"remove unit 1 of {ships} ships", "units/0/remove/", {}),
                (f"+1 on unit 1 of {ships} ships", "units/0/duplicate/", {})):
            reset(units)
            response = client.post(f"/fleets/{fleet.pk}/{path}", payload, headers=headers)
            assert response.status_code == 200
            others[name] = len(response.content)
        reset(armada_units(catalog, 150))
        response = client.post(url, data, headers=headers)  # refused: past the bound
        assert b"alert" in response.content
        others["add-ship refused at the bound"] = len(response.content)
        reset(units)
        core_fleet = fleet.to_core()
        validator_ms = median_ms(lambda: validate(core_fleet, catalog), max(repeat, 200))
        report = validate(core_fleet, catalog)

        out = self.stdout.write
        out(f"fleet: {core_fleet.ship_count} ships in {len(core_fleet.units)} units, "
            f"{report.points} points, {'legal' if report.legal else 'not legal'}")
        out(f"validator alone:            median {validator_ms:7.3f} ms   (goal < 2 ms)")
        missed = validator_ms >= 2
        for size, (ms, count, size_bytes) in results.items():
            out(f"add-ship, {size:3d}-ship fleet:  median {ms:7.3f} ms   {count} SQL queries   "
                f"answer {size_bytes / 1024:5.1f} KB")
            missed |= size_bytes >= 12 * 1024
        for name, size_bytes in others.items():
            out(f"{name:<30} answer {size_bytes / 1024:5.1f} KB")
            missed |= size_bytes >= 12 * 1024
        goal = results[ships][0]
        missed |= goal >= 10 or results[ships][1] != results[5][1]
        out(f"goals: add-ship at {ships} ships < 10 ms, answers < 12 KB, queries flat: "
            f"{'MISS' if missed else 'PASS'}")
        for sql in queries.statements:
            out(f"  query: {sql[:110]}")
        return missed
