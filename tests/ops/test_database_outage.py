"""Django's 500 handler (fleetbuilder/ops/outage.py): the database away is a 503 in words;
anything else is still the 500 page. tests/production/test_hosts.py stops a real PostgreSQL
under a real gunicorn."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError
from django.test import RequestFactory

from fleetbuilder.ops.outage import server_error


@pytest.mark.parametrize(
    "error", [OperationalError("connection refused"), InterfaceError("connection already closed")]
)
def test_the_database_away_is_a_503_in_words(error: Exception) -> None:
    try:
        try:
            raise error
        except Exception as exc:
            raise RuntimeError("while saving the session") from exc
    except RuntimeError:
        response = server_error(RequestFactory().post("/fleets/1/add-ship/"))
    assert response.status_code == 503
    assert response["Retry-After"] == "10" and "no-store" in response["Cache-Control"]
    page = response.content.decode()
    assert "The database that keeps fleets, accounts and events is not answering" in page
    assert "was not saved" in page and "Traceback" not in page


def test_any_other_error_is_the_500_page() -> None:
    try:
        raise ValueError("a bug")
    except ValueError:
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert b"Something went wrong on our side" in response.content
