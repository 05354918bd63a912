"""The site's own error pages: a lost player gets a way back, not Django's bare page."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=False)
def test_an_unknown_page_gets_the_site_404_with_links_back(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "<h1>Nothing here</h1>" in html
    assert 'href="/fleets/"' in html and 'class="site-header"' in html


@override_settings(DEBUG=False)
def test_another_browsers_fleet_is_the_same_404(client: Client) -> None:
    owner = Client()
    created = owner.post("/fleets/new/", {"faction": "orks", "game_size": "patrol", "name": "Mine"})
    assert created.status_code == 302
    response = client.get(created.headers["Location"])
    assert response.status_code == 404
    assert "<h1>Nothing here</h1>" in response.content.decode()


def test_the_500_page_needs_no_context(client: Client) -> None:
    from django.template.loader import get_template

    html = get_template("500.html").render({})
    assert "Something went wrong" in html and "saved fleets are safe" in html


@override_settings(DEBUG=False)
@pytest.mark.parametrize("path", ["/simulator/", "/pack/", "/fleets/new/"])
def test_a_form_too_large_to_read_gets_the_site_400_saying_why(client: Client, path: str) -> None:
    response = client.post(path, {"notes": "x" * (600 * 1024)})
    assert response.status_code == 400
    html = response.content.decode()
    assert "<h1>That request could not be read</h1>" in html
    assert "too many fields" in html and "Nothing was changed" in html
    response = client.post(path, {f"f{n}": "1" for n in range(1500)})  # too many fields
    assert response.status_code == 400
    assert "That request could not be read" in response.content.decode()
