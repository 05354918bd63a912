"""Many players at once on the production shape: while a heavy preview plays on the workers and
cards render, other players sign up, log in and build, and every one of them succeeds (issue
#11 §2: no request computes inside a transaction; SQLite shares its file in WAL mode)."""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest

from tests.support.timing import bound

from .conftest import Browser, wait_for

pytestmark = pytest.mark.production


class Forms(HTMLParser):
    """Every form on a page: its action and its hidden inputs."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action") or "", "fields": {}})
        elif tag == "input" and self.forms and a.get("type") == "hidden" and a.get("name"):
            self.forms[-1]["fields"][a["name"]] = a.get("value") or ""


def submit(
    player: Browser, page: str, action: str, fields: dict[str, str]
) -> tuple[int, dict[str, str], bytes]:
    """Send the form of ``page`` whose action ends with ``action``, as the page would."""
    status, _, body = player.get(page)
    assert status == 200, (page, status)
    parser = Forms()
    parser.feed(body.decode())
    form = next(f for f in parser.forms if f["action"].endswith(action))
    return player.request(
        "POST",
        form["action"] or page,
        {**form["fields"], **fields},
        headers={"Referer": player.base + page},
    )


def new_fleet(player: Browser) -> str:
    status, headers, body = player.post_form(
        "/fleets/new/",
        {"name": "Contention", "faction": "imperial-navy", "variant": "", "game_size": "skirmish"},
    )
    assert status == 302, body[:500]
    return headers["Location"]


def test_players_sign_up_log_in_and_build_while_a_heavy_preview_and_cards_run(
    web: str, workers: Callable[[int], Any]
) -> None:
    workers(2)
    heavy = Browser(web)
    run = heavy.start_preview(battles="10000", seed="99")
    wait_for(
        lambda: heavy.json(run + "results.json")["run"]["battles_done"] > 0,
        120,
        "the heavy run to be under way",
        every=0.2,
    )

    printer = Browser(web)
    printed = new_fleet(printer)
    for _ in range(4):
        status, _, _ = submit(printer, printed, "/add-ship/", {"ship": "lunar-class-cruiser"})
        assert status in (200, 302)
    pk = re.search(r"/fleets/(\d+)/", printed).group(1)

    builders = [Browser(web) for _ in range(4)]
    fleets = [new_fleet(b) for b in builders]
    password = secrets.token_urlsafe(12)
    returning = Browser(web)
    name = f"returning-{secrets.token_hex(3)}"
    status, _, _ = returning.post_form(
        "/accounts/signup/",
        {"username": name, "email": "", "password1": password, "password2": password},
    )
    assert status == 302

    results: list[tuple[str, int]] = []
    lock = threading.Lock()

    def record(what: str, status: int) -> None:
        with lock:
            results.append((what, status))

    def print_cards() -> None:
        status, headers, body = printer.get(f"/cards/fleet/{pk}/?layout=a4")
        record("cards", status if body.startswith(b"%PDF") else -status)

    def sign_up(i: int) -> None:
        newcomer = Browser(web)
        word = secrets.token_urlsafe(12)
        status, _, _ = newcomer.post_form(
            "/accounts/signup/",
            {
                "username": f"newcomer-{i}-{secrets.token_hex(3)}",
                "email": "",
                "password1": word,
                "password2": word,
            },
        )
        record("sign-up", status)

    def log_in() -> None:
        again = Browser(web)
        status, _, _ = again.post_form("/accounts/login/", {"username": name, "password": password})
        record("log-in", status)

    def build(player: Browser, fleet: str) -> None:
        for ship in ("dictator-class-cruiser", "sword-class-frigate"):
            status, _, _ = submit(player, fleet, "/add-ship/", {"ship": ship})
            record("add-ship", status)

    jobs = [threading.Thread(target=print_cards) for _ in range(2)]
    jobs += [threading.Thread(target=sign_up, args=(i,)) for i in range(4)]
    jobs += [threading.Thread(target=log_in) for _ in range(4)]
    jobs += [
        threading.Thread(target=build, args=(b, f)) for b, f in zip(builders, fleets, strict=True)
    ]
    for job in jobs:
        job.start()
    for job in jobs:
        job.join(bound(120))
    assert len(results) == 2 + 4 + 4 + 8
    failed = [(what, status) for what, status in results if not 200 <= status < 400]
    assert failed == []
    assert heavy.json(run + "results.json")["run"]["finished"] is False  # it really overlapped
    status, _, _ = submit(heavy, run, "/cancel/", {})
    assert status == 302
