"""/api/v1/runs: starting a run as the matchup page does (its limits too), reading its progress
and contract 3's ``simulate --json`` shape."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from fleetbuilder.simulator.models import Matchup

from .conftest import Api, ApiUser

pytestmark = pytest.mark.django_db
ORKS = {"sample": {"faction": "orks", "size": "patrol"}}
NAVY = {"sample": {"faction": "imperial-navy", "size": "patrol"}}
CONTRACT_3 = {
    "battles",
    "seed",
    "a_wins",
    "b_wins",
    "draws",
    "a_win_rate",
    "a_win_ci95",
    "a_vp_mean",
    "b_vp_mean",
    "rounds_mean",
    "ships",
}


def _start(player: ApiUser, **body: Any) -> Any:
    return player.api.call(
        "POST",
        "/api/v1/runs",
        {"a": NAVY, "b": ORKS, "battles": 6, "seed": 11, "terrain": "none", **body},
    )


def test_a_run_is_played_and_reads_as_simulate_json(player: ApiUser, anonymous: Api) -> None:
    response = _start(player)  # the tests play tasks in-process: it is done at once
    assert response.status_code == 201, response.content
    body = response.json()
    run = Matchup.objects.get(public_id=body["run"]["id"])
    assert run.owner == player.user
    read = anonymous.get(f"/api/v1/runs/{run.public_id}")  # anyone holding the id
    assert read.status_code == 200
    result = read.json()
    assert CONTRACT_3 <= set(result)
    assert result["battles"] == 6 and result["seed"] == 11
    assert {"side", "unit", "ship", "destroyed_rate", "crippled_rate"} <= set(result["ships"][0])
    progress = result["run"]
    assert progress["status"] == "done" and progress["finished"] is True
    assert progress["battles_done"] == progress["battles_requested"] == 6
    assert progress["percent"] == 100
    # The same numbers as the run's results.json on the site.
    page = Client().get(f"/simulator/m/{run.public_id}/results.json").json()
    assert {k: v for k, v in result.items() if k != "run"} == {
        k: v for k, v in page.items() if k != "run"
    }


def test_progress_while_queued(player: ApiUser, held_chunks: list[Any]) -> None:
    body = _start(player).json()
    assert body["battles"] == 0
    assert body["run"]["status"] == "queued" and body["run"]["battles_done"] == 0
    assert body["run"]["url"].startswith("http://testserver/simulator/m/")
    assert len(held_chunks) == 1


def test_sides_from_your_fleet_a_share_code_and_a_file(
    player: ApiUser, saved, patrol, anonymous: Api, held_chunks: list[Any]
) -> None:
    fleet = saved(player)
    code = anonymous.call("POST", "/api/v1/share-codes", patrol).json()["code"]
    for a, b in (({"fleet": fleet.pk}, {"share": code}), ({"file": patrol}, ORKS)):
        response = _start(player, a=a, b=b)
        assert response.status_code == 201, response.content
    kinds = [tuple(r.sources[s]["kind"] for s in "ab") for r in Matchup.objects.order_by("pk")]
    assert kinds == [("fleet", "shared"), ("file", "sample")]


def test_another_players_fleet_is_not_a_side(player: ApiUser, rival: ApiUser, saved) -> None:
    saved(player)
    theirs = saved(rival)
    response = _start(player, a={"fleet": theirs.pk})
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "a.fleet"
    assert Matchup.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"a": {}}, "a"),
        ({"a": {"fleet": 1, "sample": {"faction": "orks"}}}, "a"),
        ({"b": {"sample": {"faction": "no-such-faction", "size": "patrol"}}}, "b.sample.faction"),
        ({"b": {"sample": {"faction": "orks", "size": "huge"}}}, "b.sample.size"),
        ({"battles": 0}, "battles"),
        ({"battles": "many"}, "battles"),
        ({"seed": -1}, "seed"),
        ({"b": {"share": "v1.AAAA"}}, "b.share"),
        ({"a": {"file": {"format": "void-command-fleet", "version": 1}}}, "a.file.faction"),
    ],
)
def test_bad_input_is_a_400_with_the_json_path(
    player: ApiUser, body: dict[str, Any], path: str
) -> None:
    response = _start(player, **body)
    assert response.status_code == 400, response.content
    data = response.json()
    paths = [e["path"] for e in data.get("errors", [])] or [data["error"]["path"]]
    assert path in paths
    assert Matchup.objects.count() == 0


def test_your_runs_at_once_limit_is_429(player: ApiUser, settings, held_chunks: list[Any]) -> None:
    settings.SIM_MAX_ACTIVE_PER_OWNER = 1
    assert _start(player).status_code == 201
    refused = _start(player)
    assert refused.status_code == 429
    assert "previews running" in refused.json()["detail"]
    assert Matchup.objects.count() == 1


def test_a_full_queue_is_503(player: ApiUser, settings, held_chunks: list[Any]) -> None:
    settings.SIM_MAX_QUEUED_BATTLES = 5
    settings.SIM_SMALL_SECONDS = 0  # small runs pass the cap, bounded by budgets
    refused = _start(player)
    assert refused.status_code == 503
    assert "busy" in refused.json()["detail"]


def test_starting_needs_a_token(anonymous: Api) -> None:
    response = anonymous.call("POST", "/api/v1/runs", {"a": NAVY, "b": ORKS})
    assert response.status_code == 401


def test_list_and_cancel_are_yours_only(
    player: ApiUser, rival: ApiUser, held_chunks: list[Any]
) -> None:
    run_id = _start(player).json()["run"]["id"]
    assert [r["id"] for r in player.api.get("/api/v1/runs").json()] == [run_id]
    assert rival.api.get("/api/v1/runs").json() == []
    refused = rival.api.call("POST", f"/api/v1/runs/{run_id}/cancel")
    assert refused.status_code == 403
    assert Matchup.objects.get(public_id=run_id).status == "queued"
    cancelled = player.api.call("POST", f"/api/v1/runs/{run_id}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["run"]["status"] == "cancelled"


def test_an_unknown_run_is_404(anonymous: Api) -> None:
    assert anonymous.get("/api/v1/runs/no-such-run").status_code == 404
