"""Built-in sample fleets: legal for every faction and game size, and always the same."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from rules_core.catalog import DATA_DIR, Catalog, load_catalog_dir
from rules_core.fleet import POINTS_BANDS, GameSize, PointsBand, ShipUnit, fleet_to_dict
from rules_core.sample_fleets import (
    MATCH_TOLERANCE,
    SampleFleetError,
    sample_fleet,
    sample_target,
)
from rules_core.validator import validate

SIZES = [GameSize.PATROL, GameSize.SKIRMISH, GameSize.BATTLE, GameSize.ARMADA]
FACTION_COUNT = 14  # section 16's fleet lists


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("faction", "variant"),
    [
        ("imperial-navy", None),
        ("imperial-navy", "bastion-fleet"),
        ("imperial-navy", "battle-group"),
        ("orks", None),
    ],
)
def test_sample_fleets_are_legal(
    catalog: Catalog, faction: str, variant: str | None, size: GameSize
) -> None:
    # Pins R-35: built sample fleets are legal.
    fleet = sample_fleet(catalog, faction, size, variant=variant)
    report = validate(fleet, catalog)
    assert report.legal, report.codes
    assert report.points in POINTS_BANDS[size]
    assert fleet.variant == variant
    flagship = fleet.units[0]
    assert isinstance(flagship, ShipUnit) and flagship.flagship


def test_a_needed_ship_that_needs_others_first_gets_them(catalog: Catalog) -> None:
    # The Battle Group must field a battleship, and a battleship needs two cruisers.
    fleet = sample_fleet(catalog, "imperial-navy", "patrol", variant="battle-group")
    ships = [u.ship for u in fleet.units if isinstance(u, ShipUnit)]
    assert "retribution-class-battleship" in ships
    assert validate(fleet, catalog).legal


def test_sample_fleets_are_deterministic() -> None:
    # Pins R-35: deterministic. Two catalogues read apart (samples are kept per catalogue
    # object, so the same object would only show the kept one).
    first = fleet_to_dict(sample_fleet(load_catalog_dir(DATA_DIR), "imperial-navy", "battle"))
    again = fleet_to_dict(sample_fleet(load_catalog_dir(DATA_DIR), "imperial-navy", "battle"))
    assert again == first


def test_a_kept_sample_is_never_one_of_another_catalogue(catalog: Catalog) -> None:
    kept = sample_fleet(catalog, "orks", "skirmish")
    assert sample_fleet(catalog, "orks", "skirmish") is kept  # built once
    assert sample_fleet(catalog, "orks", "patrol") is not kept
    # The same catalogue with every Ork ship at twice its price: a new object, a new sample.
    orks = next(f for f in catalog.factions if f.slug == "orks")
    dearer = replace(orks, ships=tuple(replace(s, points=s.points * 2) for s in orks.ships))
    repriced = replace(
        catalog, factions=tuple(dearer if f is orks else f for f in catalog.factions)
    )
    other = sample_fleet(repriced, "orks", "skirmish")
    assert validate(other, repriced).legal
    assert len(fleet_to_dict(other)["units"]) < len(fleet_to_dict(kept)["units"])


def test_a_custom_sample_fleet(catalog: Catalog) -> None:
    fleet = sample_fleet(catalog, "orks", "custom", points_limit=PointsBand("custom", 300, 400))
    report = validate(fleet, catalog)
    assert report.legal and 300 <= report.points <= 400


def test_sample_fleet_refuses_what_it_cannot_build(catalog: Catalog) -> None:
    with pytest.raises(SampleFleetError):
        sample_fleet(catalog, "space-elves", "patrol")
    with pytest.raises(SampleFleetError):
        sample_fleet(catalog, "imperial-navy", "custom")
    with pytest.raises(SampleFleetError):  # no ship is cheap enough
        sample_fleet(catalog, "orks", "custom", points_limit=PointsBand("custom", 10, 20))


@cache
def _real_catalog() -> Catalog:
    """The real catalogue, straight from its data files (all fourteen factions), read once: the
    legality and the points-matching tests then check the same kept samples."""
    return load_catalog_dir(DATA_DIR)


def _failures(catalog: Catalog, choices: list[tuple[str, str | None]]) -> list[str]:
    failures = []
    for faction, variant in choices:
        for size in SIZES:
            try:
                fleet = sample_fleet(catalog, faction, size, variant=variant)
            except SampleFleetError as exc:
                failures.append(str(exc))
                continue
            report = validate(fleet, catalog)
            if not report.legal or report.points not in POINTS_BANDS[size]:
                failures.append(f"{faction}/{variant} {size.value}: {report.codes}")
    return failures


def test_every_real_faction_has_a_legal_sample_fleet_in_every_size() -> None:
    catalog = _real_catalog()
    failures = _failures(catalog, [(f.slug, None) for f in catalog.factions])
    assert not failures, "\n".join(failures)


def test_every_real_variant_has_a_legal_sample_fleet_in_every_size() -> None:
    catalog = _real_catalog()
    choices = [(f.slug, v.slug) for f in catalog.factions for v in f.variants]
    failures = _failures(catalog, choices)
    assert not failures, "\n".join(failures)


def _matched_failures(catalog: Catalog, choices: list[tuple[str, str | None]]) -> list[str]:
    failures = []
    for size in SIZES:
        target = sample_target(POINTS_BANDS[size])
        for faction, variant in choices:
            fleet = sample_fleet(catalog, faction, size, variant=variant)
            report = validate(fleet, catalog)
            if not report.legal or abs(report.points - target) > MATCH_TOLERANCE * target:
                failures.append(
                    f"{faction}/{variant} {size.value}: {report.points} points, "
                    f"target {target}, {report.codes}"
                )
    return failures


def test_every_factions_samples_of_a_size_are_matched_in_points() -> None:
    # Issue 16 §1: every faction's sample of a size lands within 2 % of the same total, so a
    # matchup of samples is a points-matched one.
    catalog = _real_catalog()
    assert len(catalog.factions) == FACTION_COUNT
    failures = _matched_failures(catalog, [(f.slug, None) for f in catalog.factions])
    assert not failures, "\n".join(failures)


def test_every_variants_samples_of_a_size_are_matched_in_points() -> None:
    catalog = _real_catalog()
    choices = [(f.slug, v.slug) for f in catalog.factions for v in f.variants]
    failures = _matched_failures(catalog, choices)
    assert not failures, "\n".join(failures)


def test_the_common_target_is_near_each_bands_top() -> None:
    assert [sample_target(POINTS_BANDS[s]) for s in SIZES] == [740, 990, 1485, 2475]
    for size in SIZES:
        band = POINTS_BANDS[size]
        target = sample_target(band)
        assert band.min <= target * (1 - MATCH_TOLERANCE)
        assert target * (1 + MATCH_TOLERANCE) >= band.max >= target
