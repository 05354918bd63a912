"""Clients, fleets and small rate limits for the bounds of R-95 and the limits of R-96."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.test import Client

from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf


@pytest.fixture(autouse=True)
def fresh_counts() -> None:
    """Each test starts with no request counted (the suite shares one local-memory cache)."""
    cache.clear()


@pytest.fixture
def own_fleet(catalog, client: Client) -> Callable[[rf.Fleet], Fleet]:
    """Store ``doc`` as the ``client``'s fleet, as the builder would have before R-95."""

    def make(doc: rf.Fleet) -> Fleet:
        client.get("/fleets/")
        response = client.post(
            "/fleets/new/",
            {"faction": doc.faction, "variant": "", "game_size": "armada", "name": "tmp"},
        )
        assert response.status_code == 302
        fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
        fleet.store(doc, catalog)
        fleet.save()
        return fleet

    return make
