"""A player's browser with saved fleets, an outsider's browser, and a helper to start runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core.sample_fleets import sample_fleet

SAMPLES = {
    "a_source": "sample",
    "a_faction": "imperial-navy",
    "a_size": "patrol",
    "a_variant": "",
    "b_source": "sample",
    "b_faction": "orks",
    "b_size": "patrol",
    "b_variant": "",
    "battles": "12",
    "max_rounds": "10",
    "table": "",
    "scoring": "core",
    "terrain": "none",
    "seed": "20261129",
}


@pytest.fixture
def start_run(client: Client) -> Callable[..., Any]:
    """POST the matchup form (two Patrol sample fleets unless told otherwise)."""

    def post(as_client: Client | None = None, **fields: str) -> Any:
        return (as_client or client).post("/simulator/", {**SAMPLES, **fields})

    return post


@pytest.fixture
def started(start_run: Callable[..., Any]) -> Callable[..., Matchup]:
    """Start a run that must be accepted, and return it."""

    def start(**fields: str) -> Matchup:
        response = start_run(**fields)
        assert response.status_code == 302, response.content.decode()[:3000]
        public_id = response.headers["Location"].rstrip("/").split("/")[-1]
        return Matchup.objects.get(public_id=public_id)

    return start


@pytest.fixture
def own_fleet(client: Client, catalog) -> Callable[..., Fleet]:
    """A saved fleet of this browser holding the sample list of ``faction`` and ``size``."""

    def make(faction: str = "imperial-navy", size: str = "patrol", name: str = "") -> Fleet:
        response = client.post(
            "/fleets/new/", {"name": name, "faction": faction, "variant": "", "game_size": size}
        )
        assert response.status_code == 302
        pk = int(response.headers["Location"].strip("/").split("/")[-1])
        fleet = Fleet.objects.get(pk=pk)
        # the list keeps the edition it was started on, as an edit would
        doc = replace(sample_fleet(catalog, faction, size), edition=fleet.edition)
        if name:
            doc = replace(doc, name=name)
        fleet.store(doc, catalog)
        fleet.save()
        return fleet

    return make


@pytest.fixture
def outsider() -> Client:
    return Client()
