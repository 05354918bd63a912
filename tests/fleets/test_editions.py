"""A list keeps the edition it was built under (R-160); the builder offers a newer edition with
what it would change, updates in one click and undoes it (R-162), and never changes a list
behind its owner's back."""

from __future__ import annotations

import importlib
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.apps import apps
from django.test import Client

from fleetbuilder.catalog import editions, loader
from fleetbuilder.catalog.models import Edition
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core.editions import EditionError
from rules_core.edits import EditRefused
from rules_core.validator import validate

LUNAR = "lunar-class-cruiser"
SWORD = "sword-class-frigate"


def _on_edition(fleet: Fleet, number: int) -> Fleet:
    """The fleet moved to edition ``number`` as if built there (no Undo left behind)."""
    fleet.refresh_from_db()
    fleet.apply(editions.catalog_for(number), list(fleet.to_core().units), edition=number)
    return fleet


def _price(number: int, slug: str) -> int:
    catalog = editions.catalog_for(number)
    return next(s.points for f in catalog.factions for s in f.ships if s.slug == slug)


def _edition_section(page: str) -> str:
    match = re.search(r'<section id="fleet-edition".*?</section>', page, re.S)
    assert match, "the builder has an edition section"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0)))


@pytest.mark.django_db
def test_a_new_list_names_the_edition_the_server_serves(client: Client, start_fleet) -> None:
    fleet = start_fleet(client)
    assert editions.current() is not None
    assert fleet.edition == fleet.document["edition"] == editions.current().number == 7
    text = _edition_section(client.get(f"/fleets/{fleet.pk}/").content.decode())
    assert "Built under Edition 7" in text and "the newest" in text


@pytest.mark.django_db
def test_r162_an_old_list_shows_its_edition_and_what_the_newest_would_change(
    client: Client, start_fleet, edit
) -> None:
    fleet = start_fleet(client)
    for _ in range(2):
        assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    old, new = _price(1, LUNAR), _price(7, LUNAR)
    assert old != new, "the original conversion priced the Lunar otherwise"
    _on_edition(fleet, 1)
    assert fleet.points == 2 * old
    text = _edition_section(client.get(f"/fleets/{fleet.pk}/").content.decode())
    assert "Built under edition 1" in text
    assert f"this list costs {2 * new} (was {2 * old}, {2 * (new - old):+d})" in text
    assert f"{old} → {new}" in text  # each unit whose price moved
    assert "Update to edition 7" in text and "Keep edition 1" in text


@pytest.mark.django_db
def test_r162_update_moves_the_list_and_undo_brings_it_back(
    client: Client, start_fleet, edit
) -> None:
    fleet = start_fleet(client)
    assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    _on_edition(fleet, 4)
    units = fleet.document["units"]
    response = edit(fleet, "edition/update/", {"edition": 7, "version": fleet.version})
    assert response.status_code == 200
    body = response.content.decode()
    assert f"Updated to edition 7: {_price(7, LUNAR)} points (was {_price(4, LUNAR)})" in body
    fleet.refresh_from_db()
    assert (fleet.edition, fleet.document["edition"], fleet.points) == (7, 7, _price(7, LUNAR))
    assert fleet.document["units"] == units  # the list itself is unchanged
    assert "Undo: back to edition 4" in _edition_section(body)

    response = edit(fleet, "edition/undo/", {"version": fleet.version})
    assert response.status_code == 200
    fleet.refresh_from_db()
    assert (fleet.edition, fleet.points) == (4, _price(4, LUNAR))
    assert fleet.previous_edition is None
    with pytest.raises(EditRefused):
        fleet.undo_edition()  # one step back, not a history


@pytest.mark.django_db
def test_r162_any_other_edit_forgets_the_update_undo(client: Client, start_fleet, edit) -> None:
    fleet = _on_edition(start_fleet(client), 4)
    assert edit(fleet, "edition/update/", {"edition": 7}).status_code == 200
    assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    fleet.refresh_from_db()
    assert fleet.previous_edition is None
    assert "Undo: back" not in _edition_section(client.get(f"/fleets/{fleet.pk}/").content.decode())


