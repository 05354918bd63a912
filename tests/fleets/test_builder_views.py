"""The builder through the test client: every edit, its access rules, and the no-JS flow."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from pytest_django.asserts import assertInHTML

from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db

# (path, data) of every mutating view, on a fleet holding a flagship cruiser and a squadron.
EDITS = [
    ("settings/", {"name": "X", "variant": "", "game_size": "battle"}),
    ("add-ship/", {"ship": "lunar-class-cruiser"}),
    ("new-squadron/", {}),
    ("undo/", {}),
    ("units/1/add-escort/", {"ship": "sword-class-frigate"}),
    ("units/1/move/", {"ship": 0, "to": "new"}),
    ("units/0/flagship/", {}),
    ("units/0/admiral/", {"admiral": "commodore"}),
    ("units/0/upgrades/add/", {"upgrade": "veteran-crew"}),
    ("units/0/upgrades/remove/", {"upgrade": "veteran-crew"}),
    ("units/0/rename/", {"name": "Emperor's Wrath"}),
    ("units/0/duplicate/", {}),
    ("units/0/remove/", {}),
]


@pytest.fixture
def built(fleet: Fleet, edit) -> Fleet:
    """A Lunar (flagship, by being the first capital ship) and a squadron of two Swords."""
    edit(fleet, "add-ship/", {"ship": "lunar-class-cruiser"})
    edit(fleet, "add-ship/", {"ship": "sword-class-frigate"})
    edit(fleet, "units/1/add-escort/", {"ship": "sword-class-frigate"})
    fleet.refresh_from_db()
    return fleet


def price(slug: str) -> int:
    """A ship's price in the loaded catalogue (prices are calibrated; tests don't copy them)."""
    from fleetbuilder.catalog.loader import core_catalog

    return next(s.points for f in core_catalog().factions for s in f.ships if s.slug == slug)


def units(fleet: Fleet) -> list[dict]:
    fleet.refresh_from_db()
    return fleet.document["units"]


# --- starting and access ----------------------------------------------------------------------


def test_start_page_and_a_new_fleet_defaults_to_untitled(client: Client, fleet: Fleet) -> None:
    assert client.get("/fleets/new/").status_code == 200
    assert fleet.name == "Untitled Fleet"
    assert fleet.document["format"] == "void-command-fleet"
    assert fleet.document["game_size"] == "skirmish"
    page = client.get(fleet.get_absolute_url())
    assert page.status_code == 200
    assert "Untitled Fleet" in page.content.decode()


def test_custom_game_size_needs_a_band(client: Client, catalog) -> None:
    data = {"name": "C", "faction": "orks", "variant": "", "game_size": "custom"}
    assert client.post("/fleets/new/", data).status_code == 400
    data |= {"points_min": 600, "points_max": 500}
    assert client.post("/fleets/new/", data).status_code == 400
    data |= {"points_min": 400, "points_max": 900}
    response = client.post("/fleets/new/", data)
    assert response.status_code == 302
    fleet = Fleet.objects.get(name="C")
    assert fleet.document["points_limit"] == {"min": 400, "max": 900}


def test_a_variant_of_another_faction_is_refused(client: Client, catalog) -> None:
    data = {"faction": "orks", "variant": "gothic-sector-fleet", "game_size": "patrol"}
    assert client.post("/fleets/new/", data).status_code == 400
    assert not Fleet.objects.exists()


@pytest.mark.parametrize(("path", "data"), EDITS)
def test_every_edit_refuses_get(client: Client, built: Fleet, path: str, data: dict) -> None:
    assert client.get(f"/fleets/{built.pk}/{path}").status_code == 405


@pytest.mark.parametrize(("path", "data"), EDITS)
def test_every_edit_is_404_to_an_outsider(
    built: Fleet, outsider: Client, edit, path: str, data: dict
) -> None:
    before = dict(built.document)
    assert edit(built, path, data, as_client=outsider).status_code == 404
    assert edit(built, path, data, as_client=outsider, htmx=False).status_code == 404
    built.refresh_from_db()
    assert built.document == before


@pytest.mark.parametrize("region", ["", "head/", "units/", "meter/", "problems/"])
def test_pages_are_404_to_an_outsider(built: Fleet, outsider: Client, region: str) -> None:
    assert outsider.get(f"/fleets/{built.pk}/{region}").status_code == 404


def test_saved_fleets_lists_only_this_browsers_fleets(
    client: Client, built: Fleet, outsider: Client, start_fleet
) -> None:
    start_fleet(outsider, name="Not yours")
    mine = client.get("/fleets/").content.decode()
    assert built.get_absolute_url() in mine
    assert "Not yours" not in mine
    assert "Untitled Fleet" not in outsider.get("/fleets/").content.decode()


def test_a_deleted_fleet_is_gone(client: Client, built: Fleet) -> None:
    from django.utils import timezone

    Fleet.objects.filter(pk=built.pk).update(deleted_at=timezone.now())
    assert client.get(built.get_absolute_url()).status_code == 404


# --- the edits ------------------------------------------------------------------------------


def test_adding_ships_capital_alone_escort_in_a_new_squadron(built: Fleet) -> None:
    lunar, squadron = units(built)
    assert lunar["ship"] == "lunar-class-cruiser"
    assert lunar["flagship"] is True  # the first capital ship takes the flag
    assert squadron["kind"] == "squadron"
    assert [s["ship"] for s in squadron["ships"]] == ["sword-class-frigate"] * 2
    assert built.points == price("lunar-class-cruiser") + 2 * price("sword-class-frigate")


def test_an_edit_answers_htmx_with_only_what_it_changed_and_fleet_changed(
    built: Fleet, edit
) -> None:
    response = edit(built, "add-ship/", {"ship": "gothic-class-cruiser"})
    assert response.status_code == 200
    assert "fleetChanged" in response.headers["HX-Trigger"]
    assert response.headers["HX-Reswap"] == "none settle:0ms"  # everything comes out of band
    html = response.content.decode()
    assert "<html" not in html
    # The new unit is appended to the list; the two units it did not change are not sent.
    assert re.search(r'<div hx-swap-oob="afterend:#unit-1">\s*<article [^>]*id="unit-2"', html)
    assert 'id="unit-0"' not in html and 'id="unit-1"' not in html
    total = (
        price("lunar-class-cruiser")
        + 2 * price("sword-class-frigate")
        + price("gothic-class-cruiser")
    )
    assert f"Added Gothic Class Cruiser · {total} of 1000 points" in html
    # The meter and the problems panel ride along out of band, in the same state as the units.
    meter = re.search(
        r'<section id="fleet-meter"[^>]*hx-swap-oob="true"[^>]*>(.*?)</section>', html, re.S
    )
    assert meter
    assertInHTML(f"<strong data-points>{total}</strong>", meter.group(1))
    assert re.search(r'<section id="fleet-problems"[^>]*hx-swap-oob="true"', html)


def test_a_ship_of_another_list_is_refused_with_a_reason(built: Fleet, edit) -> None:
    response = edit(built, "add-ship/", {"ship": "ork-terror-ship"})
    assert "not in this fleet&#x27;s list" in response.content.decode()
    # Nothing changed (no fleetChanged); the page puts the reason beside the button.
    assert list(json.loads(response.headers["HX-Trigger"])) == ["fleetRefused"]
    assert len(units(built)) == 2


def test_new_squadron_then_add_escorts_to_it(built: Fleet, edit) -> None:
    edit(built, "new-squadron/")
    edit(built, "units/2/add-escort/", {"ship": "cobra-class-destroyer"})
    edit(built, "units/2/add-escort/", {"ship": "cobra-class-destroyer"})
    assert [s["ship"] for s in units(built)[2]["ships"]] == ["cobra-class-destroyer"] * 2
    response = edit(built, "units/2/add-escort/", {"ship": "lunar-class-cruiser"})
    assert "only escorts fly in squadrons" in response.content.decode()


def test_move_an_escort_between_squadrons(built: Fleet, edit) -> None:
    edit(built, "new-squadron/")
    edit(built, "units/1/move/", {"ship": 1, "to": "2"})
    assert len(units(built)[1]["ships"]) == 1
    assert len(units(built)[2]["ships"]) == 1
    edit(built, "units/1/move/", {"ship": 0, "to": "2"})  # the emptied squadron goes
    assert [u["kind"] for u in units(built)] == ["ship", "squadron"]
    assert len(units(built)[1]["ships"]) == 2
    edit(built, "units/1/move/", {"ship": 0, "to": "new"})
    assert [len(u["ships"]) for u in units(built)[1:]] == [1, 1]


@pytest.mark.parametrize("to", ["²", "٣", "-1", "1.0", ""])
def test_moving_an_escort_to_a_squadron_that_is_not_a_number_is_refused(
    built: Fleet, edit, to: str
) -> None:
    # "²".isdigit() and "٣".isdigit() are true, but no squadron is numbered so
    before = units(built)
    for htmx in (True, False):
        response = edit(built, "units/1/move/", {"ship": 0, "to": to}, htmx=htmx)
        assert response.status_code < 500
        built.refresh_from_db()
        assert units(built) == before


def test_flagship_moves_and_takes_the_admiral_with_it(built: Fleet, edit) -> None:
    edit(built, "add-ship/", {"ship": "gothic-class-cruiser"})
    edit(built, "units/0/admiral/", {"admiral": "commodore"})
    edit(built, "units/2/flagship/")
    lunar, _, gothic = units(built)
    assert (lunar["flagship"], lunar["admiral"]) == (False, None)
    assert (gothic["flagship"], gothic["admiral"]) == (True, "commodore")
    response = edit(built, "units/0/admiral/", {"admiral": "vice-admiral"})
    assert "make this ship the flagship first" in response.content.decode()
    response = edit(built, "units/1/flagship/")
    assert "a squadron, not a ship" in response.content.decode()


def test_admiral_and_effective_leadership_on_the_card(built: Fleet, edit) -> None:
    response = edit(built, "units/0/admiral/", {"admiral": "vice-admiral", "open": "1"})
    html = response.content.decode()
    # Lunar Ld 8 + 1 flagship + 2 vice admiral = 11, capped at 10
    card = html[html.index('id="unit-0-summary"') :]
    assert 'id="unit-1"' not in html  # the squadron did not change
    assert re.search(r"Ld</abbr> <strong data-leadership>10</strong>", card)
    edit(built, "units/0/admiral/", {"admiral": ""})
    assert units(built)[0]["admiral"] is None
    built.refresh_from_db()
    assert built.points == price("lunar-class-cruiser") + 2 * price("sword-class-frigate")


def test_upgrades_offered_where_allowed_and_refused_with_a_reason(
    client: Client, built: Fleet, edit
) -> None:
    edit(built, "units/0/upgrades/add/", {"upgrade": "veteran-crew"})
    assert units(built)[0]["upgrades"] == ["veteran-crew"]
    # The squadron's editor (Edit) offers each escort what it may take.
    html = client.get(
        f"/fleets/{built.pk}/units/1/?edit=1", headers={"HX-Request": "true"}
    ).content.decode()
    escort = html[html.index('id="unit-1-ship-0"') :]
    # (the next escort, alike, comes as a mark copying this one: pieces.mark_copies)
    escort = re.split(r'id="unit-1-ship-1"|data-as="unit-1-ship-1"', escort)[0]
    assert 'value="extra-turrets"' in escort  # a refit escorts may take
    assert 'value="veteran-crew"' not in escort
    squadron = html[html.index('id="unit-1"') :]
    assert "Veteran Crew</strong>: Veteran Crew is for light cruisers" in squadron
    response = edit(built, "units/1/upgrades/add/", {"ship": 0, "upgrade": "veteran-crew"})
    assert "is for light cruisers" in response.content.decode()
    assert units(built)[1]["ships"][0]["upgrades"] == []
    edit(built, "units/1/upgrades/add/", {"ship": 1, "upgrade": "extra-turrets"})
    assert units(built)[1]["ships"][1]["upgrades"] == ["extra-turrets"]
    response = edit(built, "units/0/upgrades/add/", {"upgrade": "veteran-crew"})
    assert "Already fitted" in response.content.decode()
    edit(built, "units/0/upgrades/remove/", {"upgrade": "veteran-crew"})
    assert units(built)[0]["upgrades"] == []


def test_an_upgrade_at_its_fleet_limit_is_not_offered_again(built: Fleet, edit) -> None:
    edit(built, "add-ship/", {"ship": "gothic-class-cruiser"})
    edit(built, "units/0/upgrades/add/", {"upgrade": "imperial-fleet-commissar"})
    response = edit(built, "units/2/upgrades/add/", {"upgrade": "imperial-fleet-commissar"})
    assert "at most once, and this one already does" in response.content.decode()


def test_name_duplicate_remove_and_undo(built: Fleet, edit) -> None:
    edit(built, "units/0/rename/", {"name": "  Emperor's Wrath "})
    assert units(built)[0]["name"] == "Emperor's Wrath"
    edit(built, "units/1/rename/", {"name": "Sword Squadron"})
    edit(built, "units/0/duplicate/")
    first, copy = units(built)[:2]
    assert copy["ship"] == first["ship"] and copy["name"] == "Emperor's Wrath"
    assert copy["flagship"] is False
    edit(built, "units/2/duplicate/", {"ship": 0})
    assert len(units(built)[2]["ships"]) == 3
    html = edit(built, "units/0/remove/").content.decode()
    assert "Removed “Emperor&#x27;s Wrath” (Lunar Class Cruiser)" in html
    assert units(built)[0]["flagship"] is False
    edit(built, "undo/")
    assert units(built)[0]["name"] == "Emperor's Wrath"
    assert units(built)[0]["flagship"] is True
    edit(built, "units/2/remove/", {"ship": 1})
    assert len(units(built)[2]["ships"]) == 2
    edit(built, "undo/")
    assert len(units(built)[2]["ships"]) == 3
    response = edit(built, "undo/")
    assert "nothing to undo" in response.content.decode()


def test_names_are_limited_to_100_characters(built: Fleet, edit) -> None:
    response = edit(built, "units/0/rename/", {"name": "x" * 101})
    assert "at most 100 characters" in response.content.decode()
    assert units(built)[0]["name"] is None


def test_hostile_names_are_escaped_everywhere(client: Client, built: Fleet, edit) -> None:
    evil = '<script>alert("x")</script>'
    edit(built, "settings/", {"name": evil, "variant": "", "game_size": "skirmish"})
    edit(built, "units/0/rename/", {"name": evil})
    edit(built, "units/1/rename/", {"name": "<img src=x onerror=alert(1)>"})
    paths = [f"/fleets/{built.pk}/{p}" for p in ("", "units/", "problems/", "head/")]
    pages = [client.get(p).content.decode() for p in [*paths, "/fleets/"]]
    for html in pages:
        assert "<script>alert" not in html
        assert "<img src=x" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in pages[0]


def test_settings_change_band_and_name(built: Fleet, edit) -> None:
    response = edit(
        built,
        "settings/",
        {"name": "Patrol", "variant": "gothic-sector-fleet", "game_size": "patrol"},
    )
    assert "fleetSettingsChanged" in response.headers["HX-Trigger"]
    built.refresh_from_db()
    assert (built.name, built.variant, built.game_size) == (
        "Patrol",
        "gothic-sector-fleet",
        "patrol",
    )
    assert built.document["variant"] == "gothic-sector-fleet"
    response = edit(
        built,
        "settings/",
        {"name": "", "variant": "", "game_size": "custom", "points_min": 10, "points_max": 5},
    )
    assert "must not be below" in response.content.decode()
    built.refresh_from_db()
    assert built.game_size == "patrol"


def test_problems_panel_links_to_the_unit(client: Client, built: Fleet, edit) -> None:
    edit(built, "add-ship/", {"ship": "cobra-class-destroyer"})  # a squadron of one
    html = client.get(f"/fleets/{built.pk}/problems/").content.decode()
    assert re.search(
        r'<a class="problem__where" href="#unit-2">Squadron 2</a>\s*'
        r'<span class="problem__message">This squadron has 1 escort',
        html,
    )
    assert "points.under_band" in html
    meter = client.get(f"/fleets/{built.pk}/meter/").content.decode()
    total = (
        price("lunar-class-cruiser")
        + 2 * price("sword-class-frigate")
        + price("cobra-class-destroyer")
    )
    assert 'role="meter"' in meter and f'aria-valuenow="{total}"' in meter


# --- without JavaScript -----------------------------------------------------------------------


def test_plain_posts_redirect_back_to_the_builder(client: Client, built: Fleet, edit) -> None:
    response = edit(built, "add-ship/", {"ship": "gothic-class-cruiser"}, htmx=False)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/fleets/{built.pk}/#unit-2"
    page = client.get(response.headers["Location"])
    assert "Gothic Class Cruiser" in page.content.decode()


def test_plain_post_refusal_is_shown_after_the_redirect(client: Client, built: Fleet, edit) -> None:
    response = edit(built, "units/0/admiral/", {"admiral": "nobody"}, htmx=False)
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).content.decode()
    assert "There is no such admiral rank." in page


def test_every_builder_form_has_an_action_and_a_csrf_token(client: Client, built: Fleet) -> None:
    html = client.get(built.get_absolute_url()).content.decode()
    forms = re.findall(r"<form [^>]*>.*?</form>", html, re.S)
    posts = [f for f in forms if 'method="post"' in f]
    assert len(posts) > 10
    for form in posts:
        assert re.search(r'action="/fleets/', form), form[:200]
        assert "csrfmiddlewaretoken" in form
    hx = [f for f in posts if "hx-post" in f]
    assert all(
        re.search(r'hx-post="(/fleets/[^"]+)"', f).group(1)
        == re.search(r'action="(/fleets/[^"]+)"', f).group(1)
        for f in hx
    )


def test_csrf_is_enforced(client: Client, built: Fleet) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies  # the owner's session, without the token
    response = strict.post(f"/fleets/{built.pk}/add-ship/", {"ship": "gothic-class-cruiser"})
    assert response.status_code == 403
    assert len(units(built)) == 2
