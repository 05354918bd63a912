"""The HTTP API's run endpoint quotes the value at fault in some messages (a form's "Select a
valid choice. … is not one of the available choices"). A hostile client can send a lone
surrogate there as a JSON escape (``"\\ud800"``): the answer is still a 400 whose JSON says
what was wrong (the character written as ``\\ud800``, R-94), never a 500, and no run starts."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from fleetbuilder.simulator.models import Matchup

pytestmark = pytest.mark.django_db

ORKS = '{"sample": {"faction": "orks", "size": "patrol"}}'


def _post(bearer_api: Client, body: str) -> Any:
    return bearer_api.post("/api/v1/runs", body, content_type="application/json")


@pytest.mark.parametrize(
    ("where", "side_a"),
    [
        ("a.sample.faction", '{"sample": {"faction": "\\ud800", "size": "patrol"}}'),
        (
            "a.sample.variant",
            '{"sample": {"faction": "orks", "size": "patrol", "variant": "\\udfff"}}',
        ),
        ("a.policy", '{"sample": {"faction": "orks", "size": "patrol"}, "policy": "x\\ud800"}'),
    ],
)
def test_a_lone_surrogate_in_a_run_choice_is_a_clear_400(
    bearer_api: Client, where: str, side_a: str
) -> None:
    response = _post(bearer_api, f'{{"a": {side_a}, "b": {ORKS}, "battles": 2}}')
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert where in [e["path"] for e in body["errors"]]
    message = next(e["message"] for e in body["errors"] if e["path"] == where)
    assert "valid choice" in message and "\\ud" in message  # the character, written out
    assert not Matchup.objects.filter(owner__username="scripter").exists()


def test_a_clean_run_still_starts(bearer_api: Client, held_chunks: list[tuple[int, int]]) -> None:
    response = _post(bearer_api, f'{{"a": {ORKS}, "b": {ORKS}, "battles": 2, "terrain": "none"}}')
    assert response.status_code == 201, response.content[:300]
    assert Matchup.objects.filter(public_id=response.json()["run"]["id"]).exists()
