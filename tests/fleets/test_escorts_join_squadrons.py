"""Adding escorts from the ship list fills squadrons (R-180): an escort joins the
last squadron of its type that has room, and the live region says which; a new squadron starts
only when none has room, or when the player started one with New squadron."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from pytest_django.asserts import assertContains

from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db

SWORD, FIRESTORM = "sword-class-frigate", "firestorm-class-frigate"


def lineup(fleet: Fleet) -> list[Any]:
    """Each unit as the list reads it: a ship's slug, or a squadron's escorts' slugs."""
    fleet.refresh_from_db()
    return [
        [s["ship"] for s in u["ships"]] if u["kind"] == "squadron" else u["ship"]
        for u in fleet.document["units"]
    ]


def announced(response: Any) -> str:
    found = re.search(
        r'<div id="builder-announce" hx-swap-oob="innerHTML">([^<]*)</div>',
        response.content.decode(),
    )
    assert found, response.content.decode()[:500]
    return found.group(1)


def test_r180_three_adds_of_one_escort_make_one_squadron_of_three(
    fleet: Fleet, edit: Callable[..., Any]
) -> None:
    first = edit(fleet, "add-ship/", {"ship": SWORD})
    assert announced(first).startswith("Added Sword Frigate in a new squadron, Squadron 1 · ")
    edit(fleet, "add-ship/", {"ship": SWORD})
    third = edit(fleet, "add-ship/", {"ship": SWORD})
    assert lineup(fleet) == [[SWORD] * 3]
    assert announced(third).startswith("Added Sword Frigate to Squadron 1, now 3 escorts · ")


def test_r180_a_full_squadron_makes_the_fifth_start_a_new_one(
    fleet: Fleet, edit: Callable[..., Any]
) -> None:
    for _ in range(5):
        last = edit(fleet, "add-ship/", {"ship": SWORD})
    assert lineup(fleet) == [[SWORD] * 4, [SWORD]]
    assert "in a new squadron, Squadron 2" in announced(last)


def test_r180_another_type_never_joins_unasked_but_joins_its_own_last_squadron(
    fleet: Fleet, edit: Callable[..., Any]
) -> None:
    edit(fleet, "add-ship/", {"ship": SWORD})
    edit(fleet, "add-ship/", {"ship": FIRESTORM})
    edit(fleet, "add-ship/", {"ship": "lunar-class-cruiser"})
    edit(fleet, "add-ship/", {"ship": SWORD})  # past the Firestorm and the cruiser, to its own
    assert lineup(fleet) == [[SWORD, SWORD], [FIRESTORM], "lunar-class-cruiser"]
    # A squadron the player mixed (Add escort in its editor) is left as it is.
    edit(fleet, "units/1/add-escort/", {"ship": SWORD})
    edit(fleet, "add-ship/", {"ship": FIRESTORM})
    assert lineup(fleet) == [[SWORD, SWORD], [FIRESTORM, SWORD], "lunar-class-cruiser", [FIRESTORM]]


def test_r180_the_last_squadron_with_room_is_joined_and_new_squadron_is_asked_for(
    fleet: Fleet, edit: Callable[..., Any]
) -> None:
    for _ in range(3):
        edit(fleet, "add-ship/", {"ship": SWORD})
    edit(fleet, "units/0/move/", {"ship": 0, "to": "new"})  # two squadrons: 2 and 1 Swords
    edit(fleet, "add-ship/", {"ship": SWORD})
    assert lineup(fleet) == [[SWORD, SWORD], [SWORD, SWORD]]  # the last one with room
    # New squadron starts an empty one: the next escort goes there, whatever its type.
    edit(fleet, "new-squadron/", {"name": "Hunters"})
    response = edit(fleet, "add-ship/", {"ship": FIRESTORM})
    assert lineup(fleet) == [[SWORD, SWORD], [SWORD, SWORD], [FIRESTORM]]
    assert announced(response).startswith("Added Firestorm Frigate to Hunters, now 1 escort")


def test_without_javascript_and_from_a_ship_page_the_add_is_confirmed(
    client: Client, fleet: Fleet, edit: Callable[..., Any]
) -> None:
    """Issue 29 §6: "Add to my fleet" on a ship page (fleets/add_to.html) says what it did, on
    the builder page it opens at its top, where the message is."""
    page = client.get(f"/fleets/add/?ship={SWORD}").content.decode()
    assert '<input type="hidden" name="from" value="ship-page">' in page
    edit(fleet, "add-ship/", {"ship": SWORD}, htmx=False)
    response = edit(fleet, "add-ship/", {"ship": SWORD, "from": "ship-page"}, htmx=False)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/fleets/{fleet.pk}/"
    fleet.refresh_from_db()
    page = client.get(response.headers["Location"])
    assertContains(
        page,
        '<p class="message message--success" role="status">Added Sword '
        f"Frigate to Squadron 1, now 2 escorts · {fleet.points} of 1000 "
        "points in “Untitled Fleet”.</p>",
        html=True,
    )
