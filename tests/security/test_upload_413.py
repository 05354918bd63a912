"""Issue 34 §6: an over-size upload always gets its 413 page, never a reset connection.

Against a real gunicorn: a client that sends the whole body before it reads (as browsers and
urllib do) must read the 413 page every time. Before, the server answered from the headers
and closed the connection with the body unread, and the kernel reset it under the client.
"""

from __future__ import annotations

import socket

import pytest

from tests.production.conftest import (  # noqa: F401  (fixtures, used by name)
    redis_url,
    stack_database,
    web,
)

pytestmark = [pytest.mark.production]

BOUNDARY = "----fleetbuilder-test-boundary"


def upload(base: str, size: int) -> bytes:
    """POST a ``size``-byte fleet file to the import page; the first bytes of the answer, or
    b"" when the connection was reset or closed before one."""
    host, port = base.removeprefix("http://").split(":")
    head = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="fleet.json"\r\nContent-Type: application/json\r\n\r\n'
    ).encode()
    tail = f"\r\n--{BOUNDARY}--\r\n".encode()
    body_length = len(head) + size + len(tail)
    request = (
        f"POST /fleets/import/ HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n"
        f"Content-Length: {body_length}\r\nConnection: close\r\n\r\n"
    ).encode()
    piece = b" " * 65536
    try:
        with socket.create_connection((host, int(port)), timeout=30) as s:
            s.sendall(request + head)
            sent = 0
            while sent < size:
                chunk = piece[: size - sent]
                s.sendall(chunk)
                sent += len(chunk)
            s.sendall(tail)
            answer = b""
            while len(answer) < 4096:
                data = s.recv(65536)
                if not data:
                    break
                answer += data
            return answer
    except (ConnectionResetError, BrokenPipeError):
        return b""


def test_every_over_size_upload_reads_its_413_page(web: str) -> None:  # noqa: F811
    answers = [upload(web, megabytes << 20) for megabytes in (2, 4, 8, 8, 16, 16)]
    statuses = [a.split(b"\r\n", 1)[0].decode(errors="replace") for a in answers]
    assert all(s.endswith("413 Request Entity Too Large") or " 413 " in s for s in statuses), (
        statuses
    )
