"""The load benchmark's players (issue #10 item 8). Run by ``scripts/bench-load``; by hand:

    .venv/bin/locust -f loadtest/locustfile.py --headless -u 50 -r 10 -t 2m \
        --host http://127.0.0.1:8000

Players send what the pages send: the forms' fields with their CSRF token, and for htmx edits
the headers htmx adds (``HX-Request``, ``HX-Target``, ``HX-Current-URL``, ``X-CSRFToken`` from
``<body hx-headers>``) and the ``Origin`` a browser sends with a POST.

- **Catalogue readers** browse home, Ship Types, factions, ships and the rules. Like a browser
  they keep each page's ETag and send ``If-None-Match`` when they come back to a page (the pages
  say ``Cache-Control: private, no-cache``), so a revisit may be a 304; the report counts them.
  Set ``BENCH_NO_BROWSER_CACHE=1`` to never revalidate.
- **Builders** start a fleet with the form at /fleets/new/, then add ships, rename and remove
  units with the builder's htmx POSTs, sometimes changing the fleet's settings.
- **Sharers** build a small fleet, turn its link on from the share page and open /s/<id>/.
- **Printers** build a small fleet, open the print options and download the cards PDF.
- **Previewers** start a 50-battle matchup of two sample fleets from /simulator/ and poll its
  progress the way the results page does (htmx, every second) until it is done.
- **One big preview**: BENCH_BIG_DELAY seconds (20) into the run, one player starts a
  1,000-battle preview and polls ``results.json`` until ``run.finished``; how long that took is
  in the report.

A start refused for a limit (429: two unfinished previews per browser; 503: the simulator's
queue is full) is the page a player gets, with the reason: it is counted apart in the report,
not as an error. Players here wait for their run before
starting another, so they should not meet it.

At the end a table is printed (per endpoint: requests/s, p50, p95, p99, failures) with the
goals: no errors, builder edits p95 < 150 ms, catalogue pages >= 300 requests/s, the 1,000-battle
preview finished. ``BENCH_REPORT=path.json`` writes the same figures as JSON; ``BENCH_CHECK=1``
makes the exit status 1 when a goal is missed.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
import time
from typing import Any
from urllib.parse import urlsplit

import gevent
from locust import between, constant, events, task
from locust.contrib.fasthttp import FastHttpUser

BUILDER_EDITS = (
    "builder: add ship",
    "builder: rename unit",
    "builder: remove unit",
    "builder: settings",
)
GOAL_EDIT_P95_MS = 150
GOAL_CATALOGUE_RPS = 300
BIG_BATTLES = int(os.environ.get("BENCH_BIG_BATTLES", "1000"))
BIG_DELAY = float(os.environ.get("BENCH_BIG_DELAY", "20"))
READ_WAIT = float(os.environ.get("BENCH_READ_WAIT", "0.1"))  # a reader's longest pause, s
BROWSER_CACHE = os.environ.get("BENCH_NO_BROWSER_CACHE", "") != "1"

TOKEN_HEADER = re.compile(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'")
TOKEN_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SHIP_LINK = re.compile(r'href="(/ships/[a-z0-9-]+/[a-z0-9-]+/)"')
FACTION_LINK = re.compile(r'href="(/ships/[a-z0-9-]+/)"')
ADD_SHIP = re.compile(
    r'<input type="hidden" name="ship" value="([a-z0-9-]+)">\s*<button[^>]*aria-label="Add '
    r'[^"]*"(\s+disabled)?>'
)
FACTION_OPTION = re.compile(r'<option value="([a-z0-9-]+)"')
SHARE_LINK = re.compile(r"(/s/[A-Za-z0-9_-]{16,}/)")
RUN_URL = re.compile(r"^/simulator/m/([A-Za-z0-9_-]+)/$")

FACTIONS: list[str] = []  # read once from the Ship Types page by the first player
SHIP_PAGES: dict[str, list[str]] = {}
BIG: dict[str, Any] = {"started": False, "finished": False}
COUNTS = {"refused": 0, "not_modified": 0}


class Player(FastHttpUser):
    abstract = True
    network_timeout = 60.0
    connection_timeout = 10.0

    def on_start(self) -> None:
        self.token = ""
        self.etags: dict[str, str] = {}

    # --- plumbing ---------------------------------------------------------------------------

    def page(
        self,
        url: str,
        name: str,
        *,
        revalidate: bool = False,
        headers: dict[str, str] | None = None,
    ) -> str:
        """GET a page as a browser does; remember its CSRF token. '' when it failed."""
        headers = dict(headers or {})
        if revalidate and BROWSER_CACHE and url in self.etags:
            headers["If-None-Match"] = self.etags[url]
        with self.client.get(url, name=name, headers=headers, catch_response=True) as r:
            if r.status_code == 304:
                COUNTS["not_modified"] += 1
                r.success()
                return self.cached.get(url, "")
            if r.status_code != 200:
                r.failure(f"{r.status_code} for {url}")
                return ""
            text = r.text or ""
            if (etag := r.headers.get("ETag")) and revalidate:
                self.etags[url] = etag
                self.cached[url] = text
            if m := TOKEN_HEADER.search(text):
                self.token = m.group(1)
            r.success()
            return text

    @property
    def cached(self) -> dict[str, str]:
        if not hasattr(self, "_cached"):
            self._cached: dict[str, str] = {}
        return self._cached

    def form_post(
        self,
        url: str,
        name: str,
        data: dict[str, str],
        *,
        current: str,
        expect: tuple[int, ...] = (302,),
    ) -> Any:
        """A plain form POST (no JavaScript): the token in the form, no redirect followed."""
        body = {"csrfmiddlewaretoken": self.token, **data}
        headers = {"Origin": self.host, "Referer": self.host + current}
        with self.client.post(
            url, data=body, name=name, headers=headers, allow_redirects=False, catch_response=True
        ) as r:
            if r.status_code in expect:
                r.success()
            else:
                r.failure(f"{r.status_code} for POST {url}: {(r.text or '')[:200]}")
            return r

    def htmx_post(
        self, url: str, name: str, data: dict[str, str], *, target: str, current: str
    ) -> str:
        """A POST made by htmx: form fields with the token, htmx's headers and X-CSRFToken."""
        body = {"csrfmiddlewaretoken": self.token, **data}
        headers = {
            "HX-Request": "true",
            "HX-Target": target,
            "HX-Current-URL": self.host + current,
            "X-CSRFToken": self.token,
            "Origin": self.host,
            "Referer": self.host + current,
        }
        with self.client.post(url, data=body, name=name, headers=headers, catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"{r.status_code} for POST {url}: {(r.text or '')[:200]}")
                return ""
            text = r.text or ""
            if 'class="alert" role="alert"' in text:  # an edit refused: the player sees why
                r.failure(f"edit refused at {url}: " + _alert(text))
                return text
            r.success()
            return text

    def factions(self) -> list[str]:
        if not FACTIONS:
            text = self.page("/ships/", "catalogue: ship types")
            FACTIONS.extend(sorted({u.split("/")[2] for u in FACTION_LINK.findall(text)}))
        return FACTIONS

    # --- building ---------------------------------------------------------------------------

    def new_fleet(self, ships: int) -> tuple[str, list[str]]:
        """Start a fleet with the form and add ``ships`` ships; its URL and ship slugs."""
        self.page("/fleets/new/", "builder: new fleet form")
        data = {
            "name": f"Load test {random.randrange(10**6)}",
            "faction": random.choice(self.factions() or ["imperial-navy"]),
            "variant": "",
            "game_size": random.choice(["patrol", "skirmish", "battle"]),
            "points_min": "",
            "points_max": "",
        }
        r = self.form_post("/fleets/new/", "builder: start fleet", data, current="/fleets/new/")
        location = urlsplit(r.headers.get("Location") or "").path
        if not re.fullmatch(r"/fleets/\d+/", location):
            return "", []
        text = self.page(location, "builder: open fleet")
        slugs = [slug for slug, disabled in ADD_SHIP.findall(text) if not disabled]
        for _ in range(ships):
            self.add_ship(location, slugs)
        return location, slugs

    def start_run(self, battles: int) -> str:
        r = self.form_post(
            "/simulator/",
            "preview: start",
            sample_matchup(self.factions(), battles),
            current="/simulator/",
            expect=(302, 429, 503),
        )
        if r.status_code in (429, 503):
            COUNTS["refused"] += 1
            return ""
        m = RUN_URL.match(urlsplit(r.headers.get("Location") or "").path)
        return m.group(1) if m else ""

    def add_ship(self, fleet: str, slugs: list[str]) -> str:
        if not slugs:
            return ""
        return self.htmx_post(
            fleet + "add-ship/",
            "builder: add ship",
            {"ship": random.choice(slugs)},
            target="units",
            current=fleet,
        )