@pytest.mark.django_db
def test_r162_keep_folds_the_banner_until_a_newer_edition(
    client: Client, start_fleet, edit
) -> None:
    fleet = _on_edition(start_fleet(client), 6)
    assert edit(fleet, "edition/keep/", {}).status_code == 200
    fleet.refresh_from_db()
    assert fleet.edition == 6 and fleet.kept_edition == 7
    text = _edition_section(client.get(f"/fleets/{fleet.pk}/").content.decode())
    assert "Kept on Edition 6" in text and "Update to edition 7" in text
    assert "Keep edition" not in text


@pytest.mark.django_db
def test_an_unknown_edition_is_refused_and_nothing_changes(
    client: Client, start_fleet, edit
) -> None:
    fleet = _on_edition(start_fleet(client), 5)
    before = (fleet.version, fleet.edition, fleet.document)
    response = edit(fleet, "edition/update/", {"edition": 99})
    assert "known editions are 1, 2, 3, 4, 5, 6, 7" in response.content.decode()
    fleet.refresh_from_db()
    assert (fleet.version, fleet.edition, fleet.document) == before


@pytest.mark.django_db
def test_two_tabs_an_update_and_an_add_lose_no_acknowledged_edit(
    client: Client, start_fleet, edit
) -> None:
    fleet = _on_edition(start_fleet(client), 5)
    seen = fleet.version  # both tabs drew the page at this version
    assert edit(fleet, "edition/update/", {"edition": 7, "version": seen}).status_code == 200
    stale = edit(fleet, "add-ship/", {"ship": LUNAR, "version": seen})
    assert stale.status_code == 409  # refused, not applied on the other edition
    fleet.refresh_from_db()
    assert fleet.edition == 7 and fleet.unit_count == 0
    # The other order: the add lands first, the update made on the old page is refused.
    fleet = _on_edition(fleet, 5)
    seen = fleet.version
    assert edit(fleet, "add-ship/", {"ship": LUNAR, "version": seen}).status_code == 200
    assert edit(fleet, "edition/update/", {"edition": 7, "version": seen}).status_code == 409
    fleet.refresh_from_db()
    assert (fleet.edition, fleet.unit_count, fleet.points) == (5, 1, _price(5, LUNAR))


@pytest.mark.django_db
def test_every_page_of_an_old_list_uses_its_edition(client: Client, start_fleet, edit) -> None:
    fleet = _on_edition(start_fleet(client), 1)
    assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    fleet.refresh_from_db()
    assert fleet.points == _price(1, LUNAR)
    page = client.get(f"/fleets/{fleet.pk}/").content.decode()
    # The Add list prices ships as the list's edition does.
    assert re.search(r"Lunar Class Cruiser.*?shiplist__pts\">" + str(_price(1, LUNAR)), page, re.S)


