"""The suite runs on the database DATABASE_URL names: SQLite by default, PostgreSQL in CI."""

import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_suite_runs_on_the_configured_database() -> None:
    url = os.environ.get("DATABASE_URL", "sqlite://")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    assert connection.vendor == expected
