"""A player's browser with one fleet started, an outsider's browser, and helpers to edit; an
htmx answer as builder.js hands it to htmx (``expand_copies``)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.fleets.pieces import as_escort
from rules_core.catalog import DATA_DIR


@pytest.fixture
def start_fleet(catalog) -> Callable[..., Fleet]:
    def start(client: Client, **fields: str) -> Fleet:
        data = {
            "name": "",
            "faction": "imperial-navy",
            "variant": "",
            "game_size": "skirmish",
            **fields,
        }
        response = client.post("/fleets/new/", data)
        assert response.status_code == 302, response.content.decode()[:2000]
        pk = int(response.headers["Location"].strip("/").split("/")[-1])
        return Fleet.objects.get(pk=pk)

    return start


@pytest.fixture
def reprice(tmp_path: Path) -> Callable[[str, int], Path]:
    """A copy of the data files with one Imperial Navy ship at another price: a new catalogue
    for ``loader.load`` (the real files are loaded again by the test when it ends)."""

    def copy(slug: str, points: int) -> Path:
        data = tmp_path / "data"
        shutil.copytree(DATA_DIR, data)
        path = data / "factions" / "imperial-navy.json"
        text, n = re.subn(
            r'("slug": "' + slug + r'",.*?"points": )\d+',
            lambda m: m.group(1) + str(points),
            path.read_text(encoding="utf-8"),
            count=1,
            flags=re.DOTALL,
        )
        assert n == 1
        path.write_text(text, encoding="utf-8")
        return data

    return copy


@pytest.fixture
def fleet(client: Client, start_fleet: Callable[..., Fleet]) -> Fleet:
    return start_fleet(client)


@pytest.fixture
def outsider() -> Client:
    return Client()


@pytest.fixture
def edit(client: Client) -> Callable[..., Any]:
    """POST an edit of ``fleet`` as its owner (as htmx unless ``htmx=False``)."""

    def post(
        fleet: Fleet,
        path: str,
        data: dict[str, Any] | None = None,
        *,
        htmx: bool = True,
        as_client: Client | None = None,
    ) -> Any:
        headers = {"HX-Request": "true"} if htmx else {}
        return (as_client or client).post(f"/fleets/{fleet.pk}/{path}", data or {}, headers=headers)

    return post


# --- escorts alike, sent once: the page copies them (static/js/builder.js) ------------------

MARK = re.compile(
    r'<template data-copy="([^"]+)" data-as="([^"]+)"(?: data-part="([^"]*)")?>'
    r"</template>"
)


def element(body: str, id_: str) -> str:
    """The element of ``body`` with that id, its whole HTML."""
    start = body.rindex("<", 0, body.index(f' id="{id_}"'))
    tag = re.match(r"<(\w+)", body[start:])
    assert tag
    depth = 0
    for m in re.finditer(rf"<(/?){tag.group(1)}\b", body[start:]):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return body[start : body.index(">", start + m.start()) + 1]
    raise AssertionError(id_)


def expand_copies(body: str) -> str:
    """The answer as builder.js hands it to htmx: each mark replaced by its copy."""

    def copy(m: re.Match[str]) -> str:
        first, other, part = m.group(1), m.group(2), m.group(3) or ""
        return as_escort(element(body, first + part), first, other)

    return MARK.sub(copy, body)
