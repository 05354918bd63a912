"""Starting a fleet and adding to one from the catalogue: the new-fleet form
remembers the last faction and size, takes ``?faction=`` and ``?ship=``; "Add to my fleet"
lists the visitor's own fleets of the ship's faction; the catalogue's links are the same for
every visitor (its pages are cached for everyone)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from pytest_django.asserts import assertInHTML

from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db

LUNAR = "lunar-class-cruiser"


def selected(page: str, name: str) -> str:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, name
    chosen = re.search(r'<option value="([^"]*)" selected>', select.group(1))
    return chosen.group(1) if chosen else ""


def test_the_form_remembers_the_last_faction_and_size(client: Client, start_fleet: Any) -> None:
    page = client.get("/fleets/new/").content.decode()
    assert (selected(page, "faction"), selected(page, "game_size")) == ("", "skirmish")
    start_fleet(client, faction="orks", game_size="battle")
    page = client.get("/fleets/new/").content.decode()
    assert (selected(page, "faction"), selected(page, "game_size")) == ("orks", "battle")
    # Another browser does not see this one's choices.
    other = Client().get("/fleets/new/").content.decode()
    assert selected(other, "faction") == ""


def test_a_faction_in_the_address_is_preselected(client: Client, catalog: Any) -> None:
    page = client.get("/fleets/new/?faction=tyranids").content.decode()
    assert selected(page, "faction") == "tyranids"
    page = client.get("/fleets/new/?faction=%3Cscript%3E").content.decode()
    assert selected(page, "faction") == ""


def test_start_a_fleet_with_the_ship_of_the_page(client: Client, catalog: Any) -> None:
    page = client.get(f"/fleets/new/?ship={LUNAR}").content.decode()
    assert selected(page, "faction") == "imperial-navy"
    assertInHTML(f'<input type="hidden" name="ship" value="{LUNAR}">', page)
    assert "The fleet starts with a Lunar Class Cruiser." in page
    response = client.post(
        f"/fleets/new/?ship={LUNAR}",
        {
            "name": "",
            "faction": "imperial-navy",
            "variant": "",
            "game_size": "skirmish",
            "ship": LUNAR,
        },
    )
    assert response.status_code == 302
    fleet = Fleet.objects.get()
    assert [u["ship"] for u in fleet.document["units"]] == [LUNAR]
    assert fleet.document["units"][0]["flagship"] is True


def test_a_ship_of_another_faction_is_not_added_and_the_player_is_told(
    client: Client, catalog: Any
) -> None:
    response = client.post(
        "/fleets/new/",
        {"name": "", "faction": "orks", "variant": "", "game_size": "skirmish", "ship": LUNAR},
        follow=True,
    )
    assert Fleet.objects.get().document["units"] == []
    assert "Lunar Class Cruiser was not added: That ship is not in this fleet" in (
        response.content.decode()
    )


@pytest.mark.parametrize(
    "ship", ["nope", "x" * 5000, "%00", "lunar-class-cruiser%0A", "ＬＵＮＡＲ"]
)
def test_a_bad_ship_in_the_address_is_ignored(client: Client, catalog: Any, ship: str) -> None:
    response = client.get(f"/fleets/new/?ship={ship}")
    assert response.status_code in (200, 400)  # a control character is refused before any view
    assert 'name="ship"' not in response.content.decode()


# --- Add to my fleet ------------------------------------------------------------------------


def test_add_to_my_fleet_lists_my_fleets_of_that_faction(
    client: Client, start_fleet: Any, outsider: Client
) -> None:
    mine = start_fleet(client, name="Gothic Patrol")
    start_fleet(client, name="Waaagh", faction="orks")
    start_fleet(outsider, name="Not yours")
    page = client.get(f"/fleets/add/?ship={LUNAR}").content.decode()
    assert "Add Lunar Class Cruiser to a fleet" in page
    assert "Gothic Patrol" in page and "Waaagh" not in page and "Not yours" not in page
    assert f'action="/fleets/{mine.pk}/add-ship/"' in page
    assert f'href="/fleets/new/?ship={LUNAR}"' in page

    # Its button is the builder's own Add: back to the builder, on the new unit.
    response = client.post(f"/fleets/{mine.pk}/add-ship/", {"ship": LUNAR})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/fleets/{mine.pk}/#unit-0"
    mine.refresh_from_db()
    assert [u["ship"] for u in mine.document["units"]] == [LUNAR]


def test_add_to_my_fleet_without_fleets_offers_a_new_one(client: Client, catalog: Any) -> None:
    page = client.get(f"/fleets/add/?ship={LUNAR}").content.decode()
    assert "You have no Imperial Navy fleet yet in this browser." in page
    assert "Start a new Imperial Navy fleet with it" in page


def test_add_to_my_fleet_of_an_unknown_ship_is_404(client: Client, catalog: Any) -> None:
    assert client.get("/fleets/add/?ship=no-such-ship").status_code == 404
    assert client.get("/fleets/add/?ship=" + "x" * 5000).status_code == 404
    assert client.get("/fleets/add/").status_code == 200  # points to Ship Types
    assert client.post(f"/fleets/add/?ship={LUNAR}").status_code == 405


# --- the catalogue's links ------------------------------------------------------------------


def test_catalogue_pages_offer_start_and_add_the_same_for_everyone(
    client: Client, start_fleet: Any, outsider: Client
) -> None:
    start_fleet(client, name="Secret Fleet Name")
    home = client.get("/").content.decode()
    assertInHTML('<a class="button" href="/fleets/new/">Start a fleet</a>', home)
    faction = client.get("/ships/imperial-navy/").content.decode()
    assertInHTML(
        '<a class="button" href="/fleets/new/?faction=imperial-navy">Start a fleet</a>', faction
    )
    ship_url = f"/ships/imperial-navy/{LUNAR}/"
    for visitor in (client, outsider):
        page = visitor.get(ship_url).content.decode()
        assertInHTML(
            f'<a class="button" href="/fleets/add/?ship={LUNAR}">Add to my fleet</a>', page
        )
        assertInHTML(
            f'<a class="button button--ghost" href="/fleets/new/?ship={LUNAR}">'
            "Start a fleet with it</a>",
            page,
        )
        assert "Secret Fleet Name" not in page
