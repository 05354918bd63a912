"""/healthz: what a load balancer or an operator's monitor reads.

200 and every check "ok" (or "skipped") when this process can serve players; 503 naming the
check that failed, with a short reason. In the suite Celery runs tasks in-process (the
memory:// broker), so the broker and the workers are "skipped" unless a test points Celery at
a real Redis.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.test import Client, override_settings

from fleetbuilder.celery import app
from fleetbuilder.ops import health
from tests.support.timing import bound

from .conftest import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def celery_on(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Point this process's Celery app at a broker, as production's REDIS_URL does."""

    def point(url: str) -> None:
        monkeypatch.setitem(app.conf, "broker_url", url)
        monkeypatch.setitem(app.conf, "task_always_eager", False)
        # Pools made for this broker (kombu keeps them, by broker address, for the process).
        monkeypatch.setattr(app, "_pool", None)
        monkeypatch.setattr(app.amqp, "_producer_pool", None)

    return point


def test_all_ok_in_one_process(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "cache": "ok", "broker": "skipped", "workers": "skipped"},
    }


def test_it_is_never_cached_and_needs_no_session_or_csrf() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert "no-store" in response.headers["Cache-Control"]
    assert not response.cookies
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405  # not 403: no CSRF token is wanted


def test_with_https_a_probe_over_plain_http_is_not_redirected(client: Client) -> None:
    with override_settings(SECURE_SSL_REDIRECT=True, SECURE_REDIRECT_EXEMPT=[r"^healthz$"]):
        assert client.get("/healthz").status_code == 200
        assert client.get("/").status_code == 301


def test_a_broken_database_is_named(
    client: Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_database() -> str:
        raise health.CheckFailed("could not connect to server")

    monkeypatch.setitem(health.CHECKS, "database", no_database)
    with caplog.at_level("WARNING"):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "fail",
        "checks": {
            "database": "fail: could not connect to server",
            "cache": "ok",
            "broker": "skipped",
            "workers": "skipped",
        },
    }
    # One warning from the health check, and no server error logged for the 503.
    assert [r.getMessage() for r in caplog.records if r.name == "django.request"] == []
    assert any("health check database failed" in r.getMessage() for r in caplog.records)


def test_an_unreachable_cache_is_named(client: Client) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": dead,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    with override_settings(CACHES=caches):
        response = client.get("/healthz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["cache"].startswith("fail: ConnectionError")
    assert checks["database"] == "ok"


def test_a_cache_that_loses_what_it_was_given_is_named(client: Client) -> None:
    with override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["cache"] == (
        "fail: a value written to the cache was not read back"
    )


def test_an_unreachable_broker_fails_the_broker_and_the_workers(client: Client, celery_on) -> None:
    celery_on(f"redis://127.0.0.1:{free_port()}/0")
    started = time.monotonic()
    response = client.get("/healthz")
    # The checks stop at health.DEADLINE (2.5 s); a load balancer waits 3 to 5 s. The slack
    # above the deadline is for a loaded test machine, not for the app.
    assert time.monotonic() - started < bound(5)
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["broker"].startswith("fail: ")
    assert checks["workers"].startswith("fail: ")
    assert checks["database"] == checks["cache"] == "ok"


def test_a_broker_with_no_worker_says_so(client: Client, redis_url: str, celery_on) -> None:
    celery_on(redis_url)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"] == {
        "database": "ok",
        "cache": "ok",
        "broker": "ok",
        "workers": "fail: no simulator worker answered",
    }


def test_a_broker_and_a_worker_are_ok(client: Client, worker: str, celery_on) -> None:
    celery_on(worker)
    started = time.monotonic()
    response = client.get("/healthz")
    # the first worker's answer is enough: no wait for the deadline
    assert time.monotonic() - started < bound(health.DEADLINE)
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "cache": "ok", "broker": "ok", "workers": "ok"},
    }
    assert response.status_code == 200


def test_a_check_that_hangs_fails_at_the_deadline(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def hangs() -> str:
        release.wait(10)
        return "ok"

    monkeypatch.setitem(health.CHECKS, "workers", hangs)
    try:
        started = time.monotonic()
        response = client.get("/healthz")
        elapsed = time.monotonic() - started
    finally:
        release.set()
    assert elapsed < bound(5)  # health.DEADLINE (2.5 s), and slack for a busy machine
    assert response.status_code == 503
    assert response.json()["checks"]["workers"] == "fail: no answer within 2.5 s"