class CatalogueReader(Player):
    """Reads the catalogue quickly: each stands for many players' page views."""

    weight = 30
    wait_time = between(0, READ_WAIT)

    @task(2)
    def home(self) -> None:
        self.page("/", "catalogue: home", revalidate=True)

    @task(2)
    def ship_types(self) -> None:
        text = self.page("/ships/", "catalogue: ship types", revalidate=True)
        if not FACTIONS and text:
            FACTIONS.extend(sorted({u.split("/")[2] for u in FACTION_LINK.findall(text)}))

    @task(3)
    def faction(self) -> None:
        slug = random.choice(self.factions() or ["imperial-navy"])
        text = self.page(f"/ships/{slug}/", "catalogue: faction", revalidate=True)
        if text and slug not in SHIP_PAGES:
            SHIP_PAGES[slug] = sorted(set(SHIP_LINK.findall(text)))

    @task(6)
    def ship(self) -> None:
        known = [urls for urls in SHIP_PAGES.values() if urls]
        if not known:
            self.faction()
            return
        self.page(random.choice(random.choice(known)), "catalogue: ship page", revalidate=True)

    @task(1)
    def rules(self) -> None:
        self.page("/rules/", "catalogue: rules", revalidate=True)


MAX_UNITS = 12  # builders' fleets stay the size of real lists (a Battle is 8-15 units)


