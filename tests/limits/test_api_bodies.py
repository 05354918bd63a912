"""R-93 for the HTTP API: a body over the site's request limit (``DATA_UPLOAD_MAX_MEMORY_SIZE``)
is a 413 in the API's JSON shape, saying the body's size and the limit, on every endpoint that
takes a body (ninja reads the body of ``/runs`` before the endpoint runs: it was an HTML 400
with no message); nothing is stored."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/runs", "/api/v1/fleets", "/api/v1/fleet-files/validate"])
def test_a_body_over_the_request_limit_is_a_json_413(bearer_api: Client, path: str) -> None:
    padding = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1024)
    body = '{"a": {"file": {"name": "' + padding + '"}}}'
    response = bearer_api.post(path, body, content_type="application/json")
    assert response.status_code == 413, response.content[:200]
    assert response["Content-Type"].startswith("application/json")
    detail = response.json()["detail"]
    assert f"The body is {len(body):,} bytes; the limit is" in detail
    assert not Matchup.objects.filter(owner__username="bulk").exists()
    assert not Fleet.objects.filter(owner__username="bulk").exists()
