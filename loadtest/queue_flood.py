"""The queue flood of issue 34, against a running stack: one address at full allowance, and
another player's 50-battle preview.

1. The victim (a signed-in player at another address) plays a 50-battle preview of two
   skirmish samples on a quiet queue: its baseline time.
2. The attacker, one address, sends ``flood_runs`` starts of 10,000 battles of 140 escorts
   against 42 light cruisers, each with a fresh cookie jar (a new anonymous player each time),
   as fast as it can, halving the battles after each refusal for its budget, so that it
   queues all the budget per address (R-98) allows.
3. The victim plays the same preview again, and meanwhile loads pages a player loads (the
   builder, its fleets, a ship page) every ``page_every`` seconds: its delay is the second
   time less the first; p95 is over those page loads.

The stack must trust one proxy (``TRUSTED_PROXY_COUNT=1``) so that X-Forwarded-For gives each
side its own address; both sides send from 127.0.0.1. Used by ``scripts/bench-flood`` and
``tests/security/test_queue_fairness.py``.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import secrets
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

ATTACKER = "203.0.113.66"
VICTIM = "198.51.100.7"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Client:
    """A browser at one address (X-Forwarded-For), with its own cookies."""

    def __init__(self, base: str, address: str) -> None:
        self.base = base.rstrip("/")
        self.address = address
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(
        self, method: str, path: str, data: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        headers = {"X-Forwarded-For": self.address}
        if method == "POST":
            headers["Referer"] = self.base + path
        req = urllib.request.Request(self.base + path, data=body, method=method, headers=headers)
        try:
            with self.opener.open(req, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        status, _, page = self.request("GET", path)
        assert status == 200, (path, status)
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, f"{path} has a form"
        return self.request(
            "POST", path, {**fields, "csrfmiddlewaretoken": token.group(1).decode()}
        )


def preview_form(**fields: str) -> dict[str, str]:
    return {
        "a_source": "sample",
        "a_faction": "imperial-navy",
        "a_size": "skirmish",
        "a_variant": "",
        "a_policy": "standard",
        "b_source": "sample",
        "b_faction": "archenemy",
        "b_size": "skirmish",
        "b_variant": "",
        "b_policy": "standard",
        "battles": "50",
        "max_rounds": "10",
        "table": "",
        "scoring": "core",
        "terrain": "none",
        "seed": "20261203",
        **fields,
    }


def flood_codes() -> tuple[str, str]:
    """Share codes of the issue's flood: 140 escorts, and 42 light cruisers (needs Django set
    up: the catalogue is read from its files)."""
    from fleetbuilder.catalog import loader
    from fleetbuilder.fleets import hostile
    from rules_core import fleet as rf
    from rules_core import sharecode
    from rules_core.limits import MAX_FLEET_POINTS

    catalog = loader.read_files()
    faction, escort = hostile.bound_escort(catalog)
    pair = rf.Squadron(tuple(rf.SquadronShip(escort.slug) for _ in range(2)))
    # 140 escorts and 42 light cruisers: under 5000 points in any edition so far
    escorts = rf.Fleet(
        faction, rf.GameSize.ARMADA, (pair,) * 70, name="Flood escorts", edition=None
    )
    navy = catalog.faction("imperial-navy")
    assert navy is not None
    cruiser = min((s for s in navy.ships if "light" in s.ship_class.value), key=lambda s: s.points)
    count = min(100, int(MAX_FLEET_POINTS * 0.9) // cruiser.points)
    cruisers = rf.Fleet(
        "imperial-navy",
        rf.GameSize.ARMADA,
        tuple(rf.ShipUnit(cruiser.slug, flagship=n == 0) for n in range(count)),
        name="Flood cruisers",
        edition=None,
    )
    return sharecode.encode(escorts), sharecode.encode(cruisers)


def sign_up(base: str, address: str) -> Client:
    client = Client(base, address)
    name = f"victim{secrets.token_hex(4)}"
    password = "a long password for the flood 7"
    status, _, body = client.post_form(
        "/accounts/signup/", {"username": name, "password1": password, "password2": password}
    )
    assert status == 302, (status, body[:300])
    return client


def play_preview(client: Client, timeout: float = 300) -> float:
    """Start the victim's 50-battle preview; seconds until it is finished."""
    began = time.monotonic()
    status, headers, body = client.post_form("/simulator/", preview_form())
    assert status == 302, (status, body.decode(errors="replace")[:500])
    run = headers["Location"]
    while time.monotonic() - began < timeout:
        status, _, body = client.request("GET", run + "results.json")
        assert status == 200, status
        results = json.loads(body)
        assert not results["run"]["error"], results["run"]["error"]
        if results["run"]["finished"]:
            return time.monotonic() - began
        time.sleep(0.2)
    raise AssertionError(f"the victim's preview did not finish in {timeout:.0f} s")