class Builder(Player):
    """Builds a fleet: adds ships, renames and removes units, changes the settings."""

    weight = 12
    wait_time = between(0.5, 1.5)

    def on_start(self) -> None:
        super().on_start()
        self.fleet, self.slugs, self.units = "", [], 0

    def new_list(self) -> None:
        self.fleet, self.slugs = self.new_fleet(ships=2)
        self.units = 2 if self.fleet else 0

    @task
    def edit(self) -> None:
        # An edit answers with the rows it changed only, so the player counts its own units
        # (/fleets/<id>/units/<i>/, 0-based), as the page does.
        if not self.fleet or random.random() < 0.03 or self.units >= MAX_UNITS:
            self.new_list()  # now and then, or with a full list: a new fleet
            return
        roll = random.random()
        unit = f"{self.fleet}units/{random.randrange(self.units)}/" if self.units else ""
        if roll < 0.45 or not unit:
            if self.add_ship(self.fleet, self.slugs):
                self.units += 1
        elif roll < 0.70:
            self.htmx_post(
                unit + "rename/",
                "builder: rename unit",
                {"name": f"Wrath {random.randrange(1000)}"},
                target="units",
                current=self.fleet,
            )
        elif roll < 0.92:
            if self.htmx_post(
                unit + "remove/", "builder: remove unit", {}, target="units", current=self.fleet
            ):
                self.units -= 1
        else:
            self.htmx_post(
                self.fleet.rstrip("/") + "/settings/",
                "builder: settings",
                {
                    "name": f"Fleet {random.randrange(1000)}",
                    "variant": "",
                    "game_size": "skirmish",
                    "points_min": "",
                    "points_max": "",
                },
                target="fleet-head",
                current=self.fleet,
            )


class Sharer(Player):
    """Builds a small fleet, turns its link on, and opens the shared page."""

    weight = 3
    wait_time = between(2, 5)

    @task
    def share(self) -> None:
        fleet, _ = self.new_fleet(ships=2)
        if not fleet:
            return
        share = fleet + "share/"
        self.page(share, "share: share page")
        text = self.htmx_post(
            share + "link/",
            "share: turn link on",
            {"action": "on"},
            target="share-link",
            current=share,
        )
        if m := SHARE_LINK.search(text):
            for _ in range(3):
                self.page(m.group(1), "share: open shared fleet")


