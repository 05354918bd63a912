"""The one JSON object reader (rules_core.jsonread) that the catalogue and the fleet file share:
each error is the caller's own class, names the JSON path and says what was found."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules_core.catalog import CatalogError, catalog_from_dicts
from rules_core.fleet import FleetFormatError
from rules_core.jsonread import ObjectReader, ShapeError
from tests.rules_core.conftest import ADMIRALS, IMPERIAL, REFITS


def test_a_reader_names_the_path_and_what_it_found() -> None:
    reader = ObjectReader({"points": "180", "name": None, "crew": 5}, "ships[3]", ShapeError)
    with pytest.raises(ShapeError) as caught:
        reader.whole_number("points", lo=5, hi=1000)
    assert str(caught.value) == "ships[3].points: expected a whole number, found a string"
    assert reader.optional_text("name") is None
    with pytest.raises(ShapeError, match=r"^ships\[3\]\.crew: is not a key of this object$"):
        reader.done()


def test_each_reader_raises_its_callers_error() -> None:
    with pytest.raises(FleetFormatError) as fleet_error:
        ObjectReader([], "units[0]", FleetFormatError)
    assert fleet_error.value.path == "units[0]"
    assert fleet_error.value.message == "expected an object, found a list"
    with pytest.raises(CatalogError, match="is required"):
        ObjectReader({}, "orks", CatalogError).text("slug")


def navy_with(mutate: Any) -> list[dict[str, Any]]:
    faction = copy.deepcopy(IMPERIAL)
    mutate(faction)
    return [faction]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda f: f["ships"][0].update(points="lots"),
            "imperial-navy.ships[0].points: expected a whole number, found a string",
        ),
        (
            lambda f: f["ships"][0].update(points=2000),
            "imperial-navy.ships[0].points: 2000 is outside 5–1000",
        ),
        (
            lambda f: f["ships"][0].update(colour="red"),
            "imperial-navy.ships[0].colour: is not a key of this object",
        ),
        (lambda f: f["ships"][0].pop("hull"), "imperial-navy.ships[0].hull: is required"),
    ],
)
def test_a_broken_catalogue_file_is_refused_with_its_path(mutate: Any, message: str) -> None:
    with pytest.raises(CatalogError) as caught:
        catalog_from_dicts(navy_with(mutate), ADMIRALS, REFITS)
    assert str(caught.value) == message
