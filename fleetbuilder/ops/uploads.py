"""An answer given before the request's body was read reaches the client.

A view may refuse a POST from its headers alone: an upload over the size limit (413), a rate
limit (429). The body is then still on its way. If the server closes the connection with
unread bytes in its socket, the kernel resets the connection, and the client, still sending,
often never sees the answer: "connection reset" in place of the 413 page. So after such an
answer the rest of the body is read and thrown away, up to ``DRAIN_MAX_BYTES`` within
``DRAIN_SECONDS``; past that the server closes the connection as before, which is all it can
do for a client that sends without end (a proxy in front should cap bodies).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

log = logging.getLogger("fleetbuilder.request")

DRAIN_MAX_BYTES = 64 * 1024 * 1024  # the web tier's bandwidth, not its CPU
DRAIN_SECONDS = 10.0
_CHUNK = 256 * 1024


def unread_body(request: HttpRequest) -> int:
    """Bytes of the request's body that nothing has read yet."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0
    stream = getattr(request, "_stream", None)
    read = int(getattr(stream, "_pos", length))
    return max(0, length - read)


def drain(request: HttpRequest) -> bool:
    """Read and drop the rest of the body; True if all of it was read."""
    stream = getattr(request, "_stream", None)
    if stream is None:
        return False
    deadline = time.monotonic() + DRAIN_SECONDS
    drained = 0
    try:
        while drained < DRAIN_MAX_BYTES and time.monotonic() < deadline:
            data = stream.read(_CHUNK)
            if not data:
                return True
            drained += len(data)
    except OSError:  # the client went away
        return False
    return unread_body(request) == 0


class DrainUnreadBodyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if unread_body(request) and not drain(request):
            log.warning(
                "%s %s: the body was not read in full before the answer",
                request.method,
                request.path,
            )
        return response
