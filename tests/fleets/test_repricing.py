"""New prices in the catalogue: a saved fleet keeps its list, its total is what the validator
says (issue 16 §3), and "My fleets" shows that total, not the one cached before the change."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from django.test import Client

from fleetbuilder.catalog import loader
from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db(transaction=True)

LUNAR = "lunar-class-cruiser"


def _reprice(tmp_path: Path, slug: str, points: int) -> Path:
    data = tmp_path / "data"
    shutil.copytree(loader.DATA_DIR, data)
    path = data / "factions" / "imperial-navy.json"
    text = path.read_text(encoding="utf-8")
    text, n = re.subn(r'("slug": "' + slug + r'",.*?"points": )\d+',
                      lambda m: m.group(1) + str(points), text, count=1, flags=re.DOTALL)
    assert n == 1
    path.write_text(text, encoding="utf-8")
    return data


def test_a_reload_with_new_prices_reprices_saved_fleets_and_keeps_their_lists(
        client: Client, start_fleet, edit, catalog, tmp_path: Path) -> None:
    fleet = start_fleet(client, name="Gothic Sector")
    for _ in range(2):
        assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    fleet.refresh_from_db()
    lunar = catalog.faction("imperial-navy").ship(LUNAR).points
    before = (fleet.points, fleet.version, fleet.updated, json.dumps(fleet.document))
    assert fleet.points == 2 * lunar

    try:
        loader.load(_reprice(tmp_path, LUNAR, lunar + 25))
        fleet.refresh_from_db()
        assert fleet.points == 2 * (lunar + 25)
        # The list, its version (an open builder tab's next edit still lands) and its place in
        # the library (ordered by last edit) are untouched.
        assert (fleet.version, fleet.updated, json.dumps(fleet.document)) == before[1:]
        page = client.get("/fleets/").content.decode()
        assert re.search(r'data-label="Points" class="num">\s*' + str(2 * (lunar + 25)), page)
        assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    finally:
        loader.load()  # the real files again, so later tests see the real catalogue
    fleet.refresh_from_db()
    assert fleet.points == 3 * lunar


def test_repricing_never_overwrites_an_edit_made_meanwhile(
        client: Client, start_fleet, edit, catalog) -> None:
    fleet = start_fleet(client)
    assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    fleet.refresh_from_db()
    stale = Fleet.objects.filter(pk=fleet.pk)
    # A re-pricing that read version v, while an edit moves the fleet to v + 1:
    Fleet.objects.filter(pk=fleet.pk).update(version=fleet.version + 1, points=12345)
    rows = list(stale.values_list("pk", "version", "document", "points", "legal"))
    assert rows[0][1] == fleet.version + 1
    # revalidate() writes only at the version it read, so the newer row keeps its own figures
    # when the version it read is gone:
    changed = Fleet.objects.filter(pk=fleet.pk, version=fleet.version).revalidate(catalog)
    assert changed == 0
    fleet.refresh_from_db()
    assert fleet.points == 12345
    # ... and when read at the current version, it writes the validator's total.
    assert Fleet.objects.filter(pk=fleet.pk).revalidate(catalog) == 1
    fleet.refresh_from_db()
    assert fleet.points == catalog.faction("imperial-navy").ship(LUNAR).points
