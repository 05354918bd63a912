"""``manage.py balance --queue`` on real Celery workers over a real Redis: the same table as in
this process; and without a worker it refuses at once instead of waiting."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.production.conftest import (  # noqa: F401 - the fixtures, shared with tests/production
    PYTHON,
    ROOT,
    base_env,
    redis_url,
    stack_database,
    workers,
)
from tests.support.timing import bound

pytestmark = pytest.mark.production

ARGS = [
    "--size",
    "patrol",
    "--battles",
    "6",
    "--seed",
    "11",
    "--factions",
    "orks,necrons,tau-empire",
    "--json",
]


def balance(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "manage.py", "balance", *ARGS, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_queue_gives_the_table_of_this_process(
    workers: Callable[[int], Any],  # noqa: F811
    redis_url: str,  # noqa: F811
    stack_database: str,  # noqa: F811
) -> None:
    env = base_env(DATABASE_URL=stack_database, REDIS_URL=redis_url)
    workers(2)
    queued = balance(env, "--queue", "--chunk", "2")
    assert queued.returncode == 0, queued.stderr
    here = balance(env, "--workers", "2")
    assert here.returncode == 0, here.stderr
    assert json.loads(queued.stdout) == json.loads(here.stdout)
    assert "18 / 18 battles" in queued.stderr and "on the task queue" in queued.stderr


def test_without_a_worker_the_queue_is_refused_at_once(redis_url: str, stack_database: str) -> None:  # noqa: F811
    env = base_env(DATABASE_URL=stack_database, REDIS_URL=redis_url)
    began = time.monotonic()
    result = balance(env, "--queue")
    assert result.returncode == 2 and result.stdout == ""
    assert "No worker answered" in result.stderr and "without --queue" in result.stderr
    assert time.monotonic() - began < bound(30)
