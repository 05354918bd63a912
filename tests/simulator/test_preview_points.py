"""Preview matchup from the builder: the proposed opponent is a rival's sample
built to the fleet's points (within 5 %), and the results' headline says when points differ."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.editions import SideEdition
from fleetbuilder.simulator.results import SideInfo, points_note
from rules_core import fleet as rf
from rules_core.sample_fleets import SampleFleetError, sample_fleet_near
from rules_core.validator import validate


@pytest.mark.parametrize("points", [300, 580, 775, 1234, 2500])
def test_a_sample_near_any_points_is_legal_and_within_five_percent(catalog, points: int) -> None:
    for faction in catalog.factions:
        fleet = sample_fleet_near(catalog, faction.slug, points)
        report = validate(fleet, catalog)
        assert report.legal, (faction.slug, [p.message for p in report.errors])
        assert abs(report.points - points) <= points * 0.05, (faction.slug, report.points)
        assert fleet.game_size is rf.GameSize.CUSTOM
        assert fleet.name == f"{faction.name} {points}-point Fleet"


def test_too_few_points_for_a_sample_is_refused(catalog) -> None:
    with pytest.raises(SampleFleetError, match="at least 100 points"):
        sample_fleet_near(catalog, "orks", 40)


@pytest.fixture
def start_fleet_with(client: Client, catalog) -> Callable[..., Fleet]:
    """A Skirmish Imperial Navy fleet of this browser holding ``ships``."""

    def make(ships: list[str]) -> Fleet:
        response = client.post(
            "/fleets/new/",
            {"name": "", "faction": "imperial-navy", "variant": "", "game_size": "skirmish"},
        )
        fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
        for ship in ships:
            fleet.add_ship(catalog, ship)
        fleet.refresh_from_db()
        return fleet

    return make


def side(key: str, points: int) -> SideInfo:
    return SideInfo(
        key=key,
        label=key,
        faction="",
        size="",
        points=points,
        legal=True,
        problems=0,
        source="",
        policy="",
        edition=SideEdition(7, None),
    )


def test_the_headline_note_names_the_difference() -> None:
    assert points_note(side("a", 775), side("b", 775)) == ""
    assert points_note(side("a", 775), side("b", 780)) == (
        "The points differ: fleet B has 5 more (780 against 775, 0.6\u00a0%); "
        "within 5\u00a0%, a close match."
    )
    assert points_note(side("a", 990), side("b", 775)) == (
        "The points differ: fleet A has 215 more (990 against 775, 27.7\u00a0%); "
        "the odds lean its way for that alone."
    )


def test_preview_matchup_from_the_builder_runs_against_a_rival_of_its_points(
    client: Client, start_fleet_with: Callable[..., Fleet], catalog
) -> None:
    fleet = start_fleet_with(
        [
            "lunar-class-cruiser",
            "gothic-class-cruiser",
            "dictator-class-cruiser",
            "tyrant-class-cruiser",
        ]
    )
    points = fleet.points
    assert 750 <= points < 900  # Skirmish is 750–1000: its usual sample has 990
    page = client.get(f"/simulator/?a={fleet.pk}").content.decode()
    form = dict(re.findall(r'name="(\w+)" value="([^"]*)"', page))
    side_b = page[page.index('id="side-b"') :]
    assert form["b_points"] == str(points)
    assert re.search(r'<option value="archenemy" selected>', side_b)

    response = client.post(
        "/simulator/",
        {
            "a_source": "fleet",
            "a_fleet": fleet.pk,
            "b_source": "sample",
            "b_faction": "archenemy",
            "b_variant": "",
            "b_size": "skirmish",
            "b_points": points,
            "battles": "2",
            "max_rounds": "2",
            "table": "",
            "scoring": "core",
            "terrain": "none",
            "seed": "7",
            "a_policy": "standard",
            "b_policy": "standard",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    results = unescape(client.get(response.headers["Location"]).content.decode())
    b_points = int(
        re.search(
            rf"Archenemy {points}-point Fleet \(sample\)</p>\s*<p[^>]*>"
            r"Archenemy · Custom · (\d+) pts",
            results,
        )[1]
    )
    assert abs(b_points - points) <= points * 0.05
    if b_points != points:
        note = re.search(r'<p class="sim-points-note" data-points-note>([^<]*)</p>', results)[1]
        assert "within 5\u00a0%, a close match" in note
    # "Edit and run again" keeps the points the sample was built to.
    run_id = response.headers["Location"].rstrip("/").split("/")[-1]
    again = client.get(f"/simulator/?from={run_id}").content.decode()
    assert f'name="b_points" value="{points}"' in again


def test_bad_points_for_a_sample_are_refused(start_run: Callable[..., Any], db) -> None:
    for value, message in (
        ("50", "greater than or equal to 100"),
        ("99999", "less than or equal to 5000"),
        ("lots", "Enter a whole number"),
    ):
        response = start_run(b_points=value)
        assert response.status_code == 400
        assert message in response.content.decode()
