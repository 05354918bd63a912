"""The variants of a fleet (rules_core.whatif) and the paired interval, without a database.

Pins R-97: the flagship and its admiral move to the most expensive capital ship left; with no
capital ship left the removal is not played, saying why; alike units are asked about once;
swaps are same-class ships of equal or lower points, the 3 nearest in points.
"""

from __future__ import annotations

import math

import pytest

from rules_core import fleet as rf
from rules_core.whatif import half_points, paired_difference, what_if_variants

from .conftest import whatif_fleet

pytestmark = pytest.mark.django_db


def test_r97_removing_the_flagship_moves_it_and_its_admiral(catalog) -> None:
    variants, _ = what_if_variants(catalog, whatif_fleet())
    without = next(v for v in variants if v.key == "remove-0")
    assert without.label == "without Lunar"
    heir = without.fleet.units[0]
    assert isinstance(heir, rf.ShipUnit) and heir.ship == "dauntless-class-light-cruiser"
    assert heir.flagship and heir.admiral == "commodore"
    assert without.note == "flagship and Commodore moved to Dauntless"


def test_r97_a_flagship_with_no_capital_ship_left_is_not_removed(catalog) -> None:
    fleet = rf.Fleet(
        "imperial-navy",
        rf.GameSize.PATROL,
        units=(
            rf.ShipUnit("lunar-class-cruiser", flagship=True),
            rf.Squadron((rf.SquadronShip("sword-class-frigate"),) * 2),
        ),
    )
    variants, skipped = what_if_variants(catalog, fleet)
    assert "remove-0" not in [v.key for v in variants]
    assert any(s.label == "without Lunar" and "flagship" in s.reason for s in skipped)
    assert "remove-1" in [v.key for v in variants]  # the escorts may go


def test_r97_alike_units_are_asked_about_once_and_swaps_are_same_class_cheaper(catalog) -> None:
    variants, _ = what_if_variants(catalog, whatif_fleet())
    keys = [v.key for v in variants]
    assert keys[0] == "base" and variants[0].fleet == whatif_fleet()
    assert "remove-2" in keys and "remove-3" not in keys  # the second Swords squadron
    lunar = [v.label for v in variants if v.kind == "swap" and v.unit == 0]
    assert lunar == ["swap Lunar for Gothic"]  # Tyrant (185) and Dictator cost more
    swords = [v for v in variants if v.kind == "swap" and v.unit == 2]
    assert {v.label for v in swords} == {
        "swap 2 Sword for Falchion",
        "swap 2 Sword for Viper",
        "swap 2 Sword for Cobra",
    }
    for v in swords:  # the whole squadron changes, the rest of the fleet does not
        assert v.fleet.units[3] == whatif_fleet().units[3]


def test_r97_only_the_three_nearest_alternatives_are_played(catalog) -> None:
    fleet = rf.Fleet(
        "imperial-navy",
        rf.GameSize.PATROL,
        units=(
            rf.ShipUnit("lunar-class-cruiser", flagship=True),
            rf.Squadron((rf.SquadronShip("firestorm-class-frigate"),) * 2),
        ),
    )
    variants, skipped = what_if_variants(catalog, fleet)
    swaps = [v.label for v in variants if v.kind == "swap" and v.unit == 1]
    assert len(swaps) == 3 and "swap 2 Firestorm for Cobra" not in swaps  # 30 pts: 4th
    assert any("1 more" in s.reason for s in skipped)


def test_the_paired_interval_by_hand() -> None:
    base = [1, 0, 0.5, 1, 0]
    variant = [1, 1, 1, 0, 1]
    d = [0, 1, 0.5, -1, 1]
    mean = sum(d) / 5
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / 4)
    got = paired_difference(base, variant)
    assert got.n == 5 and got.mean == pytest.approx(0.3)
    assert got.half_width == pytest.approx(1.96 * sd / math.sqrt(5))
    assert paired_difference([1], [0]).half_width is None
    assert [half_points(w) for w in ("a", None, "b")] == [2, 1, 0]
