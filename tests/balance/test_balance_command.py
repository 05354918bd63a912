"""``manage.py balance``: the same table in-process on 1 or 2 workers and on the task queue
(Celery's eager mode in the tests), chunks that count once, sides that alternate, refusals."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command

from fleetbuilder.balance.models import BalanceRun, BalanceTable
from fleetbuilder.balance.tasks import play_chunk
from rules_core.balance import BalanceSpec, RoundRobin
from rules_core.sim import play_battle

FACTIONS = "orks,imperial-navy,necrons"
ARGS = ("--size", "patrol", "--battles", "4", "--seed", "5", "--factions", FACTIONS)


def balance(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("balance", *args, stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def table(*args: str) -> dict[str, Any]:
    code, out, err = balance(*ARGS, "--json", *args)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.django_db
def test_the_same_table_on_one_worker_two_workers_and_the_queue(catalog) -> None:
    one = table("--workers", "1")
    assert table("--workers", "2") == one
    assert table("--workers", "2", "--chunk", "1") == one
    assert table("--queue") == one
    assert table("--queue", "--chunk", "3") == one
    assert BalanceRun.objects.filter(status=BalanceRun.Status.DONE).count() == 2
    # What the table says.
    assert [r["slug"] for r in one["factions"]] == ["imperial-navy", "necrons", "orks"]
    assert one["size"] == "patrol" and one["battles_per_pair"] == 4 and one["seed"] == 5
    assert one["catalog_version"] == catalog.version
    assert one["summary"]["pairs"] == 3 and one["summary"]["factions"] == 3
    for row in one["factions"]:
        assert row["battles"] == 8 and row["wins"] + row["draws"] + row["losses"] == 8
        assert row["score_ci95"][0] <= row["score"] <= row["score_ci95"][1]
    for pair in one["pairs"]:
        x, y = pair["first"], pair["second"]
        assert one["matrix"][x][y] + one["matrix"][y][x] == pytest.approx(1.0)


@pytest.mark.django_db
def test_battle_k_of_a_pair_replays_with_the_sides_alternating(catalog) -> None:
    spec = BalanceSpec(size="patrol", battles=4, seed=5, factions=("orks", "necrons"))
    rr = RoundRobin.prepare(catalog, spec)
    [pair] = rr.pairs
    first, second = rr.fleets[pair.first], rr.fleets[pair.second]
    wins = draws = 0
    for k in range(4):
        a, b = (first, second) if k % 2 == 0 else (second, first)
        winner = play_battle(catalog, a, b, seed=pair.seed, index=k, options=spec.options).winner
        draws += winner is None
        wins += winner == ("a" if k % 2 == 0 else "b")
    row = rr.play()["pairs"][0]
    assert (row["wins"], row["draws"]) == (wins, draws)


@pytest.mark.django_db
def test_a_chunk_delivered_twice_counts_once(catalog, monkeypatch) -> None:
    sent: list[tuple[int, int, int]] = []
    monkeypatch.setattr(play_chunk, "apply_async", lambda args, **kw: sent.append(tuple(args)))
    spec = BalanceSpec(size="patrol", battles=4, seed=5, factions=("orks", "necrons"))
    run = BalanceRun.create(RoundRobin.prepare(catalog, spec), chunk_battles=2)
    run.enqueue()
    assert sorted(sent) == [(run.pk, 0, 0), (run.pk, 0, 1)]
    assert play_chunk(run.pk, 0, 1) == 2
    assert play_chunk(run.pk, 0, 1) == 0  # again: nothing more
    run.refresh_from_db()
    assert run.done == 2 and run.status == BalanceRun.Status.RUNNING
    assert run.missing_chunks() == [(0, 0)]
    assert play_chunk(run.pk, 0, 0) == 2
    run.refresh_from_db()
    assert run.done == 4 and run.status == BalanceRun.Status.DONE
    assert play_chunk(run.pk, 0, 0) == 0 and play_chunk(run.pk, 0, 9) == 0
    assert sum(c.battles for c in run.counts().values()) == 4


@pytest.mark.django_db
def test_publish_stores_the_table_with_the_command_that_repeats_it(catalog) -> None:
    code, out, err = balance(*ARGS, "--json", "--publish", "--note", " Before calibration. ")
    assert code == 0, err
    stored = BalanceTable.objects.get()
    assert stored.note == "Before calibration."
    assert stored.result == json.loads(out)
    assert (stored.size, stored.policy, stored.terrain, stored.battles, stored.seed) == (
        "patrol",
        "standard",
        "none",
        4,
        5,
    )
    assert stored.catalog_version == catalog.version and stored.seconds is not None
    assert stored.command == (
        "python manage.py balance --size patrol --battles 4 --policy "
        "standard --terrain none --seed 5 --factions "
        "orks,imperial-navy,necrons"
    )


@pytest.mark.django_db
def test_the_text_output_has_the_ranking_matrix_and_figures(catalog) -> None:
    code, out, err = balance(*ARGS)
    assert code == 0, err
    assert "95% interval" in out and "Pair matrix" in out
    assert "Factions within 40–60 %:" in out and "Pairs beyond 85/15:" in out
    assert "12 battles in" in err


BASE = ("--size", "patrol", "--factions", "orks,necrons")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("--battles", "3"), "even"),
        (("--battles", "2", "--factions", "orks"), "at least two"),
        (("--battles", "2", "--factions", "orks,space-elves"), "space-elves"),
        (("--battles", "2", "--workers", "0"), "--workers"),
        (("--battles", "2", "--workers", "2", "--queue"), "--queue"),
    ],
)
def test_unusable_input_exits_2_with_one_line(catalog, args: tuple[str, ...], reason: str) -> None:
    code, out, err = balance(*BASE, *args)
    assert code == 2 and out == "" and reason in err and err.strip().count("\n") == 0
