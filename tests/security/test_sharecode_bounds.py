"""Issue 34 §5: a share code the app makes, the app opens.

The encoder and the decoder hold the same bounds: every fleet within ``rules_core.limits``
either gets a code that opens to the same fleet, or is refused when encoding, saying why.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import fleet as rf
from rules_core import limits, sharecode

# A 100-character slug, and names and notes of 4-byte characters: the most bytes the bounds
# allow in every field.
LONG_SLUG = "-".join(["abcdefghi"] * 10) + "x"
WIDE = "\U0001d518"


def widest_fleet(ship_units: int) -> rf.Fleet:
    """``ship_units`` capital ships, the rest of the 150 ships in squadrons, up to 100 units;
    every field at its longest."""
    name = WIDE * limits.MAX_NAME_LENGTH
    upgrades = (LONG_SLUG,) * limits.MAX_UPGRADES_PER_SHIP
    units: list[rf.Unit] = [
        rf.ShipUnit(LONG_SLUG, name, True, LONG_SLUG, upgrades) for _ in range(ship_units)
    ]
    left = limits.MAX_FLEET_SHIPS - ship_units
    while left > 0 and len(units) < limits.MAX_UNITS:
        size = min(limits.MAX_SQUADRON_SHIPS, left)
        units.append(
            rf.Squadron(tuple(rf.SquadronShip(LONG_SLUG, upgrades) for _ in range(size)), name)
        )
        left -= size
    return rf.Fleet(
        LONG_SLUG,
        rf.GameSize.CUSTOM,
        tuple(units),
        name,
        LONG_SLUG,
        rf.PointsBand("custom", limits.MAX_POINTS_LIMIT, limits.MAX_POINTS_LIMIT),
        WIDE * limits.MAX_NOTES_LENGTH,
        limits.MAX_EDITION,
    )


def opens_or_is_refused_saying_why(fleet: rf.Fleet) -> None:
    rf.parse_fleet(rf.fleet_to_dict(fleet))  # within the bounds: a file of it is read
    try:
        code = sharecode.encode(fleet)
    except sharecode.ShareCodeError as exc:
        assert "too big for a share code" in exc.message and "the limit is" in exc.message
        return
    assert sharecode.decode(code) == fleet


def test_the_issues_fleet_gets_a_code_that_opens() -> None:
    """75 squadrons of two escorts, 20 upgrade entries each: a 775-character code that
    unpacked to more than the old 64 KB."""
    upgrades = tuple(f"no-such-upgrade-{n}" for n in range(limits.MAX_UPGRADES_PER_SHIP))
    pair = rf.Squadron(
        tuple(rf.SquadronShip("sword-class-frigate", upgrades) for _ in range(2)),
        name="N" * limits.MAX_NAME_LENGTH,
    )
    fleet = rf.Fleet(
        "imperial-navy",
        rf.GameSize.ARMADA,
        (pair,) * 75,
        name="N" * limits.MAX_NAME_LENGTH,
        notes="n" * limits.MAX_NOTES_LENGTH,
    )
    code = sharecode.encode(fleet)
    assert len(code) < 1000
    assert sharecode.decode(code) == fleet


def test_the_widest_fleets_the_bounds_allow_open() -> None:
    for ship_units in (0, 50, 97, 100):
        fleet = widest_fleet(ship_units)
        payload = json.dumps(
            sharecode.to_compact(fleet), ensure_ascii=False, separators=(",", ":")
        ).encode()
        assert len(payload) <= sharecode.MAX_PAYLOAD_BYTES
        opens_or_is_refused_saying_why(fleet)


slugs = st.sampled_from(
    [
        "sword-class-frigate",
        "lunar-class-cruiser",
        "a",
        LONG_SLUG,
        "no-such-upgrade-1",
        "x-" * 49 + "yz",
    ]
)
names = st.none() | st.sampled_from(["", "N" * 100, WIDE * 100, 'Emperor\'s "Wrath" \\'])
upgrade_lists = st.lists(slugs, max_size=limits.MAX_UPGRADES_PER_SHIP).map(tuple)
ship_units = st.builds(
    rf.ShipUnit,
    ship=slugs,
    name=names,
    flagship=st.booleans(),
    admiral=st.none() | slugs,
    upgrades=upgrade_lists,
)
squadrons = st.builds(
    rf.Squadron,
    ships=st.lists(
        st.builds(rf.SquadronShip, ship=slugs, upgrades=upgrade_lists),
        min_size=1,
        max_size=limits.MAX_SQUADRON_SHIPS,
    ).map(tuple),
    name=names,
)


def within_ship_bound(units: list[rf.Unit]) -> tuple[rf.Unit, ...]:
    kept: list[rf.Unit] = []
    ships = 0
    for unit in units:
        n = 1 if isinstance(unit, rf.ShipUnit) else len(unit.ships)
        if ships + n > limits.MAX_FLEET_SHIPS:
            break
        kept.append(unit)
        ships += n
    return tuple(kept)


fleets = st.builds(
    rf.Fleet,
    faction=slugs,
    game_size=st.sampled_from([g for g in rf.GameSize if g is not rf.GameSize.CUSTOM]),
    units=st.lists(ship_units | squadrons, max_size=limits.MAX_UNITS).map(within_ship_bound),
    name=names,
    variant=st.none() | slugs,
    notes=st.sampled_from(["", "n" * limits.MAX_NOTES_LENGTH, WIDE * limits.MAX_NOTES_LENGTH]),
    edition=st.none() | st.integers(1, limits.MAX_EDITION),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(fleet=fleets)
def test_every_fleet_within_the_bounds_gets_a_code_that_opens(fleet: rf.Fleet) -> None:
    opens_or_is_refused_saying_why(fleet)
