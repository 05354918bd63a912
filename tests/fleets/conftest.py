"""A player's browser with one fleet started, an outsider's browser, and helpers to edit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.fleets.models import Fleet


@pytest.fixture
def start_fleet(catalog) -> Callable[..., Fleet]:
    def start(client: Client, **fields: str) -> Fleet:
        data = {"name": "", "faction": "imperial-navy", "variant": "",
                "game_size": "skirmish", **fields}
        response = client.post("/fleets/new/", data)
        assert response.status_code == 302, response.content.decode()[:2000]
        pk = int(response.headers["Location"].strip("/").split("/")[-1])
        return Fleet.objects.get(pk=pk)

    return start


@pytest.fixture
def fleet(client: Client, start_fleet: Callable[..., Fleet]) -> Fleet:
    return start_fleet(client)


@pytest.fixture
def outsider() -> Client:
    return Client()


@pytest.fixture
def edit(client: Client) -> Callable[..., Any]:
    """POST an edit of ``fleet`` as its owner (as htmx unless ``htmx=False``)."""

    def post(fleet: Fleet, path: str, data: dict[str, Any] | None = None, *,
             htmx: bool = True, as_client: Client | None = None) -> Any:
        headers = {"HX-Request": "true"} if htmx else {}
        return (as_client or client).post(f"/fleets/{fleet.pk}/{path}", data or {},
                                          headers=headers)

    return post
