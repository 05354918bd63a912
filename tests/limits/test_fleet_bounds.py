"""R-95: every reader refuses a fleet past the bounds, naming where, and changes nothing."""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Callable

import pytest
from django.test import Client

from fleetbuilder.fleets import hostile
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core import sharecode, textlist
from rules_core.limits import MAX_CARDS_PER_PDF, MAX_FLEET_SHIPS
from rules_core.validator import check_points_bound, validate
from tests.support.timing import bound

pytestmark = pytest.mark.django_db


def _text_list(catalog, fleet: rf.Fleet) -> str:
    return textlist.to_text(catalog, fleet, validate(fleet, catalog))


# --- the readers in rules_core ---------------------------------------------------------------


def test_the_151st_ship_is_refused_by_the_file_reader_naming_it(catalog) -> None:
    with pytest.raises(rf.FleetFormatError) as refused:
        rf.load_fleet_json(hostile.file_text(hostile.over_ships(catalog)))
    assert refused.value.path == "units[7].ships[10]"
    assert f"at most {MAX_FLEET_SHIPS} ships" in refused.value.message


def test_the_biggest_fleet_the_bounds_allow_reads_back(catalog) -> None:
    fleet = hostile.max_ships(catalog)
    assert rf.load_fleet_json(hostile.file_text(fleet)) == fleet
    check_points_bound(validate(fleet, catalog))  # 4500 points: allowed


def test_a_squadron_of_21_is_refused_but_five_is_the_validators(catalog) -> None:
    escort = hostile.cheapest_escort(catalog).slug
    with pytest.raises(rf.FleetFormatError) as refused:
        rf.load_fleet_json(hostile.file_text(hostile.squadrons_of(escort, 1, 21)))
    assert refused.value.path == "units[0].ships"
    five = rf.load_fleet_json(hostile.file_text(hostile.squadrons_of(escort, 1, 5)))
    assert "squadron.too_large" in validate(five, catalog).codes


def test_over_5000_points_is_refused_naming_the_unit_that_passes_it(catalog) -> None:
    fleet = hostile.over_points(catalog)
    with pytest.raises(rf.FleetFormatError) as refused:
        check_points_bound(validate(fleet, catalog))
    assert refused.value.path == f"units[{len(fleet.units) - 1}]"
    assert "at most 5000" in refused.value.message


def test_upgrades_and_text_keep_their_bounds(catalog) -> None:
    doc = rf.fleet_to_dict(hostile.max_ships(catalog))
    doc["units"][3]["ships"][1]["upgrades"].append("one-more")
    with pytest.raises(rf.FleetFormatError) as refused:
        rf.parse_fleet(doc)
    assert refused.value.path == "units[3].ships[1].upgrades"
    doc = rf.fleet_to_dict(hostile.max_ships(catalog))
    doc["units"][2]["name"] += "N"
    with pytest.raises(rf.FleetFormatError, match="the limit is 100") as refused:
        rf.parse_fleet(doc)
    assert refused.value.path == "units[2].name"


def test_the_share_code_reader_names_the_ship_past_the_bound(catalog) -> None:
    with pytest.raises(sharecode.ShareCodeError) as refused:
        sharecode.decode(hostile.raw_code(hostile.over_ships(catalog)))
    assert refused.value.path == "units[7].ships[10]"


def test_the_issues_100_squadrons_of_32_code_is_refused(catalog) -> None:
    code = hostile.issue_code(catalog)
    assert len(code) < 600  # a small input
    with pytest.raises(sharecode.ShareCodeError):
        sharecode.decode(code)
    # The same shape small enough to inflate under the cap meets the squadron bound.
    escort = min(
        (s for s in catalog.faction("imperial-navy").ships if s.is_escort),
        key=lambda s: len(s.slug),
    ).slug
    with pytest.raises(sharecode.ShareCodeError) as refused:
        sharecode.decode(hostile.raw_code(hostile.squadrons_of(escort, 60, 32)))
    assert refused.value.path == "units[0].ships"


def test_a_deflate_bomb_is_refused_without_being_inflated(monkeypatch) -> None:
    """The inflater is asked for at most the cap, whatever the code would unpack to."""
    code = hostile.bomb_code(2_000_000)
    assert len(code) <= sharecode.MAX_CODE_LENGTH
    asked: list[int] = []
    real = sharecode.zlib.decompressobj

    class Spy:
        def __init__(self, *args: int) -> None:
            self.inner = real(*args)

        def decompress(self, data: bytes, max_length: int = 0) -> bytes:
            asked.append(max_length)
            out = self.inner.decompress(data, max_length)
            asked.append(len(out))
            return out

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

    monkeypatch.setattr(sharecode.zlib, "decompressobj", Spy)
    start = time.perf_counter()
    with pytest.raises(sharecode.ShareCodeError, match="more than 512 KB"):
        sharecode.decode(code)
    assert time.perf_counter() - start < bound(0.5)
    assert asked == [sharecode.MAX_PAYLOAD_BYTES, sharecode.MAX_PAYLOAD_BYTES]


