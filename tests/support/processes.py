"""Real processes for the tests that start them: a free port, waiting for a process to answer,
stopping one, the environment of an app process, a private redis-server, gunicorn, a Celery
worker's readiness. One copy for tests/production, tests/ops and tests/security.

Waits are stretched by the machine's load (tests/support/timing.py): a busy machine gives a
slower pass, not a red suite.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.timing import bound

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
PYTHON = str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(predicate: Callable[[], Any], timeout: float, what: str, every: float = 0.2) -> Any:
    """``predicate()``'s first true value, polled until ``timeout`` (stretched by the machine's
    load) runs out; then the test fails, naming ``what`` it waited for."""
    timeout = bound(timeout)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def stop(process: subprocess.Popen[Any], timeout: float = 20) -> int:
    """TERM, then KILL after ``timeout``; returns the exit status."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
    return int(process.returncode)


def base_env(**extra: str) -> dict[str, str]:
    """The environment of an app process: the test run's own Django, pytest and Celery settings
    left out, production's defaults (DEBUG off, a fresh key), then ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "PYTEST_", "CELERY_"))
        and k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "STATIC_ROOT")
    }
    env.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        LOG_LEVEL="INFO",
        ALLOWED_HOSTS="127.0.0.1,localhost",
    )
    env.update(extra)
    return env


class RedisServer:
    """A private redis-server on a free port of 127.0.0.1, with no persistence, that a test
    may kill, start again, freeze (SIGSTOP) and thaw."""

    def __init__(self, folder: Path) -> None:
        if not shutil.which("redis-server"):
            pytest.fail("redis-server not found: run scripts/test, which installs it")
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[Any] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_for(self.answers, 10, "redis-server")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(5)

    def freeze(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None:
            self.thaw()
            stop(self.process)


@contextmanager
def private_redis(folder: Path) -> Iterator[RedisServer]:
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def gunicorn(env: dict[str, str], log: Path, threads: int = 4) -> Iterator[str]:
    """gunicorn serving the app (one process, ``threads`` threads) on a free port of
    127.0.0.1, as long as the block runs; yields its base URL once it answers /healthz."""
    port = free_port()
    with open(log, "w") as out:
        server = subprocess.Popen(
            [
                str(VENV_BIN / "gunicorn"),
                "fleetbuilder.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "1",
                "--threads",
                str(threads),
                "--no-control-socket",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):
                return True
        except urllib.error.HTTPError:
            return True  # answering (503 until a worker is up)
        except OSError:
            assert server.poll() is None, log.read_text(errors="replace")[-3000:]
            return False

    try:
        wait_for(up, 60, "gunicorn")
        yield base
    finally:
        stop(server)


def wait_until_ready(worker: subprocess.Popen[Any], name: str, log: Path) -> None:
    """Until the Celery worker started as ``name@%h`` logs (at INFO) that it is ready, once it
    consumes the queue; fails with its log if it exits first. Not by a ping: a Python process
    started for each ask loads Django and Celery (about a second of CPU, every 0.2 s until it
    answers), and a Celery app in the test process would leave broker connections that a
    process it forks later (the simulator's pool) tries to close after the fork, and hangs on."""
    ready = re.compile(rf"\b{re.escape(name)}@\S+ ready\.")
    wait_for(
        lambda: ready.search(log.read_text(errors="replace")) or worker.poll() is not None,
        60,
        "a Celery worker to be ready",
    )
    assert worker.poll() is None, log.read_text()[-3000:]


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]
