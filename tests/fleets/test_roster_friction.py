"""The roster without friction: Remove on each row (Undo as before); the admiral
applied on change and shown as a chip with its points, so a row's chips add up to its total;
the fleet's name a placeholder, not text to type after; a copy called "Copy of …"."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from pytest_django.asserts import assertInHTML

from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db


def summary(html: str, anchor: str) -> str:
    found = re.search(
        rf'<div class="unit__summary" id="{anchor}-summary".*?</ul>|'
        rf'<div class="unit__summary" id="{anchor}-summary".*?</p>\s*</div>',
        html,
        re.S,
    )
    assert found, html[:2000]
    return found.group(0)


def test_each_row_has_its_remove_and_undo_puts_it_back(
    client: Client, fleet: Fleet, edit: Callable[..., Any]
) -> None:
    edit(fleet, "add-ship/", {"ship": "lunar-class-cruiser"})
    edit(fleet, "add-ship/", {"ship": "sword-class-frigate"})
    page = client.get(fleet.get_absolute_url()).content.decode()
    for anchor, label in (("unit-0", "Lunar Class Cruiser"), ("unit-1", "Squadron 1")):
        row = summary(page, anchor)
        assert f'action="/fleets/{fleet.pk}/units/{anchor[5:]}/remove/"' in row
        assertInHTML(
            f'<span class="visually-hidden">Remove <span class="unit-label">{label}</span></span>',
            row,
        )
    # The editor no longer has a second way to remove the unit.
    opened = client.get(f"{fleet.get_absolute_url()}?edit=1").content.decode()
    assert "Remove squadron" not in opened
    response = edit(fleet, "units/0/remove/", {})  # the row's button: no open=1
    body = response.content.decode()
    assert "Removed Lunar Class Cruiser" in body and 'id="undo-button"' in body
    edit(fleet, "undo/", {})
    fleet.refresh_from_db()
    assert [u.get("ship") for u in fleet.document["units"]] == ["lunar-class-cruiser", None]


def test_the_admiral_applies_on_change_and_its_points_show_as_a_chip(
    client: Client, fleet: Fleet, edit: Callable[..., Any], catalog: Any
) -> None:
    edit(fleet, "add-ship/", {"ship": "lunar-class-cruiser"})
    opened = client.get(f"{fleet.get_absolute_url()}?edit=0").content.decode()
    form = re.search(r'<form [^>]*hx-post="[^"]*/units/0/admiral/"[^>]*>', opened)
    assert form and 'hx-trigger="change"' in form.group(0)
    # Its button is for pages without JavaScript only.
    assert re.search(r'<noscript><button [^>]*id="unit-0-set-admiral"', opened)
    edit(fleet, "units/0/upgrades/", {"ship": "", "upgrade": ["veteran-crew"], "open": "1"})
    response = edit(fleet, "units/0/admiral/", {"admiral": "commodore", "open": "1"})
    rank = catalog.admiral("commodore")
    upgrade = next(u for u in catalog.refits if u.slug == "veteran-crew")
    ship = next(s for f in catalog.factions for s in f.ships if s.slug == "lunar-class-cruiser")
    row = summary(response.content.decode(), "unit-0")
    assertInHTML(
        f'<li class="chip chip--admiral"><span class="visually-hidden">Admiral: </span>'
        f'{rank.name} <span class="chip__pts">+{rank.points}</span></li>',
        row,
    )
    assertInHTML(f'<span class="pts">{ship.points + upgrade.points + rank.points} pts</span>', row)
    assert '<ul class="chips" aria-label="Command and upgrades">' in row


def test_the_fleet_name_is_a_placeholder_until_the_player_names_it(
    client: Client, start_fleet: Callable[..., Fleet]
) -> None:
    new = client.get("/fleets/new/").content.decode()
    assertInHTML(
        '<input type="text" name="name" maxlength="100" placeholder="Untitled Fleet" id="id_name">',
        new,
    )
    fleet = start_fleet(client)
    assert fleet.name == "Untitled Fleet"
    page = client.get(fleet.get_absolute_url()).content.decode()
    assertInHTML(
        '<input type="text" name="name" maxlength="100" placeholder="Untitled Fleet" id="id_name">',
        page,
    )
    named = start_fleet(client, name="Gothic Patrol")
    page = client.get(named.get_absolute_url()).content.decode()
    assertInHTML(
        '<input type="text" name="name" value="Gothic Patrol" maxlength="100" '
        'placeholder="Untitled Fleet" id="id_name">',
        page,
    )


def test_a_copied_fleet_is_called_copy_of(
    client: Client, start_fleet: Callable[..., Fleet]
) -> None:
    fleet = start_fleet(client, name="Gothic Patrol")
    client.post(f"/fleets/{fleet.pk}/copy/")
    assert Fleet.objects.filter(name="Copy of Gothic Patrol").count() == 1
