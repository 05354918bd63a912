"""The production shape for real: a private redis-server, a database of its own, gunicorn and
Celery workers as separate processes, driven over HTTP like a player's browser.

The stack's database follows the suite's: a SQLite file, or a fresh database on the suite's
PostgreSQL server when DATABASE_URL names one.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import secrets
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import (  # noqa: F401  (the names tests here import from conftest)
    PYTHON,
    ROOT,
    VENV_BIN,
    base_env,
    children,
    free_port,
    gunicorn,
    private_redis,
    stop,
    wait_for,
    wait_until_ready,
)
from tests.support.timing import bound


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private redis-server on a free port of 127.0.0.1, for this test session."""
    with private_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture(scope="session")
def stack_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database URL for the stack's processes, migrated, with the catalogue loaded."""
    suite = os.environ.get("DATABASE_URL", "")
    if suite.startswith(("postgres://", "postgresql://")):
        import psycopg

        name = f"stack_{secrets.token_hex(4)}"
        parts = urllib.parse.urlsplit(suite)
        admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        url = urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('stackdb') / 'stack.sqlite3'}"
    env = base_env(DATABASE_URL=url)
    for command in (["migrate", "--noinput"], ["load_catalog"]):
        subprocess.run(
            [PYTHON, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        )
    yield url
    if url.startswith("postgres"):
        import psycopg

        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Browser:
    """A player's browser over HTTP: cookies, CSRF tokens, forms."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(
            self.base + path, data=body, method=method, headers=headers or {}
        )
        try:
            with self.opener.open(req, timeout=bound(30)) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        return self.request("GET", path)

    def json(self, path: str) -> Any:
        status, _, body = self.get(path)
        assert status == 200, (path, status, body[:500])
        return json.loads(body)

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        status, _, page = self.get(path)
        assert status == 200, (path, status)
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, "the form has a CSRF token"
        return self.request(
            "POST",
            path,
            {**fields, "csrfmiddlewaretoken": token.group(1).decode()},
            headers={"Referer": self.base + path},
        )

    def start_preview(self, **fields: str) -> str:
        """Start a run of two sample fleets; returns its page's path."""
        form = {
            "a_source": "sample",
            "a_faction": "imperial-navy",
            "a_size": "skirmish",
            "a_variant": "",
            "a_policy": "standard",
            "b_source": "sample",
            "b_faction": "archenemy",
            "b_size": "skirmish",
            "b_variant": "",
            "b_policy": "standard",
            "battles": "200",
            "max_rounds": "10",
            "table": "",
            "scoring": "core",
            "terrain": "none",
            "seed": "20261201",
            **fields,
        }
        status, headers, body = self.post_form("/simulator/", form)
        assert status == 302, (status, body.decode(errors="replace")[:2000])
        return headers["Location"]

    def wait_finished(self, run_path: str, timeout: float = 180) -> dict[str, Any]:
        def finished() -> dict[str, Any] | None:
            results = self.json(run_path + "results.json")
            assert not results["run"]["error"], results["run"]["error"]
            return results if results["run"]["finished"] else None

        return wait_for(finished, timeout, f"the run {run_path} to finish", every=0.5)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def command_line_results(
    run_path: str, browser: Browser, results: dict[str, Any], folder: Path, database: str
) -> dict[str, Any]:
    """``manage.py simulate --json`` on the run's two fleet files, seed and battle count."""
    files = []
    for side in ("a", "b"):
        status, _, body = browser.get(f"{run_path}fleet-{side}.json")
        assert status == 200
        path = folder / f"{side}.json"
        path.write_bytes(body)
        files.append(str(path))
    env = base_env(DATABASE_URL=database)
    out = subprocess.run(
        [
            PYTHON,
            "manage.py",
            "simulate",
            *files,
            "--battles",
            str(results["battles"]),
            "--seed",
            str(results["seed"]),
            "--json",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return json.loads(out.stdout)


@pytest.fixture(scope="session")
def web(
    redis_url: str, stack_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """gunicorn serving the app on a free port, sharing Redis and the database with the
    workers; its chunks are 25 battles, so a run has many."""
    # Every player of these tests comes from 127.0.0.1: the limits by address would
    # count them as one, so sign-ups and one-at-a-time prints are not limited here.
    # DB_POOL_MAX as scripts/serve sets it: one pooled connection a thread (PostgreSQL only).
    env = base_env(
        DATABASE_URL=stack_database,
        REDIS_URL=redis_url,
        SIM_CHUNK_BATTLES="25",
        RATE_LIMIT_SIGNUP="0",
        RATE_LIMIT_IN_FLIGHT="0",
        DB_POOL_MAX="4",
    )
    with gunicorn(env, tmp_path_factory.mktemp("web") / "gunicorn.log") as base:
        yield base


@pytest.fixture
def workers(
    redis_url: str, stack_database: str, tmp_path: Path
) -> Iterator[Callable[[int], subprocess.Popen[Any]]]:
    """Start a Celery worker with N processes; every one started is stopped after the test,
    and the queue is emptied."""
    started: list[subprocess.Popen[Any]] = []
    env = base_env(DATABASE_URL=stack_database, REDIS_URL=redis_url)

    def start(processes: int) -> subprocess.Popen[Any]:
        path = tmp_path / f"worker-{len(started)}.log"
        name = f"test-{len(started)}-{os.getpid()}"
        with open(path, "w") as log:
            worker = subprocess.Popen(
                [
                    str(VENV_BIN / "celery"),
                    "-A",
                    "fleetbuilder",
                    "worker",
                    "--concurrency",
                    str(processes),
                    "--pool",
                    "prefork",
                    "--hostname",
                    f"{name}@%h",
                    "--loglevel",
                    "INFO",
                    "--without-gossip",
                    "--without-mingle",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        started.append(worker)
        wait_until_ready(worker, name, path)
        return worker

    yield start
    for worker in started:
        stop(worker, timeout=30)
    port = urllib.parse.urlsplit(redis_url).port
    subprocess.run(
        ["redis-cli", "-p", str(port), "del", "celery", "unacked", "unacked_index"],
        capture_output=True,
    )
