"""A battle pack across editions (R-163): each fleet's roster and cards are made with its own
list's edition (R-160), the pack records both, and its PDF prints them (read back with poppler).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client

from fleetbuilder.battlepack.models import BattlePack
from fleetbuilder.catalog import editions
from fleetbuilder.simulator.models import Matchup
from rules_core.sample_fleets import sample_fleet
from rules_core.sim import SimOptions
from rules_core.validator import validate

from .test_battle_pack import pdf_pages, squash

pytestmark = pytest.mark.django_db

OLD = 1  # the original conversion: Imperial Navy ships cost less than today


def test_each_fleet_is_printed_with_its_own_edition(client: Client) -> None:
    old = editions.catalog_for(OLD)
    current = editions.current_number()
    assert current is not None and current != OLD
    today = editions.catalog_for(current)
    a = replace(sample_fleet(old, "imperial-navy", "patrol"), name="Gothic Sector", edition=OLD)
    b = replace(sample_fleet(today, "orks", "patrol"), edition=current)
    points_a, points_b = validate(a, old).points, validate(b, today).points
    assert points_a != validate(a, today).points  # the premise: a wrong edition would show
    run = Matchup.start(
        fleet_a=a,
        fleet_b=b,
        sources={"a": {"label": "Navy patrol"}, "b": {"label": "Ork patrol"}},
        options=SimOptions(),
        seed=3,
        battles=1,
        owner=None,
        owner_token="the-runs-owner",
    )

    response = client.post(f"/pack/from-run/{run.public_id}/", {"paper": "a4"})
    assert response.status_code == 302
    pack = BattlePack.objects.get()
    assert (pack.edition_a, pack.edition_b) == (OLD, current)
    download = client.get(f"/pack/{pack.public_id}/battle-pack.pdf")
    assert download.status_code == 200
    pages = [squash(p) for p in pdf_pages(download.content)]

    # The reference names both editions; each fleet's pages are footed with its own.
    assert (
        f"Fleet A: Navy patrol (Edition {OLD}) vs Fleet B: Ork patrol (Edition {current})"
    ) in pages[0]
    old_title, today_title = editions.get(OLD).title, editions.get(current).title
    roster_a = next(p for p in pages if "Gothic Sector" in p and "Navy patrol ·" in p)
    roster_b = next(p for p in pages if "Ork patrol ·" in p and "Fleet B:" in p)
    assert f"Fleet A: Navy patrol · {old_title}" in roster_a
    assert f"Fleet B: Ork patrol · {today_title}" in roster_b
    # Each roster's total is its own edition's.
    assert re.search(rf"\b{points_a} pts\b", roster_a)
    assert re.search(rf"\b{points_b} pts\b", roster_b)
    sheets = pages[2:]
    assert any(f"Fleet A · Edition {OLD}" in p for p in sheets)
    assert any(f"Fleet B · Edition {current}" in p for p in sheets)
