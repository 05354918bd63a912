"""Shared pieces of the security suite: browsers that enforce CSRF like a real one, players
(an owner, another account, an anonymous visitor), fleets and runs to attack, the URL
resolver walked into a flat list, and an HTML reader that finds markup made of user data."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.ownership import new_owner_token
from fleetbuilder.simulator.models import Matchup
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet
from rules_core.sim import SimOptions

PASSWORD = "a long password for tests 9"


# --- browsers -------------------------------------------------------------------------------


class CsrfClient(Client):
    """A test client that checks CSRF as production does, and posts with its own valid token
    (the one a page would have given it) unless told ``token=False``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(enforce_csrf_checks=True, **kwargs)

    def csrf_token(self) -> str:
        if "csrftoken" not in self.cookies:
            response = self.get("/fleets/new/")
            assert response.status_code == 200
        return self.cookies["csrftoken"].value

    def send(
        self,
        method: str,
        url: str,
        data: dict[str, Any] | None = None,
        *,
        token: bool = True,
        **kwargs: Any,
    ) -> Any:
        if method == "GET":
            return self.get(url, data or {}, **kwargs)
        payload = dict(data or {})
        if token:
            payload["csrfmiddlewaretoken"] = self.csrf_token()
        return self.post(url, payload, **kwargs)


@pytest.fixture
def make_account(db) -> Callable[[str], CsrfClient]:
    """A signed-in browser of a new account named ``username``."""

    def make(username: str) -> CsrfClient:
        user = get_user_model().objects.create_user(username, password=PASSWORD)
        browser = CsrfClient()
        browser.force_login(user)
        browser.user = user  # type: ignore[attr-defined]
        return browser

    return make


@pytest.fixture
def owner(make_account: Callable[[str], CsrfClient]) -> CsrfClient:
    return make_account("owner")


@pytest.fixture
def other(make_account: Callable[[str], CsrfClient]) -> CsrfClient:
    return make_account("rival")


@pytest.fixture
def anonymous(db) -> CsrfClient:
    return CsrfClient()


# --- things to attack -----------------------------------------------------------------------


def small_fleet(catalog: Any, **changes: Any) -> rf.Fleet:
    """The Imperial Navy Patrol sample (a few ships, one squadron): quick to print and play."""
    doc = sample_fleet(catalog, "imperial-navy", "patrol")
    return replace(doc, **changes) if changes else doc


def first_squadron(doc: rf.Fleet) -> int:
    return next(i for i, u in enumerate(doc.units) if isinstance(u, rf.Squadron))


@pytest.fixture
def make_fleet(catalog: Any) -> Callable[..., Fleet]:
    """Save ``doc`` (default: the small sample) as a fleet of ``browser``: of its account if it
    is signed in, else of its session's owner token (made here, as the builder would)."""

    def make(
        browser: CsrfClient,
        doc: rf.Fleet | None = None,
        *,
        shared: bool = False,
        trashed: bool = False,
    ) -> Fleet:
        user = getattr(browser, "user", None)
        token = ""
        if user is None:
            session = browser.session
            token = new_owner_token()
            session["fleet_owner_token"] = token
            session.save()
        fleet = Fleet.from_core(doc or small_fleet(catalog), catalog, owner=user, owner_token=token)
        if shared:
            fleet.share()
        if trashed:
            fleet.trash()
        return fleet

    return make


def fleet_state(fleet: Fleet) -> tuple[Any, ...]:
    """Everything a refused request must leave as it was."""
    fleet = Fleet.objects.get(pk=fleet.pk)
    return (
        fleet.document,
        fleet.name,
        getattr(fleet, "version", None),
        fleet.updated,
        fleet.deleted_at,
        fleet.share_id,
        fleet.share_enabled,
        fleet.owner_id,
        fleet.session_key,
        fleet.last_removed,
    )


