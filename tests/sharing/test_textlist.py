"""The plain-text list (R-91): readable, marks flagship and admiral, and reads back exactly."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import fleet as rf
from rules_core.limits import points_over
from rules_core.textlist import MAX_TEXT_LENGTH, TextListError, edition_of, from_text, to_text
from rules_core.validator import validate

from .conftest import every_sample


def text_of(catalog, fleet: rf.Fleet) -> str:
    return to_text(catalog, fleet, validate(fleet, catalog))


def test_every_sample_fleet_reads_back_exactly(real_catalog) -> None:
    for fleet in every_sample(real_catalog):
        text = text_of(real_catalog, fleet)
        back = from_text(real_catalog, text)
        assert back == fleet
        assert text_of(real_catalog, back) == text  # export -> import -> export is identical


def price(catalog, slug: str) -> int:
    """An Imperial Navy ship's or a refit's price in the catalogue (prices are calibrated;
    tests don't copy them)."""
    navy = catalog.faction("imperial-navy")
    return next(x.points for x in (*navy.ships, *catalog.refits) if x.slug == slug)


def commanded(catalog) -> rf.Fleet:
    fleet = every_sample(catalog)[4 * 8 + 1]  # Imperial Navy, Skirmish
    assert fleet.faction == "imperial-navy"
    first = fleet.units[0]
    assert isinstance(first, rf.ShipUnit)
    units = (
        replace(first, name="Emperor's Wrath", admiral="commodore", upgrades=("veteran-crew",)),
    ) + fleet.units[1:]
    return replace(fleet, name="Gothic Sector Patrol", units=units)


def test_the_text_names_everything_a_reader_needs(real_catalog) -> None:
    fleet = commanded(real_catalog)
    report = validate(fleet, real_catalog)
    text = text_of(real_catalog, fleet)
    lines = text.splitlines()
    assert lines[0] == "Fleet: Gothic Sector Patrol"
    assert lines[1] == "Faction: Imperial Navy"
    assert lines[2] == "Game size: Skirmish (750–1000 points)"
    assert lines[
        3
    ] == f"Points: {report.points} · {'Legal' if report.legal else 'Not legal'}" or lines[
        3
    ].startswith(f"Points: {report.points} · Not legal, ")
    flagship = next(x for x in lines if "[Flagship]" in x)
    assert flagship.startswith(
        '* Siluria Class Light Cruiser "Emperor\'s Wrath" [Flagship] [Admiral: Commodore] · '
    )
    assert flagship.endswith(f" · {report.units[0].points} pts")
    assert f"  + Veteran Crew · {price(real_catalog, 'veteran-crew')} pts" in lines
    # The sample's first squadron (its size and type follow the catalogue's prices).
    squadron = next(u for u in fleet.units if isinstance(u, rf.Squadron))
    escort = squadron.ships[0].ship
    assert {s.ship for s in squadron.ships} == {escort}
    name = real_catalog.faction("imperial-navy").ship(escort).name
    n, each = len(squadron.ships), price(real_catalog, escort)
    assert f"* Squadron · {n}× {name} · {n * each} pts" in lines
    assert f"  - {name} · {each} pts" in lines
    assert lines[-2:] == ["Notes:", "A sample fleet built from the catalogue."]


def test_an_illegal_list_says_so_and_lists_its_problems(real_catalog) -> None:
    fleet = replace(commanded(real_catalog), game_size=rf.GameSize.PATROL)
    text = text_of(real_catalog, fleet)
    assert "· Not legal, 1 problem\n" in text
    assert "! " in text and "over the Patrol band" in text
    assert from_text(real_catalog, text) == fleet


HOSTILE = [
    '<script>alert("x")</script>',
    # A name holds no newline or other control character, but Unicode's line and
    # paragraph separators are text, and str.splitlines() breaks lines at them.
    "Fleet: Fake\u2028* Emperor Class Battleship [Flagship]",
    "Fleet: Fake\u2029* Emperor Class Battleship [Flagship]",
    '"quoted" name',
    "  padded  ",
    "line\u2028separator\u2029next",
    "javascript:alert(1) https://evil.example/x?a=1&b=2",
    "back\\slash [Flagship] · 999 pts",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_cannot_forge_lines_and_read_back(real_catalog, name: str) -> None:
    fleet = commanded(real_catalog)
    squadron = next(u for u in fleet.units if isinstance(u, rf.Squadron))
    units = tuple(
        replace(u, name=name) if u in (fleet.units[0], squadron) else u for u in fleet.units
    )
    fleet = replace(fleet, name=name, units=units, notes=name)
    text = text_of(real_catalog, fleet)
    body = text.split("\nNotes:")[0]  # notes are free text to the end
    unit_lines = [x for x in body.splitlines() if x.startswith("* ")]
    assert len(unit_lines) == len(fleet.units)  # no forged unit line
    assert from_text(real_catalog, text) == fleet


def test_notes_on_several_lines_stay_plain(real_catalog) -> None:
    fleet = replace(commanded(real_catalog), notes="Line one\n\n* not a ship\nLast line")
    text = text_of(real_catalog, fleet)
    assert text.endswith("Notes:\nLine one\n\n* not a ship\nLast line\n")
    assert from_text(real_catalog, text) == fleet


def test_a_hand_typed_list_without_indentation_or_points_reads(real_catalog) -> None:
    text = """fleet: Quick list
faction: imperial navy
game size: patrol

* lunar class cruiser [flagship] [admiral: fleet captain]
+ veteran crew
* Squadron "Swords"
- sword frigate
- Sword Frigate (35 pts)
"""
    fleet = from_text(real_catalog, text)
    assert fleet.name == "Quick list"
    assert fleet.faction == "imperial-navy" and fleet.game_size is rf.GameSize.PATROL
    assert fleet.units[0] == rf.ShipUnit(
        "lunar-class-cruiser", flagship=True, admiral="fleet-captain", upgrades=("veteran-crew",)
    )
    assert fleet.units[1] == rf.Squadron(
        (rf.SquadronShip("sword-class-frigate"),) * 2, name="Swords"
    )


def test_another_factions_ship_with_a_shared_name_keeps_its_slug(real_catalog) -> None:
    chaos = every_sample(real_catalog)[4 * 4]  # Archenemy, Patrol
    assert chaos.faction == "archenemy"
    fleet = replace(chaos, units=chaos.units + (rf.ShipUnit("lunar-class-cruiser"),))
    text = text_of(real_catalog, fleet)
    lunar = price(real_catalog, "lunar-class-cruiser")
    assert f"* lunar-class-cruiser · {lunar} pts" in text.splitlines()
    assert from_text(real_catalog, text) == fleet


def test_custom_sizes_read_their_band(real_catalog) -> None:
    fleet = replace(
        commanded(real_catalog),
        game_size=rf.GameSize.CUSTOM,
        points_limit=rf.PointsBand("custom", 400, 900),
    )
    text = text_of(real_catalog, fleet)
    assert "Game size: Custom (400–900 points)" in text
    assert from_text(real_catalog, text) == fleet


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            "Faction: Orks\nGame size: Patrol\n\n* Nonsense Ship",
            4,
            "no ship called 'Nonsense Ship'",
        ),
        ("Faction: Orks\nGame size: Patrol\n+ Mad Meks", 3, "an upgrade ('+') belongs under"),
        (
            "Faction: Orks\nGame size: Patrol\n- Ravager Attack Ship",
            3,
            "an escort ('-') belongs under a '* Squadron' line",
        ),
        (
            "Faction: Orks\nGame size: Patrol\n* Squadron\n- Ravager Attack Ship [Flagship]",
            4,
            "only a capital ship",
        ),
        ("Faction: Orks\nGame size: Patrol\n* Ork Kill Kroozer [Boss]", 3, "unknown tag [Boss]"),
        ('Faction: Orks\nGame size: Patrol\n* Ork Kill Kroozer "unclosed', 3, "not closed"),
        ("Faction: Orks\nGame size: Patrol\n* Ork Kill Kroozer and friends", 3, "unexpected text"),
        ("Faction: Orks\nGame size: Huge", 2, "'huge' is not a game size"),
        ("Faction: Orks\nGame size: Custom", 2, "a custom game size needs its band"),
        ("Faction: Orks\nGame size: Custom (900-400 points)", 2, "below the minimum"),
        ("Faction: Elves\nGame size: Patrol", 1, "no faction called 'Elves'"),
        (
            "Fleet: " + "x" * 101 + "\nFaction: Orks\nGame size: Patrol",
            1,
            "101 characters long; the limit is 100",
        ),
        ("Faction: Orks\nGame size: Patrol\nHello there", 3, "not understood: 'Hello there'"),
        ("Game size: Patrol\n* Ork Kill Kroozer", 2, "needs a 'Faction:' line"),
        ("Faction: Orks\nFaction: Orks", 2, "a second 'faction' line"),
        ("Faction: Orks\nGame size: Patrol\n* Ork Kill Kroozer\nFleet: Late", 4, "belongs before"),
    ],
)
def test_broken_text_names_the_line(real_catalog, text: str, line: int, message: str) -> None:
    with pytest.raises(TextListError) as caught:
        from_text(real_catalog, text)
    assert caught.value.line == line
    assert message in caught.value.message
    assert str(caught.value).startswith(f"line {line}: ")


