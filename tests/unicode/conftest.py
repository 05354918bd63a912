"""A fleet-file document to spoil with odd text, and a browser that owns nothing yet."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.catalog import editions
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet


@pytest.fixture
def doc(catalog) -> dict[str, Any]:
    """The Imperial Navy Patrol sample as a contract-1 document (a dict to change), naming the
    edition its prices are (R-160), so it is read under them."""
    return {
        **rf.fleet_to_dict(sample_fleet(catalog, "imperial-navy", "patrol")),
        "edition": editions.current_number(),
    }


@pytest.fixture
def visitor() -> Client:
    return Client()


def as_json(doc: dict[str, Any]) -> str:
    """The document as fleet-file text with every non-ASCII character escaped, as a hostile
    file would write a lone surrogate (``"\\ud800"``) or a NUL (``"\\u0000"``)."""
    return json.dumps(doc, ensure_ascii=True)
