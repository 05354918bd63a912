"""Catalogue pages are cached and ETagged on the catalogue version.

What is cached, and why not whole responses
-------------------------------------------
Every page's shell (``templates/base.html``) is per visitor: the nav shows the signed-in
player's name or the log-in links (with ``?next=`` the current path), and ``<body hx-headers>``
carries a CSRF token tied to the visitor's ``csrftoken`` cookie (a shared page would hand one
visitor's token to everyone). A CSP nonce may join them. So a whole response is never cached or
shared. What *is* the same for everyone is the page's own part: the ``title``, ``head``,
``breadcrumbs``, ``content`` and ``scripts`` blocks of ``templates/catalog/*.html``.

:func:`cached_page` renders those blocks once per (catalogue version, build, template, path)
**without the request** (no ``user``, ``csrf_token`` or ``request`` in their context, so nothing
per visitor can get into them), keeps them in Django's default cache (Redis in production,
shared by every process; per process in tests) and renders only the thin shell per request
around them. A cached page costs no catalogue query: the slow part (the catalogue queries and
the large content templates) happens once per catalogue version, the shell costs well under a
millisecond, and a visitor without a session cookie costs no query at all. Unknown slugs (404)
are not cached, and the key uses the path without the query string, so made-up URLs cannot
fill the cache.

Conditional requests
--------------------
:func:`catalogue_page` gives each response a strong ETag: a hash of the catalogue version, the
build (the catalogue's templates, code and the static manifest, so a deploy that changes a page
or a hashed static name changes it), the path, whether it is an htmx request, and the visitor's
shell: the CSRF cookie and, for a browser with a session, the player's id and name. So a player
never gets a 304 for a page rendered for someone else or before logging in or out (which
rotates the CSRF cookie). A matching ``If-None-Match`` gets 304 before the view runs: nothing
is rendered, and a visitor without a session cookie costs no query (one with a session costs
the session read, and the user's when signed in — the name is part of the shell). A browser
without a CSRF cookie gets no ETag (its next page sets the cookie and gets one).
``Cache-Control: private, no-cache``: only the browser may store the page (the shell is
personal, so no shared cache or CDN), and it revalidates each time (so a log-in shows at once).
The 304 carries no Content-Security-Policy header: the browser keeps the one stored with the
page, whose nonce matches the page's body.

The catalogue version
---------------------
:func:`catalogue_version` reads the version from the shared cache, so a request costs no query
for it. ``loader.load`` and admin edits (``signals``) call :func:`version_changed`: the key is
deleted at once and the new version written when their transaction commits. A version read
from the database is put in the cache only after the reading transaction commits and only if
the key is absent (``cache.add``), so a reader that raced a reload can never put the old
version back, and a rolled-back change (a test) never leaves its version behind. Nothing about
the version is kept in a process's memory beyond one request.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.http import condition

from .models import CatalogState

log = logging.getLogger(__name__)

VERSION_KEY = "catalog:version"
VERSION_TTL = 24 * 60 * 60  # written again at every change; the TTL only bounds a lost write
PAGE_TTL = 7 * 24 * 60 * 60  # a page's key holds the version, so an old page just ages out
BLOCKS = ("title", "head", "breadcrumbs", "content", "scripts")
BLOCKS_TEMPLATE = "catalog/_blocks.html"  # renders the blocks only, split by SEPARATOR
SHELL_TEMPLATE = "catalog/_page.html"  # extends base.html with the cached blocks
SEPARATOR = "<!--catalogue-block-->"
CACHE_CONTROL = "private, no-cache"

_ROOT = Path(__file__).resolve().parents[2]


def _cache_get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:
        log.warning("cache unavailable for %s", key, exc_info=True)
        return None


def _cache_call(method: str, *args: Any) -> None:
    try:
        getattr(cache, method)(*args)
    except Exception:
        log.warning("cache unavailable for %s %s", method, args[0], exc_info=True)


# --- the catalogue version -------------------------------------------------------------------


def catalogue_version(request: HttpRequest | None = None) -> str:
    """The loaded catalogue's version: from the shared cache, else from the database."""
    if request is not None and hasattr(request, "_catalogue_version"):
        return request._catalogue_version  # type: ignore[attr-defined]
    version = _cache_get(VERSION_KEY)
    if not isinstance(version, str):
        version = CatalogState.current_version()
        if version:
            # After commit (at once outside a transaction): an uncommitted or rolled-back version
            # never reaches other processes; add() never overwrites what a reload wrote.
            transaction.on_commit(lambda: _cache_call("add", VERSION_KEY, version, VERSION_TTL))
    if request is not None:
        request._catalogue_version = version  # type: ignore[attr-defined]
    return version