def test_a_code_too_long_is_refused_before_decoding(monkeypatch) -> None:
    monkeypatch.setattr(sharecode.base64, "urlsafe_b64decode", lambda *a: pytest.fail("decoded"))
    with pytest.raises(sharecode.ShareCodeError, match="the limit is 3000"):
        sharecode.decode("v1." + "A" * 3000)


def test_the_text_list_reader_names_the_line(catalog) -> None:
    text = _text_list(catalog, hostile.over_points(catalog))
    with pytest.raises(textlist.TextListError) as refused:
        textlist.from_text(catalog, text)
    last_unit = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith("*")][-1]
    assert refused.value.line == last_unit
    assert "at most 5000" in refused.value.message


def test_deep_json_is_refused_quickly() -> None:
    start = time.perf_counter()
    with pytest.raises(rf.FleetFormatError):
        rf.load_fleet_json(hostile.deep_json())
    assert time.perf_counter() - start < bound(1)


# --- the web readers -------------------------------------------------------------------------


def test_import_refuses_each_kind_naming_the_path_and_saves_nothing(
    catalog, client: Client
) -> None:
    over = hostile.over_ships(catalog)
    for text, where in (
        (hostile.file_text(over), "units[7].ships[10]"),
        (hostile.raw_code(over), "units[7].ships[10]"),
        (_text_list(catalog, hostile.over_points(catalog)), "Line "),
    ):
        response = client.post("/fleets/import/", {"text": text})
        assert response.status_code == 400
        assert where in response.context["error"]
    assert not Fleet.objects.exists()


def test_import_of_a_zip_names_the_file_at_fault(catalog, client: Client) -> None:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as bundle:
        bundle.writestr("fine.json", hostile.file_text(hostile.max_cards(catalog)))
        bundle.writestr("dear.json", hostile.file_text(hostile.over_points(catalog)))
    upload = io.BytesIO(data.getvalue())
    upload.name = "fleets.zip"
    response = client.post("/fleets/import/", {"file": upload})
    assert response.status_code == 400
    assert "dear.json" in response.context["error"]
    assert "at most 5000" in response.context["error"]


def test_a_forged_save_is_refused(catalog, client: Client) -> None:
    client.post("/fleets/import/", {"save": hostile.file_text(hostile.over_points(catalog))})
    client.post(
        "/fleets/import/", {"save_all": "[" + hostile.file_text(hostile.over_points(catalog)) + "]"}
    )
    client.post("/fleets/import/", {"save": hostile.file_text(hostile.over_ships(catalog))})
    assert not Fleet.objects.exists()


def test_share_code_pages_refuse_with_the_reason(catalog, client: Client) -> None:
    for code in (
        hostile.raw_code(hostile.over_ships(catalog)),
        hostile.raw_code(hostile.over_points(catalog)),
        hostile.bomb_code(),
        hostile.issue_code(catalog),
    ):
        for suffix in ("", "cards/", "cards.pdf"):
            response = client.get(f"/fleets/code/{code}/{suffix}")
            assert response.status_code == 404, suffix
            assert b"cannot be opened" in response.content


def test_no_request_renders_more_than_a_pdf_holds(
    catalog, client: Client, own_fleet: Callable[[rf.Fleet], Fleet], monkeypatch
) -> None:
    """Past the per-request bound the print goes to the task queue, not the request."""
    from fleetbuilder.cards.tasks import render_print

    monkeypatch.setattr(render_print, "apply_async", lambda *args, **kwargs: None)
    escort = hostile.cheapest_escort(catalog).slug
    many = hostile.squadrons_of(escort, MAX_CARDS_PER_PDF + 1, 2)
    fleet = own_fleet(many)
    response = client.get(f"/cards/fleet/{fleet.pk}/")
    assert response.status_code == 302 and "/cards/print/" in response["Location"]
    page = client.get(f"/cards/fleet/{fleet.pk}/print/")
    assert f"This fleet has {MAX_CARDS_PER_PDF + 1} cards" in page.content.decode()
    code = hostile.raw_code(many)
    assert "/cards/print/" in client.get(f"/fleets/code/{code}/cards.pdf")["Location"]


def test_the_cards_refuse_a_stored_fleet_over_the_points(
    catalog, client: Client, own_fleet: Callable[[rf.Fleet], Fleet]
) -> None:
    fleet = own_fleet(hostile.over_points(catalog))
    response = client.get(f"/cards/fleet/{fleet.pk}/")
    assert response.status_code == 400
    assert b"at most 5000" in response.content


