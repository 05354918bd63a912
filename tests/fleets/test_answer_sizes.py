"""Every kind of roster edit on a 40-unit fleet answers in under 12 KB (issue 13, Speed): the
edits bench_builder measures (bench.edit_cases), on the first, a middle and the last unit they
apply to, with the unit's editor open and closed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.fleets.bench import ANSWER_GOAL, answer_size, armada_fleet_of, edit_cases
from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db


def test_every_edit_on_a_40_unit_fleet_answers_under_12_kb(
        client: Client, start_fleet: Callable[..., Fleet], catalog: Any) -> None:
    fleet = start_fleet(client, game_size="armada")
    units = armada_fleet_of(catalog, 40)
    assert len(units) == 40

    def reset() -> None:
        fleet.refresh_from_db()
        fleet.document = {**fleet.document, "units": units}
        fleet.store(fleet.to_core(), catalog)
        fleet.save()

    reset()
    cases = edit_cases(fleet, catalog)
    kinds = {case.kind for case in cases}
    assert {"add ship", "add escort", "+1 of this", "upgrade tick", "squadron-wide tick",
            "rename", "remove", "reorder up/down", "drag to top", "flagship",
            "admiral"} <= kinds
    headers = {"HX-Request": "true"}
    too_big = []
    for case in cases:
        reset()
        if case.first is not None:
            client.post(f"/fleets/{fleet.pk}/{case.first[0]}", case.first[1], headers=headers)
        response = client.post(f"/fleets/{fleet.pk}/{case.path}", case.data, headers=headers)
        assert response.status_code == 200, (case, response.content.decode()[:300])
        if answer_size(response) >= ANSWER_GOAL:
            too_big.append((case.kind, case.where, answer_size(response)))
    assert too_big == []


def test_a_squadron_wide_refit_answers_with_every_escort_ticked(
        client: Client, start_fleet: Callable[..., Fleet], catalog: Any, edit: Any) -> None:
    fleet = start_fleet(client, game_size="armada")
    fleet.document = {**fleet.document, "units": armada_fleet_of(catalog, 40)}
    fleet.store(fleet.to_core(), catalog)
    fleet.save()
    case = next(c for c in edit_cases(fleet, catalog) if c.kind == "squadron-wide tick")
    slug = case.data["upgrade"][0]
    unit = int(case.path.split("/")[1])
    response = edit(fleet, case.path, case.data)
    body = response.content.decode()
    assert answer_size(response) < ANSWER_GOAL
    fleet.refresh_from_db()
    escorts = fleet.document["units"][unit]["ships"]
    assert all(slug in ship["upgrades"] for ship in escorts)
    # Each escort's box comes back ticked, and the squadron-wide one.
    for box in [*(f"unit-{unit}-ship-{j}-up-{slug}" for j in range(len(escorts))),
                f"unit-{unit}-all-{slug}"]:
        tag = re.search(rf'<input type="checkbox"[^>]* id="{box}"[^>]*>', body)
        assert tag and "checked" in tag.group(0), box
