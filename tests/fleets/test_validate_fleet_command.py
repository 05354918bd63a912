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
from django.db import DatabaseError

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.fleetfile import FleetFileError, under_edition
from rules_core.fleet import dump_fleet_json, load_fleet_json
from rules_core.sample_fleets import sample_fleet
from rules_core.validator import validate


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
    fleet = replace(
        sample_fleet(catalog, "imperial-navy", "skirmish"), edition=editions.current_number()
    )
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


@pytest.mark.parametrize(
    "content",
    ["{not json", '{"format": "void-command-fleet", "version": 9}', '{"format": "other"}', "[]"],
)
def test_unreadable_files_exit_2(tmp_path: Path, catalog, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, _, err = run(str(path))
    assert code == 2
    assert err.strip() and err.strip().count("\n") == 0


def test_an_unreadable_file_with_json_still_prints_format_invalid(tmp_path: Path, catalog) -> None:
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


# --- editions (R-160, R-161) ---------------------------------------------------------------


def test_a_file_is_judged_under_the_edition_it_names(legal_file: Path) -> None:
    data = json.loads(legal_file.read_text())
    data["edition"] = 1
    legal_file.write_text(json.dumps(data))
    code, out, err = run(str(legal_file), "--json")
    report = json.loads(out)
    expected = validate(load_fleet_json(legal_file.read_text()), editions.catalog_for(1))
    assert (report["edition"], report["points"]) == (1, expected.points)
    assert report["edition_note"] is None and "note:" not in err


def test_a_file_naming_no_edition_is_judged_under_the_first_with_a_note(legal_file: Path) -> None:
    """R-161: the first edition, and the note on stderr (one line)."""
    data = json.loads(legal_file.read_text())
    del data["edition"]
    legal_file.write_text(json.dumps(data))
    code, out, err = run(str(legal_file), "--json")
    first = editions.known()[0]
    report = json.loads(out)
    assert report["edition"] == first.number
    assert report["edition_note"] == editions.resolve(None)[1]
    assert err.startswith(
        f"note: This list names no edition, so it is read under the first, {first.title}"
    )


def test_an_unknown_edition_exits_2_naming_the_known_ones(legal_file: Path) -> None:
    """R-161: refused, with the known editions, in one line."""
    data = json.loads(legal_file.read_text())
    data["edition"] = 99
    legal_file.write_text(json.dumps(data))
    code, out, err = run(str(legal_file))
    known = ", ".join(str(i.number) for i in editions.known())
    assert code == 2 and out == ""
    assert err.strip() == (
        f"{legal_file}: Edition 99 is not one this server knows; the known editions are {known}."
    )


def test_without_a_database_the_shipped_edition_files_answer(legal_file: Path, monkeypatch) -> None:
    """A clone with no database set up reads the editions from the shipped files."""

    def no_database(number: object) -> object:
        raise DatabaseError("no such table: catalog_edition")

    monkeypatch.setattr(editions, "resolve", no_database)
    fleet = load_fleet_json(legal_file.read_text())
    named, _, note = under_edition(replace(fleet, edition=3))
    assert (named.edition, note) == (3, "")
    unnamed, catalog, note = under_edition(replace(fleet, edition=None))
    assert unnamed.edition == 1 and note.startswith("This list names no edition")
    assert catalog.version == editions.get(1).data_version
    with pytest.raises(FleetFileError, match="the known editions are 1, 2, 3, 4, 5, 6, 7"):
        under_edition(replace(fleet, edition=99))
