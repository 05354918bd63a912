"""Issue 34 §1, in process: the simulator's budget per client (R-98).

Fresh cookie jars at one address share the address's budget; a signed-in player has its own;
a client's runs go out at a priority its queued work decides, so small work is played first.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from fleetbuilder.simulator import fairness
from fleetbuilder.simulator.models import Matchup
from loadtest import queue_flood

from .conftest import PASSWORD


@pytest.fixture(autouse=True)
def fresh_counts() -> Any:
    cache.clear()
    yield
    cache.clear()


def form(**fields: str) -> dict[str, str]:
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
        "seed": "5",
        **fields,
    }


def big_form(catalog: Any) -> dict[str, str]:
    """The issue's flood, 3,000 battles of 140 escorts against 42 light cruisers: about 300
    estimated CPU-seconds (10,000 would be refused as too big for any one client)."""
    escorts, cruisers = queue_flood.flood_codes()
    return form(
        a_source="shared", a_share=escorts, b_source="shared", b_share=cruisers, battles="3000"
    )


def test_fresh_cookies_at_one_address_share_its_budget(
    catalog: Any, held_chunks: list[Any], settings
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "simulator": 0}
    statuses = [
        Client(REMOTE_ADDR="203.0.113.66").post("/simulator/", big_form(catalog)).status_code
        for _ in range(6)
    ]
    runs = Matchup.objects.all()
    assert sum(run.cost_seconds for run in runs) <= settings.SIM_CLIENT_BUDGET_SECONDS
    assert statuses.count(302) == runs.count() < 6 and 429 in statuses
    assert {run.client for run in runs} == {"addr:203.0.113.66"}
    refused = Client(REMOTE_ADDR="203.0.113.66").post("/simulator/", big_form(catalog))
    assert "one player may queue at most 10 CPU-minutes" in refused.content.decode()
    # another player, at the same address but signed in, has its own budget and goes first
    user = get_user_model().objects.create_user("victim", password=PASSWORD)
    victim = Client(REMOTE_ADDR="203.0.113.66")
    victim.force_login(user)
    assert victim.post("/simulator/", form()).status_code == 302
    mine = Matchup.objects.get(owner=user)
    assert mine.client == f"user:{user.pk}" and mine.priority == fairness.SMALL
    assert all(run.priority > fairness.SMALL for run in runs)
    assert mine.queue_ahead() == 0


def test_a_chunk_holds_a_bounded_amount_of_work(
    catalog: Any, held_chunks: list[Any], settings
) -> None:
    settings.SIM_CHUNK_BATTLES = 50
    response = Client(REMOTE_ADDR="203.0.113.67").post("/simulator/", big_form(catalog))
    assert response.status_code == 302
    run = Matchup.objects.get()
    per_battle = run.cost_seconds / run.battles
    assert run.chunk_battles * per_battle <= settings.SIM_CHUNK_SECONDS
    assert len(held_chunks) == run.chunks
