"""``manage.py simulate A.json B.json --battles N --seed S [--json] [--workers W] [--log]``
(contract 3): exit 0 with the summary, 2 on unusable input with a one-line reason."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command

from fleetbuilder.catalog import editions
from rules_core.fleet import dump_fleet_json

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("simulate", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path: Path, fleets_real) -> tuple[str, str]:
    """The two sample fleets, naming the edition they were built under (the data files are the
    newest): a file naming none is read under the first, with a note (R-161)."""
    newest = editions.latest()
    assert newest is not None
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(dump_fleet_json(replace(fleets_real[0], edition=newest.number)))
    b.write_text(dump_fleet_json(replace(fleets_real[1], edition=newest.number)))
    return str(a), str(b)


def test_json_has_contract_3s_shape_and_is_the_same_with_two_workers(files) -> None:
    code, out, err = run(*files, "--battles", "12", "--seed", "9", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    for key in (
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
    ):
        assert key in data
    assert data["battles"] == 12 and data["seed"] == 9
    assert {"side", "unit", "ship", "destroyed_rate", "crippled_rate"} <= set(data["ships"][0])
    code, again, _ = run(*files, "--battles", "12", "--seed", "9", "--json", "--workers", "2")
    assert code == 0 and again == out


def test_text_summary_names_both_fleets_with_intervals(files) -> None:
    code, out, _ = run(*files, "--battles", "4", "--seed", "1")
    assert code == 0
    assert "Imperial Navy Skirmish Fleet (A) vs Orks Skirmish Fleet (B): 4 battles" in out
    assert "95% CI" in out and "destroyed" in out


def test_log_prints_one_battle_round_by_round(files) -> None:
    code, out, _ = run(*files, "--battles", "2", "--seed", "1", "--log", "--log-battle", "1")
    assert code == 0
    assert "Battle 1 of seed 1:" in out and "round  1 command" in out


@pytest.mark.parametrize(
    "content, reason",
    [
        ("{not json", "not a usable fleet file"),
        (
            '{"format": "void-command-fleet", "version": 1, "faction": "orks", "game_size": '
            '"skirmish", "units": [{"kind": "ship", "ship": "no-such-ship"}]}',
            "no-such-ship",
        ),
        (
            '{"format": "void-command-fleet", "version": 1, "faction": "orks", "game_size": '
            '"skirmish", "units": []}',
            "no units",
        ),
    ],
)
def test_unusable_input_exits_2_with_one_line(
    tmp_path: Path, files, content: str, reason: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    code, out, err = run(files[0], str(bad), "--battles", "2")
    assert code == 2 and out == ""
    assert reason in err and err.strip().count("\n") == 0


def test_bad_numbers_exit_2(files) -> None:
    assert run(*files, "--battles", "0")[0] == 2
    assert run(*files, "--workers", "0")[0] == 2
    assert run(*files, "--rounds", "0")[0] == 2
