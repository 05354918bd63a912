"""Printed cards read back from the PDF: names and numbers, pages, sizes, layouts, ink saving."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from rules_core.cards import LayoutError, render_cards
from rules_core.catalog import Catalog
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip
from rules_core.sample_fleets import sample_fleet
from rules_core.validator import validate
from tests.environment import cases

from .conftest import Pdf, price

FACTIONS = [
    "adepta-sororitas",
    "adeptus-astartes",
    "adeptus-custodes",
    "adeptus-mechanicus",
    "archenemy",
    "craftworld-eldar",
    "drukhari",
    "grey-knights",
    "imperial-navy",
    "leagues-of-votann",
    "necrons",
    "orks",
    "tau-empire",
    "tyranids",
]


def squashed(text: str) -> str:
    return re.sub(r"\s+", " ", text)


FLAGSHIP = (
    "retribution-class-battleship",
    "shield-capacitors",
    "reinforced-hull",
    "imperial-gunnery-cadre",
    "commodore",
)
PATROL = (
    *FLAGSHIP,
    "lunar-class-cruiser",
    "extra-turrets",
    "siluria-class-light-cruiser",
    "siluria-class-light-cruiser",
    *("sword-class-frigate",) * 3,
    "cobra-class-destroyer",
    "sword-class-frigate",
)  # everything the patrol below pays for


@pytest.fixture(scope="module")
def patrol() -> Fleet:
    """A legal Battle list with a named, upgraded flagship and two kinds of squadron (with
    calibrated prices it is about 1085 points: a Battle list, well inside its band)."""
    return Fleet(
        faction="imperial-navy",
        game_size=GameSize.BATTLE,
        name="Gothic Sector Patrol",
        units=(
            ShipUnit(
                "retribution-class-battleship",
                name="Emperor's Wrath",
                flagship=True,
                admiral="commodore",
                upgrades=("shield-capacitors", "reinforced-hull", "imperial-gunnery-cadre"),
            ),
            ShipUnit("lunar-class-cruiser", upgrades=("extra-turrets",)),
            ShipUnit("siluria-class-light-cruiser"),
            ShipUnit("siluria-class-light-cruiser"),
            Squadron((SquadronShip("sword-class-frigate"),) * 3, name="Sword Squadron"),
            Squadron((SquadronShip("cobra-class-destroyer"), SquadronShip("sword-class-frigate"))),
        ),
    )


@pytest.fixture(scope="module")
def patrol_pdf(real_catalog: Catalog, patrol: Fleet) -> Pdf:
    return Pdf(render_cards(real_catalog, patrol, layout="poker"))


def test_the_patrol_is_legal(real_catalog: Catalog, patrol: Fleet) -> None:
    report = validate(patrol, real_catalog)
    assert report.legal, report.codes
    assert report.points == price(real_catalog, *PATROL)


def test_poker_prints_a_roster_then_one_63_by_88_card_per_unit(patrol_pdf: Pdf) -> None:
    # Pins R-67: poker size, one card a page, the roster first, no card split.
    assert patrol_pdf.page_size_mm == (63.0, 88.0)
    assert patrol_pdf.card_pages == [1, 2, 3, 4, 5, 6]  # roster on page 0, nothing split
    assert patrol_pdf.pages == 7


def test_the_flagship_card_has_its_upgraded_stats_points_and_command(
    real_catalog: Catalog, patrol_pdf: Pdf
) -> None:
    card = squashed(patrol_pdf.page_texts[1])
    assert "Emperor's Wrath" in card and "Retribution Class Battleship · Battleship" in card
    # The ship, its three upgrades and the Commodore.
    assert f"{price(real_catalog, *FLAGSHIP)} pts" in card
    assert "★ Flagship" in card and "Commodore +1 Ld" in card
    # Speed, turns, Ld (9 + 1 flagship + 1 Commodore, capped at 10: R-06), shields 4 + 1,
    # hull 12 + 1, armor, turrets, base.
    assert re.search(r"\b20 45° 10 5 13 5\+ 4 60\b", card), card
    assert "All Ahead Full +3d6 cm" in card  # battleships roll 3d6
    assert "Crippled at hull ≤ 7" in card  # R-09 on 13 hull: 6 (half, rounded down) lost
    capacitors = price(real_catalog, "shield-capacitors")
    assert f"Shield Capacitors ({capacitors} pts, in the stats)" in card
    assert "re-rolls all missed to-hit dice" in card  # an upgrade that is a rule keeps its text
    assert "command radius" in card and "Critical hits".upper() in card


def test_weapons_print_type_arc_range_and_strength_with_crippled_strength(patrol_pdf: Pdf) -> None:
    card = squashed(patrol_pdf.page_texts[1])
    assert re.search(r"Port Weapons Battery Battery L 60 12 \(6\)", card), card
    assert re.search(r"Dorsal Lance Battery Lance L/F/R 60 3 \(1\)", card)
    assert re.search(r"Prow Torpedoes Torpedo F 30 9 \(4\)", card)


def test_an_upgrade_changes_the_printed_stat(real_catalog: Catalog, patrol_pdf: Pdf) -> None:
    lunar = squashed(patrol_pdf.page_texts[2])
    points = price(real_catalog, "lunar-class-cruiser", "extra-turrets")
    assert "Lunar Class Cruiser" in lunar and f"{points} pts" in lunar
    assert re.search(r"\b20 45° 8 2 8 5\+ 3 32\b", lunar), lunar  # Extra Turrets: 2 → 3
    assert "Crippled at hull ≤ 4" in lunar


def test_squadron_cards(real_catalog: Catalog, patrol_pdf: Pdf) -> None:
    swords = squashed(patrol_pdf.page_texts[5])
    sword = price(real_catalog, "sword-class-frigate")
    assert "Sword Squadron" in swords and f"{3 * sword} pts" in swords
    assert "3 × Sword Frigate" in swords
    assert re.search(r"\b25 90° 7 1 1 5\+ 2 32\b", swords)
    assert all(f"#{n} Hull" in swords for n in (1, 2, 3))
    assert "1-hull escorts take no critical hits" in swords
    mixed = squashed(patrol_pdf.page_texts[6])
    assert f"{price(real_catalog, 'cobra-class-destroyer') + sword} pts" in mixed
    assert "Cobra Destroyer" in mixed and "Sword Frigate" in mixed
    assert "Prow Torpedoes" in mixed  # the Cobra's weapons are on the card too


def test_the_roster_lists_the_fleet(real_catalog: Catalog, patrol_pdf: Pdf) -> None:
    roster = squashed(patrol_pdf.page_texts[0])
    assert "Gothic Sector Patrol" in roster
    assert "Imperial Navy · Battle (1000–1500 points)" in roster
    assert f"{price(real_catalog, *PATROL)} pts Legal" in roster and "Command Ld 10" in roster
    for n, name in enumerate(["Emperor's Wrath", "Lunar Class Cruiser", "Sword Squadron"]):
        assert name in roster, n
    assert "Naval Discipline." in roster  # the faction's rules


@pytest.mark.parametrize(
    ("layout", "size", "pages"),
    [
        ("a4", (210.0, 297.0), 2),
        ("letter", (215.9, 279.4), 2),
    ],
)
def test_sheets_hold_nine_cards(
    real_catalog: Catalog, patrol: Fleet, layout: str, size: tuple[float, float], pages: int
) -> None:
    # Pins R-67: a4 and letter hold nine cards a sheet after the roster.
    pdf = Pdf(render_cards(real_catalog, patrol, layout=layout))
    assert pdf.page_size_mm == size
    assert pdf.pages == pages  # the roster, then six cards on one sheet
    assert pdf.card_pages == [1]
    assert len(re.findall(r"· Unit \d+", pdf.page_texts[1])) == 6


def test_thirty_cards_fill_four_sheets_nine_at_a_time(real_catalog: Catalog) -> None:
    from rules_core.cards.bench import bench_fleet

    pdf = Pdf(render_cards(real_catalog, bench_fleet(), layout="a4"))
    per_sheet = [len(re.findall(r"· Unit \d+", pdf.page_texts[i])) for i in pdf.card_pages]
    assert per_sheet == [9, 9, 9, 3]
    units = [int(u) for i in pdf.card_pages for u in re.findall(r"· Unit (\d+)", pdf.page_texts[i])]
    assert sorted(units) == list(range(1, 31))


# Three factions by default (squadrons, mixed squadrons, the most weapons); all with --full.
@pytest.mark.parametrize("faction", cases(FACTIONS, ["imperial-navy", "tyranids", "tau-empire"]))
def test_every_factions_sample_fleet_prints_each_unit_on_its_own_card(
    real_catalog: Catalog, faction: str
) -> None:
    fleet = sample_fleet(real_catalog, faction, "battle")
    report = validate(fleet, real_catalog)
    pdf = Pdf(render_cards(real_catalog, fleet, layout="poker"))
    first = pdf.card_pages[0]
    assert pdf.card_pages == list(range(first, first + len(fleet.units)))
    assert pdf.pages == first + len(fleet.units)
    for i, (unit, unit_report) in enumerate(zip(fleet.units, report.units, strict=True)):
        card = squashed(pdf.page_texts[first + i])
        drawn = squashed(pdf.raw_texts[first + i])  # drawing order: a wrapped title in one piece
        assert f"Unit {i + 1}" in card
        assert f"{unit_report.points} pts" in card
        for ship in unit_report.ships:
            assert ship.profile is not None
            # A mixed squadron's stats table shortens long names; its weapons caption has all.
            assert ship.profile.name in drawn, (unit, drawn)
            for weapon in ship.profile.weapons:
                assert weapon.name in drawn


def test_every_catalogue_ship_fits_one_card(real_catalog: Catalog) -> None:
    """The longest names, most weapons and most upgrades still fit a poker card."""
    units: list[ShipUnit | Squadron] = []
    # Every faction with --full; by default the three with the longest names and most weapons.
    longest = sorted(
        real_catalog.factions,
        key=lambda f: -max(len(s.name) + 10 * len(s.weapons) for s in f.ships),
    )[:3]
    for faction in cases(real_catalog.factions, longest):
        upgrades = (*faction.upgrades, *real_catalog.refits)
        escorts = [s for s in faction.ships if s.is_escort]
        for ship in faction.ships:
            if ship.is_escort:
                units.append(Squadron((SquadronShip(ship.slug),) * 4))
                continue
            taken = tuple(u.slug for u in upgrades if ship.ship_class in u.classes)[:4]
            units.append(
                ShipUnit(
                    ship.slug,
                    name="The Very Long Named Vessel of Doom Eternal",
                    flagship=not units,
                    admiral="lord-admiral" if not units else None,
                    upgrades=taken,
                )
            )
        units.append(Squadron(tuple(SquadronShip(s.slug) for s in (escorts * 4)[:4])))
    fleet = Fleet("imperial-navy", GameSize.ARMADA, tuple(units), name="Everything")
    pdf = Pdf(render_cards(real_catalog, fleet, layout="poker"))
    first = pdf.card_pages[0]
    assert pdf.pages == first + len(units)
    assert pdf.card_pages == list(range(first, pdf.pages))


def test_an_illegal_fleet_prints_and_its_roster_says_why(real_catalog: Catalog) -> None:
    fleet = Fleet(
        "imperial-navy", GameSize.BATTLE, (ShipUnit("lunar-class-cruiser"),), name="Too Small"
    )
    roster = squashed(Pdf(render_cards(real_catalog, fleet)).page_texts[0])
    assert "Not legal (2 errors)" in roster
    lunar = price(real_catalog, "lunar-class-cruiser")
    assert f"{lunar} points is under the Battle band (1000–1500)." in roster
    assert "No ship is marked as the flagship" in roster
    assert roster.count("• ") == 2  # a bulleted list, one problem a bullet (cards' ua.css)


def test_the_share_link_is_printed_on_the_roster(real_catalog: Catalog, patrol: Fleet) -> None:
    url = "https://fleets.example.org/shared/AbC123xyz/"
    with_link = Pdf(render_cards(real_catalog, patrol, layout="a4", share_url=url))
    assert url in re.sub(r"\s", "", with_link.page_texts[0])  # the caption may wrap
    without = Pdf(render_cards(real_catalog, patrol, layout="a4"))
    assert "https://" not in without.text


def test_unknown_layout_is_refused(real_catalog: Catalog, patrol: Fleet) -> None:
    with pytest.raises(LayoutError, match="unknown layout 'tarot'"):
        render_cards(real_catalog, patrol, layout="tarot")


def test_fonts_are_dejavu_embedded(patrol_pdf: Pdf) -> None:
    rows = patrol_pdf.fonts().splitlines()[2:]
    assert rows
    assert all("DejaVu" in row.split()[0] and " yes " in row for row in rows), rows
    assert any("Condensed" in row.split()[0] for row in rows)  # fonts-dejavu-extra


def _ink(pdf: bytes, page: int) -> float:
    """Mean darkness (0 white … 1 black) of one page rendered at 100 dpi."""
    import subprocess

    png = subprocess.run(
        ["pdftoppm", "-r", "100", "-png", "-f", str(page), "-l", str(page), "-"],
        input=pdf,
        capture_output=True,
        check=True,
    ).stdout
    gray = Image.open(io.BytesIO(png)).convert("L")
    histogram = gray.histogram()  # 256 counts, one per gray level
    total = sum(level * n for level, n in enumerate(histogram))
    return 1 - total / (255 * gray.width * gray.height)


def test_ink_saver_uses_less_ink(real_catalog: Catalog, patrol: Fleet) -> None:
    normal = _ink(render_cards(real_catalog, patrol, layout="poker"), 2)
    saver = _ink(render_cards(real_catalog, patrol, layout="poker", ink_saver=True), 2)
    assert saver < normal * 0.8, (saver, normal)


def _margin_ink(pdf: bytes, page: int) -> float:
    """Dark pixels in the sheet's top-left corner, up to the card grid (10.5, 16.5 mm)."""
    import subprocess

    png = subprocess.run(
        ["pdftoppm", "-r", "200", "-gray", "-png", "-f", str(page), "-l", str(page), "-"],
        input=pdf,
        capture_output=True,
        check=True,
    ).stdout
    image = Image.open(io.BytesIO(png)).convert("L")
    mm = 200 / 25.4
    corner = image.crop((0, 0, round(10.7 * mm), round(16.7 * mm)))
    return sum(corner.histogram()[:150])  # black marks, not the cards' light-grey outline


