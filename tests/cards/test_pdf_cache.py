"""Card PDFs come from the shared cache the second time, with a strong ETag and 304s."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from django.core.cache import cache
from django.test import Client

from fleetbuilder.cards import printing
from fleetbuilder.fleets.models import Fleet
from rules_core.sample_fleets import sample_fleet
from tests.support.timing import bound

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the renders the views make (one entry per PDF rendered)."""
    made: list[int] = []
    real = printing.render_cards

    def counting(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(printing, "render_cards", counting)
    return made


@pytest.fixture
def fleet(client: Client, catalog) -> Fleet:
    response = client.post(
        "/fleets/new/", {"name": "Da Boyz", "faction": "orks", "variant": "", "game_size": "patrol"}
    )
    fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
    fleet.store(replace(sample_fleet(catalog, "orks", "patrol"), name="Da Boyz"), catalog)
    fleet.save()
    return fleet


def test_a_repeat_download_is_served_from_the_cache(
    client: Client, fleet: Fleet, renders: list[int]
) -> None:
    url = f"/cards/fleet/{fleet.pk}/?layout=a4"
    first = client.get(url)
    start = time.perf_counter()
    second = client.get(url)
    seconds = time.perf_counter() - start
    assert first.status_code == second.status_code == 200
    assert second.content == first.content and second["ETag"] == first["ETag"]
    assert len(renders) == 1  # the second download rendered nothing
    assert seconds < bound(0.5), seconds  # the goal is 50 ms: bench_cards measures it


def test_a_conditional_request_gets_304_without_rendering(
    client: Client, fleet: Fleet, renders: list[int]
) -> None:
    url = f"/cards/fleet/{fleet.pk}/?layout=poker"
    etag = client.get(url)["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")  # strong
    cache.clear()  # not even the cache is read: the key alone answers
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304 and response["ETag"] == etag
    assert response.content == b""
    assert len(renders) == 1
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200


def test_a_changed_fleet_gives_a_new_pdf_and_a_new_etag(
    client: Client, fleet: Fleet, catalog, renders: list[int]
) -> None:
    url = f"/cards/fleet/{fleet.pk}/?layout=poker"
    before = client.get(url)
    fleet.store(replace(fleet.to_core(), name="Da Uvver Boyz"), catalog)
    fleet.save()
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"] and after.content != before.content
    assert len(renders) == 2


@pytest.mark.parametrize("query", ["?layout=a4", "?ink=1", "?layout=letter&ink=1"])
def test_each_option_is_its_own_pdf(client: Client, fleet: Fleet, query: str) -> None:
    plain = client.get(f"/cards/fleet/{fleet.pk}/")["ETag"]
    assert client.get(f"/cards/fleet/{fleet.pk}/{query}")["ETag"] != plain


def test_a_new_catalogue_version_or_cards_build_changes_the_key(
    fleet: Fleet, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fleetbuilder import pdfcache

    options = pdfcache.PrintOptions("poker", False, None)
    key = pdfcache.pdf_key(fleet.document, options)
    monkeypatch.setattr(pdfcache, "catalogue_version", lambda: "another version")
    assert pdfcache.pdf_key(fleet.document, options) != key
    monkeypatch.undo()
    monkeypatch.setattr(pdfcache, "cards_build", lambda: "another build")
    assert pdfcache.pdf_key(fleet.document, options) != key


def test_the_document_hash_ignores_key_order(fleet: Fleet) -> None:
    from fleetbuilder.pdfcache import document_hash

    shuffled = dict(reversed(list(fleet.document.items())))
    assert document_hash(shuffled) == document_hash(fleet.document)


def test_a_cached_pdf_is_still_only_the_owners(client: Client, fleet: Fleet) -> None:
    url = f"/cards/fleet/{fleet.pk}/"
    response = client.get(url)
    assert response.status_code == 200
    stranger = Client()
    assert stranger.get(url).status_code == 404
    assert stranger.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 404


def test_the_shared_link_serves_the_cache_too(
    client: Client, fleet: Fleet, renders: list[int]
) -> None:
    if not hasattr(fleet, "share"):
        pytest.skip("sharing is not in this build")
    fleet.share()
    url = fleet.share_url_path() + "cards.pdf?layout=a4"
    visitor = Client()
    first = visitor.get(url)
    assert first.status_code == 200
    again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert Client().get(url).content == first.content
    assert len(renders) == 1


def test_editing_a_card_template_changes_the_cards_build(tmp_path, monkeypatch) -> None:
    """A cached PDF made before a template changed is never served after it."""
    import shutil

    from fleetbuilder import pdfcache

    copy = tmp_path / "cards"
    shutil.copytree(pdfcache.CARDS_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(pdfcache, "CARDS_DIR", copy)
    before = pdfcache.cards_build.__wrapped__()
    template = copy / "templates" / "card.html"
    template.write_text(
        template.read_text(encoding="utf-8").replace("Critical hits", "Crits"), encoding="utf-8"
    )
    assert pdfcache.cards_build.__wrapped__() != before