def test_a_list_without_a_game_size_is_refused(real_catalog) -> None:
    with pytest.raises(TextListError, match="needs a 'Game size:' line"):
        from_text(real_catalog, "Faction: Orks\n* Ork Kill Kroozer")


def test_over_long_text_is_refused_before_reading(real_catalog) -> None:
    with pytest.raises(TextListError, match="the limit is 65536"):
        from_text(real_catalog, "x" * (MAX_TEXT_LENGTH + 1))


def _fleets(catalog):
    from hypothesis import strategies as st

    from rules_core.text import problem

    ships = st.sampled_from(
        sorted({s.slug for f in catalog.factions for s in f.ships}) + ["no-such-ship"]
    )
    ups = st.lists(
        st.sampled_from(["veteran-crew", "extra-turrets", "mad-meks", "no-such-refit"]), max_size=3
    ).map(tuple)
    # Any text R-94 allows (no surrogates or noncharacters; control characters only tab and
    # newline, in notes).
    text = st.characters(blacklist_categories=("Cs", "Cc"))
    names = st.none() | st.text(text, max_size=40).filter(lambda s: problem(s) is None)
    units = st.builds(
        rf.ShipUnit,
        ship=ships,
        name=names,
        flagship=st.booleans(),
        admiral=st.none() | st.sampled_from(["commodore", "no-such-rank"]),
        upgrades=ups,
    ) | st.builds(
        rf.Squadron,
        ships=st.lists(st.builds(rf.SquadronShip, ship=ships, upgrades=ups), max_size=5).map(tuple),
        name=names,
    )
    return st.builds(
        rf.Fleet,
        faction=st.sampled_from([f.slug for f in catalog.factions]),
        game_size=st.sampled_from([g for g in rf.GameSize if g is not rf.GameSize.CUSTOM]),
        units=st.lists(units, max_size=6).map(tuple),
        name=names,
        notes=st.text(
            st.characters(blacklist_categories=("Cs", "Cc"), whitelist_characters="\t\n"),
            max_size=80,
        ).filter(lambda s: problem(s, multiline=True) is None),
    )


