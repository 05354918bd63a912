"""The published JSON Schema of the fleet file (docs/fleet-file.schema.json) agrees with the
reader: every fleet the app writes is valid under it, and the broken files the reader refuses
are refused by it too, so an outside tool checking files against it sees what the app sees."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules_core.catalog import Catalog
from rules_core.fleet import (
    FleetFormatError,
    GameSize,
    PointsBand,
    fleet_to_dict,
    parse_fleet,
)
from rules_core.sample_fleets import sample_fleet
from tests.rules_core.test_fleet_file import CONTRACT_EXAMPLE, SHAPE_ERRORS, example

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "fleet-file.schema.json").read_text())
VALIDATOR = Draft202012Validator(SCHEMA)

# What JSON Schema cannot say; the schema's description lists these and the reader refuses them.
BEYOND_THE_SCHEMA = {"points limit max below min"}


def errors(data: object) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(data)
    ]


def test_the_schema_is_a_valid_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)


def test_the_contract_example_is_valid() -> None:
    assert errors(CONTRACT_EXAMPLE) == []


def test_every_sample_fleet_is_valid(real_catalog: Catalog) -> None:
    checked = 0
    for faction in real_catalog.factions:
        for size in (GameSize.PATROL, GameSize.SKIRMISH, GameSize.BATTLE, GameSize.ARMADA):
            data = fleet_to_dict(sample_fleet(real_catalog, faction.slug, size))
            assert errors(data) == [], (faction.slug, size)
            checked += 1
        custom = sample_fleet(
            real_catalog, faction.slug, GameSize.CUSTOM, points_limit=PointsBand("custom", 600, 900)
        )
        assert errors(fleet_to_dict(custom)) == [], faction.slug
    assert checked == 14 * 4


def test_a_file_the_reader_accepts_in_its_loosest_form_is_valid() -> None:
    # Only the required keys, a notes of exactly the limit with tabs and line ends, names at
    # their limit, and a squadron of the most entries a file may hold.
    data: dict[str, Any] = {
        "format": "void-command-fleet",
        "version": 1,
        "faction": "orks",
        "game_size": "custom",
        "points_limit": {"min": 0, "max": 100_000},
        "units": [
            {"kind": "ship", "ship": "kill-kroozer", "name": "é" * 100},
            {"kind": "squadron", "ships": [{"ship": "savage-gunship"}] * 20},
        ],
        "notes": ("a\tb\n" * 1000),
    }
    parse_fleet(data)
    assert errors(data) == []


@pytest.mark.parametrize(
    "mutate",
    [m for name, m, _ in SHAPE_ERRORS if name not in BEYOND_THE_SCHEMA],
    ids=[name for name, _, _ in SHAPE_ERRORS if name not in BEYOND_THE_SCHEMA],
)
def test_a_file_the_reader_refuses_is_refused_by_the_schema(mutate: Any) -> None:
    data = example()
    mutate(data)
    with pytest.raises(FleetFormatError):
        parse_fleet(data)
    assert errors(data) != []


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("a control character in a name (R-94)", {"name": "Fleet\u0000"}),
        ("a noncharacter in the notes (R-94)", {"notes": "note \ufffe"}),
        ("a version as a boolean", {"version": True}),
        (
            "a squadron holding the flagship (R-21)",
            {
                "units": [
                    {
                        "kind": "squadron",
                        "flagship": True,
                        "ships": [{"ship": "sword-class-frigate"}],
                    }
                ]
            },
        ),
    ],
)
def test_broken_files_are_refused_by_both(name: str, value: dict[str, Any]) -> None:
    data = {**example(), **value}
    with pytest.raises(FleetFormatError):
        parse_fleet(data)
    assert errors(data) != [], name


def test_what_the_schema_cannot_say_is_left_to_the_reader() -> None:
    # Pins R-95: the fleet's ship count is the reader's check; the schema sees 8 squadrons of 20.
    data = example()
    data["units"] = [{"kind": "squadron", "ships": [{"ship": "sword-class-frigate"}] * 20}] * 8
    with pytest.raises(FleetFormatError, match="at most 150 ships"):
        parse_fleet(data)
    assert errors(data) == []


# --- the edition (R-160, R-161) ---------------------------------------------------------------


@pytest.mark.parametrize("edition", [1, 7, 9999, None])
def test_a_file_naming_its_edition_or_none_is_valid_for_both(edition: int | None) -> None:
    """R-160: a file may name its edition; null (or no key) names none (R-161)."""
    data = {**example(), "edition": edition}
    assert parse_fleet(data).edition == edition
    assert errors(data) == []
    assert "edition" not in example() and errors(example()) == []


@pytest.mark.parametrize("edition", [0, 10_000, -1, "7", True, 7.5, [7], {"number": 7}])
def test_a_broken_edition_is_refused_by_both(edition: object) -> None:
    data = {**example(), "edition": edition}
    with pytest.raises(FleetFormatError, match="edition"):
        parse_fleet(data)
    assert errors(data) != []


def test_an_edition_written_as_7_0_is_left_to_the_reader() -> None:
    data = {**example(), "edition": 7.0}  # JSON Schema's "integer" takes 7.0
    with pytest.raises(FleetFormatError, match="edition: expected a whole number"):
        parse_fleet(data)
    assert errors(data) == []


def test_a_sample_fleet_naming_an_edition_is_valid(real_catalog: Catalog) -> None:
    fleet = replace(sample_fleet(real_catalog, "orks", GameSize.PATROL), edition=7)
    data = fleet_to_dict(fleet)
    assert list(data)[:3] == ["format", "version", "edition"] and errors(data) == []
