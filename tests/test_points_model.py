"""The points model keeps designed ships' costs consistent with the reference ships.

Plain pytest, no Django and no database: run with
``.venv/bin/python -m pytest tests/test_points_model.py -p no:django -q``.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules_core import points_model as pm
from rules_core.catalog import (
    DATA_DIR,
    Arc,
    Catalog,
    ShipClass,
    ShipProfile,
    Weapon,
    WeaponType,
    load_catalog_dir,
)


def _load() -> Catalog:
    return load_catalog_dir(DATA_DIR)


def _calibration() -> pm.Calibration:
    path = DATA_DIR / "calibration.json"
    if not path.exists():
        return pm.Calibration({}, {})
    return pm.Calibration.from_dict(json.loads(path.read_text(encoding="utf-8")))


CATALOG = _load()
CALIBRATION = _calibration()
# The model prices profiles: it is judged on the prices before calibration (profile prices).
PROFILES = {
    s.slug: replace(s, points=CALIBRATION.profile_price(s))
    for f in CATALOG.factions
    for s in f.ships
}
DESIGNED = [PROFILES[s.slug] for f in CATALOG.factions for s in f.ships if s.source == "designed"]
REFERENCE = [PROFILES[s.slug] for f in CATALOG.factions for s in f.ships if pm.in_fit_set(s)]


def _ship(**kw: object) -> ShipProfile:
    base: dict[str, object] = dict(
        slug="test-ship",
        name="Test",
        ship_class=ShipClass.CRUISER,
        points=180,
        speed_cm=20,
        turns=45,
        leadership=8,
        shields=2,
        hull=8,
        armor=5,
        turrets=2,
        weapons=(
            Weapon("Port", WeaponType.BATTERY, (Arc.LEFT,), 6, 30),
            Weapon("Starboard", WeaponType.BATTERY, (Arc.RIGHT,), 6, 30),
        ),
    )
    base.update(kw)
    return ShipProfile(**base)  # type: ignore[arg-type]


def test_every_feature_has_a_coefficient() -> None:
    assert set(pm.COEFFICIENTS) == set(pm.FEATURES)
    assert set(pm.features(_ship())) == set(pm.FEATURES)


def test_constrained_coefficients_are_not_negative() -> None:
    for name in pm.FEATURES:
        if name not in pm.INTERCEPTS:
            assert pm.COEFFICIENTS[name] >= 0, name


@pytest.mark.parametrize(
    "better",
    [
        {"hull": 9},
        {"shields": 3},
        {"armor": 4},
        {"turrets": 3},
        {"speed_cm": 25},
        {"leadership": 9},
        {
            "weapons": (
                Weapon("Port", WeaponType.BATTERY, (Arc.LEFT,), 6, 45),
                Weapon("Starboard", WeaponType.BATTERY, (Arc.RIGHT,), 6, 30),
            )
        },
    ],
)
def test_a_better_profile_never_costs_less(better: dict[str, object]) -> None:
    assert pm.estimate_points(_ship(**better)) >= pm.estimate_points(_ship())


def test_range_and_arc_weights() -> None:
    assert pm.range_weight(30) == 1.0
    assert pm.range_weight(45) == 1.25
    assert pm.range_weight(60) == 1.5
    assert pm.arc_weight([Arc.FRONT]) == 1.0
    assert pm.arc_weight([Arc.LEFT, Arc.FRONT, Arc.RIGHT]) == 1.5
    assert pm.arc_weight([Arc.ALL_AROUND]) == 1.5


def test_tolerance_band() -> None:
    assert pm.tolerance(400) == pytest.approx(60)
    assert pm.tolerance(30) == pm.TOLERANCE_MIN_POINTS


def test_there_are_designed_ships() -> None:
    assert len(DESIGNED) >= 48


@pytest.mark.parametrize("ship", DESIGNED, ids=lambda s: s.slug)
def test_designed_ship_is_within_tolerance(ship: ShipProfile) -> None:
    estimate = pm.estimate_points(ship)
    assert abs(ship.points - estimate) <= pm.tolerance(estimate), (
        f"{ship.slug} costs {ship.points}; the model says {estimate:.1f} "
        f"± {pm.tolerance(estimate):.1f}"
    )


def test_fit_on_reference_ships() -> None:
    if len(REFERENCE) < 50:
        pytest.skip(f"only {len(REFERENCE)} reference ships in the catalogue")
    q = pm.fit_quality(REFERENCE)
    assert q.median_relative_error < pm.MAX_MEDIAN_RELATIVE_ERROR
    assert q.r_squared > 0.85


@pytest.mark.parametrize("faction", CATALOG.factions, ids=lambda f: f.slug)
def test_every_price_is_its_profile_price_times_its_faction_factor(faction) -> None:
    """The catalogue and calibration.json agree: no ship was re-priced by hand around them."""
    factor = CALIBRATION.factor(faction.slug)
    assert 0.5 <= factor <= 2.0
    for ship in faction.ships:
        # A ship priced apart stays within 0.67-1.5 of its faction's factor (the prior).
        assert 0.67 <= CALIBRATION.ship_factor(ship.slug) <= 1.5, ship.slug
        assert ship.points % 5 == 0, ship.slug
        assert ship.points == CALIBRATION.price(ship, faction.slug), (
            f"{ship.slug} costs {ship.points}; its profile price "
            f"{CALIBRATION.profile_price(ship)} × {factor} × "
            f"{CALIBRATION.ship_factor(ship.slug)} says otherwise"
        )


def test_calibration_names_only_ships_and_factions_of_the_catalogue() -> None:
    ships = {s.slug for f in CATALOG.factions for s in f.ships}
    assert set(CALIBRATION.factors) <= {f.slug for f in CATALOG.factions}
    assert set(CALIBRATION.ship_factors) <= ships
    assert set(CALIBRATION.profile_points) <= ships


@pytest.mark.parametrize(
    ("price", "factor", "expected"),
    [
        (100, 1.0, 100),
        (100, 0.8, 80),
        (35, 0.85, 30),
        (45, 1.1, 50),
        (20, 0.1, 5),
        (210, 1.2166, 255),
        (50, 1.15, 60),
    ],
)
def test_calibrated_prices_are_multiples_of_five(price: int, factor: float, expected: int) -> None:
    assert pm.calibrated_price(price, factor) == expected
