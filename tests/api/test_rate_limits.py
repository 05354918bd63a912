"""R-96 through the API: the pages' limits, counted for the same player (or address), 429 with
Retry-After; the API and the pages share one count."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from fleetbuilder import ratelimit

from .conftest import Api, ApiUser

pytestmark = pytest.mark.django_db
LIMITS = {"cards": 3, "simulator": 2, "import": 3, "sharecode": 4}


@pytest.fixture(autouse=True)
def small_limits(settings, monkeypatch) -> None:
    settings.RATE_LIMITS = LIMITS
    settings.RATE_LIMIT_WINDOW = 60
    monkeypatch.setattr(ratelimit, "_now", lambda: 60.0 * 16_667 + 20)


def test_validate_counts_against_the_import_limit_per_client(patrol: dict[str, Any]) -> None:
    one, two = Api(REMOTE_ADDR="203.0.113.7"), Api(REMOTE_ADDR="203.0.113.8")
    for _ in range(LIMITS["import"]):
        assert one.call("POST", "/api/v1/fleet-files/validate", patrol).status_code == 200
    refused = one.call("POST", "/api/v1/fleet-files/validate", patrol)
    assert refused.status_code == 429
    assert refused["Content-Type"] == "application/json"
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused.json()["detail"].startswith("Too many imports from you: at most 3 every")
    assert two.call("POST", "/api/v1/fleet-files/validate", patrol).status_code == 200


def test_a_token_counts_the_player_not_the_address(
    player: ApiUser, rival: ApiUser, patrol: dict[str, Any]
) -> None:
    for _ in range(LIMITS["import"]):
        assert player.api.call("POST", "/api/v1/fleets", patrol).status_code == 201
    assert player.api.call("POST", "/api/v1/fleets", patrol).status_code == 429
    # Same address (testserver's 127.0.0.1), another player: served.
    assert rival.api.call("POST", "/api/v1/fleets", patrol).status_code == 201


def test_the_api_and_the_pages_share_one_count(player: ApiUser, held_chunks: list[Any]) -> None:
    browser = Client()
    browser.force_login(player.user)
    body = {
        "a": {"sample": {"faction": "imperial-navy", "size": "patrol"}},
        "b": {"sample": {"faction": "orks", "size": "patrol"}},
        "battles": 2,
    }
    assert player.api.call("POST", "/api/v1/runs", body).status_code == 201
    form = {
        "a_source": "sample",
        "a_faction": "imperial-navy",
        "a_size": "patrol",
        "b_source": "sample",
        "b_faction": "orks",
        "b_size": "patrol",
        "battles": "2",
        "max_rounds": "10",
        "scoring": "core",
        "terrain": "none",
    }
    assert browser.post("/simulator/", form).status_code == 302
    assert browser.post("/simulator/", form).status_code == 429  # the third of two
    refused = player.api.call("POST", "/api/v1/runs", body)
    assert refused.status_code == 429
    assert "simulator runs started" in refused.json()["detail"]


def test_share_codes_count_against_the_share_code_limit(patrol: dict[str, Any]) -> None:
    api = Api()
    code = api.call("POST", "/api/v1/share-codes", patrol).json()["code"]
    for _ in range(LIMITS["sharecode"] - 1):
        assert api.get(f"/api/v1/share-codes/{code}").status_code == 200
    assert api.get(f"/api/v1/share-codes/{code}").status_code == 429
    assert Client().get(f"/fleets/code/{code}/").status_code == 429  # the page: same client