def test_any_list_of_catalogue_ships_reads_back(real_catalog) -> None:
    from hypothesis import given, settings

    @settings(max_examples=150, deadline=None)
    @given(fleet=_fleets(real_catalog))
    def round_trip(fleet: rf.Fleet) -> None:
        text = text_of(real_catalog, fleet)
        if points_over(u.points for u in validate(fleet, real_catalog).units) is not None:
            with pytest.raises(TextListError, match="at most 5000"):
                from_text(real_catalog, text)
            return
        assert from_text(real_catalog, text) == fleet

    round_trip()


def test_a_misspelt_ship_gets_a_suggestion(real_catalog) -> None:
    text = "Faction: Orks\nGame size: Patrol\n* Squadron\n  - Savage Gunshp"
    with pytest.raises(TextListError) as caught:
        from_text(real_catalog, text)
    assert str(caught.value) == (
        "line 4: no ship called 'Savage Gunshp' in the catalogue; did you mean 'Savage Gunship'?"
    )


def test_a_list_copied_back_from_a_forum_post_reads(real_catalog) -> None:
    fleet = commanded(real_catalog)
    text = text_of(real_catalog, fleet)
    rendered = "\n".join(
        ("• " + x[2:])
        if x.startswith("* ")
        else ("◦ " + x.strip()[2:])
        if x.strip().startswith("- ")
        else x.strip()
        for x in text.splitlines()
    )
    assert from_text(real_catalog, f"```\n{rendered}\n```\n") == fleet


