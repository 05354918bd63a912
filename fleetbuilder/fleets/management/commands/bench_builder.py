"""``python manage.py bench_builder``: how fast and how small the builder's answers are.

Times the add-ship request end to end through Django (the test client, htmx request, CSRF off)
and the validator alone, counts the add-ship request's SQL queries and measures its answer on a
5-ship, a 40-ship and an 80-ship fleet (about the most R-95's 5000 points allow). Then it makes
every kind of roster edit (``bench.edit_cases``: add ship, add escort, +1 of this, upgrade tick,
squadron-wide tick, rename, remove, reorder up/down, drag to top or bottom, flagship, admiral,
move escort, new squadron, undo) on the first, a middle and the last unit of a 40-unit fleet,
its editor open and closed, and prints the largest answer of each kind (its body and its HX-*
headers) with PASS or MISS against 12 KB; and an add refused at the bound. Then the units that
weigh most: every ship of the catalogue in the largest unit it flies in (``bench.largest_units``:
an escort four to a squadron), its editor opened and closed (``bench.editor_cases``), and every
kind of edit on a fleet of the heaviest squadron and that faction's heaviest capital ship
(``bench.largest_fleet``), each kind's largest answer with PASS or MISS.
And the builder page itself (a GET) of the heaviest fleet the bounds allow: 150 ships in 100
units, named, upgrades ticked (``bench.bound_fleet_units``; goal < 300 ms).
Works in a transaction it rolls back: nothing is left behind. Goals: validator
< 2 ms, add-ship < 10 ms at 40 ships and not growing with the fleet, every answer < 12 KB, the
same query count whatever the fleet's size; ``--check`` exits 1 when one is missed. The
click-to-page time in Chromium is ``bench_builder_browser``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings

from fleetbuilder.catalog import editions, loader
from fleetbuilder.dbready import require_database
from rules_core.editions import UnknownEdition
from rules_core.validator import validate

from ...bench import (
    ANSWER_GOAL,
    FACTION,
    PAGE_GOAL_MS,
    EditCase,
    QueryCounter,
    answer_size,
    armada_fleet_of,
    armada_units,
    bound_fleet_units,
    edit_cases,
    editor_cases,
    largest_fleet,
    largest_units,
    median_ms,
    request,
    store_units,
)
from ...models import Fleet


class Command(BaseCommand):
    help = "Benchmark the builder's add-ship request and the validator on a 40-ship fleet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--repeat", type=int, default=50)
        parser.add_argument("--ships", type=int, default=40)
        parser.add_argument(
            "--units",
            type=int,
            default=40,
            help="the fleet's size in units for the answer of every edit",
        )
        parser.add_argument("--check", action="store_true", help="exit 1 if a goal is missed")
        parser.add_argument(
            "--edition",
            type=int,
            default=None,
            help="put the benchmark's fleet on this published edition (R-160): "
            "an older one prices it apart and shows the newest's banner",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        require_database()
        catalog = loader.core_catalog()
        if catalog.faction(FACTION) is None:
            raise CommandError("the catalogue is not loaded: run manage.py load_catalog first")
        with override_settings(ALLOWED_HOSTS=["testserver"]), transaction.atomic():
            missed = self.run(
                options["repeat"], options["ships"], options["units"], options["edition"]
            )
            transaction.set_rollback(True)
        if missed and options["check"]:
            raise SystemExit(1)

    def run(self, repeat: int, ships: int, unit_count: int, edition: int | None) -> bool:
        client = Client()
        response = client.post(
            "/fleets/new/", {"faction": FACTION, "game_size": "armada", "name": "Benchmark"}
        )
        fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
        if edition is not None and edition != fleet.edition:
            try:
                fleet.change_edition(edition)
            except UnknownEdition as exc:
                raise CommandError(exc.message) from None
        catalog = fleet.catalog()
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
            sizes[fleet.pk] = answer_size(response)

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
        largest = self.every_edit(client, fleet, reset, armada_fleet_of(catalog, unit_count))
        heaviest = self.largest_units(client)
        others = {}
        reset(armada_units(catalog, 150))
        response = client.post(url, data, headers=headers)  # refused: past the bound
        assert b"Not added" in response.content  # said in the live region and the bar
        others["add-ship refused at the bound"] = answer_size(response)
        # The builder page (GET) of the heaviest fleet the bounds allow
        reset(bound_fleet_units(catalog))
        page = f"/fleets/{fleet.pk}/"
        client.get(page)  # warm up
        page_ms = median_ms(lambda: client.get(page), max(repeat // 2, 5))
        page_fleet = fleet.to_core()
        page_kb = len(client.get(page).content) / 1024
        units = armada_units(catalog, ships)
        reset(units)
        core_fleet = fleet.to_core()
        validator_ms = median_ms(lambda: validate(core_fleet, catalog), max(repeat, 200))
        report = validate(core_fleet, catalog)

        out = self.stdout.write
        newest = editions.latest()
        out(
            f"fleet: {core_fleet.ship_count} ships in {len(core_fleet.units)} units, "
            f"{report.points} points, {'legal' if report.legal else 'not legal'}, edition "
            f"{fleet.edition} (newest: {newest.number if newest else 'none'})"
        )
        out(f"validator alone:            median {validator_ms:7.3f} ms   (goal < 2 ms)")
        missed = validator_ms >= 2
        for size, (ms, count, size_bytes) in results.items():
            out(
                f"add-ship, {size:3d}-ship fleet:  median {ms:7.3f} ms   {count} SQL queries   "
                f"answer {size_bytes / 1024:5.1f} KB"
            )
            missed |= size_bytes >= ANSWER_GOAL
        out(f"largest answer of each edit on a {unit_count}-unit fleet (goal < 12 KB):")
        for kind, (size_bytes, where) in largest.items():
            verdict = "MISS" if size_bytes >= ANSWER_GOAL else "PASS"
            out(f"  {kind:<20} {size_bytes / 1024:5.1f} KB  {verdict}  ({where})")
            missed |= size_bytes >= ANSWER_GOAL
        out("largest answer of each GET and edit on the units that weigh most (goal < 12 KB):")
        for kind, (size_bytes, where) in heaviest.items():
            verdict = "MISS" if size_bytes >= ANSWER_GOAL else "PASS"
            out(f"  {kind:<20} {size_bytes / 1024:5.1f} KB  {verdict}  ({where})")
            missed |= size_bytes >= ANSWER_GOAL
        for name, size_bytes in others.items():
            out(f"{name:<30} answer {size_bytes / 1024:5.1f} KB")
            missed |= size_bytes >= ANSWER_GOAL
        page_missed = page_ms >= PAGE_GOAL_MS
        out(
            f"builder page, {page_fleet.ship_count} ships in {len(page_fleet.units)} units: "
            f"median {page_ms:7.1f} ms   {page_kb:5.0f} KB   (goal < {PAGE_GOAL_MS} ms: "
            f"{'MISS' if page_missed else 'PASS'})"
        )
        missed |= page_missed
        goal = results[ships][0]
        missed |= goal >= 10 or results[ships][1] != results[5][1]
        out(
            f"goals: add-ship at {ships} ships < 10 ms, answers < 12 KB, queries flat: "
            f"{'MISS' if missed else 'PASS'}"
        )
        for sql in queries.statements:
            out(f"  query: {sql[:110]}")
        return missed

    def every_edit(
        self,
        client: Client,
        fleet: Fleet,
        reset: Callable[[list[dict[str, Any]]], None],
        units: list[dict[str, Any]],
    ) -> dict[str, tuple[int, str]]:
        """The largest answer of each kind of edit (bench.edit_cases), and where it was made."""
        reset(units)
        largest: dict[str, tuple[int, str]] = {}
        for case in edit_cases(fleet, fleet.catalog()):
            reset(units)
            self.measure(client, fleet, case, largest)
        return largest

    def measure(
        self,
        client: Client,
        fleet: Fleet,
        case: EditCase,
        largest: dict[str, tuple[int, str]],
        where: str = "",
    ) -> int:
        response = request(client, fleet, case)
        if response.status_code != 200:
            raise CommandError(f"{case.kind} ({case.where}) was answered {response.status_code}")
        size = answer_size(response)
        if size > largest.get(case.kind, (-1, ""))[0]:
            largest[case.kind] = (size, f"{where}{case.where}")
        return size

    def largest_units(self, client: Client) -> dict[str, tuple[int, str]]:
        """Every ship in its largest unit, Edit and Done on it; then every kind of edit on a
        fleet of the faction whose squadron's editor weighs most."""
        catalog = loader.core_catalog()
        fleets: dict[str, Fleet] = {}
        largest: dict[str, tuple[int, str]] = {}
        opened: dict[tuple[str, bool], tuple[int, str]] = {}  # (faction, escort) -> size, ship
        for faction, ship, units in largest_units(catalog):
            if faction not in fleets:
                fleets[faction] = self.new_fleet(client, faction)
            fleet = fleets[faction]
            store_units(fleet, units, catalog)
            for case in editor_cases(f"{faction}: {ship.name}{' x4' if ship.is_escort else ''}"):
                size = self.measure(client, fleet, case, largest)
                if case.kind == "open editor":
                    key = (faction, ship.is_escort)
                    opened[key] = max(opened.get(key, (-1, "")), (size, ship.slug))
        (_, escort), faction = max((v, k[0]) for k, v in opened.items() if k[1])
        capital = opened[(faction, False)][1]
        units = largest_fleet(escort, capital)
        fleet = fleets[faction]
        for case in edit_cases(store_units(fleet, units, catalog), catalog):
            store_units(fleet, units, catalog)
            self.measure(client, fleet, case, largest, f"{faction} {escort}/{capital}, ")
        return largest

    def new_fleet(self, client: Client, faction: str) -> Fleet:
        response = client.post(
            "/fleets/new/", {"faction": faction, "game_size": "armada", "name": "Benchmark"}
        )
        return Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
