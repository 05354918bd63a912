"""The points model: what a ship profile should cost, so designed ships stay consistent.

A small linear model, ``points ≈ Σ coefficient × feature``, fitted by least squares on the
ships converted from the reference data (``source == "reference"``) with
``tools/fit_points_model.py``, which prints the coefficients pasted below. Pure Python: no
Django, no numpy. ``docs/catalogue.md`` ("Points model") documents the features, the fit and the
tolerance; a designed ship (``source == "designed"``) must cost within :func:`tolerance` of
:func:`estimate_points`.

Features (all read from a :class:`~rules_core.catalog.ShipProfile`):

* ``escort`` / ``cruiser_weight`` / ``capital_large``: class-group intercepts, 1 for the
  ship's group (escorts; light, ordinary, heavy and battle-cruisers; grand cruisers and
  battleships) and 0 otherwise.
* ``hull``: hull points.
* ``armored_hull``: hull × q/(1 − q), where q = (7 − armor)/6 is the chance a battery hit is
  saved. Hull / (1 − q) is the number of battery hits the hull soaks up, so this is the hull the
  armour adds: 0.2 per hull point at a 6+ save, 0.5 at 5+, 1 at 4+ (2 at 3+, 5 at 2+; the
  reference data has no save better than 4+, so the model is only trusted from 4 to 6).
* ``shields``, ``turrets``, ``speed`` (cm).
* ``turns_90``: 1 for a 90° ship, 0 for 45°.
* ``leadership``: (profile leadership − 8) × hull / 8: a point of leadership is worth more on a
  big ship than on an escort.
* ``battery``, ``lance``: Σ strength × range weight × arc weight over those weapons. Range
  weight = 0.5 + range/60 (30 cm → 1.0, 45 cm → 1.25, 60 cm → 1.5). Arc weight = 1 for one arc,
  + 0.25 for each further arc, 1.5 for all-around. ``special`` weapons (they roll as batteries
  but their hits ignore shields) count in ``battery`` at :data:`SPECIAL_PREMIUM` times their
  weighted strength: only a dozen reference ships carry one, too few to fit a coefficient of
  their own.
* ``torpedo``: Σ torpedo strength. ``launch``: launch capacity. ``nova``: number of nova cannons.

Every coefficient but the three intercepts is held at 0 or above when fitting: a better stat
never makes a ship cheaper.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rules_core.catalog import Arc, ShipClass, ShipProfile, Weapon, WeaponType

INTERCEPTS = ("escort", "cruiser_weight", "capital_large")
FEATURES = (
    *INTERCEPTS,
    "hull",
    "armored_hull",
    "shields",
    "turrets",
    "speed",
    "turns_90",
    "leadership",
    "battery",
    "lance",
    "torpedo",
    "launch",
    "nova",
)

# Fitted by `python tools/fit_points_model.py` (see docs/catalogue.md for the fit quality).
COEFFICIENTS: Mapping[str, float] = {
    "escort": -29.1,
    "cruiser_weight": -56.8,
    "capital_large": -103.4,
    "hull": 8.34,
    "armored_hull": 16.94,
    "shields": 12.9,
    "turrets": 16.18,
    "speed": 0.35,
    "turns_90": 0.0,
    "leadership": 11.72,
    "battery": 1.58,
    "lance": 6.08,
    "torpedo": 1.34,
    "launch": 9.82,
    "nova": 33.36,
}

# The tolerance band for designed ships: within 15 % of the estimate, or within 8 points for
# ships the model prices under ~53 points (cheap escorts, where 15 % is less than a rounding step).
TOLERANCE_SHARE = 0.15
TOLERANCE_MIN_POINTS = 8.0

# Reference ships whose protection the features cannot see are left out of the fit and of the
# quality figures: Eldar holofields replace shields and turrets entirely, and the model prices
# those ships at half their cost or less. Do not price holofield ships with this model.
FIT_EXCLUDED_RULES = frozenset({"Holofields"})

# The fit-quality bound the tests hold the model to on the reference ships.
MAX_MEDIAN_RELATIVE_ERROR = 0.15

# A special weapon's weighted strength counts this many times in ``battery`` (a fixed premium,
# not fitted: refitting with 1.0 to 2.0 moves the median error by under 0.01).
SPECIAL_PREMIUM = 1.5

_LARGE = frozenset({ShipClass.GRAND_CRUISER, ShipClass.BATTLESHIP})


def save_odds(armor: int) -> float:
    """q/(1 − q) for the armor save q = (7 − armor)/6: the extra hits a hull point soaks up."""
    q = (7 - armor) / 6
    return q / (1 - q)


def range_weight(range_cm: int) -> float:
    """0.5 + range/60: a 30 cm gun counts 1, 45 cm 1.25, 60 cm 1.5."""
    return 0.5 + range_cm / 60


def arc_weight(arcs: Iterable[Arc]) -> float:
    """1 for one arc, +0.25 per further arc, 1.5 for all-around."""
    arcs = tuple(arcs)
    if Arc.ALL_AROUND in arcs:
        return 1.5
    return 1 + 0.25 * (len(set(arcs)) - 1)


def weapon_value(weapon: Weapon) -> float:
    """A gun's strength weighted by its range and arcs (batteries, lances, special weapons)."""
    return weapon.strength * range_weight(weapon.range_cm) * arc_weight(weapon.arcs)


