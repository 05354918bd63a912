"""``manage.py validate_fleet FILE [--json]``: exit 0 legal, 1 illegal, 2 unreadable

Contract 3.
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command

from fleetbuilder.catalog import editions
from rules_core.fleet import dump_fleet_json
from rules_core.sample_fleets import sample_fleet


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("validate_fleet", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def legal_file(tmp_path: Path, catalog) -> Path:
    path = tmp_path / "legal.json"
    # Naming the edition its prices are: a file naming none is judged under the first.
    fleet = replace(sample_fleet(catalog, "imperial-navy", "skirmish"),
                    edition=editions.current_number())
    path.write_text(dump_fleet_json(fleet))
    return path


@pytest.fixture
def illegal_file(legal_file: Path) -> Path:
    data = json.loads(legal_file.read_text())
    data["units"] = data["units"][:1]  # one light cruiser: far under the band
    legal_file.write_text(json.dumps(data))
    return legal_file


def test_a_legal_fleet_exits_0(legal_file: Path) -> None:
    code, out, err = run(str(legal_file))
    assert code == 0
    assert "legal" in out and err == ""


def test_an_illegal_fleet_exits_1_with_a_one_line_reason(illegal_file: Path) -> None:
    code, out, err = run(str(illegal_file))
    assert code == 1
    assert "points.under_band" in out
    assert err.strip().count("\n") == 0 and "not legal" in err


def test_json_prints_contract_2(illegal_file: Path) -> None:
    code, out, _ = run(str(illegal_file), "--json")
    assert code == 1
    report = json.loads(out)
    assert set(report) == {"legal", "points", "band", "problems", "edition", "edition_note"}
    assert (report["edition"], report["edition_note"]) == (editions.current_number(), None)
    assert report["legal"] is False
    assert report["band"] == {"name": "skirmish", "min": 750, "max": 1000}
    problem = report["problems"][0]
    assert set(problem) == {"code", "severity", "message", "unit", "ship"}
    assert problem["code"] == "points.under_band" and problem["severity"] == "error"


def test_json_of_a_legal_fleet(legal_file: Path) -> None:
    code, out, _ = run(str(legal_file), "--json")
    assert code == 0
    report = json.loads(out)
    assert report["legal"] is True and report["problems"] == []
    assert 750 <= report["points"] <= 1000


@pytest.mark.parametrize("content", ["{not json", '{"format": "void-command-fleet", "version": 9}',
                                     '{"format": "other"}', "[]"])
def test_unreadable_files_exit_2(tmp_path: Path, catalog, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, _, err = run(str(path))
    assert code == 2
    assert err.strip() and err.strip().count("\n") == 0


def test_an_unreadable_file_with_json_still_prints_format_invalid(tmp_path: Path,
                                                                 catalog) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "void-command-fleet", "version": 1, "faction": 3}')
    code, out, err = run(str(path), "--json")
    assert code == 2
    assert json.loads(out)["problems"][0]["code"] == "format.invalid"
    assert "faction" in err


def test_a_missing_file_exits_2(tmp_path: Path, catalog) -> None:
    code, out, err = run(str(tmp_path / "nope.json"))
    assert code == 2 and out == ""
    assert "cannot read" in err
