"""One log line per request (method, path, status, duration and request id), and text answers
compressed for browsers that ask."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware

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


class CompressTextMiddleware(GZipMiddleware):
    """Django's GZipMiddleware for text answers only: pages, htmx partials, JSON, CSS, SVG,
    feeds (HTML went uncompressed to browsers asking for gzip).

    Django's BREACH mitigation stays on: each compressed answer carries up to
    ``max_random_bytes`` of random padding in its gzip header, so its length does not tell a
    secret's bytes apart (and CSRF tokens are masked afresh on each page anyway). PDFs, images
    and archives are compressed already and go as they are. Placed below WhiteNoise, which
    answers static files (precompressed by collectstatic) before this sees them.
    """

    TEXT = (
        "text/",
        "application/json",
        "application/javascript",
        "image/svg+xml",
        "application/atom+xml",
        "application/xml",
    )

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not response.get("Content-Type", "").startswith(self.TEXT):
            return response
        return super().process_response(request, response)  # type: ignore[no-any-return]