def features(ship: ShipProfile) -> dict[str, float]:
    """The model's features of one profile, keyed as :data:`FEATURES`."""

    def weighted(kind: WeaponType) -> float:
        return sum(weapon_value(w) for w in ship.weapons if w.type is kind)

    cls = ship.ship_class
    return {
        "escort": 1.0 if cls.is_escort else 0.0,
        "cruiser_weight": 1.0 if cls.is_cruiser_weight else 0.0,
        "capital_large": 1.0 if cls in _LARGE else 0.0,
        "hull": float(ship.hull),
        "armored_hull": ship.hull * save_odds(ship.armor),
        "shields": float(ship.shields),
        "turrets": float(ship.turrets),
        "speed": float(ship.speed_cm),
        "turns_90": 1.0 if ship.turns == 90 else 0.0,
        "leadership": (ship.leadership - 8) * ship.hull / 8,
        "battery": weighted(WeaponType.BATTERY) + SPECIAL_PREMIUM * weighted(WeaponType.SPECIAL),
        "lance": weighted(WeaponType.LANCE),
        "torpedo": float(sum(w.strength for w in ship.weapons if w.type is WeaponType.TORPEDO)),
        "launch": float(ship.launch_capacity),
        "nova": float(sum(1 for w in ship.weapons if w.type is WeaponType.NOVA_CANNON)),
    }


def estimate_points(ship: ShipProfile, coefficients: Mapping[str, float] = COEFFICIENTS) -> float:
    """The model's price for a profile (not rounded; the catalogue rounds to 5 by convention)."""
    f = features(ship)
    return sum(coefficients[name] * f[name] for name in FEATURES)


def tolerance(estimate: float) -> float:
    """How far a designed ship's points may sit from the estimate: max(15 %, 8 points)."""
    return max(TOLERANCE_SHARE * abs(estimate), TOLERANCE_MIN_POINTS)


def in_fit_set(ship: ShipProfile) -> bool:
    """A reference-converted ship the model is fitted and judged on."""
    return ship.source == "reference" and not FIT_EXCLUDED_RULES & set(ship.special_rules)


def within_tolerance(ship: ShipProfile) -> bool:
    estimate = estimate_points(ship)
    return abs(ship.points - estimate) <= tolerance(estimate)


@dataclass(frozen=True, slots=True)
class FitQuality:
    count: int
    r_squared: float
    median_relative_error: float
    p90_relative_error: float


def fit_quality(
    ships: Iterable[ShipProfile], coefficients: Mapping[str, float] = COEFFICIENTS
) -> FitQuality:
    """R² and absolute relative errors |estimate − points| / points of the model on ``ships``."""
    ships = list(ships)
    if not ships:
        raise ValueError("no ships to measure the model on")
    actual = [s.points for s in ships]
    predicted = [estimate_points(s, coefficients) for s in ships]
    mean = sum(actual) / len(actual)
    ss_res = sum((p - a) ** 2 for p, a in zip(predicted, actual, strict=True))
    ss_tot = sum((a - mean) ** 2 for a in actual)
    rel = sorted(abs(p - a) / a for p, a in zip(predicted, actual, strict=True))
    return FitQuality(
        count=len(ships),
        r_squared=1 - ss_res / ss_tot if ss_tot else 1.0,
        median_relative_error=_quantile(rel, 0.5),
        p90_relative_error=_quantile(rel, 0.9),
    )


def _quantile(sorted_values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default method)."""
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


# --- calibration ----------------------------------------------------------------
# The model and the reference price a ship's *profile*. What they cannot see is what a faction's
# rules and the way it plays are worth on the table; that was measured on round robins of the
# sample fleets and is one factor per faction (docs/catalogue.md, "Calibration";
# tools/calibrate_points.py). A ship's price in the catalogue is its profile price times its
# faction's factor, rounded to a multiple of 5. ``calibration.json`` beside the faction files
# keeps the factors and every ship's profile price, so the model is judged on profile prices.


def calibrated_price(profile_price: int, factor: float) -> int:
    """``profile_price × factor`` to the nearest multiple of 5 (halves up, so 50 × 1.15 is 60
    although the float product is a hair under 57.5), never under 5."""
    return max(5, int(profile_price * factor / 5 + 0.5 + 1e-9) * 5)


@dataclass(frozen=True)
class Calibration:
    """The factors per faction slug, the few per-ship factors on top of them (a ship that only
    one game size's sample fleets field, priced apart from its faction's factor), and the
    profile prices per ship slug (before calibration). A faction or ship it does not name has
    factor 1 and its catalogue price as profile price."""

    factors: Mapping[str, float]
    profile_points: Mapping[str, int]
    ship_factors: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Calibration:
        factors = data.get("factors", {})
        points = data.get("original_points", {})
        ships = data.get("ship_factors", {})
        if (
            not isinstance(factors, Mapping)
            or not isinstance(points, Mapping)
            or not isinstance(ships, Mapping)
        ):
            raise ValueError(
                "calibration: 'factors', 'ship_factors' and 'original_points' must be objects"
            )
        return cls(
            {str(k): float(v) for k, v in factors.items()},
            {str(k): int(v) for k, v in points.items()},
            {str(k): float(v) for k, v in ships.items()},
        )

    def factor(self, faction_slug: str) -> float:
        return self.factors.get(faction_slug, 1.0)

    def ship_factor(self, ship_slug: str) -> float:
        return self.ship_factors.get(ship_slug, 1.0)

    def price(self, ship: ShipProfile, faction_slug: str) -> int:
        """What ``ship`` costs in the catalogue under this calibration."""
        return calibrated_price(
            self.profile_price(ship), self.factor(faction_slug) * self.ship_factor(ship.slug)
        )

    def profile_price(self, ship: ShipProfile) -> int:
        return self.profile_points.get(ship.slug, ship.points)