class Printer(Player):
    """Builds a small fleet and prints its cards."""

    weight = 2
    wait_time = between(3, 8)

    @task
    def print_cards(self) -> None:
        fleet, _ = self.new_fleet(ships=3)
        if not fleet:
            return
        pk = fleet.strip("/").split("/")[-1]
        self.page(f"/cards/fleet/{pk}/print/", "print: options")
        layout = random.choice(["poker", "a4", "letter"])
        with self.client.get(
            f"/cards/fleet/{pk}/?layout={layout}", name="print: cards PDF", catch_response=True
        ) as r:
            if r.status_code == 200 and (r.content or b"")[:5] == b"%PDF-":
                r.success()
            else:
                r.failure(f"{r.status_code}: not a PDF")


def sample_matchup(factions: list[str], battles: int) -> dict[str, str]:
    """The simulator form as the page sends it, both sides sample fleets."""
    data = {
        "battles": str(battles),
        "max_rounds": "10",
        "table": "",
        "scoring": "core",
        "terrain": "none",
        "seed": "",
    }
    for side in ("a", "b"):
        data.update(
            {
                f"{side}_source": "sample",
                f"{side}_share": "",
                f"{side}_faction": random.choice(factions or ["imperial-navy"]),
                f"{side}_variant": "",
                f"{side}_size": "skirmish",
                f"{side}_policy": "standard",
            }
        )
    return data


class Previewer(Player):
    """Starts a 50-battle matchup preview and follows it to the end, as its page does."""

    weight = 2
    wait_time = between(3, 8)

    @task
    def preview(self) -> None:
        self.page("/simulator/", "preview: form")
        run = self.start_run(50)
        if not run:
            return
        url = f"/simulator/m/{run}/"
        self.page(url, "preview: results page")
        for _ in range(120):
            gevent.sleep(1)
            text = self.page(
                url,
                "preview: poll (htmx)",
                headers={
                    "HX-Request": "true",
                    "HX-Target": "sim-run",
                    "HX-Current-URL": self.host + url,
                },
            )
            if not text or 'hx-trigger="every 1s"' not in text:
                break


class BigPreview(Player):
    """One player: a 1,000-battle preview started during the load, timed to ``finished``."""

    fixed_count = 1
    weight = 0
    wait_time = constant(3600)

    @task
    def preview(self) -> None:
        if BIG["started"]:
            gevent.sleep(3600)
            return
        gevent.sleep(BIG_DELAY)
        self.page("/simulator/", "big preview: form")
        BIG["started"] = True
        start = time.monotonic()
        BIG["start_offset_s"] = round(time.time() - RUN.get("start", time.time()), 1)
        run = self.start_run(BIG_BATTLES)
        if not run:
            BIG["error"] = "the start was refused or failed"
            return
        BIG["run"] = run
        while True:
            gevent.sleep(0.5)
            with self.client.get(
                f"/simulator/m/{run}/results.json",
                name="big preview: results.json",
                catch_response=True,
            ) as r:
                if r.status_code != 200:
                    r.failure(f"{r.status_code}")
                    continue
                r.success()
                doc = json.loads(r.text or "{}").get("run", {})
            BIG["battles_done"] = doc.get("battles_done")
            BIG["elapsed_s"] = round(time.monotonic() - start, 2)
            if doc.get("error"):
                BIG["error"] = doc["error"]
                return
            if doc.get("finished"):
                BIG["finished"] = True
                return


def _alert(text: str) -> str:
    m = re.search(r'class="alert" role="alert">(.*?)<', text, re.S)
    return html.unescape(m.group(1)).strip() if m else ""


# --- the report ---------------------------------------------------------------------------

RUN: dict[str, float] = {}


@events.test_start.add_listener
def _started(environment: Any, **kwargs: Any) -> None:
    RUN["start"] = time.time()