# --- editions (R-160, R-161) ---------------------------------------------------------------


def test_the_text_names_the_lists_edition_and_reads_it_back(real_catalog) -> None:
    """R-160: the text list names its edition (number and label) and reads it back."""
    fleet = replace(commanded(real_catalog), edition=7)
    text = to_text(
        real_catalog,
        fleet,
        validate(fleet, real_catalog),
        edition_label="2026-12-02, Necrons' Battle ships",
    )
    lines = text.splitlines()
    assert "Edition: 7 (2026-12-02, Necrons' Battle ships)" in lines
    assert lines.index("Edition: 7 (2026-12-02, Necrons' Battle ships)") < next(
        i for i, x in enumerate(lines) if x.startswith("Points:")
    )
    assert edition_of(text) == 7
    assert from_text(real_catalog, text) == fleet


def test_a_list_naming_no_edition_has_no_edition_line(real_catalog) -> None:
    """R-161: a text without an edition line names none (the app reads it under the first)."""
    fleet = commanded(real_catalog)
    text = text_of(real_catalog, fleet)
    assert not any(x.startswith("Edition") for x in text.splitlines())
    assert edition_of(text) is None
    assert from_text(real_catalog, text).edition is None


@pytest.mark.parametrize(
    "line",
    [
        "Edition: 5",
        "edition: 5 (an old one)",
        "Edition 5",
        "Edition 5 (2025-01, the second reprice)",
        "EDITION:5",
    ],
)
def test_an_edition_line_reads_as_written_or_as_the_pages_title_it(real_catalog, line: str) -> None:
    text = f"Faction: Orks\nGame size: Patrol\n{line}\n* Ork Kill Kroozer"
    assert edition_of(text) == 5
    assert from_text(real_catalog, text).edition == 5


def test_an_edition_line_after_the_ships_is_not_the_lists() -> None:
    text = "Faction: Orks\nGame size: Patrol\n* Ork Kill Kroozer\nEdition: 5"
    assert edition_of(text) is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Edition: seven", "the edition line is 'Edition: N'"),
        ("Edition: 0", "there is no edition 0"),
        ("Edition: 10000", "there is no edition 10000"),
        ("Edition: 7 and a half", "the edition line is 'Edition: N'"),
    ],
)
def test_a_broken_edition_line_names_its_line(real_catalog, line: str, message: str) -> None:
    text = f"Faction: Orks\nGame size: Patrol\n{line}\n* Ork Kill Kroozer"
    for read in (lambda: edition_of(text), lambda: from_text(real_catalog, text)):
        with pytest.raises(TextListError) as caught:
            read()
        assert caught.value.line == 3 and message in caught.value.message


def test_a_second_edition_line_is_refused(real_catalog) -> None:
    with pytest.raises(TextListError, match="a second 'edition' line"):
        from_text(real_catalog, "Faction: Orks\nEdition: 7\nGame size: Patrol\nEdition: 6")
