"""/api/v1/runs with a fleet file as a side: the file is played under the edition it names
(R-163); one naming none under the first, with R-161's note in the run's sides; one naming an
edition this server does not know is a 400 at ``a.file.edition`` listing the known editions,
and no run is kept."""

from __future__ import annotations

from typing import Any

import pytest

from fleetbuilder.catalog import editions
from fleetbuilder.simulator.models import Matchup

from .conftest import ApiUser

pytestmark = pytest.mark.django_db
ORKS = {"sample": {"faction": "orks", "size": "patrol"}}


def _start(player: ApiUser, a: dict[str, Any]) -> Any:
    return player.api.call(
        "POST", "/api/v1/runs", {"a": a, "b": ORKS, "battles": 1, "seed": 7, "terrain": "none"}
    )


def test_a_file_plays_its_own_edition(player: ApiUser, patrol: dict[str, Any]) -> None:
    response = _start(player, {"file": {**patrol, "edition": 1}})
    assert response.status_code == 201, response.content
    run = Matchup.objects.get()
    current = editions.current_number()
    assert (run.edition_a, run.edition_b) == (1, current)
    assert response.json()["run"]["sides"]["a"].get("note") is None


def test_a_file_naming_no_edition_is_read_under_the_first_with_a_note(
    player: ApiUser, patrol: dict[str, Any]
) -> None:
    unnamed = {k: v for k, v in patrol.items() if k != "edition"}
    response = _start(player, {"file": unnamed})
    assert response.status_code == 201, response.content
    first = editions.known()[0]
    assert Matchup.objects.get().edition_a == first.number
    note = response.json()["run"]["sides"]["a"]["note"]
    assert note.startswith(
        f"This list names no edition, so it is read under the first, {first.title}"
    )


def test_a_file_naming_an_unknown_edition_is_refused(
    player: ApiUser, patrol: dict[str, Any]
) -> None:
    unknown = max(editions.numbers()) + 1
    response = _start(player, {"file": {**patrol, "edition": unknown}})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"]["path"] == "a.file.edition"
    known = ", ".join(str(n) for n in editions.numbers())
    assert f"the known editions are {known}" in body["detail"]
    assert Matchup.objects.count() == 0
