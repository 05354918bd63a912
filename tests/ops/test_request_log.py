"""One log line per request, which an operator can match to a player's report by its id."""

from __future__ import annotations

import io
import logging
import os
import re

import pytest
from django.conf import settings
from django.test import Client

from fleetbuilder.ops import health
from fleetbuilder.ops.request_id import RequestIdFilter

pytestmark = pytest.mark.django_db


def request_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "fleetbuilder.request"]


def test_a_request_is_one_info_line_with_status_duration_and_id(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="fleetbuilder.request"):
        response = client.get("/no-such-page/")
    [line] = request_lines(caplog)
    assert line.levelno == logging.INFO
    assert re.fullmatch(r"GET /no-such-page/ 404 \d+\.\dms", line.getMessage())
    assert (line.method, line.path, line.status) == ("GET", "/no-such-page/", 404)
    assert line.duration_ms >= 0
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])


def test_a_proxys_safe_request_id_is_kept(client: Client) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": "lb-7f3a.9_c"})
    assert response.headers["X-Request-ID"] == "lb-7f3a.9_c"


@pytest.mark.parametrize("incoming", ["two words", "x" * 65, "evil\nFAKE LINE", "<script>", ""])
def test_an_unsafe_request_id_is_replaced(client: Client, incoming: str) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": incoming})
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])


def test_every_line_of_a_request_carries_its_id(
    client: Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_workers() -> str:
        raise health.CheckFailed("no simulator worker answered")

    monkeypatch.setitem(health.CHECKS, "workers", no_workers)
    caplog.handler.addFilter(RequestIdFilter())
    try:
        with caplog.at_level(logging.INFO):
            response = client.get("/healthz", headers={"X-Request-ID": "probe-1"})
    finally:
        caplog.handler.removeFilter(caplog.handler.filters[-1])
    mine = [r for r in caplog.records if getattr(r, "request_id", None) == "probe-1"]
    assert {r.name for r in mine} == {"fleetbuilder.health", "fleetbuilder.request"}
    assert response.status_code == 503
    # Outside a request, a line says so.
    record = logging.makeLogRecord({"msg": "worker started"})
    RequestIdFilter().filter(record)
    assert record.request_id == "-"


def test_the_configured_line_has_time_level_logger_and_id(client: Client) -> None:
    """The format and filter from settings.LOGGING, as a log collector would read them."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(settings.LOGGING["formatters"]["line"]["format"]))
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("fleetbuilder.request")
    logger.addHandler(handler)
    try:
        client.get("/healthz", headers={"X-Request-ID": "abc123"})
    finally:
        logger.removeHandler(handler)
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO fleetbuilder\.request \[abc123\] "
        r"GET /healthz 200 \d+\.\dms\n",
        stream.getvalue(),
    )


def test_the_levels_come_from_log_level() -> None:
    # INFO unless set: request lines are shown.
    assert settings.LOG_LEVEL == os.environ.get("LOG_LEVEL", "INFO").strip().upper()
    assert settings.LOGGING["root"]["level"] == settings.LOG_LEVEL
    for name in ("fleetbuilder.request", "fleetbuilder.simulator"):
        assert settings.LOGGING["loggers"][name]["level"] == settings.LOG_LEVEL
    assert "request_id" in settings.LOGGING["handlers"]["console"]["filters"]
