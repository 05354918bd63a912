"""The checks behind /healthz: can this process reach what a request or a simulator run needs?

Each check returns "ok" or "skipped", or raises; ``run_checks`` runs them side by side so the
whole answer takes at most ``DEADLINE`` seconds, and a check that has not answered by then
fails. The broker and the workers are skipped when Celery runs tasks in the calling process
(``CELERY_TASK_ALWAYS_EAGER``, or the ``memory://`` broker used without REDIS_URL): there is
no broker to reach and no worker to answer, and that is not a fault.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

from django.core.cache import cache
from django.db import connection

from fleetbuilder.celery import app

logger = logging.getLogger("fleetbuilder.health")

DEADLINE = 2.5  # seconds for all checks together; load balancers usually wait 3 to 5
OK = "ok"
SKIPPED = "skipped"


class CheckFailed(Exception):
    """A check reached its service and got a wrong answer (the message says which)."""


def check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            if cursor.fetchone() != (1,):
                raise CheckFailed("SELECT 1 did not return 1")
    finally:
        connection.close()  # this thread's own connection; the pool thread goes away
    return OK


def check_cache() -> str:
    key = f"healthz:{secrets.token_hex(8)}"
    value = secrets.token_hex(8)
    cache.set(key, value, timeout=30)
    try:
        if cache.get(key) != value:
            raise CheckFailed("a value written to the cache was not read back")
    finally:
        cache.delete(key)
    return OK


def celery_in_process() -> bool:
    return bool(app.conf.task_always_eager) or str(app.conf.broker_url).startswith("memory://")


def check_broker() -> str:
    if celery_in_process():
        return SKIPPED
    with app.connection_for_read() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    return OK


def check_workers() -> str:
    if celery_in_process():
        return SKIPPED
    # The first answer is enough (limit=1): a healthy fleet of workers answers in milliseconds.
    if not app.control.ping(timeout=1.0, limit=1):
        raise CheckFailed("no simulator worker answered")
    return OK


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
    "workers": check_workers,
}


def _run(name: str) -> str:
    # Looked up when it runs, so a test can replace one check in CHECKS.
    return CHECKS[name]()


def _reason(exc: BaseException) -> str:
    if isinstance(exc, CheckFailed):
        text = str(exc)
    else:
        text = f"{type(exc).__name__}: {' '.join(str(exc).split())}".rstrip(": ")
    return "fail: " + (text if len(text) <= 120 else text[:119] + "…")


def run_checks(deadline: float = DEADLINE) -> dict[str, str]:
    """Every check's result by name: "ok", "skipped" or "fail: <short reason>"."""
    pool = ThreadPoolExecutor(max_workers=len(CHECKS), thread_name_prefix="healthz")
    futures = {name: pool.submit(_run, name) for name in CHECKS}
    wait(futures.values(), timeout=deadline)
    # Do not wait for a check stuck on a dead host: it ends on its own socket timeout.
    pool.shutdown(wait=False, cancel_futures=True)
    results = {}
    for name, future in futures.items():
        if not future.done():
            results[name] = f"fail: no answer within {deadline:g} s"
            logger.warning("health check %s gave no answer within %g s", name, deadline)
        elif (exc := future.exception()) is not None:
            results[name] = _reason(exc)
            logger.warning("health check %s failed: %r", name, exc)
        else:
            results[name] = future.result()
    return results
