"""Several hosts on one machine, for real (item 1): a data host (a private PostgreSQL
cluster and redis-server with its append-only file), a web host (gunicorn; two more where one
dies) and two worker hosts (Celery), each a Linux network namespace on one bridge
(tests/production/netns.py), each process talking to the others only by its host's address.
The test process is the player's browser and the operator, on the bridge.

- a matchup plays across both worker hosts and equals the command line's result;
- a worker host's link goes down in the middle of a chunk: the run completes, identical, the
  chunk is played again by the other host after the broker's visibility timeout, and the late
  result of the host that comes back counts nothing twice;
- Redis restarts in the middle of a run: the queued chunks are still there (AOF) and the run
  completes, identical;
- PostgreSQL restarts while a player edits: every acknowledged edit is kept;
- a web host dies (link cut, every process killed) in the middle of a burst of 40 players'
  submissions to an event: every acknowledged list is stored as sent, the others whole or not
  at all, the players without an answer submit again on a second web host, and PostgreSQL
  ends the dead host's sessions within half a minute.

Needs root (namespaces); without it, every test here skips and says why. Marked ``hosts`` as
well as ``production``: ``pytest -m "not hosts"`` leaves them out.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.timing import bound

from .conftest import (
    PYTHON,
    ROOT,
    VENV_BIN,
    Browser,
    base_env,
    stop,
    wait_for,
    wait_until_ready,
)
from .netns import Host, Network, Unavailable, leftovers

pytestmark = [pytest.mark.production, pytest.mark.hosts, pytest.mark.own_database]

PG_PORT = 5432
REDIS_PORT = 6379
VISIBILITY_TIMEOUT = 8  # seconds: SIM_VISIBILITY_TIMEOUT, short so the partition test is
CHUNK_BATTLES = 100


def pg_bin() -> Path | None:
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: [int(x) for x in re.findall(r"\d+", p.parent.name)] or [0],
    )
    return found[-1] if found else None


@pytest.fixture(scope="module")
def network() -> Iterator[Network]:
    try:
        net = Network.create()
    except Unavailable as exc:
        pytest.skip(f"several hosts need network namespaces: {exc}")
    try:
        yield net
    finally:
        net.close()
        assert not leftovers(net.tag), leftovers(net.tag)


@dataclass
class DataHost:
    """PostgreSQL and Redis on one host."""

    net: Network
    host: Host
    folder: Path
    pg: Path
    redis: subprocess.Popen[Any] | None = None

    @property
    def database_url(self) -> str:
        return f"postgres://postgres@{self.host.address}:{PG_PORT}/fleetbuilder"

    @property
    def redis_url(self) -> str:
        return f"redis://{self.host.address}:{REDIS_PORT}/0"

    def as_postgres(self, *argv: str) -> subprocess.CompletedProcess[str]:
        return self.net.run(
            self.host,
            ["runuser", "-u", "postgres", "--", *argv],
            capture_output=True,
            text=True,
            timeout=120,
        )

    def start_postgres(self) -> None:
        done = self.as_postgres(
            str(self.pg / "pg_ctl"),
            "-D",
            str(self.folder / "pg"),
            "-l",
            str(self.folder / "pg.log"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-c listen_addresses={self.host.address} -p {PG_PORT} -k {self.folder} "
            "-c fsync=off -c max_connections=60",
            "start",
        )
        assert done.returncode == 0, done.stdout + done.stderr + self.pg_log()

    def stop_postgres(self, mode: str = "fast") -> None:
        self.as_postgres(
            str(self.pg / "pg_ctl"), "-D", str(self.folder / "pg"), "-m", mode, "-w", "stop"
        )

    def pg_log(self) -> str:
        path = self.folder / "pg.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def start_redis(self) -> None:
        self.redis = self.net.popen(
            self.host,
            [
                "redis-server",
                "--bind",
                self.host.address,
                "--port",
                str(REDIS_PORT),
                "--protected-mode",
                "no",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--dir",
                str(self.folder / "redis"),
            ],
            stdout=open(self.folder / "redis.log", "a"),
            stderr=subprocess.STDOUT,
        )
        wait_for(self.redis_answers, 20, "redis-server on the data host")

    def redis_answers(self) -> bool:
        import redis

        try:
            return bool(
                redis.Redis.from_url(
                    self.redis_url, socket_timeout=1, socket_connect_timeout=1
                ).ping()
            )
        except redis.RedisError:
            return False

    def stop_redis(self) -> None:
        if self.redis is not None:
            stop(self.redis)
            self.redis = None


@pytest.fixture(scope="module")
def data(network: Network) -> Iterator[DataHost]:
    """The data host: a private PostgreSQL cluster (as the postgres user, as scripts/test makes
    one) and redis-server with appendonly, both listening on the host's address only."""
    pg = pg_bin()
    if pg is None or shutil.which("redis-server") is None:
        pytest.skip("PostgreSQL's binaries or redis-server are missing: run scripts/setup.sh")
    host = network.add_host("data")
    folder = Path(tempfile.mkdtemp(prefix="fleetbuilder-hosts-"))
    box = DataHost(network, host, folder, pg)
    try:
        (folder / "redis").mkdir()
        shutil.chown(folder, "postgres")
        done = box.as_postgres(
            str(pg / "initdb"),
            "-D",
            str(folder / "pg"),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        )
        assert done.returncode == 0, done.stderr
        with open(folder / "pg" / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {network.subnet} trust\n")
        box.start_postgres()
        done = box.as_postgres(
            str(pg / "createdb"),
            "-h",
            str(folder),
            "-p",
            str(PG_PORT),
            "-U",
            "postgres",
            "fleetbuilder",
        )
        assert done.returncode == 0, done.stderr
        box.start_redis()
        yield box
    finally:
        box.stop_redis()
        box.stop_postgres("immediate")
        shutil.rmtree(folder, ignore_errors=True)


def app_env(data: DataHost, **extra: str) -> dict[str, str]:
    return base_env(
        DATABASE_URL=data.database_url,
        REDIS_URL=data.redis_url,
        SIM_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        SIM_CHUNK_BATTLES=str(CHUNK_BATTLES),
        **extra,
    )


@dataclass
class WebHost:
    host: Host
    base: str
    log: Path
    process: subprocess.Popen[Any]


@pytest.fixture(scope="module")
def web(
    network: Network, data: DataHost, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WebHost]:
    """The web host: the database migrated and the catalogue loaded from it (as an operator
    deploying would), then gunicorn on the host's address."""
    host = network.add_host("web")
    # pooled as scripts/serve web pools: the PostgreSQL restart test meets the pool
    env = app_env(data, ALLOWED_HOSTS=host.address, DB_POOL_MAX="4")
    for command in (["migrate", "--noinput"], ["load_catalog"]):
        done = network.run(
            host,
            [str(VENV_BIN / "python"), "manage.py", *command],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    log = tmp_path_factory.mktemp("web") / "gunicorn.log"
    with open(log, "w") as out:
        server = network.popen(
            host,
            [
                str(VENV_BIN / "gunicorn"),
                "fleetbuilder.wsgi:application",
                "--bind",
                f"{host.address}:8000",
                "--workers",
                "1",
                "--threads",
                "4",
                "--no-control-socket",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://{host.address}:8000"

    def up() -> bool:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):
                return True
        except urllib.error.HTTPError:
            return True  # answering (503 until a worker is up)
        except OSError:
            assert server.poll() is None, log.read_text()[-3000:]
            return False

    try:
        wait_for(up, 60, "gunicorn on the web host")
        yield WebHost(host, base, log, server)
    finally:
        stop(server)


@dataclass
class WorkerHost:
    host: Host
    process: subprocess.Popen[Any]
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def workers(
    network: Network, data: DataHost, web: WebHost, tmp_path: Path
) -> Iterator[dict[str, WorkerHost]]:
    """Two worker hosts, w1 and w2, each one Celery worker with one process and the host's
    own hostname (what a chunk records as its worker). Stopped after the test, and the queue
    emptied."""
    started: dict[str, WorkerHost] = {}
    env = app_env(data)
    try:
        for name in ("w1", "w2"):
            host = network.hosts.get(name) or network.add_host(name)
            network.link(host, True)
            log = tmp_path / f"{name}.log"
            with open(log, "w") as out:
                process = network.popen(
                    host,
                    [
                        str(VENV_BIN / "celery"),
                        "-A",
                        "fleetbuilder",
                        "worker",
                        "--concurrency",
                        "1",
                        "--pool",
                        "prefork",
                        "--hostname",
                        f"{name}@%h",
                        "--loglevel",
                        "INFO",
                        "--without-gossip",
                        "--without-mingle",
                    ],
                    uts=True,
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            started[name] = WorkerHost(host, process, log)
        for name, worker in started.items():
            wait_until_ready(worker.process, name, worker.log)
        yield started
    finally:
        for worker in started.values():
            network.link(worker.host, True)
            stop(worker.process, timeout=20)
        if data.redis is not None:
            import redis

            client = redis.Redis.from_url(data.redis_url, socket_timeout=2)
            for key in client.scan_iter("celery*"):
                client.delete(key)
            client.delete("unacked", "unacked_index")


# --- helpers -------------------------------------------------------------------------------


def public_id(run_path: str) -> str:
    return run_path.rstrip("/").rsplit("/", 1)[-1]


def chunks_by_worker(data: DataHost, run_path: str) -> dict[str, list[int]]:
    import psycopg

    with psycopg.connect(data.database_url, connect_timeout=5) as conn:
        rows = conn.execute(
            "SELECT c.worker, c.index FROM simulator_matchupchunk c JOIN simulator_matchup m "
            "ON m.id = c.matchup_id WHERE m.public_id = %s ORDER BY c.index",
            [public_id(run_path)],
        ).fetchall()
    found: dict[str, list[int]] = {}
    for worker, index in rows:
        found.setdefault(worker, []).append(index)
    return found


STARTED = re.compile(r"simulator run (\S+): chunk (\d+) \(battles [\d-]+\) started")
FINISHED = re.compile(
    r"simulator run (\S+): chunk (\d+)(?: \(battles [\d-]+\))? finished in [\d.]+ s \(([^)]*)\)"
)


def starts(text: str, run: str) -> list[int]:
    return [int(m.group(2)) for m in STARTED.finditer(text) if m.group(1) == run]


# Small fleets and short battles (about 2-3 ms a battle on a quiet core): 2,000 battles play
# in seconds, and the command line plays them again to compare.
SMALL = {
    "a_faction": "necrons",
    "a_size": "patrol",
    "b_faction": "archenemy",
    "b_size": "patrol",
    "max_rounds": "2",
}


def without_run(results: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in results.items() if k != "run"}


def same_as_command_line(
    player: Browser,
    run: str,
    results: dict[str, Any],
    data: DataHost,
    folder: Path,
    battles: int,
    rounds: str = SMALL["max_rounds"],
) -> None:
    """The run's results equal ``manage.py simulate`` in one process on the run's two fleet
    files, seed, battle count and rounds (contract 3)."""
    assert results["battles"] == battles and results["run"]["battles_done"] == battles
    files = []
    for side in ("a", "b"):
        status, _, body = player.get(f"{run}fleet-{side}.json")
        assert status == 200
        (folder / f"{side}.json").write_bytes(body)
        files.append(str(folder / f"{side}.json"))
    out = subprocess.run(
        [
            PYTHON,
            "manage.py",
            "simulate",
            *files,
            "--battles",
            str(battles),
            "--seed",
            str(results["seed"]),
            "--rounds",
            rounds,
            "--json",
        ],
        cwd=ROOT,
        env=base_env(DATABASE_URL=data.database_url),
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert without_run(results) == json.loads(out.stdout)


def queued(data: DataHost) -> int:
    """Chunk messages in Redis: waiting in the queues (one a priority) and taken, unacked."""
    import redis

    client = redis.Redis.from_url(data.redis_url, socket_timeout=2)
    waiting = sum(
        int(client.llen(key)) for key in client.scan_iter("celery*") if client.type(key) == b"list"
    )
    return waiting + int(client.hlen("unacked"))


# --- the tests -----------------------------------------------------------------------------


def test_a_matchup_plays_across_both_worker_hosts_and_equals_the_command_line(
    network: Network, web: WebHost, data: DataHost, workers: dict[str, WorkerHost], tmp_path: Path
) -> None:
    player = Browser(web.base)
    health = player.json("/healthz")
    assert health["checks"] == {"database": "ok", "cache": "ok", "broker": "ok", "workers": "ok"}, (
        health
    )
    # docs/operations.md, "Adding a worker machine": a new host sees every worker answer.
    ping = network.run(
        workers["w2"].host,
        [str(VENV_BIN / "celery"), "-A", "fleetbuilder", "inspect", "ping", "--timeout", "3"],
        cwd=ROOT,
        env=app_env(data),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "w1@w1: OK" in ping.stdout and "w2@w2: OK" in ping.stdout, ping.stdout + ping.stderr
    began = time.monotonic()
    run = player.start_preview(battles="2000", seed="3301", **SMALL)
    results = player.wait_finished(run, timeout=120)
    seconds = time.monotonic() - began
    same_as_command_line(player, run, results, data, tmp_path, 2000)
    by_worker = chunks_by_worker(data, run)
    print(
        f"\n2,000 battles across two worker hosts in {seconds:.1f} s: "
        + ", ".join(f"{w} played {len(c)} chunks" for w, c in sorted(by_worker.items()))
    )
    assert set(by_worker) == {"w1", "w2"}, by_worker  # each host's own name, and both played


def test_a_worker_host_cut_off_mid_chunk_loses_nothing_and_counts_nothing_twice(
    network: Network, web: WebHost, data: DataHost, workers: dict[str, WorkerHost], tmp_path: Path
) -> None:
    w1, w2 = workers["w1"], workers["w2"]
    player = Browser(web.base)
    # four rounds: chunks long enough to be cut in the middle of one
    run = player.start_preview(battles="2000", seed="3302", **{**SMALL, "max_rounds": "4"})
    rid = public_id(run)

    # Pull w2's cable as soon as it starts a chunk of this run.
    first = wait_for(lambda: starts(w2.text(), rid), 60, "w2 to start a chunk", every=0.02)
    network.link(w2.host, False)
    cut = time.monotonic()
    lost = first[0]

    # w1 sweeps for unacknowledged messages and plays the lost chunk once the visibility
    # timeout has passed; then the cable goes back in, while the run is still being played.
    wait_for(
        lambda: lost in chunks_by_worker(data, run).get("w1", []),
        90,
        f"chunk {lost} to be played again on w1",
        every=0.2,
    )
    replayed = time.monotonic() - cut
    assert lost in starts(w1.text(), rid)
    network.link(w2.host, True)
    back = time.monotonic()

    results = player.wait_finished(run, timeout=120)
    completed = time.monotonic() - cut
    by_worker = chunks_by_worker(data, run)
    assert lost not in by_worker.get("w2", []), (lost, by_worker)

    # w2 finishes its chunk and writes it late, and that counts nothing.
    def late() -> list[str]:
        return [
            m.group(3)
            for m in FINISHED.finditer(w2.text())
            if m.group(1) == rid and int(m.group(2)) == lost
        ]

    outcome = wait_for(late, 90, "w2's late result", every=0.2)
    late_seconds = time.monotonic() - back
    assert outcome == ["already recorded or run stopped"], outcome
    after = player.json(run + "results.json")
    assert after == results
    same_as_command_line(player, run, after, data, tmp_path, 2000, rounds="4")
    resent = sorted({i for i in starts(w1.text(), rid) if i in starts(w2.text(), rid)})
    print(
        f"\npartition: w2 cut off in chunk {lost}; w1 played it again {replayed:.1f} s later "
        f"(visibility timeout {VISIBILITY_TIMEOUT} s); chunks re-sent: {len(resent)} "
        f"({resent}); the run completed {completed:.1f} s after the cut; w2's late result "
        f"came {late_seconds:.1f} s after its link came back and counted nothing; chunks: "
        + ", ".join(f"{w} {len(c)}" for w, c in sorted(by_worker.items()))
    )


def test_redis_restarted_mid_run_keeps_the_queued_chunks_and_the_run_completes(
    web: WebHost, data: DataHost, workers: dict[str, WorkerHost], tmp_path: Path
) -> None:
    player = Browser(web.base)
    run = player.start_preview(battles="2000", seed="3303", **SMALL)

    def under_way() -> bool:
        done = player.json(run + "results.json")["run"]["battles_done"]
        return 0 < done <= 1000

    wait_for(under_way, 60, "the run to be under way", every=0.05)
    before = queued(data)
    began = time.monotonic()
    data.stop_redis()  # TERM: Redis writes its append-only file and exits
    data.start_redis()  # the same address, port and folder: it reads the file back
    after = queued(data)
    down = time.monotonic() - began
    results = player.wait_finished(run, timeout=150)
    completed = time.monotonic() - began
    same_as_command_line(player, run, results, data, tmp_path, 2000)
    resent = sum(len(starts(w.text(), public_id(run))) for w in workers.values()) - len(
        {i for w in workers.values() for i in starts(w.text(), public_id(run))}
    )
    print(
        f"\nRedis restart: {before} chunk messages queued before, {after} found after "
        f"(Redis away {down:.1f} s); the run completed {completed:.1f} s after the restart "
        f"began; chunks played twice: {resent}"
    )
    assert before > 0 and after >= 1


def test_the_network_is_torn_down_with_its_hosts(network: Network) -> None:
    """The harness itself: each host is its own namespace, on the subnet, with a veth on the
    bridge (the module's finaliser then removes them all, and checks nothing is left)."""
    names = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    for host in network.hosts.values():
        assert host.netns in names
        assert (
            host.address
            in subprocess.run(
                ["ip", "-n", host.netns, "-4", "addr", "show", "eth0"],
                capture_output=True,
                text=True,
            ).stdout
        )


def test_postgresql_restarted_while_a_player_edits_keeps_every_acknowledged_edit(
    web: WebHost, data: DataHost
) -> None:
    """A player adds ships one after another while PostgreSQL stops and starts again: each edit
    is acknowledged (a redirect) or refused with the 503 page in words; every acknowledged one
    is in the fleet afterwards, and the same gunicorn serves again without a restart."""
    player = Browser(web.base)
    status, headers, body = player.post_form(
        "/fleets/new/",
        {
            "name": "Through the outage",
            "faction": "imperial-navy",
            "variant": "",
            "game_size": "skirmish",
        },
    )
    assert status == 302, body[:1000]
    fleet = headers["Location"].split("#")[0].split("?")[0]
    status, _, page = player.get(fleet)
    assert status == 200
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token

    answers: list[tuple[float, int, bytes]] = []

    def add_ship() -> int:
        status, _, body = player.request(
            "POST",
            fleet + "add-ship/",
            {"ship": "lunar-class-cruiser", "csrfmiddlewaretoken": token.group(1).decode()},
            headers={"Referer": web.base + fleet},
        )
        answers.append((time.monotonic(), status, body))
        return status

    def acknowledged() -> int:
        return sum(1 for _, status, _ in answers if status == 302)

    while acknowledged() < 5:
        assert add_ship() == 302, answers[-1][2][:1000]
    stopped = time.monotonic()
    data.stop_postgres("fast")  # sessions cut, connections refused from now on
    refused_at = time.monotonic()
    while time.monotonic() - refused_at < 3:
        add_ship()
        time.sleep(0.1)
    data.start_postgres()
    started = time.monotonic()
    ok = wait_for(
        lambda: add_ship() == 302, 30, "an edit acknowledged after the restart", every=0.1
    )
    first_after = time.monotonic() - started
    for _ in range(4):
        assert add_ship() == 302, answers[-1][2][:1000]

    statuses = [status for _, status, _ in answers]
    refused = [(status, body) for _, status, body in answers if status != 302]
    assert refused and ok, statuses
    for status, body in refused:
        assert status == 503, (status, body[:2000])
        assert b"The database that keeps fleets" in body and b"Traceback" not in body, body
    units = len(player.json(fleet + "export.json")["units"])
    assert acknowledged() <= units <= len(answers), (acknowledged(), units, statuses)
    assert web.process.poll() is None  # the same gunicorn, never restarted
    health = json.loads(player.get("/healthz")[2])  # no workers in this test: a 503 for them
    assert health["checks"]["database"] == "ok", health
    print(
        f"\nPostgreSQL restart: {len(answers)} edits sent, {acknowledged()} acknowledged "
        f"and all {units} units there afterwards; {len(refused)} answered 503 in words "
        f"while it was away ({started - stopped:.1f} s); the first edit after it came back "
        f"was acknowledged {first_after:.1f} s later, with no restart of the app"
    )


# --- a web host dies in the middle of a burst of submissions -------------------------------

BURST_PLAYERS = 40
BURST_STAGGER = 0.025  # seconds between two players' clicks: the burst spans a second
BURST_TIMEOUT = 8  # seconds a player's browser waits for an answer before giving up

# Run by ``manage.py shell`` against the data host: an organiser's event (the latest edition,
# skirmish, private), BURST_PLAYERS accounts each with a legal list of its own (a sample of a
# faction in turn, named after its player) and a session signed in (as the test client's
# force_login makes one), and what the event would store for each list (its judge). Writes the
# plan as JSON to BURST_PLAN.
SEED_EVENT = r"""
import json
import os
from dataclasses import replace
from datetime import timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.http import HttpRequest
from django.utils import timezone

from fleetbuilder.catalog import editions
from fleetbuilder.events.models import Event
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core.sample_fleets import SampleFleetError, sample_fleet

count, tag = int(os.environ["BURST_PLAYERS"]), os.environ["BURST_TAG"]
number = editions.latest().number
catalog = editions.catalog_for(number)
users = get_user_model().objects
now = timezone.now()
event = Event.objects.create(
    organiser=users.create_user(f"organiser-{tag}"), name=f"Burst {tag}", edition=number,
    starts_at=now + timedelta(days=3), deadline=now + timedelta(days=2),
    reveal_at=now + timedelta(days=2), game_size="skirmish", player_cap=count, public=False)
samples = []
for faction in catalog.factions:
    try:
        samples.append(sample_fleet(catalog, faction.slug, "skirmish"))
    except SampleFleetError:
        pass
engine = import_module(settings.SESSION_ENGINE)
players = []
for i in range(count):
    user = users.create_user(f"burst-{tag}-{i:02d}")  # no password: signed in below
    fleet = Fleet(owner=user)
    fleet.store(replace(samples[i % len(samples)], name=f"List {i:02d} of {user.username}",
                        edition=number), catalog)
    fleet.save()
    core, report = event.judge(fleet)
    request = HttpRequest()
    request.session = engine.SessionStore()
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session.save()
    players.append({"name": user.username, "fleet": fleet.pk, "faction": fleet.faction,
                    "session": request.session.session_key,
                    "document": rf.fleet_to_dict(core), "points": report.points,
                    "legal": report.legal, "problems": [p.code for p in report.errors]})
with open(os.environ["BURST_PLAN"], "w") as out:
    json.dump({"event": event.token, "players": players}, out)
"""


def serve_web(
    network: Network, host: Host, env: dict[str, str], log: Path
) -> subprocess.Popen[Any]:
    """gunicorn on ``host`` as ``scripts/serve web`` starts it: 2 processes of 4 threads, each
    with its pool of 4 PostgreSQL connections."""
    with open(log, "a") as out:
        return network.popen(
            host,
            [
                "env",
                "DB_POOL_MAX=4",
                str(VENV_BIN / "gunicorn"),
                "fleetbuilder.wsgi:application",
                "--bind",
                f"{host.address}:8000",
                "--workers",
                "2",
                "--threads",
                "4",
                "--worker-class",
                "gthread",
                "--timeout",
                "60",
                "--graceful-timeout",
                "20",
                "--keep-alive",
                "5",
                "--no-control-socket",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def answering(base: str, path: str = "/healthz") -> bool:
    try:
        with urllib.request.urlopen(base + path, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # answering (503: no worker in this test)
    except OSError:
        return False


@dataclass
class WebPair:
    """Two web hosts sharing the data host and one SECRET_KEY: ``a`` serves from the start;
    ``b`` is started (``start_b``) once ``a`` has died, as an operator brings one up."""

    net: Network
    a: Host
    b: Host
    env: dict[str, str]
    folder: Path
    a_process: subprocess.Popen[Any] | None = None
    b_process: subprocess.Popen[Any] | None = None

    @staticmethod
    def base(host: Host) -> str:
        return f"http://{host.address}:8000"

    def start_b(self) -> None:
        self.b_process = serve_web(self.net, self.b, self.env, self.folder / "web-b.log")

    def log(self, name: str) -> str:
        path = self.folder / f"web-{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


@pytest.fixture
def web_pair(network: Network, data: DataHost, web: WebHost, tmp_path: Path) -> Iterator[WebPair]:
    """Web hosts web-a (gunicorn up) and web-b (nothing yet); the module's ``web`` has already
    migrated the database and loaded the catalogue. Both gunicorns are stopped afterwards and
    web-a's link put back."""
    a = network.hosts.get("web-a") or network.add_host("web-a")
    b = network.hosts.get("web-b") or network.add_host("web-b")
    network.link(a, True)
    env = app_env(data, ALLOWED_HOSTS=f"{a.address},{b.address}")
    pair = WebPair(network, a, b, env, tmp_path)
    try:
        pair.a_process = serve_web(network, a, env, tmp_path / "web-a.log")
        wait_for(
            lambda: answering(pair.base(a)) or pair.a_process.poll() is not None,
            60,
            "gunicorn on web-a",
        )
        assert pair.a_process.poll() is None, pair.log("a")[-3000:]
        yield pair
    finally:
        for process in (pair.a_process, pair.b_process):
            if process is not None:
                stop(process)
        network.link(a, True)


def power_off(network: Network, host: Host) -> list[int]:
    """The host dies as a machine does: its link goes first, so nothing it would still say
    leaves it (no FIN, no RST: its peers are not told), then every process in it is killed
    (SIGKILL, gunicorn's master and workers alike). Returns the pids killed."""
    network.link(host, False)
    killed: list[int] = []

    def gone() -> bool:
        left = network.pids(host)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except ProcessLookupError:
                pass
        return not left

    wait_for(gone, 10, f"every process on {host.name} to die", every=0.05)
    return sorted(set(killed))


def give_cookie(jar: http.cookiejar.CookieJar, host: str, name: str, value: str) -> None:
    jar.set_cookie(
        http.cookiejar.Cookie(
            0,
            name,
            value,
            None,
            False,
            host,
            False,
            False,
            "/",
            True,
            False,
            None,
            True,
            None,
            None,
            {},
        )
    )


def moved_to(browser: Browser, base: str) -> Browser:
    """The player's browser pointed at another web host with its cookies (its session): what
    a load balancer in front of both hosts gives, one name for the site."""
    other = Browser(base)
    host = urllib.parse.urlsplit(base).hostname
    assert host
    for cookie in browser.jar:
        give_cookie(other.jar, host, cookie.name, cookie.value or "")
    return other


def send(
    browser: Browser, method: str, path: str, fields: dict[str, str] | None, timeout: float
) -> tuple[int, str, bytes]:
    """One request with the player's patience (``timeout``): status, Location and body. A
    connection refused, reset or unanswered raises (OSError, http.client.HTTPException)."""
    body = urllib.parse.urlencode(fields).encode() if fields is not None else None
    req = urllib.request.Request(
        browser.base + path, data=body, method=method, headers={"Referer": browser.base + path}
    )
    try:
        with browser.opener.open(req, timeout=timeout) as response:
            return response.status, response.headers.get("Location", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", ""), error.read()


def form_token(page: bytes) -> str:
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, "the page has a form with a CSRF token"
    return token.group(1).decode()


def stored_entries(data: DataHost, token: str) -> dict[str, list[dict[str, Any]]]:
    """Every entry of the event, by player name (a list, to see one stored twice)."""
    import psycopg
    from psycopg.rows import dict_row

    with psycopg.connect(data.database_url, connect_timeout=5, row_factory=dict_row) as conn:
        rows = conn.execute(
            "SELECT u.username AS name, e.document, e.points, e.legal, e.faction, e.problems, "
            "e.fleet_id, e.submitted_at, e.removed_at FROM events_entry e JOIN events_event v "
            "ON v.id = e.event_id JOIN auth_user u ON u.id = e.player_id WHERE v.token = %s",
            [token],
        ).fetchall()
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(row["name"], []).append(row)
    return found


def sessions_of(data: DataHost, host: Host) -> list[tuple[str, int]]:
    """The PostgreSQL sessions of ``host``'s address: (state, how many)."""
    import psycopg

    with psycopg.connect(data.database_url, connect_timeout=5) as conn:
        return [
            (str(state), int(n))
            for state, n in conn.execute(
                "SELECT state, count(*) FROM pg_stat_activity WHERE client_addr = %s GROUP BY "
                "state ORDER BY state",
                [host.address],
            ).fetchall()
        ]


def as_sent(row: dict[str, Any], player: dict[str, Any]) -> bool:
    """The entry holds exactly the list the player sent: its snapshot, points, verdict,
    faction, problems, the fleet it came from, and a submission time."""
    return (
        row["submitted_at"] is not None
        and row["document"] == player["document"]
        and row["points"] == player["points"]
        and row["legal"] == player["legal"]
        and row["faction"] == player["faction"]
        and row["problems"] == player["problems"]
        and row["fleet_id"] == player["fleet"]
    )


def nothing_stored(row: dict[str, Any]) -> bool:
    return (
        row["submitted_at"] is None
        and row["document"] is None
        and row["points"] is None
        and row["fleet_id"] is None
        and row["faction"] == ""
        and row["problems"] == []
    )


def test_a_web_host_dying_mid_burst_loses_no_acknowledged_submission(
    network: Network, data: DataHost, web_pair: WebPair, tmp_path: Path
) -> None:
    """40 players submit their lists at once to web-a, which dies (link cut, every process
    killed) once a third are acknowledged. Every acknowledged list is stored as sent; every
    other one is stored whole or not at all; the players without an answer submit again on
    web-b, brought up after the death, and then every player's list is in, once."""
    plan_file = tmp_path / "plan.json"
    done = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", SEED_EVENT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={
            **web_pair.env,
            "BURST_PLAYERS": str(BURST_PLAYERS),
            "BURST_TAG": network.tag,
            "BURST_PLAN": str(plan_file),
        },
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    plan = json.loads(plan_file.read_text())
    players: list[dict[str, Any]] = plan["players"]
    assert len(players) == BURST_PLAYERS
    page_path = f"/events/{plan['event']}/"
    base_a = web_pair.base(web_pair.a)
    browsers: dict[str, Browser] = {}
    for player in players:
        browsers[player["name"]] = Browser(base_a)
        give_cookie(
            browsers[player["name"]].jar, web_pair.a.address, "sessionid", player["session"]
        )

    def prepare(player: dict[str, Any]) -> str:
        """Join on web-a and open the event's page: its submit form offers the player's
        list; returns the form's CSRF token."""
        browser = browsers[player["name"]]
        status, _, page = browser.get(page_path)
        assert status == 200, (player["name"], status, page[:500])
        status, headers, _ = browser.request(
            "POST",
            page_path + "join/",
            {"csrfmiddlewaretoken": form_token(page)},
            headers={"Referer": base_a + page_path},
        )
        assert status == 302 and headers.get("Location") == page_path, (status, headers)
        status, _, page = browser.get(page_path)
        assert status == 200 and f'<option value="{player["fleet"]}"'.encode() in page, (
            player["name"],
            status,
        )
        return form_token(page)

    with ThreadPoolExecutor(8) as pool:
        tokens = dict(zip([p["name"] for p in players], pool.map(prepare, players), strict=True))
    before = stored_entries(data, plan["event"])
    assert all(len(rows) == 1 and nothing_stored(rows[0]) for rows in before.values()) and len(
        before
    ) == len(players), before

    # The burst: each player clicks Submit, a stagger apart; web-a dies once a third of them
    # have been acknowledged.
    answers: dict[str, str] = {}
    lock = threading.Lock()
    enough = threading.Event()
    trigger = BURST_PLAYERS // 3
    patience = bound(BURST_TIMEOUT)
    start = time.monotonic() + 0.2

    def acknowledged(status: int, location: str) -> bool:
        return status == 302 and location == page_path  # the view's redirect to the event

    def click(index: int, player: dict[str, Any]) -> None:
        time.sleep(max(0.0, start + index * BURST_STAGGER - time.monotonic()))
        try:
            status, location, _ = send(
                browsers[player["name"]],
                "POST",
                page_path + "submit/",
                {"fleet": str(player["fleet"]), "csrfmiddlewaretoken": tokens[player["name"]]},
                patience,
            )
            answer = "ack" if acknowledged(status, location) else f"HTTP {status} {location}"
        except (OSError, http.client.HTTPException) as exc:
            answer = f"no answer: {type(exc).__name__} {exc}"
        with lock:
            answers[player["name"]] = answer
            if sum(a == "ack" for a in answers.values()) >= trigger:
                enough.set()

    clicks = [
        threading.Thread(target=click, args=(i, p), daemon=True) for i, p in enumerate(players)
    ]
    for thread in clicks:
        thread.start()
    assert enough.wait(bound(60)), answers
    killed = power_off(network, web_pair.a)
    died = time.monotonic()
    assert web_pair.a_process is not None
    web_pair.a_process.wait(10)
    web_pair.start_b()  # the operator brings up another web host
    base_b = web_pair.base(web_pair.b)
    b_up: list[float] = []

    def watch_b() -> None:
        while time.monotonic() < died + bound(60) and not b_up:
            if answering(base_b, "/events/"):
                b_up.append(time.monotonic())
            time.sleep(0.05)

    watcher = threading.Thread(target=watch_b, daemon=True)
    watcher.start()
    for thread in clicks:
        thread.join(patience + 30)
    assert not any(thread.is_alive() for thread in clicks), answers
    assert len(answers) == len(players)
    acked = {name for name, answer in answers.items() if answer == "ack"}
    cut_off = [p for p in players if p["name"] not in acked]
    # A dead host gives no answer at all: anything else (a 400, a 500) is the app's.
    odd = {n: a for n, a in answers.items() if a != "ack" and not a.startswith("no answer")}
    assert not odd, odd

    # What web-a left behind: every acknowledged list as sent; the others whole or absent.
    left_open = sessions_of(data, web_pair.a)
    after_death = stored_entries(data, plan["event"])
    stored_unacked = 0
    for player in players:
        rows = after_death.get(player["name"], [])
        assert len(rows) == 1, (player["name"], rows)
        if player["name"] in acked:
            assert as_sent(rows[0], player), (
                "acknowledged but not stored as sent",
                player["name"],
                rows[0],
                player,
            )
        else:
            assert as_sent(rows[0], player) or nothing_stored(rows[0]), (
                "half-saved",
                player["name"],
                rows[0],
            )
            stored_unacked += as_sent(rows[0], player)

    # The players without an answer submit again, on web-b: reload the event's page, click.
    def again(player: dict[str, Any]) -> tuple[int, float, str]:
        browser = moved_to(browsers[player["name"]], base_b)
        deadline = time.monotonic() + bound(90)
        attempts = 0
        while time.monotonic() < deadline:
            attempts += 1
            try:
                status, location, page = send(browser, "GET", page_path, None, patience)
                if status != 200:
                    return attempts, 0.0, f"the event's page on web-b: HTTP {status} {location}"
                status, location, body = send(
                    browser,
                    "POST",
                    page_path + "submit/",
                    {"fleet": str(player["fleet"]), "csrfmiddlewaretoken": form_token(page)},
                    patience,
                )
                if acknowledged(status, location):
                    return attempts, time.monotonic(), ""
                return attempts, 0.0, f"submit on web-b: HTTP {status} {location} {body[:300]!r}"
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)  # web-b not up yet: try again
        return attempts, 0.0, "no answer from web-b"

    with ThreadPoolExecutor(len(cut_off) or 1) as pool:
        retried = dict(zip([p["name"] for p in cut_off], pool.map(again, cut_off), strict=True))
    failed = {n: r[2] for n, r in retried.items() if r[2]}
    assert not failed, (failed, web_pair.log("b")[-3000:])
    recovered = max((r[1] for r in retried.values()), default=died) - died

    # In the end every player's list is in, as sent, once.
    final = stored_entries(data, plan["event"])
    assert sorted(final) == sorted(p["name"] for p in players)
    for player in players:
        rows = final[player["name"]]
        assert len(rows) == 1 and rows[0]["removed_at"] is None, rows
        assert as_sent(rows[0], player), (player["name"], rows[0], player)
    assert "Traceback" not in web_pair.log("b"), web_pair.log("b")[-3000:]
    watcher.join(bound(60))
    assert b_up, "web-b never answered"

    # PostgreSQL ends the dead host's sessions once its keepalive probes go unanswered (the
    # settings ask for it): they hold no connection slot, and no row lock of a transaction cut
    # in the middle, for long (by the kernel's defaults, two hours and more).
    wait_for(
        lambda: not sessions_of(data, web_pair.a),
        90,
        "PostgreSQL to end the sessions of the dead web-a",
        every=0.5,
    )
    ended = time.monotonic() - died
    sessions = ", ".join(f"{n} {s}" for s, n in left_open) or "none"
    print(
        f"\nweb host died mid-burst: {len(players)} submissions sent over "
        f"{(len(players) - 1) * BURST_STAGGER:.1f} s to web-a; {len(acked)} acknowledged "
        f"before it died ({len(killed)} processes killed after its link was cut); "
        f"{len(cut_off)} cut off ({stored_unacked} stored whole before the death, "
        f"{len(cut_off) - stored_unacked} not at all, none half-saved); PostgreSQL "
        f"sessions web-a left open: {sessions}, ended by the server {ended:.0f} s after the "
        f"death; web-b answered "
        f"{b_up[0] - died:.1f} s after the death; "
        f"{len(retried)} retried there ({sum(r[0] for r in retried.values())} attempts) "
        f"and acknowledged; every player submitted {recovered:.1f} s after the death "
        f"(a browser waits {patience:.0f} s for an answer); every acknowledged list stored "
        "as sent, one entry per player"
    )
