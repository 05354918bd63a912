"""Bombs: small inputs that unpack or parse into something huge. Each gets a clear 4xx, stores
nothing, and is answered fast (the import limits of R-93, the share-code caps of R-90)."""

from __future__ import annotations

import base64
import io
import json
import struct
import time
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core import fleet as rf
from tests.support.timing import bound

from .conftest import CsrfClient, small_fleet

pytestmark = pytest.mark.django_db

FAST = 3.0  # seconds: the bound for any request's work


@pytest.fixture(autouse=True)
def _no_rate_limits(settings) -> None:
    if hasattr(settings, "RATE_LIMITS"):
        settings.RATE_LIMITS = {scope: 0 for scope in settings.RATE_LIMITS}


@contextmanager
def nothing_stored() -> Iterator[None]:
    before = (Fleet.objects.count(), Matchup.objects.count())
    started = time.monotonic()
    yield
    took = time.monotonic() - started
    assert (Fleet.objects.count(), Matchup.objects.count()) == before, "something was stored"
    assert took < bound(FAST), f"took {took:.1f} s"


def upload(browser: CsrfClient, name: str, data: bytes) -> Any:
    return browser.send(
        "POST",
        "/fleets/import/",
        {"file": SimpleUploadedFile(name, data, content_type="application/octet-stream")},
    )


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def shows_error(response: Any, *words: str) -> None:
    page = response.content.decode()
    for word in words:
        assert word in page, f"{word!r} not in the answer"


# --- zips -----------------------------------------------------------------------------------


def test_a_zip_bomb_is_refused_before_it_unpacks(anonymous: CsrfClient) -> None:
    bomb = zipped({"fleet.json": b" " * (64 * 1024 * 1024)})  # 64 MB of spaces
    assert len(bomb) < 256 * 1024
    with nothing_stored():
        response = upload(anonymous, "backup.zip", bomb)
    assert response.status_code == 400
    shows_error(response, "fleet.json", "unpacked")


def test_a_zip_that_lies_about_its_size_is_refused(anonymous: CsrfClient) -> None:
    """The headers say 100 bytes; the data inflates to 32 MB. Reading stops at the limit."""
    data = bytearray(zipped({"fleet.json": b"{" + b" " * (32 * 1024 * 1024)}))
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.find(signature)
        data[at + offset : at + offset + 4] = struct.pack("<I", 100)
    with nothing_stored():
        response = upload(anonymous, "backup.zip", bytes(data))
    assert response.status_code == 400
    shows_error(response, "fleet.json")


def test_a_zip_of_many_files_is_refused(anonymous: CsrfClient) -> None:
    many = zipped({f"f{i}.json": b"{}" for i in range(2000)})
    with nothing_stored():
        response = upload(anonymous, "backup.zip", many)
    assert response.status_code == 400
    with nothing_stored():
        response = upload(
            anonymous, "backup.zip", zipped({f"f{i}.json": b"{}" for i in range(101)})
        )
    assert response.status_code == 400
    shows_error(response, "101")


def test_a_zip_inside_a_zip_is_not_unpacked(anonymous: CsrfClient, catalog: Any) -> None:
    inner = zipped({"fleet.json": rf.dump_fleet_json(small_fleet(catalog)).encode()})
    with nothing_stored():
        response = upload(anonymous, "backup.zip", zipped({"inner.zip": inner}))
    assert response.status_code == 400
    shows_error(response, "inner.zip")


def test_a_10_mb_upload_is_refused_at_once(anonymous: CsrfClient) -> None:
    with nothing_stored():
        response = upload(anonymous, "fleet.json", b"{" + b" " * (10 * 1024 * 1024))
    assert response.status_code == 413
    shows_error(response, "MB")


# --- JSON -----------------------------------------------------------------------------------


def fleet_json(**fields: str) -> str:
    """A fleet file's text with raw JSON ``fields`` spliced in."""
    head = (
        '{"format": "void-command-fleet", "version": 1, "faction": "imperial-navy", '
        '"game_size": "custom", "units": []'
    )
    return head + "".join(f', "{k}": {v}' for k, v in fields.items()) + "}"


JSON_BOMBS = {
    "a 200,000-digit number": fleet_json(points_limit='{"min": 1' + "0" * 200_000 + ', "max": 2}'),
    "a number past a float": fleet_json(points_limit='{"min": 1e400, "max": 1e999}'),
    "deep nesting": fleet_json(notes="[" * 100_000 + "]" * 100_000),
    "deep units": fleet_json().replace('"units": []', '"units": ' + "[" * 50_000 + "]" * 50_000),
    "20,000 keys": fleet_json(notes="{" + ",".join(f'"k{i}": 0' for i in range(20_000)) + "}"),
    "NaN": fleet_json(points_limit='{"min": NaN, "max": Infinity}'),
}


@pytest.mark.parametrize("bomb", sorted(JSON_BOMBS))
def test_a_json_bomb_is_a_clear_400(bomb: str, anonymous: CsrfClient) -> None:
    text = JSON_BOMBS[bomb]
    assert len(text) < 256 * 1024
    for data in ({"text": text}, {"file": SimpleUploadedFile("fleet.json", text.encode())}):
        with nothing_stored():
            response = anonymous.send("POST", "/fleets/import/", data)
        assert response.status_code == 400, bomb
        shows_error(response, "cannot be read")


@pytest.mark.parametrize("field", ["save", "save_all"])
def test_a_json_bomb_sent_back_to_save_stores_nothing(field: str, anonymous: CsrfClient) -> None:
    """The checked fleet travels back in the form to be saved: it is read again, as hostile."""
    for text in ("[" * 100_000 + "]" * 100_000, JSON_BOMBS["a 200,000-digit number"]):
        with nothing_stored():
            response = anonymous.send("POST", "/fleets/import/", {field: text})
        assert response.status_code in (302, 400), field


def deflate_bomb_code(size: int = 4 * 1024 * 1024) -> str:
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = squeezer.compress(b"[" + b" " * size) + squeezer.flush()
    return "v1." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_a_share_code_that_inflates_past_its_cap_is_refused(anonymous: CsrfClient) -> None:
    code = deflate_bomb_code()
    assert len(code) < 6000
    for url in (
        f"/fleets/code/{code}/",
        f"/fleets/code/{code}/cards/",
        f"/fleets/code/{code}/cards.pdf",
    ):
        with nothing_stored():
            response = anonymous.get(url)
        assert response.status_code in (400, 404), url
    with nothing_stored():
        response = anonymous.send("POST", "/fleets/import/", {"text": code})
    assert response.status_code == 400
    fields = {
        "a_source": "shared",
        "a_share": code,
        "b_source": "sample",
        "b_faction": "orks",
        "b_size": "patrol",
        "b_variant": "",
        "battles": "4",
        "max_rounds": "10",
        "table": "",
        "scoring": "core",
        "terrain": "none",
        "seed": "1",
    }
    with nothing_stored():
        response = anonymous.send("POST", "/simulator/", fields)
    assert response.status_code == 400


def test_a_pasted_text_past_the_limit_is_refused(anonymous: CsrfClient) -> None:
    with nothing_stored():
        response = anonymous.send(
            "POST", "/fleets/import/", {"text": json.dumps({"notes": "x" * 300_000})}
        )
    assert response.status_code in (400, 413)