def test_sheets_have_cut_marks_in_the_margin(real_catalog: Catalog, patrol: Fleet) -> None:
    pdf = render_cards(real_catalog, patrol, layout="a4")
    assert _margin_ink(pdf, 2) > 20  # the card sheet: marks at the grid's corner
    assert _margin_ink(pdf, 1) == 0  # the roster page has none


def test_a_fleet_of_unknown_ships_and_faction_still_prints(real_catalog: Catalog) -> None:
    fleet = Fleet(
        "no-such-faction",
        GameSize.PATROL,
        (
            ShipUnit(
                "no-such-ship",
                name="Ghost",
                flagship=True,
                admiral="no-such-rank",
                upgrades=("no-such-upgrade",),
            ),
            Squadron((SquadronShip("sword-class-frigate"), SquadronShip("phantom-escort"))),
        ),
        name="Strays",
    )
    pdf = Pdf(render_cards(real_catalog, fleet, layout="poker"))
    assert pdf.pages == 3
    assert "The catalogue has no faction 'no-such-faction'" in squashed(pdf.page_texts[0])
    assert "Ghost" in pdf.page_texts[1] and "Not in the catalogue" in pdf.page_texts[1]
    squadron = squashed(pdf.page_texts[2])
    assert "Sword Frigate" in squadron
    assert "The catalogue has no ship 'phantom-escort'" in squadron


def test_the_roster_names_the_variant(real_catalog: Catalog) -> None:
    fleet = sample_fleet(real_catalog, "imperial-navy", "patrol", variant="bakka-sector-fleet")
    roster = squashed(Pdf(render_cards(real_catalog, fleet, layout="letter")).page_texts[0])
    assert "Imperial Navy · Battlefleet Bakka · Patrol (500–750 points)" in roster
