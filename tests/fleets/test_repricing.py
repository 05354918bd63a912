"""New prices in the data files: a saved list keeps its edition's total and verdict (R-160);
only a list built in a development state (no edition) follows the files."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from fleetbuilder.catalog import loader
from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db(transaction=True)

LUNAR = "lunar-class-cruiser"


def test_a_reload_with_new_prices_leaves_saved_lists_on_their_edition(
    client: Client, start_fleet, edit, catalog, reprice
) -> None:
    fleet = start_fleet(client, name="Gothic Sector")
    for _ in range(2):
        assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    fleet.refresh_from_db()
    lunar = catalog.faction("imperial-navy").ship(LUNAR).points
    before = (fleet.points, fleet.legal, fleet.version, fleet.updated, fleet.document)
    assert fleet.points == 2 * lunar
    assert fleet.edition == fleet.document["edition"] == 7

    try:
        loader.load(reprice(LUNAR, lunar + 25))
        fleet.refresh_from_db()
        # Nothing about the list moved: not its total, verdict, version, place or document.
        assert (fleet.points, fleet.legal, fleet.version, fleet.updated, fleet.document) == before
        page = client.get("/fleets/").content.decode()
        assert re.search(r'data-label="Points" class="num">\s*' + str(2 * lunar), page)
        # Its edits go on under its own edition's prices.
        assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
        fleet.refresh_from_db()
        assert fleet.points == 3 * lunar
    finally:
        loader.load()  # the real files again, so later tests see the real catalogue


def test_a_list_of_the_development_state_follows_the_data_files(
    client: Client, start_fleet, edit, catalog, reprice
) -> None:
    fleet = start_fleet(client)
    assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    Fleet.objects.filter(pk=fleet.pk).update(edition=None)
    lunar = catalog.faction("imperial-navy").ship(LUNAR).points
    try:
        loader.load(reprice(LUNAR, lunar + 25))
        fleet.refresh_from_db()
        assert fleet.points == lunar + 25
    finally:
        loader.load()


def test_repricing_never_overwrites_an_edit_made_meanwhile(
    client: Client, start_fleet, edit, catalog
) -> None:
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
