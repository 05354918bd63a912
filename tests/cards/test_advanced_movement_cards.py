"""A fleet built for advanced movement prints each ship's thrust rating and SOT on its cards
(R-140, R-141): from the print form, the command line and the print workers, each
its own cached PDF. The numbers are read back from the PDF and checked against the module."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from fleetbuilder import pdfcache
from fleetbuilder.cards.models import PrintJob
from fleetbuilder.cards.tasks import render_print
from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from rules_core.fleet import Fleet as FleetList
from rules_core.fleet import GameSize, ShipUnit, Squadron, SquadronShip, dump_fleet_json
from rules_core.sim.advanced_movement import safe_operating_thrust, thrust_from_speed

from .conftest import Pdf
from .test_big_prints import held_prints, own_fleet, thirty_one  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

STAT_VALUES = re.compile(
    r"^\s*(\d+)\s+(\d+)°\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d)\+\s+(\d+)\s+(\d+)\s*$", re.M
)
THRUST = re.compile(r"Advanced movement: thrust (\d+) · SOT (\d+)")


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def patrol() -> FleetList:
    """A legal patrol: a Lunar flagship (Speed 20, Ld 8 + 1 as flagship), a squadron of Sword
    frigates, a Gothic and a Dauntless."""
    return FleetList(
        faction="imperial-navy",
        game_size=GameSize.PATROL,
        name="Vector Patrol",
        units=(
            ShipUnit("lunar-class-cruiser", flagship=True),
            Squadron((SquadronShip("sword-class-frigate"),) * 2),
            ShipUnit("gothic-class-cruiser"),
            ShipUnit("dauntless-class-light-cruiser"),
        ),
    )


def printed_thrust(pdf: Pdf) -> list[tuple[int, int, int, int]]:
    """(Speed, Ld, thrust, SOT) as printed: a card's stat line and its thrust line, or, for a
    squadron of several kinds, each kind's stat row and its part of the thrust line."""
    found = []
    for page in pdf.card_pages:
        text = pdf.page_texts[page]
        if "ESCORT" in text:  # several kinds: one stat row each, one thrust line for all
            flat = re.sub(r"\s+", " ", text)
            rows = re.findall(r"\d+× .+? (\d+) \d+° (\d+) \d+ \d+ \d\+ \d+ \d+", flat)
            kinds = re.findall(r"(?:Advanced movement: |; )[^;]+? thrust (\d+) · SOT (\d+)", flat)
            assert len(rows) == len(kinds) >= 2, flat
            found += [
                (int(r[0]), int(r[1]), int(k[0]), int(k[1]))
                for r, k in zip(rows, kinds, strict=True)
            ]
            continue
        stats, thrust = STAT_VALUES.search(text), THRUST.search(text)
        assert stats and thrust, text
        found.append((int(stats[1]), int(stats[3]), int(thrust[1]), int(thrust[2])))
    return found


def assert_cards_say_what_the_module_computes(pdf: Pdf) -> None:
    # thrust = Speed ÷ 5 cm rounded down; SOT = (thrust + Ld − 3) ÷ 2 rounded up.
    cards = printed_thrust(pdf)
    assert len(cards) >= len(pdf.card_pages) >= 4
    for speed, ld, thrust, sot in cards:
        assert thrust == thrust_from_speed(speed)
        assert sot == safe_operating_thrust(thrust, ld)
    # The Lunar flagship: Speed 20 is thrust 4; Ld 9 is skill 6; SOT (4 + 6) / 2 = 5.
    # The Swords: Speed 25 is thrust 5; Ld 7 is skill 4; SOT (5 + 4) / 2 rounded up = 5.
    assert cards[:2] == [(20, 9, 4, 5), (25, 7, 5, 5)]


def test_ship_cards_with_advanced_movement_prints_thrust_and_sot(tmp_path: Path, catalog) -> None:
    source = tmp_path / "patrol.json"
    source.write_text(dump_fleet_json(replace(patrol(), edition=editions.current_number())))
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "ship_cards",
        str(source),
        "-o",
        str(tmp_path / "am.pdf"),
        "--movement",
        "advanced",
        stdout=out,
        stderr=err,
    )
    assert err.getvalue() == ""
    assert "(poker, advanced movement," in out.getvalue()
    assert_cards_say_what_the_module_computes(Pdf((tmp_path / "am.pdf").read_bytes()))
    call_command("ship_cards", str(source), "-o", str(tmp_path / "std.pdf"), stdout=out)
    assert "Advanced movement" not in Pdf((tmp_path / "std.pdf").read_bytes()).text


