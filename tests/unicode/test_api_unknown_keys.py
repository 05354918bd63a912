"""The run endpoint's body names every key it takes: a misspelt or unknown key is a 400 naming
its JSON path (as a fleet file's unknown key is), not silently dropped. Before, ``"battels":
10`` started a run of the default 500 battles, and ``"movement": "advanced"`` (which the API
does not take) a run with standard movement, without a word."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from fleetbuilder.api.models import ApiToken
from fleetbuilder.simulator.models import Matchup

pytestmark = pytest.mark.django_db

ORKS: dict[str, Any] = {"sample": {"faction": "orks", "size": "patrol"}}


@pytest.fixture
def api(catalog) -> Client:
    user = get_user_model().objects.create_user("typist", password="a long password 9")
    _, raw = ApiToken.issue(user, "script")
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"a": ORKS, "b": ORKS, "battels": 10}, "battels"),
        ({"a": ORKS, "b": ORKS, "battles": 2, "movement": "advanced"}, "movement"),
        ({"a": {**ORKS, "polcy": "cautious"}, "b": ORKS, "battles": 2}, "a.polcy"),
        (
            {"a": {"sample": {"faction": "orks", "sise": "armada"}}, "b": ORKS, "battles": 2},
            "a.sample.sise",
        ),
    ],
)
def test_an_unknown_key_is_a_400_naming_it(api: Client, body: dict[str, Any], path: str) -> None:
    response = api.post("/api/v1/runs", body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert {"path": path, "message": "is not a key of this object"} in response.json()["errors"]
    assert not Matchup.objects.filter(owner__username="typist").exists()