@dataclass
class Figures:
    baseline: float = 0.0  # the victim's preview on a quiet queue, seconds
    flooded: float = 0.0  # the same preview after the flood
    flood_started: int = 0  # attacker's runs queued
    flood_battles: int = 0  # their battles
    flood_refused: dict[int, int] = field(default_factory=dict)  # status: count
    pages: list[float] = field(default_factory=list)  # the victim's page loads, seconds
    page_errors: int = 0
    refusal: str = ""  # the first refusal's words
    web_flood: dict[int, int] = field(default_factory=dict)  # attacker's page statuses: count

    @property
    def delay(self) -> float:
        return max(0.0, self.flooded - self.baseline)

    @property
    def p95(self) -> float:
        if len(self.pages) < 2:
            return self.pages[0] if self.pages else 0.0
        return statistics.quantiles(self.pages, n=20, method="inclusive")[18]

    def lines(self) -> list[str]:
        refused = ", ".join(f"{n} x {s}" for s, n in sorted(self.flood_refused.items()))
        return [
            f"attacker ({ATTACKER}): {self.flood_started} runs of {self.flood_battles:,} "
            "battles in all queued (asking for 10,000, then half after each refusal), "
            f"refused: {refused or 'none'}" + (f" ({self.refusal})" if self.refusal else ""),
            f"victim's 50-battle preview: {self.baseline:.2f} s on a quiet queue, "
            f"{self.flooded:.2f} s after the flood: delay {self.delay:.2f} s",
            *(
                [
                    "attacker's card PDFs and replays, 8 at a time: "
                    + ", ".join(f"{n} x {s}" for s, n in sorted(self.web_flood.items()))
                ]
                if self.web_flood
                else []
            ),
            f"victim's pages during the flood: {len(self.pages)} loads, "
            f"p50 {statistics.median(self.pages) * 1000 if self.pages else 0:.0f} ms, "
            f"p95 {self.p95 * 1000:.0f} ms, errors {self.page_errors}",
        ]


def card_codes(count: int) -> list[str]:
    """Share codes of ``count`` different armada lists (a different name each, so no card PDF
    of one is in the cache for another)."""
    from dataclasses import replace

    from fleetbuilder.catalog import loader
    from rules_core import sharecode
    from rules_core.sample_fleets import sample_fleet

    fleet = sample_fleet(loader.read_files(), "imperial-navy", "armada")
    return [
        sharecode.encode(replace(fleet, name=f"Flood {n} {secrets.token_hex(3)}"))
        for n in range(count)
    ]


def web_flood(
    base: str, stop: threading.Event, figures: Figures, runs: list[str], threads: int = 8
) -> list[threading.Thread]:
    """The attacker's address at its full allowance of the web's expensive pages, ``threads``
    at a time: card PDFs of lists never printed before, and replays of its runs' battles
    never played before; each thread with fresh cookies, waiting as a 429's Retry-After says,
    so that the allowance is spent on pages made, not on refusals."""
    codes = card_codes(200)
    lock = threading.Lock()
    counter = iter(range(10**9))

    def attack() -> None:
        client = Client(base, ATTACKER)
        while not stop.is_set():
            with lock:
                n = next(counter)
            if n % 2 == 0 or not runs:
                path = f"/fleets/code/{codes[(n // 2) % len(codes)]}/cards.pdf?layout=poker"
            else:
                # battles 1-300: within every run it queued (the smallest has 312)
                path = f"{runs[n % len(runs)]}battles/{(n // 2) % 300 + 1}/"
            status, headers, _ = client.request("GET", path)
            with lock:
                figures.web_flood[status] = figures.web_flood.get(status, 0) + 1
            if status == 429:  # as told: its allowance is used to the full, not burnt
                stop.wait(min(10.0, float(headers.get("Retry-After") or 1)))

    started = [threading.Thread(target=attack, daemon=True) for _ in range(threads)]
    for thread in started:
        thread.start()
    return started


