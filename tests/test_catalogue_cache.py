"""Catalogue pages are cached and ETagged on the catalogue version (catalog/pagecache.py)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from fleetbuilder.catalog import loader, pagecache
from fleetbuilder.catalog.models import CatalogState
from rules_core.catalog import DATA_DIR

pytestmark = pytest.mark.django_db

SHIP = "/ships/imperial-navy/lunar-class-cruiser/"
PAGES = ("/", "/ships/", "/ships/imperial-navy/", SHIP, "/rules/")
TOKEN = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def visit(client: Client, url: str, **headers: str):
    response = client.get(url, headers=headers)
    assert response.status_code in (200, 304), url
    return response


def warm(client: Client, url: str, capture) -> None:
    """A first visit, committed (the version reaches the shared cache after commit)."""
    with capture(execute=True):
        visit(client, url)


def without_token(body: bytes) -> str:
    return TOKEN.sub("", body.decode())


@pytest.mark.parametrize("url", PAGES)
def test_a_repeat_visit_is_served_from_the_cache_without_queries(
    client, catalog, url, django_assert_num_queries, django_capture_on_commit_callbacks
) -> None:
    warm(client, url, django_capture_on_commit_callbacks)
    first = without_token(client.get(url).content)
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.status_code == 200
    assert without_token(again.content) == first
    assert again["Cache-Control"] == "private, no-cache"
    assert {"Cookie", "HX-Request"} <= {v.strip() for v in again["Vary"].split(",")}


def test_the_cached_page_is_the_page_rendered_from_the_database(client, catalog) -> None:
    fresh = client.get(SHIP)  # a miss: rendered from the database
    cached = client.get(SHIP)  # a hit
    assert without_token(fresh.content) == without_token(cached.content)
    body = cached.content.decode()
    assert "<title>Lunar" in body and "Ship Types" in body and 'aria-current="page"' in body
    assert body.count('<main id="main"') == 1 and body.count("</html>") == 1


def test_if_none_match_gets_304_without_rendering_or_queries(
    client, catalog, django_assert_num_queries, django_capture_on_commit_callbacks
) -> None:
    first = client.get(SHIP)
    assert "ETag" not in first, "no CSRF cookie yet: the response sets it, no ETag"
    warm(client, SHIP, django_capture_on_commit_callbacks)
    response = client.get(SHIP)
    etag = response["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{40}"', etag), "a strong ETag"
    with django_assert_num_queries(0):
        not_modified = client.get(SHIP, headers={"if-none-match": etag})
    assert not_modified.status_code == 304
    assert not_modified.content == b""
    assert not_modified["ETag"] == etag
    assert not_modified["Cache-Control"] == "private, no-cache"
    assert "Content-Security-Policy" not in not_modified
    assert client.get(SHIP, headers={"if-none-match": '"other"'}).status_code == 200
    other_page = client.get("/rules/")["ETag"]
    assert other_page != etag
    htmx = client.get(SHIP, headers={"hx-request": "true"})
    assert htmx["ETag"] not in (etag, other_page)


def test_a_changed_catalogue_gives_a_new_etag_and_fresh_content(
    client, catalog, tmp_path: Path, django_capture_on_commit_callbacks
) -> None:
    warm(client, SHIP, django_capture_on_commit_callbacks)
    before = client.get(SHIP)
    assert "Wrath of the Loader" not in before.content.decode()
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    target = data / "factions" / "imperial-navy.json"
    doc = json.loads(target.read_text())
    lunar = next(s for s in doc["ships"] if s["slug"] == "lunar-class-cruiser")
    lunar["description"] = "Wrath of the Loader."
    target.write_text(json.dumps(doc))
    old_version = CatalogState.current_version()
    with django_capture_on_commit_callbacks(execute=True):
        result = loader.load(data, force=True)
    assert result.loaded and result.version != old_version
    assert pagecache.catalogue_version() == result.version
    after = client.get(SHIP, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200, "the old ETag no longer matches"
    assert after["ETag"] != before["ETag"]
    assert "Wrath of the Loader." in after.content.decode()
    # A forced reload of the same files keeps the version, so the ETag too.
    with django_capture_on_commit_callbacks(execute=True):
        loader.load(data, force=True)
    assert client.get(SHIP, headers={"if-none-match": after["ETag"]}).status_code == 304


def test_an_admin_edit_changes_the_version_at_once(client, catalog) -> None:
    from fleetbuilder.catalog.models import ShipProfile

    client.get(SHIP)
    before = client.get(SHIP)
    ship = ShipProfile.objects.get(slug="lunar-class-cruiser")
    ship.description = "Edited in the admin."
    ship.save()
    after = client.get(SHIP, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200 and "Edited in the admin." in after.content.decode()


def test_the_version_is_read_from_the_shared_cache_and_replaced_on_change(
    catalog, django_assert_num_queries, django_capture_on_commit_callbacks
) -> None:
    version = CatalogState.current_version()
    with django_capture_on_commit_callbacks(execute=True):
        assert pagecache.catalogue_version() == version  # read from the database
    with django_assert_num_queries(0):
        assert pagecache.catalogue_version() == version
        assert loader.core_catalog().version == version
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        pagecache.version_changed("next")
    assert cache.get(pagecache.VERSION_KEY) is None, "deleted at once"
    for callback in callbacks:
        callback()
    assert cache.get(pagecache.VERSION_KEY) == "next", "written after commit"


def test_an_uncommitted_read_does_not_reach_the_shared_cache(catalog) -> None:
    pagecache.catalogue_version()  # inside the test's transaction, which never commits
    assert cache.get(pagecache.VERSION_KEY) is None


def test_a_players_name_never_reaches_another_visitor(client, catalog) -> None:
    player = get_user_model().objects.create_user("zed_the_admiral", password="x" * 20)
    signed_in = Client()
    signed_in.force_login(player)
    anonymous = client
    for url in PAGES:
        visit(anonymous, url)
        visit(signed_in, url)
    for url in PAGES:  # every page is cached now, in both orders
        anon = visit(anonymous, url)
        mine = visit(signed_in, url)
        anon_body, mine_body = anon.content.decode(), mine.content.decode()
        assert "zed_the_admiral" not in anon_body and "Log in" in anon_body, url
        assert "zed_the_admiral" in mine_body and "Log in" not in mine_body, url
        assert anon["ETag"] != mine["ETag"]
        # The other visitor's ETag never yields a 304.
        assert visit(anonymous, url, if_none_match=mine["ETag"]).status_code == 200
        other = visit(signed_in, url, if_none_match=anon["ETag"])
        assert other.status_code == 200 and "zed_the_admiral" in other.content.decode()


def test_each_visitor_gets_a_token_for_their_own_csrf_cookie(catalog) -> None:
    from django.middleware.csrf import _unmask_cipher_token

    secrets = set()
    for _ in range(2):
        visitor = Client()
        visit(visitor, SHIP)
        body = visit(visitor, SHIP).content.decode()
        token = TOKEN.search(body).group(1)
        secret = visitor.cookies["csrftoken"].value
        assert _unmask_cipher_token(token) == secret
        secrets.add(secret)
    assert len(secrets) == 2


def test_logging_in_changes_the_etag(client, catalog) -> None:
    visit(client, SHIP)
    anonymous = visit(client, SHIP)["ETag"]
    player = get_user_model().objects.create_user("newly_in", password="x" * 20)
    client.force_login(player)
    response = visit(client, SHIP, if_none_match=anonymous)
    assert response.status_code == 200 and "newly_in" in response.content.decode()


def test_unknown_pages_are_404_and_not_cached(client, catalog) -> None:
    for _ in range(2):
        assert client.get("/ships/imperial-navy/no-such-ship/").status_code == 404
        assert client.get("/ships/no-such-faction/").status_code == 404
    assert not [k for k in cache._cache if "catalog:page" in k]  # type: ignore[attr-defined]
