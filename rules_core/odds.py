"""Exact odds of one attack on one ship: the distribution of hull damage, never sampled.

The rules are :mod:`rules_core.damage`'s (same constants, same rulings). Every die of a volley
is independent and does the same thing, so a volley is a binomial: each die puts one point of
damage past the to-hit roll, the armor save and the brace save with a probability ``p``
(a fraction over 6, 36 or 216). Shields then absorb the first ``S`` points unless blast markers
suppress them (R-03). Ordnance is a binomial mixture: turret hits first, then the survivors.

Arithmetic is exact: a distribution is held as integer weights over one common denominator
(``d**n`` for a probability ``a/d``), i.e. fractions that share a denominator, which keeps a
40-die volley far below a millisecond. :class:`VolleyOdds` gives :class:`~fractions.Fraction`
values; ``to_dict`` turns them into floats, each correctly rounded.

What the numbers mean (R-54): ``hull_damage[k]`` is the probability that exactly ``k`` points of
the attack reach the hull, damage past the last hull point included; Bulkhead Collapse's extra
d3 damage is not included. ``p_destroyed`` is P(k >= current hull); ``p_crippled`` is the
probability of ending crippled *or worse*; ``expected_criticals`` is the expected number of
critical hits, a 6 on each point that leaves the ship afloat (R-46).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .catalog import crippled_threshold
from .damage import (
    BRACE_SAVE,
    CRITICAL_ON,
    LANCE_TO_HIT,
    ORDNANCE_ATTACK_ROLL,
    battery_base_to_hit,
    needed_to_hit,
    turret_needed,
)

MAX_DICE = 200


class OddsWeapon(StrEnum):
    BATTERY = "battery"
    LANCE = "lance"
    TORPEDO = "torpedo"
    BOMBERS = "bombers"
    ASSAULT_BOATS = "assault_boats"


class OddsInputError(ValueError):
    """Inputs that describe no possible attack (negative hull, armor 9, …)."""


def d6_at_least(score: int) -> Fraction:
    """P(d6 >= score) for a score 1..7."""
    return Fraction(max(0, min(6, 7 - score)), 6)


def battery_damage_chance(
    range_cm: float, armor: int, *, to_hit_mod: int = 0, braced: bool = False
) -> Fraction:
    """P(one battery die becomes a point of damage before shields): hits, fails armor, fails
    the brace save (R-02)."""
    p = d6_at_least(needed_to_hit(battery_base_to_hit(range_cm), to_hit_mod))
    p *= 1 - d6_at_least(armor)
    if braced:
        p *= 1 - d6_at_least(BRACE_SAVE)
    return p


def lance_damage_chance(*, to_hit_mod: int = 0, braced: bool = False) -> Fraction:
    p = d6_at_least(needed_to_hit(LANCE_TO_HIT, to_hit_mod))
    if braced:
        p *= 1 - d6_at_least(BRACE_SAVE)
    return p


# --- exact distributions as integer weights over a common denominator -----------------------


def binomial_weights(n: int, p: Fraction) -> tuple[list[int], int]:
    """P(k successes of n), k = 0..n, as weights ``w[k]`` over ``denominator``:
    ``w[k] = comb(n, k) * a**k * (d - a)**(n - k)`` with ``p = a / d``."""
    a, d = p.numerator, p.denominator
    b = d - a
    # powers of b from n down: w[k] needs b**(n-k)
    b_powers = [1] * (n + 1)
    for i in range(1, n + 1):
        b_powers[i] = b_powers[i - 1] * b
    weights = [0] * (n + 1)
    a_power = 1
    for k in range(n + 1):
        weights[k] = math.comb(n, k) * a_power * b_powers[n - k]
        a_power *= a
    return weights, d**n


def absorb(weights: list[int], shields: int) -> list[int]:
    """Shields take the first ``shields`` points: k points become max(k - shields, 0)."""
    if shields <= 0:
        return weights
    if shields >= len(weights) - 1:
        return [sum(weights)]
    return [sum(weights[: shields + 1]), *weights[shields + 1 :]]


def _ordnance_weights(
    count: int, turrets: int, blast_markers: int, per_survivor: Fraction
) -> tuple[list[int], int]:
    """Ordnance: turret dice each remove one on their score (R-51), then each survivor deals a
    point with probability ``per_survivor``. A binomial mixture over the turret hits."""
    shot_down, shot_den = binomial_weights(turrets, d6_at_least(turret_needed(blast_markers)))
    d = per_survivor.denominator
    total = [0] * (count + 1)
    for removed, weight in enumerate(shot_down):
        if not weight:
            continue
        survivors = max(count - removed, 0)
        hits, _ = binomial_weights(survivors, per_survivor)
        scale = weight * d ** (count - survivors)
        for k, w in enumerate(hits):
            total[k] += scale * w
    return total, shot_den * d**count


@dataclass(frozen=True, slots=True)
class VolleyOdds:
    """The exact outcome of one attack. ``weights[k] / denominator`` = P(k hull damage)."""

    weights: tuple[int, ...]
    denominator: int
    hull: int
    max_hull: int
    crit_weight: int = -1  # assault boats: criticals not from hull damage, over crit_denominator
    crit_denominator: int = 1

    @property
    def hull_damage(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(w, self.denominator) for w in self.weights)

    def _destroyed_weight(self) -> int:
        return sum(self.weights[self.hull :])

    def _crippled_weight(self) -> int:
        threshold = crippled_threshold(self.max_hull)
        if threshold is None:  # a 1-hull ship is never crippled, only destroyed
            return self._destroyed_weight()
        lose = self.hull - threshold  # damage that leaves it at the threshold
        return sum(self.weights[max(lose, 0) :])

    def _mean_weight(self) -> int:
        return sum(k * w for k, w in enumerate(self.weights))

    def _crit_fraction_parts(self) -> tuple[int, int]:
        if self.crit_weight >= 0:
            return self.crit_weight, self.crit_denominator
        afloat = self.hull - 1  # points that leave the ship afloat roll for criticals
        weight = sum(min(k, afloat) * w for k, w in enumerate(self.weights))
        return weight, self.denominator * CRITICAL_ON

    @property
    def mean_hull_damage(self) -> Fraction:
        return Fraction(self._mean_weight(), self.denominator)

    @property
    def p_destroyed(self) -> Fraction:
        return Fraction(self._destroyed_weight(), self.denominator)

    @property
    def p_crippled(self) -> Fraction:
        """Crippled or worse after the attack (R-54)."""
        return Fraction(self._crippled_weight(), self.denominator)

    @property
    def expected_criticals(self) -> Fraction:
        return Fraction(*self._crit_fraction_parts())

    def to_dict(self) -> dict[str, object]:
        d = self.denominator
        crit_num, crit_den = self._crit_fraction_parts()
        return {
            "hull_damage": [w / d for w in self.weights],
            "mean_hull_damage": self._mean_weight() / d,
            "p_crippled": self._crippled_weight() / d,
            "p_destroyed": self._destroyed_weight() / d,
            "expected_criticals": crit_num / crit_den,
        }


def volley_odds(
    weapon: OddsWeapon | str,
    strength: int,
    *,
    armor: int,
    shields: int,
    hull: int,
    max_hull: int | None = None,
    range_cm: float = 0,
    to_hit_mod: int = 0,
    braced: bool = False,
    blast_markers: int = 0,
    turrets: int = 0,
) -> VolleyOdds:
    """Exact odds of one attack on a ship with the given current state.

    ``strength`` is dice for gunnery, torpedoes in the salvo or craft in the wave; ``turrets`` is
    the target's effective turret strength (already halved for crippling or Dorsal Armament
    Damaged, R-50); ``to_hit_mod`` the firer's total modifier (orders, hesitant, cover).
    """
    try:
        weapon = OddsWeapon(weapon)
    except ValueError:
        raise OddsInputError(f"unknown weapon {weapon!r}") from None
    max_hull = hull if max_hull is None else max_hull
    _check(strength, armor, shields, hull, max_hull, range_cm, blast_markers, turrets)
    shields_up = shields if blast_markers == 0 else 0  # markers already there suppress
    brace_fails = (1 - d6_at_least(BRACE_SAVE)) if braced else Fraction(1)

    if weapon is OddsWeapon.BATTERY:
        p = battery_damage_chance(range_cm, armor, to_hit_mod=to_hit_mod, braced=braced)
        weights, den = binomial_weights(strength, p)
        weights = absorb(weights, shields_up)
    elif weapon is OddsWeapon.LANCE:
        weights, den = binomial_weights(
            strength, lance_damage_chance(to_hit_mod=to_hit_mod, braced=braced)
        )
        weights = absorb(weights, shields_up)
    elif weapon is OddsWeapon.TORPEDO:
        # each surviving torpedo is 1 damage: no to-hit, no armor; brace, then shields
        weights, den = _ordnance_weights(strength, turrets, blast_markers, brace_fails)
        weights = absorb(weights, shields_up)
    elif weapon is OddsWeapon.BOMBERS:
        # 4+ each for 1 damage; brace applies; shields are ignored
        per = d6_at_least(ORDNANCE_ATTACK_ROLL) * brace_fails
        weights, den = _ordnance_weights(strength, turrets, blast_markers, per)
    else:
        # assault boats: no hull damage; each survivor causes a critical on 4+ (R-53)
        boats, den = _ordnance_weights(
            strength, turrets, blast_markers, d6_at_least(ORDNANCE_ATTACK_ROLL)
        )
        crit = sum(k * w for k, w in enumerate(boats))
        return VolleyOdds((den,), den, hull, max_hull, crit_weight=crit, crit_denominator=den)
    return VolleyOdds(tuple(weights), den, hull, max_hull)


def _check(
    strength: int,
    armor: int,
    shields: int,
    hull: int,
    max_hull: int,
    range_cm: float,
    blast_markers: int,
    turrets: int,
) -> None:
    if not 1 <= strength <= MAX_DICE:
        raise OddsInputError(f"strength must be 1 to {MAX_DICE}, not {strength}")
    if not 2 <= armor <= 6:
        raise OddsInputError(f"armor is a save of 2 to 6, not {armor}")
    if shields < 0:
        raise OddsInputError(f"shields cannot be negative ({shields})")
    if hull < 1:
        raise OddsInputError(f"hull must be at least 1 (a ship at 0 is destroyed), not {hull}")
    if max_hull < hull:
        raise OddsInputError(f"max hull {max_hull} is below the current hull {hull}")
    if range_cm < 0 or not math.isfinite(range_cm):
        raise OddsInputError(f"range must be 0 cm or more, not {range_cm}")
    if blast_markers < 0:
        raise OddsInputError(f"blast markers cannot be negative ({blast_markers})")
    if turrets < 0:
        raise OddsInputError(f"turrets cannot be negative ({turrets})")
