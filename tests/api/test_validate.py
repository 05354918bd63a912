"""POST /api/v1/fleet-files/validate: contract 2, with the fleet-file reader's errors and bounds."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.management import call_command

from .conftest import Api

pytestmark = pytest.mark.django_db
URL = "/api/v1/fleet-files/validate"
REPORT_KEYS = {"legal", "points", "band", "problems", "edition", "edition_note"}
PROBLEM_KEYS = {"code", "severity", "message", "unit", "ship"}


def test_a_legal_fleet_gets_contract_2(
    anonymous: Api, patrol: dict[str, Any], tmp_path, capsys
) -> None:
    response = anonymous.call("POST", URL, patrol)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == REPORT_KEYS
    assert body["legal"] is True and body["problems"] == []
    assert body["band"] == {"name": "patrol", "min": 500, "max": 750}
    # The same report as the command line's validate_fleet --json.
    path = tmp_path / "fleet.json"
    path.write_text(json.dumps(patrol))
    call_command("validate_fleet", str(path), "--json")
    assert body == json.loads(capsys.readouterr().out)


def test_an_illegal_fleet_lists_every_problem(anonymous: Api, patrol: dict[str, Any]) -> None:
    doc = copy.deepcopy(patrol)
    doc["units"].append({"kind": "ship", "ship": "lunar-class-cruiser", "flagship": True})
    body = anonymous.call("POST", URL, doc).json()
    assert body["legal"] is False
    codes = {p["code"] for p in body["problems"]}
    assert {"flagship.multiple", "points.over_band"} <= codes
    assert all(set(p) == PROBLEM_KEYS for p in body["problems"])


def test_an_unknown_slug_is_the_contract_2_problem(anonymous: Api, patrol: dict[str, Any]) -> None:
    doc = copy.deepcopy(patrol)
    doc["units"][0]["ship"] = "no-such-ship"
    response = anonymous.call("POST", URL, doc)
    assert response.status_code == 200
    problem = next(p for p in response.json()["problems"] if p["code"] == "catalog.unknown_ship")
    assert problem["unit"] == 0 and problem["severity"] == "error"
    doc["faction"] = "no-such-faction"
    codes = [p["code"] for p in anonymous.call("POST", URL, doc).json()["problems"]]
    assert "catalog.unknown_faction" in codes


def test_bad_json_is_a_400_with_where(anonymous: Api) -> None:
    response = anonymous.call("POST", URL, raw='{"format": "void-command-fleet",\n  "version": }')
    assert response.status_code == 400
    body = response.json()
    assert set(REPORT_KEYS) <= set(body)
    assert body["legal"] is False and body["points"] == 0 and body["band"] is None
    assert [p["code"] for p in body["problems"]] == ["format.invalid"]
    assert body["error"]["line"] == 2 and body["error"]["column"] == 14
    assert "not valid JSON at line 2" in body["detail"]


def test_a_shape_error_names_the_json_path(anonymous: Api, patrol: dict[str, Any]) -> None:
    doc = copy.deepcopy(patrol)
    i = next(n for n, u in enumerate(doc["units"]) if u["kind"] == "squadron")
    doc["units"][i]["ships"][0]["upgrades"] = "veteran-crew"
    body = anonymous.call("POST", URL, doc).json()
    assert body["error"]["path"] == f"units[{i}].ships[0].upgrades"
    assert f"units[{i}].ships[0].upgrades" in body["problems"][0]["message"]


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        ('{"format": "void-command-fleet", "version": 1, "version": 1}', ""),  # "appears twice"
        ('{"format": "other", "version": 1}', "format"),
        ('{"format": "void-command-fleet", "version": 2}', "version"),
        ("[]", ""),
    ],
)
def test_the_readers_rules_hold(anonymous: Api, raw: str, path: str) -> None:
    response = anonymous.call("POST", URL, raw=raw)
    assert response.status_code == 400
    assert response.json()["error"]["path"] == path


def test_r94_a_control_character_is_refused_with_its_path(
    anonymous: Api, patrol: dict[str, Any]
) -> None:
    doc = copy.deepcopy(patrol)
    doc["name"] = "Bad\u0000name"
    body = anonymous.call("POST", URL, doc).json()
    assert body["error"]["path"] == "name" and "U+0000" in body["detail"]


def test_r95_bounds_hold(anonymous: Api, patrol: dict[str, Any]) -> None:
    doc = copy.deepcopy(patrol)
    doc["units"] = [{"kind": "ship", "ship": "lunar-class-cruiser"}] * 101
    body = anonymous.call("POST", URL, doc).json()
    assert body["error"]["path"].startswith("units")
    # Past 5000 points: the unit at which the running total passes the bound.
    doc["units"] = [{"kind": "ship", "ship": "emperor-class-battleship"}] * 30
    response = anonymous.call("POST", URL, doc)
    assert response.status_code == 400
    assert response.json()["error"]["path"].startswith("units[")
    assert "5000" in response.json()["detail"]


def test_a_huge_body_is_a_413(anonymous: Api) -> None:
    response = anonymous.call("POST", URL, raw="{" + " " * 300_000 + "}")
    assert response.status_code == 413
    assert "limit" in response.json()["detail"]
