"""Which ship matters? on the production shape: gunicorn, Redis and a real Celery worker with
two processes play an analysis's (variant, chunk) tasks; the page's JSON follows it to the end,
every version has all its battles, and "run again" on the workers gives the same numbers."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rules_core.sharecode import encode
from tests.analysis.conftest import whatif_fleet

from .conftest import Browser, wait_for


def test_an_analysis_on_real_workers_is_complete_and_repeatable(
    web: str, workers: Callable[[int], Any]
) -> None:
    workers(2)
    player = Browser(web)
    status, headers, _ = player.post_form(f"/fleets/code/{encode(whatif_fleet())}/", {})
    assert status == 302, status
    _, _, form = player.get("/analysis/")
    fleet = re.search(rb'<option value="(\d+)"[^>]*>What If Patrol', form)
    assert fleet, "the copied fleet is offered"
    fields = {
        "a_source": "fleet",
        "a_fleet": fleet.group(1).decode(),
        "a_policy": "standard",
        "b_source": "sample",
        "b_faction": "orks",
        "b_size": "patrol",
        "b_variant": "",
        "b_policy": "standard",
        "battles": "60",
        "max_rounds": "10",
        "table": "",
        "scoring": "core",
        "terrain": "none",
        "seed": "20261201",
    }
    status, headers, body = player.post_form("/analysis/", fields)
    assert status == 302, body.decode(errors="replace")[:2000]
    first = headers["Location"]

    def finished(path: str) -> Callable[[], dict[str, Any] | None]:
        def check() -> dict[str, Any] | None:
            results = player.json(path + "results.json")
            assert not results["error"], results["error"]
            return results if results["finished"] else None

        return check

    results = wait_for(finished(first), 180, "the analysis to finish", every=0.5)
    assert results["variants"] == 11 and results["battles_done"] == 660
    assert results["baseline"]["battles"] == 60
    assert len(results["rows"]) == 10 and all(r["battles"] == 60 for r in results["rows"])
    status, _, page = player.get(first)
    assert status == 200 and b"Finished: 660 battles played." in page

    status, headers, _ = player.request(
        "POST",
        first + "again/",
        {"csrfmiddlewaretoken": player.csrf()},
        headers={"Referer": web + first},
    )
    assert status == 302, status
    again = wait_for(finished(headers["Location"]), 180, "the repeat to finish", every=0.5)
    assert again["rows"] == results["rows"] and again["seed"] == results["seed"]
