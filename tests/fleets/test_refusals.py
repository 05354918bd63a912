"""A refused edit is told where the player is looking: the live region says it,
the phone's bar replaces the last edit's flash with it, styled as a refusal, and the page is
told (``fleetRefused``) to put it beside the control that was used. Nothing is redrawn."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from pytest_django.asserts import assertInHTML

from fleetbuilder.fleets import hostile
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf

pytestmark = pytest.mark.django_db


def near_the_bound(fleet: Fleet, catalog: Any) -> Fleet:
    """``fleet`` holding all but the last ship of hostile.over_points: one more passes 5000."""
    dear = hostile.over_points(catalog)
    fleet.store(rf.Fleet(fleet.faction, rf.GameSize.ARMADA, dear.units[:-1]), catalog)
    fleet.save()
    return fleet


def test_a_refused_add_is_announced_in_the_live_region_and_the_phone_bar(
    fleet: Fleet, edit: Callable[..., Any], catalog: Any
) -> None:
    near_the_bound(fleet, catalog)
    ship = fleet.document["units"][0]["ship"]
    before = fleet.document
    response = edit(fleet, "add-ship/", {"ship": ship, "version": str(fleet.version)})
    assert response.status_code == 200
    assert response.headers["HX-Reswap"] == "none"
    body = response.content.decode()
    says = re.search(r'<div id="builder-announce" hx-swap-oob="innerHTML">([^<]*)</div>', body)
    assert says and says.group(1).startswith(
        "Not added: that would bring the fleet to more than 5000 points"
    )
    # The bar comes whole, out of band, its flash the refusal: the last "Added …" is gone.
    bar = re.search(r'<div id="fleet-bar"[^>]*>', body)
    assert bar and 'hx-swap-oob="true"' in bar.group(0)
    assertInHTML(f'<p class="fleet-bar__flash fleet-bar__flash--refused">{says.group(1)}</p>', body)
    assert "<article" not in body  # no row redrawn
    trigger = json.loads(response.headers["HX-Trigger"])
    assert trigger == {"fleetRefused": {"message": html.unescape(says.group(1))}}
    fleet.refresh_from_db()
    assert fleet.document == before


def test_a_refused_edit_of_another_kind_says_not_done(
    fleet: Fleet, edit: Callable[..., Any]
) -> None:
    edit(fleet, "add-ship/", {"ship": "lunar-class-cruiser"})
    response = edit(fleet, "units/0/upgrades/", {"ship": "", "upgrade": "warp-drive"})
    assert "Not done: That upgrade is not in this fleet&#x27;s list." in response.content.decode()
    assert "fleetRefused" in response.headers["HX-Trigger"]
