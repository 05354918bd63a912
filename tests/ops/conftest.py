"""A private redis-server and a Celery worker on it, for the health check's real answers."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.production.conftest import wait_until_ready

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(ready: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def stop(process: subprocess.Popen, timeout: float = 20) -> None:
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not shutil.which("redis-server"):
        pytest.fail("redis-server not found: run scripts/test, which installs it")
    port = free_port()
    server = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path_factory.mktemp("redis"))],
        stdout=subprocess.DEVNULL)
    try:
        def answers() -> bool:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    return s.recv(16).startswith(b"+PONG")
            except OSError:
                return False

        wait_for(answers, 10, "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(server)


@pytest.fixture(scope="module")
def worker(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One simulator worker (solo pool) listening on the private Redis."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "PYTEST_", "CELERY_")) and k != "REDIS_URL"}
    env.update(REDIS_URL=redis_url, LOG_LEVEL="INFO")
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    name = f"healthz-{os.getpid()}"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [str(Path(sys.executable).with_name("celery")), "-A", "fleetbuilder", "worker",
             "--pool", "solo", "--hostname", f"{name}@%h",
             "--without-gossip", "--without-mingle", "--loglevel", "INFO"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_ready(process, name, log)
        yield redis_url
    finally:
        stop(process)
