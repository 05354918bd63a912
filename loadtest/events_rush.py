"""The deadline rush (issue 28): every player of an event submits in the last 30 seconds before
its list deadline, a few of them just after it, while the organiser's dashboard refreshes.
Run by ``scripts/bench-load --events`` after ``manage.py bench_events seed`` (BENCH_EVENTS_SEED:
its JSON); each submission's outcome goes to BENCH_EVENTS_LOG (one JSON line each) for
``bench_events verify``. Players send what the page sends: the form with its CSRF token.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from typing import Any

import gevent
from locust import HttpUser, constant, events, task
from locust.exception import StopUser

SEED = json.loads(open(os.environ["BENCH_EVENTS_SEED"]).read())
LOG = os.environ["BENCH_EVENTS_LOG"]
WINDOW = 30.0  # seconds before the deadline in which the players submit
LATE = 3.0  # a few send up to this long after it: they must be refused
TOKEN_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PLAYERS = iter(SEED["players"])
GOAL_DASHBOARD_P95_MS = 300


def _wait_until(moment: float) -> None:
    delay = moment - time.time()
    if delay > 0:
        gevent.sleep(delay)


class Organiser(HttpUser):
    fixed_count = 1
    wait_time = constant(0.5)

    def on_start(self) -> None:
        self.client.cookies.set(SEED["session_cookie"], SEED["organiser"])
        _wait_until(SEED["deadline"] - WINDOW)

    @task
    def dashboard(self) -> None:
        if time.time() > SEED["deadline"] + LATE + 5:
            raise StopUser
        self.client.get(
            f"/events/{SEED['event']}/dashboard/", name="dashboard", headers={"HX-Request": "true"}
        )


class Player(HttpUser):
    wait_time = constant(1)

    def on_start(self) -> None:
        try:
            self.seat: dict[str, Any] = next(PLAYERS)
        except StopIteration:
            raise StopUser from None
        self.client.cookies.set(SEED["session_cookie"], self.seat["session"])
        page = self.client.get(f"/events/{SEED['event']}/", name="event page")
        found = TOKEN_FIELD.search(page.text)
        self.token = found.group(1) if found else ""
        # One moment in the last WINDOW seconds, or (one in twenty) just after the deadline.
        late = random.random() < 0.05
        self.at = SEED["deadline"] + (
            random.uniform(0, LATE) if late else -random.uniform(0, WINDOW)
        )

    @task
    def submit(self) -> None:
        _wait_until(self.at)
        sent = time.time()
        with self.client.post(
            f"/events/{SEED['event']}/submit/",
            name="submit",
            data={"csrfmiddlewaretoken": self.token, "fleet": self.seat["fleet"]},
            allow_redirects=False,
            catch_response=True,
        ) as response:
            if response.status_code == 302:
                outcome = "taken"
                response.success()
            elif response.status_code == 400 and "deadline has passed" in response.text:
                outcome = "refused"
                response.success()  # the page a late player gets: not a failure
            else:
                outcome = "error"
                response.failure(f"{response.status_code}")
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(
                json.dumps(
                    {
                        "player": self.seat["player"],
                        "sent": sent,
                        "outcome": outcome,
                        "status": response.status_code,
                    }
                )
                + "\n"
            )
        raise StopUser


@events.quitting.add_listener
def report(environment: Any, **kwargs: Any) -> None:
    for name in ("submit", "dashboard"):
        entry = environment.stats.get(name, "POST" if name == "submit" else "GET")
        if entry.num_requests:
            print(
                f"{name}: {entry.num_requests} requests, p50 "
                f"{entry.get_response_time_percentile(0.5):.0f} ms, p95 "
                f"{entry.get_response_time_percentile(0.95):.0f} ms, max "
                f"{entry.max_response_time:.0f} ms, failures {entry.num_failures}"
            )
    dash = environment.stats.get("dashboard", "GET")
    p95 = dash.get_response_time_percentile(0.95) if dash.num_requests else 0
    print(
        f"goal: dashboard p95 < {GOAL_DASHBOARD_P95_MS} ms with every row: "
        f"{'PASS' if dash.num_requests and p95 < GOAL_DASHBOARD_P95_MS else 'MISS'}"
    )
