"""The builder's one-click options and reordering: upgrade boxes (one POST per tick,
greyed with the reason when barred, R-150), squadron-wide refits (R-151), Move up / Move down
and drag (reorder/), through the test client."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from pytest_django.asserts import assertInHTML

from fleetbuilder.fleets.models import Fleet
from tests.fleets.conftest import expand_copies

pytestmark = pytest.mark.django_db

GOTHIC = "gothic-class-cruiser"  # lances and torpedoes: no launch bay, no weapons battery
LUNAR = "lunar-class-cruiser"
SWORD = "sword-class-frigate"
COBRA = "cobra-class-destroyer"


@pytest.fixture
def built(fleet: Fleet, edit: Any) -> Fleet:
    """Lunar (flagship), Gothic, and a squadron of two Swords: units 0, 1, 2."""
    edit(fleet, "add-ship/", {"ship": LUNAR})
    edit(fleet, "add-ship/", {"ship": GOTHIC})
    edit(fleet, "add-ship/", {"ship": SWORD})
    edit(fleet, "units/2/add-escort/", {"ship": SWORD})
    fleet.refresh_from_db()
    return fleet


def doc_units(fleet: Fleet) -> list[dict[str, Any]]:
    fleet.refresh_from_db()
    return fleet.document["units"]


def editor(client: Client, fleet: Fleet, unit: int) -> str:
    response = client.get(
        f"/fleets/{fleet.pk}/units/{unit}/?edit=1", headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    return expand_copies(response.content.decode())  # escorts alike come as marks


def box(page: str, box_id: str) -> str:
    found = re.search(rf'<input type="checkbox"[^>]* id="{box_id}"[^>]*>', page)
    assert found, box_id
    return found.group(0)


# --- the boxes ----------------------------------------------------------------------------


def test_the_editor_shows_every_option_as_a_box_with_its_points(
    client: Client, built: Fleet
) -> None:
    page = editor(client, built, 0)
    assert "Add upgrade" not in page
    assert "legend>Upgrades of Lunar Class Cruiser</legend>" in page
    veteran = box(page, "unit-0-up-veteran-crew")
    assert "checked" not in veteran and "disabled" not in veteran
    assert re.search(
        r'for="unit-0-up-veteran-crew">Veteran Crew <span class="toggle__pts">\+20', page
    )


def test_r150_an_option_the_ship_cannot_take_is_greyed_with_its_reason(
    client: Client, built: Fleet
) -> None:
    # Pins R-150 in the builder: the Gothic is not offered Expanded Launch Bays.
    page = editor(client, built, 1)
    bays = box(page, "unit-1-up-expanded-launch-bays")
    assert "disabled" in bays and 'aria-describedby="unit-1-up-expanded-launch-bays-why"' in bays
    assert (
        'id="unit-1-up-expanded-launch-bays-why">Expanded Launch Bays needs a ship with a '
        "launch bay; Gothic Class Cruiser has none.</span>"
    ) in page
    assert "disabled" not in box(page, "unit-1-up-extra-turrets")


def test_r150_a_barred_option_is_refused_if_sent_anyway(
    client: Client, built: Fleet, edit: Any
) -> None:
    response = edit(
        built, "units/1/upgrades/", {"upgrade": "expanded-launch-bays", "version": built.version}
    )
    assert response.status_code == 200
    assert "needs a ship with a launch bay" in response.content.decode()
    assert doc_units(built)[1]["upgrades"] == []


def test_one_tick_is_one_post_answered_with_the_row_meter_and_problems(
    client: Client, built: Fleet, edit: Any
) -> None:
    response = edit(
        built,
        "units/0/upgrades/",
        {"upgrade": "veteran-crew", "open": "1", "version": built.version},
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert doc_units(built)[0]["upgrades"] == ["veteran-crew"]
    # Only the pieces of unit 0 that changed: its summary and its card of boxes.
    assert set(re.findall(r'id="(unit-\d+)', body)) == {"unit-0"}
    assert 'id="unit-0-summary"' in body and 'id="unit-0-card"' in body
    assert 'id="unit-0-controls"' not in body  # its name and admiral did not change
    assert 'id="fleet-meter"' in body and 'id="fleet-problems"' in body
    assert "Veteran Crew fitted to Lunar Class Cruiser" in body
    assert "checked" in box(body, "unit-0-up-veteran-crew")  # its editor stays open
    assert '"fleetFocus"' in response.headers["HX-Trigger-After-Settle"]
    assert "unit-0-up-veteran-crew" in response.headers["HX-Trigger-After-Settle"]

    # Untick: the form sends the boxes still ticked (none).
    response = edit(built, "units/0/upgrades/", {"open": "1", "version": built.version})
    assert doc_units(built)[0]["upgrades"] == []
    assert "Veteran Crew taken off Lunar Class Cruiser" in response.content.decode()


def test_without_javascript_the_boxes_are_a_form(client: Client, built: Fleet, edit: Any) -> None:
    page = client.get(f"{built.get_absolute_url()}?edit=0").content.decode()
    assert '<noscript><button type="submit" class="button button--small">Save upgrades' in page
    response = edit(
        built,
        "units/0/upgrades/",
        {"upgrade": ["veteran-crew", "extra-turrets"], "open": "1"},
        htmx=False,
    )
    assert response.status_code == 302
    assert response.headers["Location"] == f"{built.get_absolute_url()}?edit=0#unit-0"
    assert doc_units(built)[0]["upgrades"] == ["veteran-crew", "extra-turrets"]


def test_a_fitted_upgrade_outside_the_list_can_be_taken_off(
    client: Client, built: Fleet, edit: Any
) -> None:
    # An imported list may carry another faction's upgrade: it shows ticked, and unticks.
    doc = built.document
    doc["units"][1]["upgrades"] = ["big-gunz"]
    Fleet.objects.filter(pk=built.pk).update(document=doc)
    page = editor(client, built, 1)
    assert "checked" in box(page, "unit-1-up-big-gunz")
    edit(built, "units/1/upgrades/", {})
    assert doc_units(built)[1]["upgrades"] == []


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"upgrade": "Not A Slug"}, "That upgrade is not in this fleet&#x27;s list."),
        ({"upgrade": "x" * 101}, "That upgrade is not in this fleet&#x27;s list."),
        ({"upgrade": "warp-drive"}, "That upgrade is not in this fleet&#x27;s list."),
        ({"upgrade": [f"u{n}" for n in range(21)]}, "A ship takes at most 20 upgrades."),
        ({"ship": "x", "upgrade": "extra-turrets"}, "Choose an escort of the squadron."),
        ({"ship": "9", "upgrade": "extra-turrets"}, "That escort is no longer in the squadron."),
    ],
)
def test_bad_upgrade_input_gets_a_clear_refusal(
    built: Fleet, edit: Any, data: dict[str, Any], reason: str
) -> None:
    unit = 2 if "ship" in data else 0
    response = edit(built, f"units/{unit}/upgrades/", data)
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert doc_units(built)[0]["upgrades"] == []
    assert doc_units(built)[2]["ships"][0]["upgrades"] == []


def test_an_escort_has_its_own_boxes(client: Client, built: Fleet, edit: Any) -> None:
    page = editor(client, built, 2)
    assert "disabled" not in box(page, "unit-2-ship-1-up-extra-turrets")
    assert 'id="unit-2-ship-1-up-veteran-crew"' not in page  # escorts cannot: listed once below
    edit(built, "units/2/upgrades/", {"ship": "1", "upgrade": "extra-turrets"})
    assert [s["upgrades"] for s in doc_units(built)[2]["ships"]] == [[], ["extra-turrets"]]


# --- squadron-wide refits (R-151) ---------------------------------------------------------


def test_r151_a_squadron_wide_refit_goes_on_every_escort_and_comes_off_them_all(
    client: Client, built: Fleet, edit: Any
) -> None:
    # Pins R-151: ticked on the squadron, fitted to each escort (each pays); unticked, off all.
    before = built.points
    page = editor(client, built, 2)
    assert "Refits for the whole squadron" in page
    assert re.search(
        r'for="unit-2-all-extra-turrets">Extra Turrets <span class="toggle__pts">'
        r"\+10 each",
        page,
    )
    response = edit(built, "units/2/upgrades/", {"ship": "all", "upgrade": "extra-turrets"})
    assert "Extra Turrets fitted to every escort of Squadron 1" in response.content.decode()
    assert [s["upgrades"] for s in doc_units(built)[2]["ships"]] == [["extra-turrets"]] * 2
    built.refresh_from_db()
    assert built.points == before + 2 * 10
    assert "checked" in box(editor(client, built, 2), "unit-2-all-extra-turrets")
    edit(built, "units/2/upgrades/", {"ship": "all"})
    assert [s["upgrades"] for s in doc_units(built)[2]["ships"]] == [[], []]


def test_r151_a_refit_on_some_escorts_is_left_alone_until_ticked(
    client: Client, built: Fleet, edit: Any
) -> None:
    edit(built, "units/2/upgrades/", {"ship": "0", "upgrade": "improved-thrusters"})
    page = editor(client, built, 2)
    assert "(on 1 of 2)" in page
    assert "checked" not in box(page, "unit-2-all-improved-thrusters")
    edit(built, "units/2/upgrades/", {"ship": "all", "upgrade": "extra-turrets"})
    assert [s["upgrades"] for s in doc_units(built)[2]["ships"]] == [
        ["improved-thrusters", "extra-turrets"],
        ["extra-turrets"],
    ]
    edit(
        built,
        "units/2/upgrades/",
        {"ship": "all", "upgrade": ["extra-turrets", "improved-thrusters"]},
    )
    assert [s["upgrades"] for s in doc_units(built)[2]["ships"]] == [
        ["improved-thrusters", "extra-turrets"],
        ["extra-turrets", "improved-thrusters"],
    ]


def test_r151_all_or_nothing_when_one_escort_may_not(
    client: Client, built: Fleet, edit: Any
) -> None:
    response = edit(built, "units/2/upgrades/", {"ship": "all", "upgrade": "veteran-crew"})
    assert "Not fitted to the squadron: escort 1 (Sword Frigate): Veteran Crew is for" in (
        response.content.decode()
    )
    assert [s["upgrades"] for s in doc_units(built)[2]["ships"]] == [[], []]


def test_r151_squadron_wide_on_a_ship_unit_is_refused(built: Fleet, edit: Any) -> None:
    response = edit(built, "units/0/upgrades/", {"ship": "all", "upgrade": "extra-turrets"})
    assert "That unit is not a squadron." in response.content.decode()


# --- reordering -------------------------------------------------------------------------------


def order(fleet: Fleet) -> list[str]:
    return [u.get("ship") or "squadron" for u in doc_units(fleet)]


def test_move_up_and_down_and_to_a_place(built: Fleet, edit: Any) -> None:
    response = edit(built, "units/1/reorder/", {"by": "-1", "version": built.version})
    assert response.status_code == 200
    assert order(built) == [GOTHIC, LUNAR, "squadron"]
    body = response.content.decode()
    assert "Moved Gothic Class Cruiser to place 1 of 3" in body
    # The page moves the rows itself: the answer says which, and sends none.
    assert "<article" not in body
    assert '"moved": [1, 0]' in response.headers["HX-Trigger"]
    focus = response.headers["HX-Trigger-After-Settle"]
    assert '"unit-0-up"' in focus and '"move": true' in focus
    edit(built, "units/0/reorder/", {"by": "1"})
    assert order(built) == [LUNAR, GOTHIC, "squadron"]
    edit(built, "units/2/reorder/", {"to": "0"})  # a drag
    assert order(built) == ["squadron", LUNAR, GOTHIC]
    response = edit(built, "units/2/reorder/", {"by": "1"})  # the last stays last
    assert "stays at place 3 of 3" in response.content.decode()


def test_the_order_is_kept_across_a_reload(client: Client, built: Fleet, edit: Any) -> None:
    edit(built, "units/2/reorder/", {"to": "0"}, htmx=False)
    page = client.get(built.get_absolute_url()).content.decode()
    assert page.index('id="unit-0-title"><span class="unit-label">Squadron 1</span>') < page.index(
        ">Lunar Class Cruiser</span></a>"
    )
    assert order(built) == ["squadron", LUNAR, GOTHIC]


def test_reorder_without_javascript_returns_to_the_moved_unit(built: Fleet, edit: Any) -> None:
    response = edit(built, "units/0/reorder/", {"by": "1"}, htmx=False)
    assert response.status_code == 302
    assert response.headers["Location"] == f"{built.get_absolute_url()}#unit-1"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({}, "Say where the unit goes: up, down, or a place."),
        ({"by": "-1", "to": "2"}, "Say where the unit goes: up, down, or a place."),
        ({"by": "5"}, "Ensure this value is less than or equal to 1."),
        ({"to": "-3"}, "Ensure this value is greater than or equal to 0."),
        ({"to": "1e9"}, "Enter a whole number."),
    ],
)
def test_bad_reorder_input_gets_a_clear_refusal(
    built: Fleet, edit: Any, data: dict[str, Any], reason: str
) -> None:
    response = edit(built, "units/1/reorder/", data)
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert order(built) == [LUNAR, GOTHIC, "squadron"]


def test_reorder_of_a_unit_no_longer_there_is_refused(built: Fleet, edit: Any) -> None:
    response = edit(built, "units/7/reorder/", {"by": "-1"})
    assert "That unit is no longer in the fleet" in response.content.decode()


# --- access, method and stale versions, for both endpoints --------------------------------

NEW_EDITS = [
    ("units/0/upgrades/", {"upgrade": "veteran-crew"}),
    ("units/2/upgrades/", {"ship": "all", "upgrade": "extra-turrets"}),
    ("units/1/reorder/", {"by": "-1"}),
    ("units/1/reorder/", {"to": "2"}),
]


@pytest.mark.parametrize(("path", "data"), NEW_EDITS)
def test_get_is_not_allowed(client: Client, built: Fleet, path: str, data: dict[str, Any]) -> None:
    assert client.get(f"/fleets/{built.pk}/{path}").status_code == 405


@pytest.mark.parametrize(("path", "data"), NEW_EDITS)
def test_an_outsider_gets_404_and_changes_nothing(
    built: Fleet, edit: Any, outsider: Client, path: str, data: dict[str, Any]
) -> None:
    before = doc_units(built)
    assert edit(built, path, data, as_client=outsider).status_code == 404
    assert doc_units(built) == before


@pytest.mark.parametrize(("path", "data"), NEW_EDITS)
def test_a_stale_version_is_409_and_changes_nothing(
    built: Fleet, edit: Any, path: str, data: dict[str, Any]
) -> None:
    before = doc_units(built)
    response = edit(built, path, {**data, "version": built.version - 1})
    assert response.status_code == 409
    assert "This fleet changed in another tab" in response.content.decode()
    assert doc_units(built) == before


# --- the rest of the flow -------------------------------------------------------------------


def test_ship_names_in_the_roster_open_their_profile(
    client: Client, built: Fleet, edit: Any
) -> None:
    edit(built, "units/1/rename/", {"name": "Light of Terra"})
    page = client.get(built.get_absolute_url()).content.decode()
    assert (
        'id="unit-0-title"><a href="/ships/imperial-navy/lunar-class-cruiser/">'
        '<span class="unit-label">Lunar Class Cruiser</span></a></h3>'
    ) in page
    assert 'Light of Terra</span> <span class="unit__kind">' in page
    assertInHTML(
        '<span class="unit__kind"><a href="/ships/imperial-navy/gothic-class-cruiser/">'
        "Gothic Class Cruiser</a></span>",
        page,
    )
    assert '2× <a href="/ships/imperial-navy/sword-class-frigate/">Sword Frigate</a>' in page
    assert client.get("/ships/imperial-navy/gothic-class-cruiser/").status_code == 200


def test_plus_one_on_a_ship_and_on_a_squadron(client: Client, built: Fleet, edit: Any) -> None:
    page = client.get(built.get_absolute_url()).content.decode()
    assert f'action="/fleets/{built.pk}/units/1/duplicate/"' in page
    assert re.search(
        r'action="/fleets/\d+/units/2/add-escort/"[^>]*>.*?name="ship" '
        rf'value="{SWORD}"',
        page,
    )
    edit(built, "units/1/duplicate/", {})
    edit(built, "units/3/add-escort/", {"ship": SWORD})
    assert order(built) == [LUNAR, GOTHIC, GOTHIC, "squadron"]
    assert len(doc_units(built)[3]["ships"]) == 3


def test_add_escort_defaults_to_the_squadrons_own_type(
    client: Client, built: Fleet, edit: Any
) -> None:
    edit(built, "units/2/move/", {"ship": 0, "to": "new"})  # two squadrons of one Sword each
    edit(built, "units/3/add-escort/", {"ship": COBRA})
    edit(built, "units/3/move/", {"ship": 0, "to": "new"})  # unit 3: a Cobra; unit 4: a Sword
    for unit, own in ((3, COBRA), (4, SWORD)):
        page = editor(client, built, unit)
        select = re.search(
            rf'<select id="unit-{unit}-escort" name="ship">(.*?)</select>', page, re.S
        )
        assert select and re.findall(r'<option value="([^"]+)" selected>', select.group(1)) == [own]


def test_a_stray_admiral_on_a_non_flagship_can_be_removed(
    client: Client, built: Fleet, edit: Any
) -> None:
    doc = built.document
    doc["units"][1]["admiral"] = "commodore"  # an imported list: an admiral off the flagship
    Fleet.objects.filter(pk=built.pk).update(document=doc)
    page = client.get(f"{built.get_absolute_url()}?edit=1").content.decode()
    assert "carries an admiral (Commodore) but is not the flagship" in page
    assert re.search(
        r'id="unit-1-admiral">Remove admiral<span class="visually-hidden"> '
        r"Commodore</span>",
        page,
    )
    response = edit(built, "units/1/admiral/", {"admiral": "", "open": "1"})
    assert "No admiral on Gothic Class Cruiser" in response.content.decode()
    assert doc_units(built)[1]["admiral"] is None
    assert "admiral.not_on_flagship" not in response.content.decode()


def test_a_long_move_sends_no_row_but_the_squadrons_new_labels(
    client: Client, fleet: Fleet, edit: Any
) -> None:
    # A drag from the bottom to the top of 12 units: the page moves the row and renumbers the
    # rows between (fleetRows), and the answer carries no row, only the labels that changed:
    # the moved squadron is now Squadron 1, and the five it passed count one more.
    for _ in range(6):  # a Sword joins the empty squadron started for it
        edit(fleet, "add-ship/", {"ship": LUNAR})
        edit(fleet, "new-squadron/", {"name": ""})
        edit(fleet, "add-ship/", {"ship": SWORD})
    response = edit(fleet, "units/11/reorder/", {"to": "0"})
    body = response.content.decode()
    assert "<article" not in body
    rows = response.headers["HX-Trigger"]
    assert '"fleetRows": {"gone": [], "from": 0, "by": 1, "until": 11, "moved": [11, 0]}' in rows
    for index, n in ((0, 1), (2, 2), (4, 3), (6, 4), (8, 5), (10, 6)):
        assertInHTML(
            f'<span hx-swap-oob="innerHTML:#unit-{index} .unit-label">Squadron {n}</span>', body
        )
    assert body.count(".unit-label") == 6  # the ships' labels did not change
    assert order(fleet) == ["squadron"] + [LUNAR, "squadron"] * 5 + [LUNAR]
    page = client.get(fleet.get_absolute_url()).content.decode()
    assert re.findall(r'id="unit-\d+-title"><span class="unit-label">(Squadron \d)', page) == [
        f"Squadron {n}" for n in range(1, 7)
    ]
    # And down again, from the top to place 8: rows 1–7 move up one place.
    response = edit(fleet, "units/0/reorder/", {"to": "7"})
    assert (
        '"fleetRows": {"gone": [], "from": 1, "by": -1, "until": 8, "moved": [0, 7]}'
        in response.headers["HX-Trigger"]
    )
    assert "<article" not in response.content.decode()
    assert order(fleet)[6:9] == [LUNAR, "squadron", "squadron"]


def test_a_squadrons_title_reads_as_the_text_list_says_it(
    client: Client, built: Fleet, edit: Any, catalog: Any
) -> None:
    # One line-up for every view (rules_core.chatlist.lineup): "2× Sword Frigate, 1× Cobra …"
    # in the builder's row (each type linking to its ship) as in the text list.
    from fleetbuilder.fleets.sheet import build_sheet
    from rules_core.chatlist import lineup
    from rules_core.validator import catalog_index

    edit(built, "units/2/add-escort/", {"ship": COBRA})
    built.refresh_from_db()
    names = [catalog_index(catalog).ship_name(s["ship"]) for s in doc_units(built)[2]["ships"]]
    assert lineup(names).startswith("2× Sword Frigate, 1× ")
    page = client.get(built.get_absolute_url()).content.decode()
    title = re.search(r'id="unit-2-title">(.*?)</h3>', page)
    assert title
    assert re.sub(r"<[^>]+>", "", title.group(1)) == f"Squadron 1 {lineup(names)}"
    sheet = build_sheet(built, catalog, built.report(catalog), indexes=[2])
    assert sheet.units[0].lineup_text == lineup(names)


def test_move_to_lists_the_other_squadrons_from_the_server_but_not_in_an_htmx_row(
    client: Client, built: Fleet, edit: Any
) -> None:
    # Without JavaScript the page (?edit=) lists every other squadron; a row sent to htmx
    # leaves them to the page (builder.js), so its size does not grow with the fleet.
    edit(built, "add-ship/", {"ship": COBRA})  # unit 3: Squadron 2
    page = client.get(f"{built.get_absolute_url()}?edit=2").content.decode()
    select = re.search(r'<select id="unit-2-ship-0-to"[^>]*>(.*?)</select>', page)
    assert select and re.findall(r"<option[^>]*>([^<]*)</option>", select.group(1)) == [
        "Squadron 2",
        "A new squadron",
    ]
    row = editor(client, built, 2)
    select = re.search(r'<select id="unit-2-ship-0-to"[^>]*>(.*?)</select>', row)
    assert select and re.findall(r"<option[^>]*>([^<]*)</option>", select.group(1)) == [
        "A new squadron"
    ]
    edit(built, "units/2/move/", {"ship": "0", "to": "3"}, htmx=False)
    assert [len(u.get("ships", ())) for u in doc_units(built)] == [0, 0, 1, 2]