def test_the_simulator_refuses_an_oversized_shared_fleet(
    catalog, client: Client, held_chunks: list
) -> None:
    from fleetbuilder.simulator.models import Matchup

    base = {
        "battles": 10,
        "max_rounds": 10,
        "scoring": "core",
        "terrain": "none",
        "b_source": "sample",
        "b_faction": "archenemy",
        "b_size": "skirmish",
        "a_source": "shared",
    }
    for code, why in (
        (hostile.raw_code(hostile.over_ships(catalog)), "units[7].ships[10]"),
        (hostile.raw_code(hostile.over_points(catalog)), "at most 5000"),
        (hostile.issue_code(catalog), "units[0].ships: has 32 entries"),
    ):
        response = client.post("/simulator/", {**base, "a_share": code})
        assert response.status_code == 400
        assert why in response.content.decode()
    assert not Matchup.objects.exists() and not held_chunks


def test_the_builder_refuses_the_151st_ship(
    catalog, client: Client, own_fleet: Callable[[rf.Fleet], Fleet]
) -> None:
    faction, profile = hostile.bound_escort(catalog)  # 151 of them fit in 5000 points
    escort = profile.slug
    full = rf.Fleet(
        faction,
        rf.GameSize.ARMADA,
        (rf.Squadron(tuple(rf.SquadronShip(escort) for _ in range(3))),) * 50,
    )
    fleet = own_fleet(full)
    assert fleet.ship_count == MAX_FLEET_SHIPS
    assert (MAX_FLEET_SHIPS + 1) * profile.points <= 5000  # refused for the ship, not points
    for url, data in (
        (f"/fleets/{fleet.pk}/add-ship/", {"ship": escort}),
        (f"/fleets/{fleet.pk}/units/0/add-escort/", {"ship": escort}),
        (f"/fleets/{fleet.pk}/units/0/duplicate/", {"ship": 0}),
    ):
        response = client.post(url, data, follow=True)
        assert "at most 150 ships" in response.content.decode(), url
    fleet.refresh_from_db()
    assert fleet.ship_count == MAX_FLEET_SHIPS and fleet.to_core().units == full.units


def test_the_builder_refuses_passing_5000_points(
    catalog, client: Client, own_fleet: Callable[[rf.Fleet], Fleet]
) -> None:
    dear = hostile.over_points(catalog)
    fleet = own_fleet(rf.Fleet(dear.faction, dear.game_size, dear.units[:-1]))
    before = fleet.document
    response = client.post(
        f"/fleets/{fleet.pk}/add-ship/", {"ship": dear.units[0].ship}, follow=True
    )
    assert "more than 5000 points" in response.content.decode()
    fleet.refresh_from_db()
    assert fleet.document == before


def test_the_builder_page_of_the_biggest_fleet_opens(
    catalog, client: Client, own_fleet: Callable[[rf.Fleet], Fleet]
) -> None:
    """Its speed is a benchmark's (bench_builder), not a wall-clock bound here."""
    fleet = own_fleet(hostile.max_ships(catalog))
    response = client.get(f"/fleets/{fleet.pk}/")
    assert response.status_code == 200
    assert response.content.decode().count('class="unit') >= 1


def test_a_fleet_stored_before_the_bounds_answers_422_not_500(
    catalog, client: Client, own_fleet: Callable[[rf.Fleet], Fleet]
) -> None:
    fleet = own_fleet(hostile.over_ships(catalog))  # stored as it could be before R-95
    for url in (f"/fleets/{fleet.pk}/", f"/fleets/{fleet.pk}/export.json"):
        response = client.get(url)
        assert response.status_code == 422, url
        assert "units[7].ships[10]" in response.content.decode()
    assert client.get("/fleets/").status_code == 200  # listed, so it can be deleted
    client.post(f"/fleets/{fleet.pk}/trash/")
    assert Fleet.objects.get(pk=fleet.pk).in_trash


def test_a_zip_too_big_to_save_stops_at_the_first_fleet_past_it(
    catalog, client: Client, monkeypatch
) -> None:
    from fleetbuilder.fleets import import_page

    read: list[str] = []
    real = import_page.read_fleet
    monkeypatch.setattr(import_page, "read_fleet", lambda text: read.append("") or real(text))
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as bundle:
        for n in range(100):
            bundle.writestr(f"f{n}.json", hostile.file_text(hostile.max_ships(catalog)))
    upload = io.BytesIO(data.getvalue())
    upload.name = "fleets.zip"
    response = client.post("/fleets/import/", {"file": upload})
    assert response.status_code == 400
    assert "too much to save at once" in response.context["error"]
    assert len(read) < 10


def test_the_simulator_refuses_a_stored_fleet_past_the_bounds(
    catalog, client: Client, own_fleet: Callable[[rf.Fleet], Fleet], held_chunks: list
) -> None:
    fleet = own_fleet(hostile.over_ships(catalog))
    fleet.share()
    data = {
        "battles": 10,
        "max_rounds": 10,
        "scoring": "core",
        "terrain": "none",
        "b_source": "sample",
        "b_faction": "archenemy",
        "b_size": "skirmish",
    }
    for side in (
        {"a_source": "fleet", "a_fleet": fleet.pk},
        {"a_source": "shared", "a_share": fleet.share_id},
    ):
        response = client.post("/simulator/", {**data, **side})
        assert response.status_code == 400
        assert "units[7].ships[10]" in response.content.decode()
    assert not held_chunks