def test_ship_cards_refuses_an_unknown_movement(tmp_path: Path) -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="invalid choice: 'vector'"):
        call_command("ship_cards", "x.json", "-o", str(tmp_path / "x.pdf"), "--movement", "vector")


@pytest.fixture
def stored(client: Client, catalog) -> Fleet:
    return own_fleet(client, catalog, patrol())


def test_the_print_form_offers_advanced_movement(client: Client, stored: Fleet) -> None:
    page = client.get(f"/cards/fleet/{stored.pk}/print/").content.decode()
    assert re.search(
        r'<input type="radio" name="movement" value="standard" '
        r'id="movement-standard" checked',
        page,
    )
    assert 'name="movement" value="advanced"' in page
    assert '<label for="movement-advanced">Advanced movement</label>' in page


def test_the_print_form_prints_thrust_and_sot_as_its_own_cached_pdf(
    client: Client, stored: Fleet
) -> None:
    standard = client.get(f"/cards/fleet/{stored.pk}/")
    advanced = client.get(f"/cards/fleet/{stored.pk}/?movement=advanced")
    assert advanced.status_code == 200 and advanced["Content-Type"] == "application/pdf"
    assert "Advanced movement" not in Pdf(standard.content).text
    assert_cards_say_what_the_module_computes(Pdf(advanced.content))
    assert advanced["ETag"] != standard["ETag"]
    # each is kept under its own key: the repeat of either is a 304 on its own ETag
    again = client.get(
        f"/cards/fleet/{stored.pk}/?movement=advanced", HTTP_IF_NONE_MATCH=advanced["ETag"]
    )
    assert again.status_code == 304
    assert client.get(f"/cards/fleet/{stored.pk}/?movement=standard")["ETag"] == standard["ETag"]


@pytest.mark.parametrize("value", ["vector", "ADVANCED", "advanced\u200b", "é" * 500])
def test_an_unknown_movement_is_400_with_the_reason(
    client: Client, stored: Fleet, value: str
) -> None:
    response = client.get(f"/cards/fleet/{stored.pk}/", {"movement": value})
    assert response.status_code == 400
    assert response.content.decode().startswith("movement must be standard or advanced, not ")
    assert len(response.content) < 200


def test_a_big_print_on_the_workers_keeps_advanced_movement(
    client: Client,
    catalog,
    held_prints: list[int],  # noqa: F811
) -> None:
    fleet = replace(thirty_one(), units=(*patrol().units[:2], *thirty_one().units[2:]))
    big = own_fleet(client, catalog, fleet)
    response = client.get(f"/cards/fleet/{big.pk}/?layout=poker&movement=advanced")
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert job.advanced_movement and held_prints == [job.pk]
    client.get(f"/cards/fleet/{big.pk}/?layout=poker")  # standard movement: another print
    assert PrintJob.objects.count() == 2
    assert render_print(job.pk)
    page = client.get(job.get_absolute_url()).content.decode()
    assert "poker layout, advanced movement" in page
    pdf = Pdf(client.get(f"{job.get_absolute_url()}cards.pdf").content)
    assert len(pdf.card_pages) == 31
    assert_cards_say_what_the_module_computes(pdf)


def test_the_cache_key_holds_the_movement_and_the_module(
    stored: Fleet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    standard = pdfcache.PrintOptions("poker", False, None)
    advanced = pdfcache.PrintOptions("poker", False, None, advanced_movement=True)
    assert pdfcache.pdf_key(stored.document, standard) != pdfcache.pdf_key(
        stored.document, advanced
    )
    # a deploy that changes how thrust and SOT are computed changes every card's key
    build = pdfcache.cards_build()
    changed = tmp_path / "advanced_movement.py"
    changed.write_text(pdfcache.ADVANCED_MOVEMENT.read_text() + "\n# another rounding\n")
    monkeypatch.setattr(pdfcache, "ADVANCED_MOVEMENT", changed)
    pdfcache.cards_build.cache_clear()
    try:
        assert pdfcache.cards_build() != build
    finally:
        monkeypatch.undo()
        pdfcache.cards_build.cache_clear()
    assert pdfcache.cards_build() == build
