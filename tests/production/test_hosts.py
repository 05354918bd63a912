"""Several hosts on one machine, for real (issue 33, item 1): a data host (a private PostgreSQL
cluster and redis-server with its append-only file), a web host (gunicorn) and two worker
hosts (Celery), each a Linux network namespace on one bridge (tests/production/netns.py), each
process talking to the others only by its host's address. The test process is the player's
browser and the operator, on the bridge.

- a matchup plays across both worker hosts and equals the command line's result;
- a worker host's link goes down in the middle of a chunk: the run completes, identical, the
  chunk is played again by the other host after the broker's visibility timeout, and the late
  result of the host that comes back counts nothing twice;
- Redis restarts in the middle of a run: the queued chunks are still there (AOF) and the run
  completes, identical.

Needs root (namespaces); without it, every test here skips and says why. Marked ``hosts`` as
well as ``production``: ``pytest -m "not hosts"`` leaves them out.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

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
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                   key=lambda p: [int(x) for x in re.findall(r"\d+", p.parent.name)] or [0])
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
        return self.net.run(self.host, ["runuser", "-u", "postgres", "--", *argv],
                            capture_output=True, text=True, timeout=120)

    def start_postgres(self) -> None:
        done = self.as_postgres(
            str(self.pg / "pg_ctl"), "-D", str(self.folder / "pg"), "-l",
            str(self.folder / "pg.log"), "-w", "-t", "60", "-o",
            f"-c listen_addresses={self.host.address} -p {PG_PORT} -k {self.folder} "
            "-c fsync=off -c max_connections=60", "start")
        assert done.returncode == 0, done.stdout + done.stderr + self.pg_log()

    def stop_postgres(self, mode: str = "fast") -> None:
        self.as_postgres(str(self.pg / "pg_ctl"), "-D", str(self.folder / "pg"), "-m", mode,
                         "-w", "stop")

    def pg_log(self) -> str:
        path = self.folder / "pg.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def start_redis(self) -> None:
        self.redis = self.net.popen(
            self.host, ["redis-server", "--bind", self.host.address, "--port", str(REDIS_PORT),
                        "--protected-mode", "no", "--save", "", "--appendonly", "yes",
                        "--appendfsync", "always", "--dir", str(self.folder / "redis")],
            stdout=open(self.folder / "redis.log", "a"), stderr=subprocess.STDOUT)
        wait_for(self.redis_answers, 20, "redis-server on the data host")

    def redis_answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis.from_url(self.redis_url, socket_timeout=1,
                                             socket_connect_timeout=1).ping())
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
        done = box.as_postgres(str(pg / "initdb"), "-D", str(folder / "pg"), "-U", "postgres",
                               "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8")
        assert done.returncode == 0, done.stderr
        with open(folder / "pg" / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {network.subnet} trust\n")
        box.start_postgres()
        done = box.as_postgres(str(pg / "createdb"), "-h", str(folder), "-p", str(PG_PORT),
                               "-U", "postgres", "fleetbuilder")
        assert done.returncode == 0, done.stderr
        box.start_redis()
        yield box
    finally:
        box.stop_redis()
        box.stop_postgres("immediate")
        shutil.rmtree(folder, ignore_errors=True)


def app_env(data: DataHost, **extra: str) -> dict[str, str]:
    return base_env(DATABASE_URL=data.database_url, REDIS_URL=data.redis_url,
                    SIM_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
                    SIM_CHUNK_BATTLES=str(CHUNK_BATTLES), **extra)


@dataclass
class WebHost:
    host: Host
    base: str
    log: Path
    process: subprocess.Popen[Any]


@pytest.fixture(scope="module")
def web(network: Network, data: DataHost, tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[WebHost]:
    """The web host: the database migrated and the catalogue loaded from it (as an operator
    deploying would), then gunicorn on the host's address."""
    host = network.add_host("web")
    env = app_env(data, ALLOWED_HOSTS=host.address)
    for command in (["migrate", "--noinput"], ["load_catalog"]):
        done = network.run(host, [str(VENV_BIN / "python"), "manage.py", *command], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    log = tmp_path_factory.mktemp("web") / "gunicorn.log"
    with open(log, "w") as out:
        server = network.popen(
            host, [str(VENV_BIN / "gunicorn"), "fleetbuilder.wsgi:application", "--bind",
                   f"{host.address}:8000", "--workers", "1", "--threads", "4",
                   "--no-control-socket"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
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
def workers(network: Network, data: DataHost, web: WebHost, tmp_path: Path
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
                    host, [str(VENV_BIN / "celery"), "-A", "fleetbuilder", "worker",
                           "--concurrency", "1", "--pool", "prefork", "--hostname",
                           f"{name}@%h", "--loglevel", "INFO", "--without-gossip",
                           "--without-mingle"],
                    uts=True, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
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
            [public_id(run_path)]).fetchall()
    found: dict[str, list[int]] = {}
    for worker, index in rows:
        found.setdefault(worker, []).append(index)
    return found


STARTED = re.compile(r"simulator run (\S+): chunk (\d+) \(battles [\d-]+\) started")
FINISHED = re.compile(r"simulator run (\S+): chunk (\d+) finished in [\d.]+ s \(([^)]*)\)")


def starts(text: str, run: str) -> list[int]:
    return [int(m.group(2)) for m in STARTED.finditer(text) if m.group(1) == run]


# Small fleets and short battles (about 2-3 ms a battle on a quiet core): 2,000 battles play
# in seconds, and the command line plays them again to compare.
SMALL = {"a_faction": "necrons", "a_size": "patrol", "b_faction": "archenemy",
         "b_size": "patrol", "max_rounds": "2"}


def without_run(results: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in results.items() if k != "run"}


def same_as_command_line(player: Browser, run: str, results: dict[str, Any], data: DataHost,
                         folder: Path, battles: int, rounds: str = SMALL["max_rounds"]) -> None:
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
        [PYTHON, "manage.py", "simulate", *files, "--battles", str(battles), "--seed",
         str(results["seed"]), "--rounds", rounds, "--json"],
        cwd=ROOT, env=base_env(DATABASE_URL=data.database_url), check=True,
        capture_output=True, text=True, timeout=600)
    assert without_run(results) == json.loads(out.stdout)


def queued(data: DataHost) -> int:
    """Chunk messages in Redis: waiting in the queues (one a priority) and taken, unacked."""
    import redis

    client = redis.Redis.from_url(data.redis_url, socket_timeout=2)
    waiting = sum(int(client.llen(key)) for key in client.scan_iter("celery*")
                  if client.type(key) == b"list")
    return waiting + int(client.hlen("unacked"))


# --- the tests -----------------------------------------------------------------------------

def test_a_matchup_plays_across_both_worker_hosts_and_equals_the_command_line(
        network: Network, web: WebHost, data: DataHost, workers: dict[str, WorkerHost],
        tmp_path: Path) -> None:
    player = Browser(web.base)
    health = player.json("/healthz")
    assert health["checks"] == {"database": "ok", "cache": "ok", "broker": "ok",
                                "workers": "ok"}, health
    # docs/operations.md, "Adding a worker machine": a new host sees every worker answer.
    ping = network.run(workers["w2"].host, [str(VENV_BIN / "celery"), "-A", "fleetbuilder",
                                             "inspect", "ping", "--timeout", "3"],
                       cwd=ROOT, env=app_env(data), capture_output=True, text=True, timeout=60)
    assert "w1@w1: OK" in ping.stdout and "w2@w2: OK" in ping.stdout, ping.stdout + ping.stderr
    began = time.monotonic()
    run = player.start_preview(battles="2000", seed="3301", **SMALL)
    results = player.wait_finished(run, timeout=120)
    seconds = time.monotonic() - began
    same_as_command_line(player, run, results, data, tmp_path, 2000)
    by_worker = chunks_by_worker(data, run)
    print(f"\n2,000 battles across two worker hosts in {seconds:.1f} s: "
          + ", ".join(f"{w} played {len(c)} chunks" for w, c in sorted(by_worker.items())))
    assert set(by_worker) == {"w1", "w2"}, by_worker  # each host's own name, and both played


def test_a_worker_host_cut_off_mid_chunk_loses_nothing_and_counts_nothing_twice(
        network: Network, web: WebHost, data: DataHost, workers: dict[str, WorkerHost],
        tmp_path: Path) -> None:
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
    wait_for(lambda: lost in chunks_by_worker(data, run).get("w1", []), 90,
             f"chunk {lost} to be played again on w1", every=0.2)
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
        return [m.group(3) for m in FINISHED.finditer(w2.text())
                if m.group(1) == rid and int(m.group(2)) == lost]

    outcome = wait_for(late, 90, "w2's late result", every=0.2)
    late_seconds = time.monotonic() - back
    assert outcome == ["already recorded or run stopped"], outcome
    after = player.json(run + "results.json")
    assert after == results
    same_as_command_line(player, run, after, data, tmp_path, 2000, rounds="4")
    resent = sorted({i for i in starts(w1.text(), rid) if i in starts(w2.text(), rid)})
    print(f"\npartition: w2 cut off in chunk {lost}; w1 played it again {replayed:.1f} s later "
          f"(visibility timeout {VISIBILITY_TIMEOUT} s); chunks re-sent: {len(resent)} "
          f"({resent}); the run completed {completed:.1f} s after the cut; w2's late result "
          f"came {late_seconds:.1f} s after its link came back and counted nothing; chunks: "
          + ", ".join(f"{w} {len(c)}" for w, c in sorted(by_worker.items())))


def test_redis_restarted_mid_run_keeps_the_queued_chunks_and_the_run_completes(
        web: WebHost, data: DataHost, workers: dict[str, WorkerHost], tmp_path: Path) -> None:
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
    resent = sum(len(starts(w.text(), public_id(run))) for w in workers.values()) - \
        len({i for w in workers.values() for i in starts(w.text(), public_id(run))})
    print(f"\nRedis restart: {before} chunk messages queued before, {after} found after "
          f"(Redis away {down:.1f} s); the run completed {completed:.1f} s after the restart "
          f"began; chunks played twice: {resent}")
    assert before > 0 and after >= 1


def test_the_network_is_torn_down_with_its_hosts(network: Network) -> None:
    """The harness itself: each host is its own namespace, on the subnet, with a veth on the
    bridge (the module's finaliser then removes them all, and checks nothing is left)."""
    names = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    for host in network.hosts.values():
        assert host.netns in names
        assert host.address in subprocess.run(
            ["ip", "-n", host.netns, "-4", "addr", "show", "eth0"], capture_output=True,
            text=True).stdout


def test_postgresql_restarted_while_a_player_edits_keeps_every_acknowledged_edit(
        web: WebHost, data: DataHost) -> None:
    """A player adds ships one after another while PostgreSQL stops and starts again: each edit
    is acknowledged (a redirect) or refused with the 503 page in words; every acknowledged one
    is in the fleet afterwards, and the same gunicorn serves again without a restart."""
    player = Browser(web.base)
    status, headers, body = player.post_form("/fleets/new/", {
        "name": "Through the outage", "faction": "imperial-navy", "variant": "",
        "game_size": "skirmish"})
    assert status == 302, body[:1000]
    fleet = headers["Location"].split("#")[0].split("?")[0]
    status, _, page = player.get(fleet)
    assert status == 200
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token

    answers: list[tuple[float, int, bytes]] = []

    def add_ship() -> int:
        status, _, body = player.request(
            "POST", fleet + "add-ship/", {"ship": "lunar-class-cruiser",
                                          "csrfmiddlewaretoken": token.group(1).decode()},
            headers={"Referer": web.base + fleet})
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
    ok = wait_for(lambda: add_ship() == 302, 30, "an edit acknowledged after the restart",
                  every=0.1)
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
    print(f"\nPostgreSQL restart: {len(answers)} edits sent, {acknowledged()} acknowledged "
          f"and all {units} units there afterwards; {len(refused)} answered 503 in words "
          f"while it was away ({started - stopped:.1f} s); the first edit after it came back "
          f"was acknowledged {first_after:.1f} s later, with no restart of the app")