@events.quitting.add_listener
def _report(environment: Any, **kwargs: Any) -> None:
    stats = environment.stats
    duration = max(
        1e-9,
        (stats.total.last_request_timestamp or time.time())
        - (RUN.get("start") or stats.total.start_time),
    )
    rows = []
    for entry in sorted(stats.entries.values(), key=lambda e: e.name):
        rows.append(
            {
                "name": entry.name,
                "method": entry.method,
                "requests": entry.num_requests,
                "rps": entry.num_requests / duration,
                "p50": entry.get_response_time_percentile(0.50) or 0,
                "p95": entry.get_response_time_percentile(0.95) or 0,
                "p99": entry.get_response_time_percentile(0.99) or 0,
                "failures": entry.num_failures,
            }
        )
    total_requests = stats.total.num_requests
    errors = stats.total.num_failures
    catalogue = [r for r in rows if r["name"].startswith("catalogue:")]
    catalogue_rps = sum(r["requests"] for r in catalogue) / duration
    edits = [e for e in stats.entries.values() if e.name in BUILDER_EDITS]
    edit_p95 = _merged_percentile(edits, 0.95)
    refused = COUNTS["refused"]
    goals = [
        ("no errors", errors == 0, f"{errors} errors"),
        (
            f"builder edits p95 < {GOAL_EDIT_P95_MS} ms",
            edit_p95 is not None and edit_p95 < GOAL_EDIT_P95_MS,
            f"p95 {edit_p95} ms",
        ),
        (
            f"catalogue pages >= {GOAL_CATALOGUE_RPS} requests/s",
            catalogue_rps >= GOAL_CATALOGUE_RPS,
            f"{catalogue_rps:.0f} requests/s",
        ),
        (f"the {BIG_BATTLES:,}-battle preview finished", bool(BIG.get("finished")), _big_summary()),
    ]
    options = environment.parsed_options
    report = {
        "duration_s": round(duration, 1),
        "users": getattr(options, "num_users", None) if options else None,
        "endpoints": rows,
        "total": {"requests": total_requests, "rps": total_requests / duration, "errors": errors},
        "catalogue_rps": catalogue_rps,
        "builder_edit_p95_ms": edit_p95,
        "refused_for_limits": refused,
        "browser_cache": BROWSER_CACHE,
        "catalogue_not_modified": COUNTS["not_modified"],
        "big_preview": BIG,
        "goals": [{"goal": g, "met": ok, "measured": m} for g, ok, m in goals],
    }
    _print(report, rows)
    if path := os.environ.get("BENCH_REPORT"):
        with open(path, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
    if os.environ.get("BENCH_CHECK") == "1":
        environment.process_exit_code = 0 if all(ok for _, ok, _ in goals) else 1
    else:
        environment.process_exit_code = 0


def _merged_percentile(entries: list[Any], fraction: float) -> int | None:
    """A percentile over several endpoints' response-time histograms together."""
    counts: dict[int, int] = {}
    for entry in entries:
        for ms, n in entry.response_times.items():
            counts[ms] = counts.get(ms, 0) + n
    total = sum(counts.values())
    if not total:
        return None
    seen = 0
    for ms in sorted(counts):
        seen += counts[ms]
        if seen >= total * fraction:
            return ms
    return max(counts)


def _big_summary() -> str:
    if not BIG.get("started"):
        return "not started (the run ended first)"
    if BIG.get("finished"):
        return f"finished in {BIG['elapsed_s']} s (started {BIG.get('start_offset_s')} s in)"
    done = BIG.get("battles_done")
    return f"not finished: {done} of {BIG_BATTLES} battles after {BIG.get('elapsed_s')} s" + (
        f" ({BIG['error']})" if BIG.get("error") else ""
    )


def _print(report: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    width = max([len(r["name"]) for r in rows] + [30])
    line = "-" * (width + 54)
    out = [
        "",
        "Load benchmark: " + f"{report['users']} users, {report['duration_s']} s",
        line,
        f"{'endpoint':<{width}} {'req':>7} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'p99 ms':>8} {'fail':>6}",
        line,
    ]
    for r in rows:
        out.append(
            f"{r['name']:<{width}} {r['requests']:>7} {r['rps']:>7.1f} {r['p50']:>8} "
            f"{r['p95']:>8} {r['p99']:>8} {r['failures']:>6}"
        )
    total = report["total"]
    out += [
        line,
        f"{'total':<{width}} {total['requests']:>7} {total['rps']:>7.1f} "
        f"{'':>8} {'':>8} {'':>8} {total['errors']:>6}",
        line,
    ]
    out.append(
        f"catalogue revalidations answered 304: {report['catalogue_not_modified']}"
        + ("" if report["browser_cache"] else " (browser cache off)")
    )
    out.append(
        f"preview starts refused for a limit (429/503, the page a player gets, not "
        f"counted as errors): {report['refused_for_limits']}"
    )
    out.append("Goals:")
    for g in report["goals"]:
        out.append(f"  {'PASS' if g['met'] else 'MISS'}  {g['goal']}: {g['measured']}")
    print("\n".join(out), flush=True)
