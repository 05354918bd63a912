"""The request id: one per request, on its log lines and in its ``X-Request-ID`` header."""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar

# A proxy's id is reused only when it is a short token that cannot break a log line.
SAFE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

current_request_id: ContextVar[str] = ContextVar("request_id", default="-")


def request_id_from(header: str | None) -> str:
    """The incoming X-Request-ID when it is safe to log, else a new random id."""
    if header and SAFE_REQUEST_ID.fullmatch(header):
        return header
    return uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    """Gives every record ``request_id``: the current request's, or "-" outside a request."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id.get()
        return True
