"""R-96: the expensive endpoints answer 429 with Retry-After past a client's limit."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from fleetbuilder import ratelimit
from fleetbuilder.fleets import hostile

pytestmark = pytest.mark.django_db

LIMITS = {"cards": 3, "simulator": 2, "import": 3, "sharecode": 4}


@pytest.fixture
def small_limits(settings, monkeypatch) -> None:
    """Small limits, and a clock stopped 20 s into a window (so no test meets the window's
    end by chance)."""
    settings.RATE_LIMITS = LIMITS
    settings.RATE_LIMIT_WINDOW = 60
    monkeypatch.setattr(ratelimit, "_now", lambda: 60.0 * 16_667 + 20)


def _code(catalog) -> str:
    return hostile.raw_code(hostile.max_cards(catalog))


def test_share_code_pages_bite_after_the_limit_per_client(catalog, small_limits: None) -> None:
    code = _code(catalog)
    player, other = Client(REMOTE_ADDR="203.0.113.7"), Client(REMOTE_ADDR="203.0.113.8")
    for _ in range(LIMITS["sharecode"]):
        assert player.get(f"/fleets/code/{code}/").status_code == 200
    refused = player.get(f"/fleets/code/{code}/")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    text = refused.content.decode()
    assert "Too many share-code pages from you: at most 4 every 1 minute" in text
    assert "Please wait" in text
    assert other.get(f"/fleets/code/{code}/").status_code == 200  # another client is served


def test_htmx_gets_only_the_message(catalog, small_limits: None) -> None:
    code = _code(catalog)
    for _ in range(LIMITS["sharecode"]):
        Client().get(f"/fleets/code/{code}/")
    refused = Client().get(f"/fleets/code/{code}/", HTTP_HX_REQUEST="true")
    assert refused.status_code == 429
    assert refused.content.decode().strip().startswith('<p class="alert" role="alert"')
    assert "<html" not in refused.content.decode()


def test_the_count_starts_afresh_in_the_next_window(
    catalog, small_limits: None, monkeypatch
) -> None:
    code = _code(catalog)
    now = [60.0 * 16_667 + 20]  # 20 s into a window
    monkeypatch.setattr(ratelimit, "_now", lambda: now[0])
    client = Client()
    for _ in range(LIMITS["sharecode"]):
        assert client.get(f"/fleets/code/{code}/").status_code == 200
    refused = client.get(f"/fleets/code/{code}/")
    assert refused.status_code == 429 and refused["Retry-After"] == "40"
    now[0] += 40
    assert client.get(f"/fleets/code/{code}/").status_code == 200


def test_signed_in_players_count_by_account_not_address(catalog, small_limits: None) -> None:
    users = get_user_model().objects
    one, two = Client(), Client()
    one.force_login(users.create_user("one", password="a long password 123"))
    two.force_login(users.create_user("two", password="a long password 123"))
    code = _code(catalog)
    for _ in range(LIMITS["sharecode"]):
        one.get(f"/fleets/code/{code}/")
    assert one.get(f"/fleets/code/{code}/").status_code == 429
    assert two.get(f"/fleets/code/{code}/").status_code == 200  # same address, own count


def test_behind_a_trusted_proxy_the_forwarded_address_counts(
    catalog, small_limits: None, settings
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    code = _code(catalog)
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    for _ in range(LIMITS["sharecode"]):
        Client(**proxy, HTTP_X_FORWARDED_FOR="198.51.100.1").get(f"/fleets/code/{code}/")
    first = Client(**proxy, HTTP_X_FORWARDED_FOR="198.51.100.1").get(f"/fleets/code/{code}/")
    second = Client(**proxy, HTTP_X_FORWARDED_FOR="198.51.100.2").get(f"/fleets/code/{code}/")
    assert (first.status_code, second.status_code) == (429, 200)


def test_imports_count_posts_only(catalog, small_limits: None) -> None:
    client = Client()
    text = hostile.file_text(hostile.max_cards(catalog))
    for _ in range(LIMITS["import"]):
        assert client.post("/fleets/import/", {"text": text}).status_code == 200
    assert client.get("/fleets/import/").status_code == 200  # the form itself is free
    refused = client.post("/fleets/import/", {"text": text})
    assert refused.status_code == 429 and "Too many imports" in refused.content.decode()


def test_card_pdfs_are_limited_on_every_route(catalog, small_limits: None, client: Client) -> None:
    code = _code(catalog)
    for _ in range(LIMITS["cards"]):
        # An unknown layout is refused before rendering, but it is counted all the same.
        assert client.get(f"/fleets/code/{code}/cards.pdf?layout=x").status_code == 400
    refused = client.get(f"/fleets/code/{code}/cards.pdf?layout=x")
    assert refused.status_code == 429 and "Too many card PDFs" in refused.content.decode()
    assert client.get("/s/nosuchlink0123456789/cards.pdf").status_code == 429


def test_simulator_starts_are_limited_but_the_form_is_not(
    catalog, small_limits: None, client: Client, held_chunks: list
) -> None:
    data = {
        "battles": 10,
        "max_rounds": 10,
        "scoring": "core",
        "terrain": "none",
        "a_source": "sample",
        "a_faction": "imperial-navy",
        "a_size": "patrol",
        "b_source": "sample",
        "b_faction": "archenemy",
        "b_size": "patrol",
    }
    for _ in range(LIMITS["simulator"]):
        assert client.post("/simulator/", data).status_code in (302, 429)
    refused = client.post("/simulator/", data)
    assert refused.status_code == 429
    assert "Too many simulator runs started" in refused.content.decode()
    assert client.get("/simulator/").status_code == 200


def test_with_a_cache_outage_requests_are_served(catalog, small_limits: None, monkeypatch) -> None:
    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("cache down")

    monkeypatch.setattr(ratelimit.cache, "add", down)
    code = _code(catalog)
    for _ in range(LIMITS["sharecode"] + 2):
        assert Client().get(f"/fleets/code/{code}/").status_code == 200
