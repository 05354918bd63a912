"""Share codes through the API: the same codes as the share page (R-90), both ways."""

from __future__ import annotations

from typing import Any

import pytest

from rules_core import fleet as rf
from rules_core import sharecode

from .conftest import Api

pytestmark = pytest.mark.django_db


def test_encode_then_decode_round_trips(anonymous: Api, named_patrol: dict[str, Any]) -> None:
    patrol = named_patrol
    response = anonymous.call("POST", "/api/v1/share-codes", patrol)
    assert response.status_code == 200
    code = response.json()["code"]
    assert code == sharecode.encode(rf.parse_fleet(patrol))
    assert response.json()["url"] == f"http://testserver/fleets/code/{code}/"
    decoded = anonymous.get(f"/api/v1/share-codes/{code}")
    assert decoded.status_code == 200
    body = decoded.json()
    assert body["code"] == code
    assert body["fleet"] == patrol
    assert body["report"]["legal"] is True and set(body["report"]) == {
        "legal",
        "points",
        "band",
        "problems",
        "edition",
        "edition_note",
    }
    assert body["report"]["edition"] == patrol["edition"]  # the code carries it


def test_a_damaged_code_is_a_400_saying_why(anonymous: Api) -> None:
    response = anonymous.get("/api/v1/share-codes/v1.AAAA")
    assert response.status_code == 400
    body = response.json()
    assert body["problems"][0]["code"] == "format.invalid"
    assert body["detail"]


def test_encoding_a_file_that_is_not_one_is_a_400(anonymous: Api) -> None:
    response = anonymous.call("POST", "/api/v1/share-codes", {"format": "void-command-fleet"})
    assert response.status_code == 400
    assert response.json()["error"]["path"] == "version"
