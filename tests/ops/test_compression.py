"""Pages go compressed to a browser that asks: HTML, JSON, CSS and SVG answers
are gzipped when the request accepts gzip, with Django's BREACH mitigation (random bytes in
the gzip header, so the length of two answers of the same page differ), ``Vary:
Accept-Encoding`` for caches, and nothing compressed for a client that did not ask. PDFs and
images, already compressed, go as they are."""

from __future__ import annotations

import gzip

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from fleetbuilder.ops.middleware import CompressTextMiddleware

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/ships/imperial-navy/lunar-class-cruiser/",
        "/rules/",
        "/simulator/",
        "/fleets/new/",
        "/api/v1/catalog",
    ],
)
def test_a_page_is_gzipped_when_asked_and_only_then(client: Client, catalog, url: str) -> None:
    plain = client.get(url)
    assert plain.status_code == 200 and not plain.has_header("Content-Encoding")
    packed = client.get(url, headers=GZIP)
    assert packed.status_code == 200
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    body = gzip.decompress(packed.content)
    assert len(packed.content) < len(body) / 2
    assert len(body) == len(plain.content)  # the same page (its CSRF token masked afresh)


def test_the_breach_mitigation_pads_each_answer_at_random(client: Client, catalog) -> None:
    lengths = {len(client.get("/rules/", headers=GZIP).content) for _ in range(6)}
    assert len(lengths) > 1


@pytest.mark.parametrize(
    ("content_type", "compressed"),
    [
        ("application/pdf", False),
        ("image/png", False),
        ("application/zip", False),
        ("text/html; charset=utf-8", True),
        ("application/json", True),
        ("image/svg+xml", True),
    ],
)
def test_only_text_is_compressed(rf: RequestFactory, content_type: str, compressed: bool) -> None:
    middleware = CompressTextMiddleware(
        lambda request: HttpResponse(b"x" * 5000, content_type=content_type)
    )
    response = middleware(rf.get("/", headers=GZIP))
    assert response.has_header("Content-Encoding") is compressed


def test_a_compressed_catalogue_page_still_answers_304(client: Client, catalog) -> None:
    """gzip makes the strong ETag weak (RFC 9110); If-None-Match compares weakly, so the
    browser's next visit is still a 304."""
    url = "/ships/imperial-navy/lunar-class-cruiser/"
    client.get(url, headers=GZIP)  # the CSRF cookie: the next answer carries an ETag
    first = client.get(url, headers=GZIP)
    assert first["ETag"].startswith('W/"')
    again = client.get(url, headers={**GZIP, "If-None-Match": first["ETag"]})
    assert again.status_code == 304