# --- publishing a new edition: the round trip ---------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_r160_publishing_a_new_edition_changes_no_saved_list_and_the_round_trip_holds(
    client: Client, start_fleet, edit, catalog, tmp_path: Path, reprice
) -> None:
    fleet = start_fleet(client, game_size="patrol")
    for _ in range(3):
        assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    fleet.refresh_from_db()
    lunar = _price(7, LUNAR)
    a = (fleet.points, fleet.legal, fleet.version, fleet.document)
    assert fleet.legal and fleet.points == 3 * lunar
    stored = dict(Edition.objects.values_list("number", "data"))

    data = reprice(LUNAR, lunar + 70)  # three Lunars go over the Patrol band
    shipped = tmp_path / "editions"
    shutil.copytree(editions.EDITIONS_DIR, shipped)
    try:
        info = editions.publish(
            "2027-01, test prices",
            notes="Lunar up",
            data_dir=data,
            directory=shipped,
            now=datetime(2027, 1, 1, tzinfo=UTC),
        )
        assert info.number == 8
        loader.load(data, editions_dir=shipped)
        assert editions.current().number == 8
        # Older editions are byte-for-byte what they were.
        for number, text in stored.items():
            assert Edition.objects.get(number=number).data == text
        # The list still reads A's total and verdict, at the same version.
        fleet.refresh_from_db()
        assert (fleet.points, fleet.legal, fleet.version, fleet.document) == a
        text = _edition_section(client.get(f"/fleets/{fleet.pk}/").content.decode())
        assert (
            f"Under edition 8 (2027-01, test prices) this list costs {3 * (lunar + 70)} "
            f"(was {3 * lunar}, +210) and has 1 problem"
        ) in text
        assert edit(fleet, "edition/update/", {"edition": 8}).status_code == 200
        fleet.refresh_from_db()
        assert (fleet.edition, fleet.points, fleet.legal) == (8, 3 * (lunar + 70), False)
        assert edit(fleet, "edition/undo/", {}).status_code == 200
        fleet.refresh_from_db()
        assert (fleet.edition, fleet.points, fleet.legal) == (7, 3 * lunar, True)
        # A new list is started under the new edition, at its prices.
        new = start_fleet(client)
        assert edit(new, "add-ship/", {"ship": LUNAR}).status_code == 200
        new.refresh_from_db()
        assert (new.edition, new.points) == (8, lunar + 70)
    finally:
        loader.load()


@pytest.mark.django_db(transaction=True)
def test_r160_unpublished_data_files_are_a_development_state_shown_on_every_page(
    client: Client, start_fleet, catalog, reprice
) -> None:
    try:
        loader.load(reprice(LUNAR, 999))
        assert editions.current() is None
        fleet = start_fleet(client)
        assert fleet.edition is None and "edition" not in fleet.document
        for path in ("/", f"/fleets/{fleet.pk}/", "/ships/"):
            page = client.get(path, follow=True).content.decode()
            assert "Development catalogue." in page, path
            assert "the newest is Edition 7" in page
    finally:
        loader.load()
    assert "Development catalogue." not in client.get("/").content.decode()


@pytest.mark.django_db
def test_r160_a_changed_edition_file_is_refused_and_nothing_is_loaded(tmp_path: Path) -> None:
    shipped = tmp_path / "editions"
    shutil.copytree(editions.EDITIONS_DIR, shipped)
    path = shipped / "edition-003.json"
    path.write_bytes(path.read_bytes().replace(b'"points": 190', b'"points": 191', 1))
    before = dict(Edition.objects.values_list("number", "sha256"))
    with pytest.raises(EditionError, match="edition 3's file differs"):
        loader.load(editions_dir=shipped)
    assert dict(Edition.objects.values_list("number", "sha256")) == before


@pytest.mark.django_db
def test_r160_publishing_nothing_new_is_refused(tmp_path: Path) -> None:
    shipped = tmp_path / "editions"
    shutil.copytree(editions.EDITIONS_DIR, shipped)
    with pytest.raises(EditionError, match="already edition 7"):
        editions.publish("again", directory=shipped)
    assert sorted(p.name for p in shipped.glob("edition-*.json"))[-1] == "edition-007.json"


# --- lists saved before editions (the migration) --------------------------------------------


@pytest.mark.django_db
def test_r161_a_list_saved_before_editions_takes_the_edition_of_its_last_edit(
    client: Client, start_fleet, edit
) -> None:
    fleet = start_fleet(client)
    assert edit(fleet, "add-ship/", {"ship": LUNAR}).status_code == 200
    fleet.refresh_from_db()
    document = {k: v for k, v in fleet.document.items() if k != "edition"}
    # As before editions: no edition, today's total cached, last edited on 1 December at 13:00
    # (after the first calibration, edition 2, and before the second, edition 3).
    Fleet.objects.filter(pk=fleet.pk).update(
        edition=None,
        document=document,
        points=_price(7, LUNAR),
        updated=datetime(2026, 12, 1, 13, 0, tzinfo=UTC),
    )
    migration = importlib.import_module("fleetbuilder.fleets.migrations.0005_edition")
    migration.stamp_editions(apps, None)
    fleet.refresh_from_db()
    assert (fleet.edition, fleet.document["edition"], fleet.points) == (2, 2, _price(2, LUNAR))
    assert rf.parse_fleet(fleet.document).units == rf.parse_fleet(document).units


