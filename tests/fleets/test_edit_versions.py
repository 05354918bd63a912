"""A fleet's version: every builder form carries it, an edit against an old one is refused (409)
and applied to nothing, and one tab's ordinary edits each bring the next version."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from pytest_django.asserts import assertContains, assertInHTML

from fleetbuilder.fleets.models import Fleet, FleetChanged

pytestmark = pytest.mark.django_db

STALE = "This fleet changed in another tab. It has been refreshed; make your change again."


class Forms(HTMLParser):
    """The POST forms of a page or an htmx answer, with their action and fields, and the
    version input the page keeps (``#fleet-version``)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None
        self.page_version: list[dict[str, str | None]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and a.get("method") == "post":
            self.current = {"action": a.get("action"), "hx-post": a.get("hx-post"), "fields": {}}
            self.forms.append(self.current)
        elif tag == "input" and a.get("id") == "fleet-version":
            self.page_version.append(a)
        elif tag in ("input", "select") and self.current is not None and a.get("name"):
            self.current["fields"].setdefault(a["name"], []).append(a.get("value"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None

    def version(self) -> int:
        """The version an answer brings for the page (its out-of-band #fleet-version)."""
        assert len(self.page_version) == 1, self.page_version
        return int(self.page_version[0]["value"] or "")


def builder_edit_forms(html: str) -> list[dict[str, Any]]:
    # Duplicate and Delete on the head are Saved Fleets actions, not edits of the document.
    return [f for f in Forms(html).forms if not f["action"].endswith(("/copy/", "/trash/"))]


@pytest.fixture
def built(fleet: Fleet, edit) -> Fleet:
    """A Lunar (the flagship), a squadron of two Swords and a Dauntless: units 0, 1 and 2."""
    for path, data in (
        ("add-ship/", {"ship": "lunar-class-cruiser"}),
        ("add-ship/", {"ship": "sword-class-frigate"}),
        ("units/1/add-escort/", {"ship": "sword-class-frigate"}),
        ("add-ship/", {"ship": "dauntless-class-light-cruiser"}),
    ):
        assert edit(fleet, path, data).status_code == 200
    fleet.refresh_from_db()
    return fleet


def stored(fleet: Fleet) -> tuple[dict, int]:
    fleet.refresh_from_db()
    return fleet.document, fleet.version


# --- the version on the page ----------------------------------------------------------------


def test_a_new_fleet_is_at_version_one_and_every_edit_bumps_it(fleet: Fleet, edit) -> None:
    assert fleet.version == 1
    edit(fleet, "add-ship/", {"ship": "lunar-class-cruiser"})
    edit(fleet, "units/0/rename/", {"name": "Wrath"})
    edit(fleet, "settings/", {"name": "Home Guard", "variant": "", "game_size": "skirmish"})
    assert stored(fleet)[1] == 4
    # A refused edit changes nothing, so the version stays.
    edit(fleet, "units/0/admiral/", {"admiral": "nobody"})
    assert stored(fleet)[1] == 4


def test_every_builder_form_carries_the_fleets_version(client: Client, built: Fleet) -> None:
    html = client.get(built.get_absolute_url()).content.decode()
    forms = builder_edit_forms(html)
    # settings, 4 × add, new squadron, and the cards' tools: enough to know we saw them all
    assert len(forms) > 20
    for form in forms:
        assert form["fields"].get("version") == [str(built.version)], form
        assert form["hx-post"] == form["action"]
    assert Forms(html).version() == built.version
    # The version is never written with a thousands separator.
    Fleet.objects.filter(pk=built.pk).update(version=12345)
    html = client.get(built.get_absolute_url()).content.decode()
    assert {tuple(f["fields"]["version"]) for f in builder_edit_forms(html)} == {("12345",)}


def test_one_tab_edits_in_a_row_each_sending_the_version_the_last_answer_brought(
    built: Fleet, edit
) -> None:
    version = built.version
    steps = [
        ("add-ship/", {"ship": "gothic-class-cruiser"}),
        ("units/3/rename/", {"name": "Light of Terra"}),
        ("units/0/upgrades/add/", {"upgrade": "veteran-crew"}),
        ("units/1/add-escort/", {"ship": "sword-class-frigate"}),
        ("units/2/remove/", {}),
        ("undo/", {}),
        ("units/0/upgrades/remove/", {"upgrade": "veteran-crew"}),
        ("settings/", {"name": "Battle Group", "variant": "", "game_size": "skirmish"}),
    ]
    for path, data in steps:
        response = edit(built, path, {**data, "version": version})
        assert response.status_code == 200, (path, response.content.decode()[:500])
        answer = Forms(response.content.decode())
        assert answer.version() == version + 1, path
        assert answer.page_version[0].get("hx-swap-oob") == "true"
        version += 1
        # The rows that came back (only those the edit changed) carry no version of their own:
        # the page sends the one #fleet-version holds (builder.js), which this answer brought.
        # New settings bring the whole roster, drawn at the new version.
        units = [f for f in answer.forms if "/units/" in f["action"]]
        kept = [str(version)] if path == "settings/" else None
        assert all(f["fields"].get("version") == kept for f in units), path
    document, stored_version = stored(built)
    assert stored_version == version
    assert [u.get("name") for u in document["units"]] == [None, None, None, "Light of Terra"]
    assert len(document["units"][1]["ships"]) == 3
    assert document["name"] == "Battle Group"


# --- a stale edit -----------------------------------------------------------------------------

# Each edit as tab A would send it, about the units it saw: 0 Lunar, 1 the squadron, 2 Dauntless.
STALE_EDITS = [
    ("units/1/remove/", {}),
    ("units/2/remove/", {}),
    ("units/1/remove/", {"ship": 0}),
    ("units/1/rename/", {"name": "Blade Squadron"}),
    ("units/2/rename/", {"name": "Swift"}),
    ("units/2/upgrades/add/", {"upgrade": "veteran-crew"}),
    ("units/1/upgrades/add/", {"ship": 1, "upgrade": "extra-turrets"}),
    ("units/0/upgrades/remove/", {"upgrade": "imperial-fleet-commissar"}),
    ("units/1/duplicate/", {"ship": 0}),
    ("units/2/duplicate/", {}),
    ("units/1/add-escort/", {"ship": "sword-class-frigate"}),
    ("units/1/move/", {"ship": 0, "to": "new"}),
    ("units/0/flagship/", {}),
    ("units/0/admiral/", {"admiral": "commodore"}),
    ("add-ship/", {"ship": "gothic-class-cruiser"}),
    ("new-squadron/", {}),
    ("undo/", {}),
]


@pytest.fixture
def other_tab_removed_the_lunar(built: Fleet, edit) -> tuple[Fleet, int]:
    """Tab A drew the page at version v; tab B then fitted a Commissar and removed the Lunar,
    so every unit moved up one place. Returns the fleet and tab A's version."""
    seen = built.version
    edit(built, "units/0/upgrades/add/", {"upgrade": "imperial-fleet-commissar", "version": seen})
    edit(
        built,
        "units/0/upgrades/remove/",
        {"upgrade": "imperial-fleet-commissar", "version": seen + 1},
    )
    assert edit(built, "units/0/remove/", {"version": seen + 2}).status_code == 200
    built.refresh_from_db()
    assert [u.get("ship") or u["kind"] for u in built.document["units"]] == [
        "squadron",
        "dauntless-class-light-cruiser",
    ]
    return built, seen


@pytest.mark.parametrize(("path", "data"), STALE_EDITS)
def test_a_stale_edit_is_refused_with_409_and_touches_nothing(
    other_tab_removed_the_lunar: tuple[Fleet, int], edit, path: str, data: dict
) -> None:
    fleet, seen = other_tab_removed_the_lunar
    before = stored(fleet)
    response = edit(fleet, path, {**data, "version": seen})
    assert response.status_code == 409
    assert stored(fleet) == before
    assertContains(
        response, f'<p class="alert" role="alert">{STALE}</p>', html=True, status_code=409
    )
    # The page gets every region back at the current version: it can try again from there.
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="units"')
    answer = Forms(html)
    assert answer.version() == fleet.version
    assert all(f["fields"]["version"] == [str(fleet.version)] for f in builder_edit_forms(html))
    regions = ("fleet-head", "fleet-meter", "fleet-problems", "fleet-version", "fleet-edition")
    for region in regions:
        assert f'id="{region}"' in html and html.count('hx-swap-oob="true"') == len(regions)
    assert "HX-Trigger" not in response.headers
    assertInHTML(
        '<h2 id="units-heading">Ships and squadrons '
        '<span class="count">3 ships in 2 units</span></h2>',
        html,
    )


@pytest.mark.parametrize("path", ["units/1/remove/", "units/1/rename/", "units/2/upgrades/add/"])
def test_without_javascript_a_stale_edit_goes_back_to_the_refreshed_builder(
    client: Client, other_tab_removed_the_lunar: tuple[Fleet, int], edit, path: str
) -> None:
    fleet, seen = other_tab_removed_the_lunar
    before = stored(fleet)
    data = {"name": "Blade", "upgrade": "veteran-crew", "version": seen}
    response = edit(fleet, path, data, htmx=False)
    assert response.status_code == 302
    assert response.headers["Location"] == fleet.get_absolute_url()
    assert stored(fleet) == before
    page = client.get(response.headers["Location"])
    assertContains(page, f'<p class="message message--error" role="alert">{STALE}</p>', html=True)
    assert all(
        f["fields"]["version"] == [str(fleet.version)]
        for f in builder_edit_forms(page.content.decode())
    )


def test_stale_settings_are_refused_in_the_head_with_the_rest_refreshed(
    other_tab_removed_the_lunar: tuple[Fleet, int], edit
) -> None:
    fleet, seen = other_tab_removed_the_lunar
    before = stored(fleet)
    response = edit(
        fleet, "settings/", {"name": "Mine", "variant": "", "game_size": "battle", "version": seen}
    )
    assert response.status_code == 409
    assert stored(fleet) == before
    html = response.content.decode()
    assert html.lstrip().startswith('<header id="fleet-head"')
    assertContains(
        response, f'<p class="alert" role="alert">{STALE}</p>', html=True, status_code=409
    )
    assert (
        '<section id="units" class="units" aria-labelledby="units-heading" '
        'hx-sync="#fleet-builder:drop" hx-target="#units" hx-swap="outerHTML" '
        'hx-swap-oob="true">' in html
    )


def test_the_current_version_is_accepted_after_a_refusal(
    other_tab_removed_the_lunar: tuple[Fleet, int], edit
) -> None:
    fleet, seen = other_tab_removed_the_lunar
    assert edit(fleet, "units/1/remove/", {"version": seen}).status_code == 409
    response = edit(fleet, "units/1/remove/", {"version": fleet.version})
    assert response.status_code == 200
    assert [u.get("ship") or u["kind"] for u in stored(fleet)[0]["units"]] == ["squadron"]


def test_a_version_that_is_not_a_number_counts_as_stale(built: Fleet, edit) -> None:
    before = stored(built)
    for bad in ("x", "-1", "1.0", "²", "9" * 30):
        assert edit(built, "units/0/remove/", {"version": bad}).status_code == 409, bad
    assert stored(built) == before


def test_an_edit_without_a_version_is_applied_to_the_fleet_as_it_is(built: Fleet, edit) -> None:
    # Scripts and the load benchmark send no version: the edit still runs under the row lock.
    response = edit(built, "add-ship/", {"ship": "gothic-class-cruiser"})
    assert response.status_code == 200
    assert stored(built)[1] == built.version


def test_an_outsider_gets_404_not_409(built: Fleet, outsider: Client, edit) -> None:
    response = edit(built, "units/0/remove/", {"version": 1}, as_client=outsider)
    assert response.status_code == 404


# --- the model's own guard --------------------------------------------------------------------


def test_an_edit_on_a_stale_copy_never_overwrites_a_newer_document(built: Fleet, catalog) -> None:
    tab_a = Fleet.objects.get(pk=built.pk)
    tab_b = Fleet.objects.get(pk=built.pk)
    tab_b.remove(catalog, 0)
    after_b = stored(built)
    with pytest.raises(FleetChanged):
        tab_a.rename_unit(catalog, 1, "Blade Squadron")
    assert stored(built) == after_b


def test_saved_fleets_rename_keeps_a_change_made_meanwhile(built: Fleet, catalog) -> None:
    start = built.version
    listed = Fleet.objects.get(pk=built.pk)  # the Saved Fleets page read it…
    Fleet.objects.get(pk=built.pk).remove(catalog, 2)  # …then a builder tab removed a unit
    listed.rename("Renamed")
    document, version = stored(built)
    assert document["name"] == "Renamed" and len(document["units"]) == 2
    assert version == start + 2
    assert (listed.name, listed.version) == ("Renamed", version)
