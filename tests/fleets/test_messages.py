"""Messages look like what they say: a success is green and polite
(role="status"), a refusal red and interrupting (role="alert"), on every page that shows them."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains

from fleetbuilder.fleets.models import Fleet


def test_a_copy_from_the_builder_says_so_in_green(client: Client, fleet: Fleet) -> None:
    response = client.post(f"/fleets/{fleet.pk}/copy/", {"open": "copy"}, follow=True)
    assertContains(
        response,
        '<p class="message message--success" role="status">'
        "Saved a copy: “Copy of Untitled Fleet”.</p>",
        html=True,
    )
    assertNotContains(response, 'role="alert"')


def test_a_refused_rename_in_saved_fleets_says_so_in_red(
    client: Client, start_fleet: Callable[..., Fleet]
) -> None:
    fleet = start_fleet(client, name="Bakka Reserve")
    response = client.post(f"/fleets/{fleet.pk}/rename-fleet/", {"name": "x" * 101}, follow=True)
    assertContains(
        response,
        '<p class="message message--error" role="alert">“Bakka Reserve” '
        "keeps its name: Ensure this value has at most 100 characters "
        "(it has 101).</p>",
        html=True,
    )
    assertNotContains(response, "message--success")


def test_a_success_and_an_error_on_one_page_keep_their_own_colours(
    client: Client, start_fleet: Callable[..., Fleet]
) -> None:
    gothic = start_fleet(client, name="Gothic Patrol")
    client.post(f"/fleets/{gothic.pk}/rename-fleet/", {"name": "Gothic Reserve"})
    client.post(f"/fleets/{gothic.pk}/rename-fleet/", {"name": "y" * 101})
    html = client.get("/fleets/").content.decode()
    assert html.index("message--success") < html.index("message--error")
    assertContains(client.get("/fleets/"), "message--", count=0)  # shown once, then gone


def test_the_favicon_is_linked_and_served(client: Client, db) -> None:
    page = client.get("/")
    assertContains(
        page, '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">', html=True
    )
    svg = client.get("/static/favicon.svg")
    assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")
    ico = client.get("/favicon.ico")  # asked for by browsers on any page that names none
    assert ico.status_code == 200
    assert b"".join(ico.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