def test_r160_every_shipped_edition_reads_and_its_files_match_their_sums() -> None:
    from rules_core import editions as ed
    from rules_core.sample_fleets import sample_fleet

    sums = dict(
        reversed(line.split("  "))
        for line in (editions.EDITIONS_DIR / "SHA256SUMS").read_text().splitlines()
    )
    raws = ed.read_edition_dir(editions.EDITIONS_DIR)
    assert len(raws) == len(sums) >= 7
    for raw in raws:
        info, catalog = ed.read_edition(raw)
        assert sums[ed.file_name(info.number)] == info.sha256
        # Every faction's sample fleet, built under the edition, is legal under it.
        for faction in catalog.factions:
            for size in (rf.GameSize.SKIRMISH, rf.GameSize.BATTLE):
                report = validate(sample_fleet(catalog, faction.slug, size), catalog)
                assert report.legal, (
                    info.number,
                    faction.slug,
                    size,
                    [p.message for p in report.errors],
                )


@pytest.mark.django_db
def test_side_by_side_shows_each_unit_under_both_editions_and_changes_nothing(
    client: Client, start_fleet, edit
) -> None:
    fleet = start_fleet(client)
    for ship in (LUNAR, SWORD, SWORD):
        assert edit(fleet, "add-ship/", {"ship": ship}).status_code == 200
    _on_edition(fleet, 1)
    before = (fleet.version, fleet.points)
    page = client.get(f"/fleets/{fleet.pk}/editions/?against=7").content.decode()
    total_1 = _price(1, LUNAR) + 2 * _price(1, SWORD)
    total_7 = _price(7, LUNAR) + 2 * _price(7, SWORD)
    assert re.search(
        rf"Total</th><td class=\"num\">{total_1}</td><td class=\"num\">{total_7}", page
    )
    assert re.search(
        rf"Lunar Class Cruiser</th><td class=\"num\">{_price(1, LUNAR)}</td>"
        rf"<td class=\"num\">{_price(7, LUNAR)}",
        page,
    )
    assert "Problems under Edition 1" in page and "Problems under Edition 7" in page
    unknown = client.get(f"/fleets/{fleet.pk}/editions/?against=12")
    assert unknown.status_code == 404
    assert "the known editions are 1, 2, 3, 4, 5, 6, 7" in unknown.content.decode()
    fleet.refresh_from_db()
    assert (fleet.version, fleet.points) == before
    # Another player's list is not theirs to compare.
    assert Client().get(f"/fleets/{fleet.pk}/editions/").status_code == 404


@pytest.mark.django_db
def test_saved_fleets_shows_each_lists_edition_and_flags_what_the_newest_changes(
    client: Client, start_fleet, edit
) -> None:
    changed = start_fleet(client, name="Changed by edition 7")
    assert edit(changed, "add-ship/", {"ship": LUNAR}).status_code == 200
    _on_edition(changed, 1)
    current = start_fleet(client, name="Already on edition 7")
    assert edit(current, "add-ship/", {"ship": LUNAR}).status_code == 200
    page = client.get("/fleets/").content.decode()
    rows = {
        name: row
        for row in re.findall(r"<tr\b.*?</tr>", page, re.S)
        for name in ("Changed by edition 7", "Already on edition 7")
        if name in row
    }
    cell = re.search(r'data-label="Edition">(.*?)</td>', rows["Changed by edition 7"], re.S)
    assert cell and cell.group(1).lstrip().startswith("1")
    assert f"Edition 7: {_price(7, LUNAR)}" in cell.group(1)
    cell = re.search(r'data-label="Edition">(.*?)</td>', rows["Already on edition 7"], re.S)
    assert cell and cell.group(1).strip() == "7"
