"""Simulator runs on real Celery workers over a real Redis: the merged results equal the command
line's whatever the number of workers, and a worker process killed in the middle of a chunk
loses nothing and counts nothing twice."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import Browser, children, command_line_results, wait_for

pytestmark = pytest.mark.production


def without_run(results: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in results.items() if k != "run"}


@pytest.mark.parametrize("processes", [1, 3])
def test_a_preview_on_n_workers_equals_the_command_line(
    processes: int, web: str, workers: Callable[[int], Any], stack_database: str, tmp_path: Path
) -> None:
    workers(processes)
    player = Browser(web)
    run = player.start_preview(battles="300", seed=str(1000 + processes))
    results = player.wait_finished(run)
    assert results["battles"] == 300 and results["run"]["battles_done"] == 300
    assert without_run(results) == command_line_results(
        run, player, results, tmp_path, stack_database
    )
    status, _, page = player.get(run)
    assert status == 200 and b"Finished: 300 battles played." in page


def test_a_worker_process_killed_mid_chunk_loses_nothing_and_counts_nothing_twice(
    web: str, workers: Callable[[int], Any], stack_database: str, tmp_path: Path
) -> None:
    worker = workers(2)
    player = Browser(web)
    run = player.start_preview(battles="600", seed="77")  # 24 chunks of 25

    def started() -> bool:
        done = player.json(run + "results.json")["run"]["battles_done"]
        return 0 < done < 400

    wait_for(started, 120, "the run to be under way", every=0.05)
    victims = children(worker.pid)
    assert len(victims) == 2  # the two pool processes, both playing a chunk
    os.kill(victims[0], signal.SIGKILL)
    time.sleep(0.5)
    assert worker.poll() is None  # the worker goes on, with a new pool process

    results = player.wait_finished(run)
    assert results["battles"] == 600 and results["run"]["battles_done"] == 600
    assert without_run(results) == command_line_results(
        run, player, results, tmp_path, stack_database
    )
    log = "".join(p.read_text() for p in tmp_path.glob("worker-*.log"))
    assert "WorkerLostError" in log or "exited with 'signal 9" in log  # it really died mid-task
