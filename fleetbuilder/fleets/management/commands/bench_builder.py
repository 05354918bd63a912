"""``python manage.py bench_builder``: how fast the builder answers on a 40-ship Armada fleet.

Times the add-ship request end to end through Django (the test client, htmx request, CSRF off)
and the validator alone, and counts the add-ship request's SQL queries on a 5-ship and a 40-ship
fleet. Works in a transaction it rolls back: nothing is left behind. Goals: validator < 2 ms,
add-ship < 30 ms, the same query count whatever the fleet's size.
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

    def handle(self, *args: Any, **options: Any) -> None:
        require_database()
        catalog = loader.core_catalog()
        if catalog.faction(FACTION) is None:
            raise CommandError("the catalogue is not loaded: run manage.py load_catalog first")
        with override_settings(ALLOWED_HOSTS=["testserver"]), transaction.atomic():
            self.run(options["repeat"], options["ships"])
            transaction.set_rollback(True)

    def run(self, repeat: int, ships: int) -> None:
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

        def add_ship() -> None:
            assert client.post(url, data, headers=headers).status_code == 200

        results = {}
        for size in (5, ships):
            units = armada_units(catalog, size)
            reset(units)
            add_ship()  # warm up
            reset(units)
            with QueryCounter() as queries:
                add_ship()
            times = []
            for _ in range(repeat):
                reset(units)
                times.append(median_ms(add_ship, 1))
            times.sort()
            results[size] = (times[len(times) // 2], queries.count)
        reset(armada_units(catalog, ships))
        core_fleet = fleet.to_core()
        validator_ms = median_ms(lambda: validate(core_fleet, catalog), max(repeat, 200))
        report = validate(core_fleet, catalog)

        out = self.stdout.write
        out(f"fleet: {core_fleet.ship_count} ships in {len(core_fleet.units)} units, "
            f"{report.points} points, {'legal' if report.legal else 'not legal'}")
        out(f"validator alone:           median {validator_ms:7.3f} ms   (goal < 2 ms)")
        for size, (ms, count) in results.items():
            out(f"add-ship, {size:2d}-ship fleet:   median {ms:7.3f} ms   "
                f"{count} SQL queries   (goal < 30 ms)")
        for sql in queries.statements:
            out(f"  query: {sql[:110]}")
