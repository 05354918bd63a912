"""One log line per request: method, path, status, duration and request id."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from .request_id import current_request_id, request_id_from

logger = logging.getLogger("fleetbuilder.request")


class RequestLogMiddleware:
    """First in MIDDLEWARE, so the duration covers every other middleware and the view.

    The id is taken from a proxy's X-Request-ID when it is a short safe token (so one id
    follows a request through the load balancer and the app), else made here; it is sent back
    in X-Request-ID and carried by every log line written while the request runs.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request.headers.get("X-Request-ID"))
        request.request_id = request_id  # type: ignore[attr-defined]
        token = current_request_id.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            duration_ms = (time.perf_counter() - started) * 1000
            response["X-Request-ID"] = request_id
            logger.info(
                "%s %s %s %.1fms",
                request.method,
                request.path,
                response.status_code,
                duration_ms,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round(duration_ms, 1),
                },
            )
            return response
        finally:
            current_request_id.reset(token)
