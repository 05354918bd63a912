"""Players: a registered one, their browser, and a helper that builds fleets anonymously."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from fleetbuilder.fleets.models import Fleet

PASSWORD = "Ironclad-Lunar-1138"


@pytest.fixture(autouse=True)
def _fresh_login_throttle() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user("rhaine", "rhaine@example.com", PASSWORD)


@pytest.fixture
def build(catalog) -> Callable[..., Fleet]:
    """Start a fleet through the builder page in ``client``'s browser."""

    def start(client: Client, name: str = "", faction: str = "imperial-navy") -> Fleet:
        response = client.post(
            "/fleets/new/",
            {"name": name, "faction": faction, "variant": "", "game_size": "skirmish"},
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        return Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))

    return start


@pytest.fixture
def log_in() -> Callable[..., object]:
    def post(client: Client, username: str = "rhaine", password: str = PASSWORD) -> object:
        return client.post("/accounts/login/", {"username": username, "password": password})

    return post
