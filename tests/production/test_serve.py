"""``scripts/serve`` as a newcomer runs it: gunicorn with 2 processes, simulator workers and a
private Redis, on SQLite. /healthz says ok, a preview plays to the end over HTTP with the command
line's numbers, and TERM stops every process it started."""

from __future__ import annotations

import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, Browser, base_env, command_line_results, free_port, wait_for

# It serves a fresh SQLite file of its own (the newcomer's default), whatever the suite runs on.
pytestmark = [pytest.mark.production, pytest.mark.own_database]


def health(base: str) -> tuple[int, Any]:
    import json

    try:
        with urllib.request.urlopen(base + "/healthz", timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    except OSError:
        return 0, None


def running(pattern: str) -> list[str]:
    out = subprocess.run(["pgrep", "-af", pattern], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if "pgrep" not in line]


def test_scripts_serve_runs_a_preview_and_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    database = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    env = base_env(
        PORT=str(port),
        WEB_CONCURRENCY="2",
        WEB_THREADS="4",
        SIM_WORKERS="2",
        DATABASE_URL=database,
        SERVE_SKIP_SETUP="1",
        REDIS_DIR=str(tmp_path / "redis"),
        STATIC_ROOT=str(tmp_path / "static"),
        SIM_CHUNK_BATTLES="25",
    )
    log_path = tmp_path / "serve.log"
    with open(log_path, "w") as log:
        serve = subprocess.Popen(
            ["bash", "scripts/serve"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    try:
        status, body = wait_for(
            lambda: (h := health(base))[0] == 200 and h, 120, "/healthz to say ok", every=0.5
        )
        assert body == {
            "status": "ok",
            "checks": {"database": "ok", "cache": "ok", "broker": "ok", "workers": "ok"},
        }
        player = Browser(base)
        status, headers, page = player.get("/")
        assert status == 200 and headers["Server"] == "gunicorn"  # no Python version on show
        css = next(p for p in page.decode().split('"') if p.startswith("/static/css/app."))
        status, headers, _ = player.get(css)  # hashed names, cached for a year
        assert status == 200 and "immutable" in headers["Cache-Control"]

        run = player.start_preview(battles="200", seed="5150")
        results = player.wait_finished(run)
        assert results["run"]["battles_done"] == 200
        expected = command_line_results(run, player, results, tmp_path, database)
        assert {k: v for k, v in results.items() if k != "run"} == expected
    finally:
        serve.send_signal(signal.SIGTERM)
        try:
            code = serve.wait(40)
        except subprocess.TimeoutExpired:
            serve.kill()
            code = None
    log = log_path.read_text()
    assert code == 0, log[-3000:]
    time.sleep(0.5)
    assert running(f"127.0.0.1:{port}") == []  # gunicorn
    redis_port = next(
        line.split()[1]
        for line in (tmp_path / "redis" / "redis.conf").read_text().splitlines()
        if line.startswith("port ")
    )
    assert running(f"redis-server 127.0.0.1:{redis_port}") == []  # the private redis-server
    assert running(f"sim-.*-{serve.pid}@") == []  # the Celery workers
    assert "Traceback" not in log, log[-3000:]


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["bogus"], {}, "unknown part 'bogus' (all, web or worker)"),
        (["worker"], {}, "scripts/serve worker: set REDIS_URL"),
    ],
)
def test_scripts_serve_refuses_what_it_cannot_do_in_one_line(
    args: list[str], env: dict[str, str], message: str
) -> None:
    out = subprocess.run(
        ["bash", "scripts/serve", *args],
        cwd=ROOT,
        env=base_env(SERVE_SKIP_SETUP="1", **env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [out.stderr.strip()] and message in out.stderr


def test_a_bad_setting_stops_scripts_serve_web_in_one_line_before_anything_starts(
    tmp_path: Path,
) -> None:
    out = subprocess.run(
        ["bash", "scripts/serve", "web"],
        cwd=ROOT,
        env=base_env(SERVE_SKIP_SETUP="1", DEBUG="maybe", STATIC_ROOT=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert (
        out.stderr.strip()
        == "Configuration error: DEBUG must be a boolean (true/false), not 'maybe'"
    )
