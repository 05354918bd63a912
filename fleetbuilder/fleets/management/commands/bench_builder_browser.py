"""``python manage.py bench_builder_browser``: click to settled page in Chromium.

Serves the project on a free port of 127.0.0.1 (Django's live-server thread, the configured
database), opens the builder in headless Chromium (``CHROMIUM_PATH``, default
``/usr/bin/chromium``, as the tests launch it) and times an Add click from the click event to
the last ``htmx:afterSettle`` of its answer, measured in the page: on an empty Armada fleet
(the 1st ship) and on one of 39 ships (the 40th). Each run starts from a reloaded page, so the
fleet is the same size every time. Prints the median and p95 of each; the goal is p95 < 100 ms.
The fleet it builds is deleted at the end.
"""

from __future__ import annotations

import os
import statistics
from typing import Any

from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test.testcases import LiveServerThread
from django.test.utils import override_settings

from fleetbuilder.catalog import loader
from fleetbuilder.dbready import require_database

from ...bench import FACTION, armada_units
from ...models import Fleet

GOAL_MS = 100
SHIP = "Lunar Class Cruiser"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Stamps the click and every settle in the page (the page's own clock: no round trip to here).
WATCH = """() => {
  window.__bench = {click: 0, settled: 0};
  document.addEventListener("click", () => { window.__bench.click = performance.now(); }, true);
  document.body.addEventListener("htmx:afterSettle",
    () => { window.__bench.settled = performance.now(); });
}"""


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


class Command(BaseCommand):
    help = "Time an Add click to the settled page in Chromium, for the 1st and the 40th ship."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--repeat", type=int, default=30)
        parser.add_argument("--ships", type=int, default=40)
        parser.add_argument("--check", action="store_true", help="exit 1 if a p95 misses the goal")

    def handle(self, *args: Any, **options: Any) -> None:
        require_database()
        if loader.core_catalog().faction(FACTION) is None:
            raise CommandError("the catalogue is not loaded: run manage.py load_catalog first")
        try:
            from playwright.sync_api import expect, sync_playwright
        except ImportError as exc:  # pragma: no cover - the dev dependencies carry it
            raise CommandError("Playwright is not installed") from exc
        # Playwright's sync API runs an event loop in this thread; the ORM calls here are plain
        # synchronous ones between its calls (the tests allow them the same way).
        os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        server = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
        server.daemon = True
        with override_settings(ALLOWED_HOSTS=["127.0.0.1"], DEBUG=False):
            server.start()
            server.is_ready.wait()
            if server.error:
                raise CommandError(f"the live server did not start: {server.error}")
            url = f"http://127.0.0.1:{server.port}"
            fleet: Fleet | None = None
            try:
                with sync_playwright() as pw:
                    browser = pw.chromium.launch(
                        executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
                        args=CHROMIUM_ARGS,
                    )
                    page = browser.new_page(viewport={"width": 1280, "height": 900})
                    page.goto(url + "/fleets/new/")
                    page.get_by_label("Faction").select_option(FACTION)
                    page.get_by_label("Game size").select_option("armada")
                    page.get_by_role("button", name="Start building").click()
                    page.wait_for_url("**/fleets/*/")
                    fleet = Fleet.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
                    results = {}
                    for before in (0, options["ships"] - 1):
                        results[before + 1] = self.time_adds(
                            page, expect, fleet, before, options["repeat"]
                        )
                    browser.close()
            finally:
                if fleet is not None:
                    fleet.delete()
                server.terminate()
        missed = False
        for nth, times in results.items():
            worst = p95(times)
            missed |= worst >= GOAL_MS
            self.stdout.write(
                f"Add, {nth:>2}{'st' if nth == 1 else 'th'} ship: median "
                f"{statistics.median(times):6.1f} ms   p95 {worst:6.1f} ms   "
                f"({len(times)} clicks; goal p95 < {GOAL_MS} ms: "
                f"{'MISS' if worst >= GOAL_MS else 'PASS'})"
            )
        if missed and options["check"]:
            raise SystemExit(1)

    def time_adds(
        self, page: Any, expect: Any, fleet: Fleet, before: int, repeat: int
    ) -> list[float]:
        catalog = loader.core_catalog()
        units = armada_units(catalog, before) if before else []
        times = []
        for n in range(repeat + 2):  # two warm-up clicks
            fleet.refresh_from_db()
            fleet.document = {**fleet.document, "units": units}
            fleet.store(fleet.to_core(), catalog)
            fleet.save()
            page.reload()
            rows = page.locator("#unit-list article")
            count = rows.count()
            page.evaluate(WATCH)
            page.get_by_role("button", name=f"Add {SHIP}", exact=True).click()
            expect(rows).to_have_count(count + 1)
            expect(page.locator("#builder-announce")).to_contain_text(f"Added {SHIP}")
            page.wait_for_timeout(30)  # let the last settle land
            stamps = page.evaluate("() => window.__bench")
            if n >= 2:
                times.append(stamps["settled"] - stamps["click"])
        return times