@pytest.fixture
def make_run(catalog: Any, held_chunks: list[tuple[int, int]]) -> Callable[..., Matchup]:
    """A queued (never played: its chunks are held) 4-battle run of two sample fleets."""

    def make(browser: CsrfClient, doc: rf.Fleet | None = None) -> Matchup:
        user = getattr(browser, "user", None)
        token = ""
        if user is None:
            session = browser.session
            token = session.get("fleet_owner_token") or new_owner_token()
            session["fleet_owner_token"] = token
            session.save()
        a = doc or small_fleet(catalog)
        b = sample_fleet(catalog, "orks", "patrol")
        sources = {
            "a": {"kind": "fleet", "fleet": 0, "label": a.name or "Fleet A"},
            "b": {
                "kind": "sample",
                "faction": "orks",
                "size": "patrol",
                "variant": None,
                "label": f"{b.name} (sample)",
            },
        }
        return Matchup.start(
            fleet_a=a,
            fleet_b=b,
            sources=sources,
            options=SimOptions(),
            seed=7,
            battles=4,
            owner=user,
            owner_token=token,
        )

    return make


def run_state(run: Matchup) -> tuple[Any, ...]:
    run = Matchup.objects.get(pk=run.pk)
    return (
        run.status,
        run.fleet_a,
        run.fleet_b,
        run.owner_id,
        run.session_key,
        run.battles,
        run.seed,
        run.done,
        run.finished,
    )


# --- the URL resolver -----------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str  # "namespace:name" ("" for an unnamed pattern)
    route: str  # the pattern's text, prefixes joined ("fleets/<int:pk>/share/")
    params: frozenset[str]  # the URL's arguments (converters, or a regex's groups)
    callback: Callable[..., Any]


def walk(
    patterns: list[Any] | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[Route]:
    """Every URL pattern of the site, with its full route and the arguments it takes."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        text = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            ns = entry.namespace or ""
            inner = f"{namespace}:{ns}".strip(":") if ns else namespace
            yield from walk(entry.url_patterns, text, inner)
        elif isinstance(entry, URLPattern):
            params = set(getattr(entry.pattern, "converters", {}) or {})
            params |= set(entry.pattern.regex.groupindex)
            name = f"{namespace}:{entry.name}" if entry.name and namespace else entry.name or ""
            yield Route(name, text, frozenset(params), entry.callback)


# --- reading HTML ---------------------------------------------------------------------------


# Attributes a browser follows or loads as a URL (an input's value is only text).
URL_ATTRIBUTES = {
    "href",
    "src",
    "action",
    "formaction",
    "xlink:href",
    "data",
    "poster",
    "background",
    "srcset",
    "hx-get",
    "hx-post",
    "hx-put",
    "hx-delete",
    "hx-patch",
    "ping",
}


class PageReader(HTMLParser):
    """What a browser would run or load from a page, and the text and values it shows."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []  # each <script>'s src ("" for an inline one)
        self.handlers: list[str] = []  # on* attributes
        self.js_urls: list[str] = []  # javascript: in any attribute
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.texts: list[str] = []  # text nodes, and attribute values (an input's value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k.lower(): v or "" for k, v in attrs}
        self.tags.append((tag, names))
        if tag == "script":
            self.scripts.append(names.get("src", ""))
        for key, value in names.items():
            self.texts.append(value)
            if key.startswith("on"):
                self.handlers.append(f"<{tag} {key}={value!r}>")
            if key in URL_ATTRIBUTES and value.strip().lower().startswith(
                ("javascript:", "vbscript:", "data:text/html")
            ):
                self.js_urls.append(f"<{tag} {key}={value!r}>")

    handle_startendtag = handle_starttag

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def read_page(html: str) -> PageReader:
    reader = PageReader()
    reader.feed(html)
    reader.close()
    return reader


# --- a server that must get no request ------------------------------------------------------


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:
        _Recorder.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@dataclass
class Trap:
    url: str
    hits: list[str]


@pytest.fixture
def trap() -> Iterator[Trap]:
    """A real HTTP server on 127.0.0.1 that records every request; nothing should reach it."""
    _Recorder.hits = []
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield Trap(f"http://127.0.0.1:{httpd.server_address[1]}", _Recorder.hits)
    httpd.shutdown()
    httpd.server_close()
