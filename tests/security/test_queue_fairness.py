"""Issue 34 §1: one address does not fill the simulator's queue for everyone (R-98).

A real stack (gunicorn trusting one proxy, a Celery worker of two processes, Redis): one
address floods the simulator with runs of 140 escorts against 42 light cruisers, each from a
fresh cookie jar, asking 10,000 battles and half after each refusal; a signed-in player at
another address then starts a 50-battle preview. The address's budget keeps what it queues,
and the player's small run is played first: its delay is under 10 s
(loadtest/queue_flood.py; scripts/bench-flood measures it with page times too).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from loadtest import queue_flood
from tests.production.conftest import (  # noqa: F401  (fixtures, used by name)
    redis_url,
    stack_database,
    workers,
)
from tests.support.processes import base_env, gunicorn

pytestmark = [pytest.mark.production]


@pytest.fixture(scope="module")
def proxied_web(
    redis_url: str,  # noqa: F811
    stack_database: str,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
    """gunicorn trusting one proxy, so X-Forwarded-For gives each side its address."""
    env = base_env(DATABASE_URL=stack_database, REDIS_URL=redis_url, TRUSTED_PROXY_COUNT="1")
    with gunicorn(env, tmp_path_factory.mktemp("web-flood") / "gunicorn.log") as base:
        yield base


@pytest.fixture
def empty_queue_after(redis_url: str) -> Iterator[None]:  # noqa: F811
    """The flood's chunks left on the queue, every priority, are removed after the test."""
    yield
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter("celery*")) + [b"unacked", b"unacked_index"]
    client.delete(*keys)


def test_one_address_does_not_starve_another_players_preview(
    empty_queue_after: None,
    proxied_web: str,
    workers: Callable[[int], subprocess.Popen[Any]],  # noqa: F811
) -> None:
    workers(2)
    figures = queue_flood.run(proxied_web, flood_runs=10, timeout=60)
    print("\n".join(figures.lines()))
    # The budget (600 estimated CPU-seconds an address, 99 ms a battle of these fleets) bounds
    # the work queued at once: chunks the workers finish between the attacker's starts free
    # their share, so the starts may add up to a little more (5 %: a few seconds of play).
    assert 0 < figures.flood_battles <= 1.05 * 600 / 0.0987, figures.lines()
    assert figures.delay < 10, figures.lines()
