"""Adding a ship costs the same SQL queries whatever the fleet's size (the catalogue is cached)."""

from __future__ import annotations

import pytest
from django.test import Client

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.bench import QueryCounter, armada_units
from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db
QUERY_BOUND = 6  # session, catalogue version, fleet, update, and a little slack


def add_ship_queries(client: Client, fleet: Fleet, catalog, ships: int) -> int:
    fleet.document = {**fleet.document, "units": armada_units(catalog, ships)}
    fleet.store(fleet.to_core(), catalog)
    fleet.save()
    editions.known()  # kept per process for MEMO_SECONDS: a slow set-up must not add its read
    with QueryCounter() as queries:
        response = client.post(
            f"/fleets/{fleet.pk}/add-ship/",
            {"ship": "lunar-class-cruiser"},
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 200
    return queries.count


def test_add_ship_queries_do_not_grow_with_the_fleet(client: Client, start_fleet, catalog) -> None:
    fleet = start_fleet(client, game_size="armada")
    add_ship_queries(client, fleet, catalog, 5)  # warm the catalogue cache
    small = add_ship_queries(client, fleet, catalog, 5)
    large = add_ship_queries(client, fleet, catalog, 40)
    assert fleet.ship_count >= 40
    assert small == large
    assert large <= QUERY_BOUND
