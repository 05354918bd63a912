"""The fleet file (contract 1): strict reading with the JSON path of the error, exact writing."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from rules_core.fleet import (
    Fleet,
    FleetFormatError,
    GameSize,
    PointsBand,
    ShipUnit,
    Squadron,
    SquadronShip,
    dump_fleet_json,
    fleet_to_dict,
    load_fleet_json,
    parse_fleet,
)
from rules_core.validator import ValidationReport

CONTRACT_EXAMPLE: dict[str, Any] = {
    "format": "void-command-fleet",
    "version": 1,
    "name": "Gothic Sector Patrol",
    "faction": "imperial-navy",
    "variant": None,
    "game_size": "skirmish",
    "points_limit": None,
    "units": [
        {
            "kind": "ship",
            "ship": "lunar-class-cruiser",
            "name": "Emperor's Wrath",
            "flagship": True,
            "admiral": "commodore",
            "upgrades": [],
        },
        {
            "kind": "squadron",
            "name": "Sword Squadron",
            "ships": [
                {"ship": "sword-class-frigate", "upgrades": []},
                {"ship": "sword-class-frigate", "upgrades": []},
            ],
        },
    ],
    "notes": "",
}


def example() -> dict[str, Any]:
    return copy.deepcopy(CONTRACT_EXAMPLE)


# --- reading and writing ------------------------------------------------------------------


def test_contract_example_parses_to_typed_values() -> None:
    fleet = parse_fleet(example())
    assert fleet.faction == "imperial-navy"
    assert fleet.game_size is GameSize.SKIRMISH
    assert fleet.band == PointsBand("skirmish", 750, 1000)
    flagship, squadron = fleet.units
    assert flagship == ShipUnit(
        "lunar-class-cruiser", name="Emperor's Wrath", flagship=True, admiral="commodore"
    )
    assert squadron == Squadron((SquadronShip("sword-class-frigate"),) * 2, name="Sword Squadron")
    assert fleet.ship_count == 3


def test_round_trip_is_exact_for_a_normalised_file() -> None:
    data = example()
    data["units"][0]["upgrades"] = ["nova-refit", "nova-refit"]
    data["notes"] = "Line one\nline two"
    assert fleet_to_dict(parse_fleet(data)) == data
    assert list(fleet_to_dict(parse_fleet(data))) == list(data)  # contract 1's key order


def test_round_trip_of_a_custom_game_size() -> None:
    data = example()
    data["game_size"] = "custom"
    data["points_limit"] = {"min": 600, "max": 900}
    fleet = parse_fleet(data)
    assert fleet.band == PointsBand("custom", 600, 900)
    assert fleet_to_dict(fleet) == data


def test_optional_keys_take_their_defaults_and_the_writer_normalises() -> None:
    minimal = {
        "format": "void-command-fleet",
        "version": 1,
        "faction": "orks",
        "game_size": "patrol",
        "units": [
            {"kind": "ship", "ship": "kill-kroozer"},
            {"kind": "squadron", "ships": [{"ship": "ravager-attack-ship"}]},
        ],
    }
    fleet = parse_fleet(minimal)
    assert fleet == Fleet(
        "orks",
        GameSize.PATROL,
        units=(ShipUnit("kill-kroozer"), Squadron((SquadronShip("ravager-attack-ship"),))),
    )
    normalised = fleet_to_dict(fleet)
    assert normalised["name"] is None and normalised["notes"] == ""
    assert normalised["units"][0] == {
        "kind": "ship",
        "ship": "kill-kroozer",
        "name": None,
        "flagship": False,
        "admiral": None,
        "upgrades": [],
    }
    assert fleet_to_dict(parse_fleet(normalised)) == normalised


def test_names_are_stored_exactly_as_given() -> None:
    data = example()
    odd = "  <b>Ω Wrath</b> 'of' \"the\" {{ Emperor }}  "
    data["name"] = ""
    data["units"][0]["name"] = odd
    fleet = parse_fleet(data)
    assert fleet.name == ""
    assert fleet.units[0].name == odd
    assert json.loads(dump_fleet_json(fleet)) == data


def test_names_may_be_100_characters_long() -> None:
    data = example()
    data["name"] = "x" * 100
    assert parse_fleet(data).name == "x" * 100


def test_a_squadron_of_any_size_parses_for_the_validator_to_judge() -> None:
    data = example()
    data["units"][1]["ships"] = [{"ship": "sword-class-frigate"}] * 7
    assert len(parse_fleet(data).units[1].ships) == 7
    data["units"][1]["ships"] = []
    assert parse_fleet(data).units[1].ships == ()


def test_null_notes_read_as_empty() -> None:
    data = example()
    data["notes"] = None
    assert parse_fleet(data).notes == ""


# --- shape errors name the JSON path ------------------------------------------------------

Mutation = Callable[[dict[str, Any]], None]


def _set(path: list[Any], value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _delete(path: list[Any]) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def _third_unit(data: dict[str, Any]) -> None:
    data["units"].append({"kind": "squadron", "ships": [{"ship": 42}]})


def _custom_without_limit(data: dict[str, Any]) -> None:
    data["game_size"] = "custom"


def _custom(limit: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        data["game_size"] = "custom"
        data["points_limit"] = limit

    return mutate


SHAPE_ERRORS: list[tuple[str, Mutation, str]] = [
    ("format missing", _delete(["format"]), "format"),
    ("unknown format", _set(["format"], "void-command-army"), "format"),
    ("format not a string", _set(["format"], 1), "format"),
    ("version missing", _delete(["version"]), "version"),
    ("version from the future", _set(["version"], 2), "version"),
    ("version zero", _set(["version"], 0), "version"),
    ("version as text", _set(["version"], "1"), "version"),
    ("version as boolean", _set(["version"], True), "version"),
    ("unknown top-level key", _set(["colour"], "red"), "colour"),
    ("name not a string", _set(["name"], 7), "name"),
    ("name too long", _set(["name"], "x" * 101), "name"),
    ("faction missing", _delete(["faction"]), "faction"),
    ("faction null", _set(["faction"], None), "faction"),
    ("faction not a slug", _set(["faction"], "Imperial Navy"), "faction"),
    ("variant not a slug", _set(["variant"], ["x"]), "variant"),
    ("game size missing", _delete(["game_size"]), "game_size"),
    ("unknown game size", _set(["game_size"], "huge"), "game_size"),
    ("game size capitalised", _set(["game_size"], "Skirmish"), "game_size"),
    ("custom size without its limit", _custom_without_limit, "points_limit"),
    ("points limit on a fixed size", _set(["points_limit"], {"min": 1, "max": 2}), "points_limit"),
    ("points limit not an object", _custom([600, 900]), "points_limit"),
    ("points limit min missing", _custom({"max": 900}), "points_limit.min"),
    ("points limit min as text", _custom({"min": "600", "max": 900}), "points_limit.min"),
    ("points limit negative", _custom({"min": -1, "max": 900}), "points_limit.min"),
    ("points limit max below min", _custom({"min": 900, "max": 600}), "points_limit.max"),
    ("points limit unknown key", _custom({"min": 1, "max": 2, "step": 1}), "points_limit.step"),
    ("units missing", _delete(["units"]), "units"),
    ("units not a list", _set(["units"], {}), "units"),
    ("more than 100 units", _set(["units"], [{"kind": "ship", "ship": "a"}] * 101), "units"),
    ("unit not an object", _set(["units", 0], "lunar-class-cruiser"), "units[0]"),
    ("unit kind missing", _delete(["units", 0, "kind"]), "units[0].kind"),
    ("unknown unit kind", _set(["units", 0, "kind"], "wing"), "units[0].kind"),
    ("ship missing", _delete(["units", 0, "ship"]), "units[0].ship"),
    ("ship not a slug", _set(["units", 0, "ship"], "Lunar Cruiser"), "units[0].ship"),
    ("unit name too long", _set(["units", 0, "name"], "y" * 101), "units[0].name"),
    ("flagship not a boolean", _set(["units", 0, "flagship"], "yes"), "units[0].flagship"),
    ("admiral not a slug", _set(["units", 0, "admiral"], 3), "units[0].admiral"),
    ("upgrades not a list", _set(["units", 0, "upgrades"], "nova"), "units[0].upgrades"),
    ("upgrade not a slug", _set(["units", 0, "upgrades"], ["ok", 7]), "units[0].upgrades[1]"),
    ("too many upgrades", _set(["units", 0, "upgrades"], ["a"] * 21), "units[0].upgrades"),
    ("unknown unit key", _set(["units", 0, "crew"], 5), "units[0].crew"),
    ("squadron ships missing", _delete(["units", 1, "ships"]), "units[1].ships"),
    ("squadron flagship (R-21)", _set(["units", 1, "flagship"], True), "units[1].flagship"),
    (
        "squadron ship admiral (R-21)",
        _set(["units", 1, "ships", 0, "admiral"], "commodore"),
        "units[1].ships[0].admiral",
    ),
    ("squadron ship not an object", _set(["units", 1, "ships", 1], None), "units[1].ships[1]"),
    (
        "squadron ship slug missing",
        _delete(["units", 1, "ships", 0, "ship"]),
        "units[1].ships[0].ship",
    ),
    (
        "squadron ship unknown key",
        _set(["units", 1, "ships", 0, "name"], "Sword 1"),
        "units[1].ships[0].name",
    ),
    (
        "squadron ship upgrade",
        _set(["units", 1, "ships", 1, "upgrades"], [None]),
        "units[1].ships[1].upgrades[0]",
    ),
    ("third unit's ship", _third_unit, "units[2].ships[0].ship"),
    ("notes not a string", _set(["notes"], 5), "notes"),
    ("notes too long", _set(["notes"], "n" * 4001), "notes"),
]


@pytest.mark.parametrize(
    ("mutate", "path"),
    [(m, p) for _, m, p in SHAPE_ERRORS],
    ids=[name for name, _, _ in SHAPE_ERRORS],
)
def test_a_shape_error_names_its_json_path(mutate: Mutation, path: str) -> None:
    data = example()
    mutate(data)
    with pytest.raises(FleetFormatError) as caught:
        parse_fleet(data)
    assert caught.value.path == path
    assert str(caught.value).startswith(f"{path}: ")


@pytest.mark.parametrize("data", [None, [], "fleet", 3])
def test_a_file_that_is_not_an_object_is_refused_at_the_root(data: object) -> None:
    with pytest.raises(FleetFormatError) as caught:
        parse_fleet(data)
    assert caught.value.path == ""
    assert "expected an object" in caught.value.message


def test_a_newer_version_says_so() -> None:
    data = example()
    data["version"] = 2
    with pytest.raises(FleetFormatError, match="newer than this program reads"):
        parse_fleet(data)


def test_format_error_is_a_value_error() -> None:
    assert issubclass(FleetFormatError, ValueError)


# --- JSON text ----------------------------------------------------------------------------


def test_load_fleet_json_reads_text() -> None:
    text = json.dumps(CONTRACT_EXAMPLE, indent=2)
    assert fleet_to_dict(load_fleet_json(text)) == CONTRACT_EXAMPLE
    assert fleet_to_dict(load_fleet_json("\ufeff" + text)) == CONTRACT_EXAMPLE


def test_invalid_json_gives_line_and_column() -> None:
    with pytest.raises(FleetFormatError) as caught:
        load_fleet_json('{\n  "format": "void-command-fleet",\n  "version": ,\n}')
    err = caught.value
    assert (err.line, err.column) == (3, 14)
    assert "line 3, column 14" in str(err)


def test_duplicate_keys_and_nan_are_refused() -> None:
    with pytest.raises(FleetFormatError, match="appears twice"):
        load_fleet_json('{"format": "void-command-fleet", "format": "x"}')
    with pytest.raises(FleetFormatError, match="NaN"):
        load_fleet_json('{"version": NaN}')


def test_load_fleet_json_reports_shape_errors_with_the_path() -> None:
    data = example()
    data["units"][1]["ships"][1]["ship"] = 9
    with pytest.raises(FleetFormatError) as caught:
        load_fleet_json(json.dumps(data))
    assert caught.value.path == "units[1].ships[1].ship"


def test_a_format_error_becomes_a_format_invalid_report() -> None:
    report = ValidationReport.for_format_error(FleetFormatError("units[0].kind", "is required"))
    assert report.to_dict() == {
        "legal": False,
        "points": 0,
        "band": None,
        "problems": [
            {
                "code": "format.invalid",
                "severity": "error",
                "message": "Not a usable fleet file (at units[0].kind): is required",
                "unit": None,
                "ship": None,
            }
        ],
    }