def run(
    base: str,
    *,
    flood_runs: int = 10,
    page_every: float = 0.25,
    timeout: float = 300,
    web: bool = False,
    pages: tuple[str, ...] = ("/fleets/", "/fleets/new/", "/ships/"),
) -> Figures:
    figures = Figures()
    victim = sign_up(base, VICTIM)
    figures.baseline = play_preview(victim, timeout)
    escorts, cruisers = flood_codes()
    battles = 10_000
    runs: list[str] = []
    for _ in range(flood_runs):  # a fresh cookie jar each time: a "new player"
        attacker = Client(base, ATTACKER)
        status, headers, body = attacker.post_form(
            "/simulator/",
            preview_form(
                a_source="shared",
                a_share=escorts,
                b_source="shared",
                b_share=cruisers,
                battles=str(battles),
                seed=str(secrets.randbelow(2**31)),
            ),
        )
        if status == 302:
            runs.append(headers["Location"])
            figures.flood_started += 1
            figures.flood_battles += battles
        else:
            if status == 429 and b"simulator work" in body:  # over its budget: ask for less
                battles = max(50, battles // 2)
            figures.flood_refused[status] = figures.flood_refused.get(status, 0) + 1
            words = re.search(
                rb'(?:role="alert"|class="field__error"|class="errorlist[^"]*")'
                rb"[^>]*>(?:<li>)?([^<]+)",
                body,
            )
            if words and not figures.refusal:
                figures.refusal = words.group(1).decode(errors="replace").strip()
    stop = threading.Event()

    def browse() -> None:
        reader = Client(base, VICTIM)
        reader.jar = victim.jar
        n = 0
        while not stop.is_set():
            began = time.monotonic()
            status, _, _ = reader.request("GET", pages[n % len(pages)])
            figures.pages.append(time.monotonic() - began)
            figures.page_errors += status != 200
            n += 1
            stop.wait(page_every)

    attackers = web_flood(base, stop, figures, runs) if web else []
    if web:
        stop.wait(5)  # the web flood under way before the victim starts
    browser = threading.Thread(target=browse, daemon=True)
    browser.start()
    try:
        figures.flooded = play_preview(victim, timeout)
        stop.wait(30 if web else 3)  # more page loads while the flood goes on
    finally:
        stop.set()
        browser.join(30)
        for thread in attackers:
            thread.join(60)
    return figures


GOAL_DELAY = 10.0  # seconds the flood may delay the victim's preview (issue 34)
GOAL_P95 = 0.3  # seconds: the victim's page loads during the flood


def main(argv: list[str] | None = None) -> int:
    import argparse
    import os

    parser = argparse.ArgumentParser(description="The queue flood of issue 34 against BASE.")
    parser.add_argument(
        "base",
        help="the stack's address, e.g. http://127.0.0.1:8000 (it "
        "must trust one proxy: TRUSTED_PROXY_COUNT=1)",
    )
    parser.add_argument("--flood-runs", type=int, default=10)
    parser.add_argument(
        "--web",
        action="store_true",
        help="the attacker also asks for card PDFs and replays, 8 at a time, at its full allowance",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help=f"exit 1 if the delay is {GOAL_DELAY:.0f} s or more, or the "
        f"p95 {GOAL_P95 * 1000:.0f} ms or more",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fleetbuilder.settings")
    os.environ.setdefault("DEBUG", "true")  # only to read the catalogue files
    import django

    django.setup()
    figures = run(args.base, flood_runs=args.flood_runs, web=args.web)
    for line in figures.lines():
        print(line)
    goals = [
        (f"victim's delay under {GOAL_DELAY:.0f} s", figures.delay < GOAL_DELAY),
        (f"victim's p95 under {GOAL_P95 * 1000:.0f} ms", figures.p95 < GOAL_P95),
        ("no page errors", figures.page_errors == 0),
    ]
    for goal, met in goals:
        print(f"{'PASS' if met else 'MISS'}  {goal}")
    return 1 if args.check and not all(met for _, met in goals) else 0


if __name__ == "__main__":
    raise SystemExit(main())