def version_changed(version: str) -> None:
    """Called where the version is written (the loader, admin edits), inside its transaction."""
    _cache_call("delete", VERSION_KEY)
    transaction.on_commit(lambda: _cache_call("set", VERSION_KEY, version, VERSION_TTL))


# --- the build -------------------------------------------------------------------------------


@functools.cache
def build_id() -> str:
    """A hash of what, besides the catalogue, decides a catalogue page: its templates, the
    catalogue app's code, rules_core's catalogue values and the static files' manifest."""
    digest = hashlib.sha256()
    sources = sorted((_ROOT / "templates" / "catalog").rglob("*.html"))
    sources += sorted(Path(__file__).resolve().parent.glob("*.py"))
    sources += sorted((_ROOT / "rules_core").glob("catalog*.py"))
    if settings.STATIC_ROOT:
        sources.append(Path(settings.STATIC_ROOT) / "staticfiles.json")
    for path in sources:
        try:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()[:16]


# --- conditional GET -------------------------------------------------------------------------


def _visitor(request: HttpRequest) -> str | None:
    """What the shell shows this visitor; None without a CSRF cookie (no ETag then)."""
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
    if not csrf:
        return None
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return f"{csrf}|anonymous"
    user = request.user  # the session read; and the user's when signed in
    if not user.is_authenticated:
        return f"{csrf}|anonymous"
    return f"{csrf}|{user.pk}|{user.get_username()}"


def page_etag(request: HttpRequest, *args: Any, **kwargs: Any) -> str | None:
    visitor = _visitor(request)
    if visitor is None:
        return None
    htmx = "htmx" if request.headers.get("HX-Request") == "true" else "page"
    parts = (catalogue_version(request), build_id(), request.path, htmx, visitor)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:40]


def catalogue_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """ETag, ``If-None-Match`` → 304 without rendering, and the cache headers."""
    conditional = condition(etag_func=page_etag)(view)

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = conditional(request, *args, **kwargs)
        if response.status_code in (200, 304):
            response["Cache-Control"] = CACHE_CONTROL
            patch_vary_headers(response, ("Cookie", "HX-Request"))
        if response.status_code == 304:
            response._csp_exempt = True  # type: ignore[attr-defined]
            response._csp_exempt_ro = True  # type: ignore[attr-defined]
        return response

    return wrapper


# --- the cached page blocks ------------------------------------------------------------------


def _page_key(request: HttpRequest, template: str) -> str:
    raw = f"{build_id()}\n{catalogue_version(request)}\n{template}\n{request.path}"
    return "catalog:page:" + hashlib.sha256(raw.encode()).hexdigest()[:40]


def render_blocks(template: str, context: Mapping[str, Any]) -> dict[str, str]:
    """A catalogue template's blocks, rendered without a request (nothing per visitor)."""
    text = render_to_string(template, {**context, "page_base": BLOCKS_TEMPLATE})
    values = text.split(SEPARATOR)
    if len(values) != len(BLOCKS):
        raise ValueError(f"{template}: a block holds the separator {SEPARATOR!r}")
    return dict(zip(BLOCKS, values, strict=True))


def cached_page(
    request: HttpRequest, template: str, build_context: Callable[[], Mapping[str, Any]]
) -> HttpResponse:
    """Serve ``template``'s blocks from the cache (``build_context`` runs only on a miss; it
    may raise Http404, which is not cached) inside a shell rendered for this visitor."""
    key = _page_key(request, template)
    blocks = _cache_get(key)
    if not isinstance(blocks, dict):
        blocks = render_blocks(template, build_context())
        _cache_call("set", key, blocks, PAGE_TTL)
    page = {name: mark_safe(value) for name, value in blocks.items()}
    return render(request, SHELL_TEMPLATE, {"page": page})
