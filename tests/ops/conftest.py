"""A private redis-server and a Celery worker on it, for the health check's real answers."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.processes import (  # noqa: F401  (tests here import them from conftest)
    ROOT,
    free_port,
    private_redis,
    stop,
    wait_for,
    wait_until_ready,
)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with private_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture(scope="module")
def worker(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One simulator worker (solo pool) listening on the private Redis."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "PYTEST_", "CELERY_")) and k != "REDIS_URL"
    }
    env.update(REDIS_URL=redis_url, LOG_LEVEL="INFO")
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    name = f"healthz-{os.getpid()}"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("celery")),
                "-A",
                "fleetbuilder",
                "worker",
                "--pool",
                "solo",
                "--hostname",
                f"{name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--loglevel",
                "INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_ready(process, name, log)
        yield redis_url
    finally:
        stop(process)
