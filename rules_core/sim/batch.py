"""Many battles: :func:`play_battle`, :func:`simulate` over worker processes, and the
:class:`Tally` of their results (contract 3's ``simulate --json``).

Battle ``i`` of a run seeded ``s`` always gets the dice of ``(s, i)`` and nothing else, and a
tally is plain counts, so a run gives the same summary whatever the number of workers.
"""

from __future__ import annotations

import gc
import math
import multiprocessing
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..catalog import Catalog
from ..fleet import Fleet
from .api import FATES, BattleResult, SimError, SimOptions
from .battle import Battle, battle_dice
from .state import FleetSpec, fleet_spec

MAX_BATTLES = 1_000_000
HISTOGRAM_BINS = 10
Z95 = 1.959963984540054

DEFAULT_OPTIONS = SimOptions()
_SPEC_CACHE: dict[tuple[str, int, Fleet], FleetSpec] = {}


def fleet_specs(
    catalog: Catalog, fleet_a: Fleet, fleet_b: Fleet, *, catalog_b: Catalog | None = None
) -> tuple[FleetSpec, FleetSpec]:
    """Both fleets as the battle loop reads them, computed once per catalogue version.

    Each side's ships come from its own catalogue (R-163: a list is played with its edition's
    profiles): fleet A's from ``catalog``, fleet B's from ``catalog_b`` (``catalog`` when
    None). The battle itself reads only these specs, so the sides' catalogues never meet."""
    out = []
    for side, fleet, side_catalog in ((0, fleet_a, catalog), (1, fleet_b, catalog_b or catalog)):
        key = (side_catalog.version, side, fleet)
        try:
            spec = _SPEC_CACHE.get(key)
        except TypeError:  # an unhashable fleet (never from the reader): no caching
            spec = None
            key = None  # type: ignore[assignment]
        if spec is None:
            spec = fleet_spec(side_catalog, fleet, side)
            if key is not None:
                if len(_SPEC_CACHE) > 64:
                    _SPEC_CACHE.clear()
                _SPEC_CACHE[key] = spec
        out.append(spec)
    return out[0], out[1]


def play_battle(
    catalog: Catalog,
    fleet_a: Fleet,
    fleet_b: Fleet,
    *,
    seed: int,
    index: int = 0,
    options: SimOptions = DEFAULT_OPTIONS,
    log: bool = False,
    catalog_b: Catalog | None = None,
) -> BattleResult:
    """One battle; its random stream is derived from (seed, index) only. ``catalog_b``: fleet
    B's catalogue when its edition is not fleet A's (R-163; see :func:`fleet_specs`)."""
    a, b = fleet_specs(catalog, fleet_a, fleet_b, catalog_b=catalog_b)
    return Battle(a, b, battle_dice(seed, index), options, log=log).play()


# --- the tally -----------------------------------------------------------------------------------


def wilson(successes: float, n: int, z: float = Z95) -> list[float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return [0.0, 1.0]
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return [round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)]


class Tally:
    """Raw counts of a run's battles; mergeable and JSON round-trippable."""

    def __init__(
        self, ships: list[dict[str, Any]] | None = None, max_vp: tuple[int, int] = (0, 0)
    ) -> None:
        self.battles = 0
        self.a_wins = 0
        self.b_wins = 0
        self.draws = 0
        self.vp: tuple[Counter[int], Counter[int]] = (Counter(), Counter())
        self.rounds: Counter[int] = Counter()
        self.ended_by: Counter[str] = Counter()
        # ship list: side, unit, index, ship, name (fixed per run); fates counted per ship
        self.ships: list[dict[str, Any]] = [dict(s) for s in ships or []]
        self.fates: list[Counter[str]] = [Counter() for _ in self.ships]
        self.max_vp = max_vp  # the most VP each side can score (the other fleet's value)

    @classmethod
    def for_specs(cls, a: FleetSpec, b: FleetSpec) -> Tally:
        ships = [
            {
                "side": "ab"[s.side],
                "unit": s.unit,
                "index": s.index,
                "ship": s.slug,
                "name": s.name,
                "unit_name": spec.units[s.unit].name,
            }
            for spec in (a, b)
            for s in spec.ships
        ]
        return cls(ships, (b.total_vp, a.total_vp))

    def add(self, r: BattleResult) -> None:
        self.battles += 1
        if r.winner == "a":
            self.a_wins += 1
        elif r.winner == "b":
            self.b_wins += 1
        else:
            self.draws += 1
        self.vp[0][r.vp["a"]] += 1
        self.vp[1][r.vp["b"]] += 1
        self.rounds[r.rounds] += 1
        self.ended_by[r.ended_by] += 1
        if not self.ships:
            self.ships = [
                {k: f[k] for k in ("side", "unit", "index", "ship", "name", "unit_name")}
                for f in r.fates
            ]
            self.fates = [Counter() for _ in self.ships]
        for counter, f in zip(self.fates, r.fates, strict=True):
            counter[f["fate"]] += 1

    def merge(self, other: Tally) -> Tally:
        """A new tally holding both; the two must count the same fleets."""
        if (
            self.ships
            and other.ships
            and [s["ship"] for s in self.ships] != [s["ship"] for s in other.ships]
        ):
            raise ValueError("cannot merge tallies of different fleets")
        out = Tally(
            self.ships or other.ships,
            (max(self.max_vp[0], other.max_vp[0]), max(self.max_vp[1], other.max_vp[1])),
        )
        for t in (self, other):
            out.battles += t.battles
            out.a_wins += t.a_wins
            out.b_wins += t.b_wins
            out.draws += t.draws
            out.vp[0].update(t.vp[0])
            out.vp[1].update(t.vp[1])
            out.rounds.update(t.rounds)
            out.ended_by.update(t.ended_by)
            if t.ships:
                for mine, theirs in zip(out.fates, t.fates, strict=True):
                    mine.update(theirs)
        return out

    def to_state(self) -> dict[str, Any]:
        return {
            "battles": self.battles,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "vp": [{str(k): v for k, v in sorted(c.items())} for c in self.vp],
            "rounds": {str(k): v for k, v in sorted(self.rounds.items())},
            "ended_by": dict(sorted(self.ended_by.items())),
            "ships": [dict(s) for s in self.ships],
            "fates": [dict(sorted(c.items())) for c in self.fates],
            "max_vp": list(self.max_vp),
        }

    @classmethod
    def from_state(cls, d: dict[str, Any]) -> Tally:
        try:
            t = cls(d["ships"], (int(d["max_vp"][0]), int(d["max_vp"][1])))
            t.battles = int(d["battles"])
            t.a_wins = int(d["a_wins"])
            t.b_wins = int(d["b_wins"])
            t.draws = int(d["draws"])
            t.vp = (
                Counter({int(k): int(v) for k, v in d["vp"][0].items()}),
                Counter({int(k): int(v) for k, v in d["vp"][1].items()}),
            )
            t.rounds = Counter({int(k): int(v) for k, v in d["rounds"].items()})
            t.ended_by = Counter({str(k): int(v) for k, v in d.get("ended_by", {}).items()})
            t.fates = [Counter({str(k): int(v) for k, v in f.items()}) for f in d["fates"]]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ValueError(f"not a simulator tally: {exc}") from None
        if len(t.fates) != len(t.ships):
            raise ValueError("not a simulator tally: ships and fates differ in length")
        return t

    # --- the summary -------------------------------------------------------------------------

    def _vp_summary(self, side: int) -> dict[str, Any]:
        c = self.vp[side]
        n = sum(c.values())
        if not n:
            return {"mean": 0.0, "p10": 0, "p90": 0, "histogram": []}
        values = sorted(c.items())
        mean = sum(k * v for k, v in values) / n

        def pct(p: float) -> int:
            rank = max(1, math.ceil(p * n))  # nearest-rank percentile
            seen = 0
            for k, v in values:
                seen += v
                if seen >= rank:
                    return k
            return values[-1][0]

        top = max(self.max_vp[side], values[-1][0], 1)
        width = max(1, math.ceil((top + 1) / HISTOGRAM_BINS))
        bins = []
        for i in range(HISTOGRAM_BINS):
            lo, hi = i * width, (i + 1) * width - 1
            if lo > top:
                break
            bins.append({"lo": lo, "hi": hi, "count": sum(v for k, v in values if lo <= k <= hi)})
        return {"mean": round(mean, 4), "p10": pct(0.10), "p90": pct(0.90), "histogram": bins}

    def summary(self, *, seed: int) -> dict[str, Any]:
        """Contract 3's ``simulate --json`` shape, plus the preview's extras."""
        n = self.battles
        rate = (lambda k: round(k / n, 6)) if n else (lambda k: 0.0)
        vp_a, vp_b = self._vp_summary(0), self._vp_summary(1)
        ships = []
        for s, c in zip(self.ships, self.fates, strict=True):
            row = {
                "side": s["side"],
                "unit": s["unit"],
                "index": s["index"],
                "ship": s["ship"],
                "name": s["name"],
                "unit_name": s.get("unit_name", s["name"]),
            }
            for fate in FATES:
                row[f"{fate}_rate"] = rate(c.get(fate, 0))
            ships.append(row)
        return {
            "battles": n,
            "seed": seed,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "a_win_rate": rate(self.a_wins),
            "a_win_ci95": wilson(self.a_wins, n),
            "b_win_rate": rate(self.b_wins),
            "b_win_ci95": wilson(self.b_wins, n),
            "draw_rate": rate(self.draws),
            "draw_ci95": wilson(self.draws, n),
            "a_score_rate": rate(self.a_wins + self.draws / 2),  # draws count half
            "a_score_ci95": wilson(self.a_wins + self.draws / 2, n),
            "a_vp_mean": vp_a["mean"],
            "b_vp_mean": vp_b["mean"],
            "rounds_mean": round(sum(k * v for k, v in self.rounds.items()) / n, 4) if n else 0.0,
            "ships": ships,
            "vp": {"a": vp_a, "b": vp_b},
            "rounds_histogram": {str(k): v for k, v in sorted(self.rounds.items())},
            "ended_by": dict(sorted(self.ended_by.items())),
        }


# --- running many --------------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(a: FleetSpec, b: FleetSpec, options: SimOptions, seed: int) -> None:
    _WORKER.update(a=a, b=b, options=options, seed=seed)


def _run_chunk(bounds: tuple[int, int]) -> dict[str, Any]:
    a, b, options, seed = _WORKER["a"], _WORKER["b"], _WORKER["options"], _WORKER["seed"]
    return _play_range(a, b, options, seed, bounds[0], bounds[1]).to_state()


def _play_range(
    a: FleetSpec, b: FleetSpec, options: SimOptions, seed: int, start: int, stop: int
) -> Tally:
    tally = Tally.for_specs(a, b)
    for i in range(start, stop):
        tally.add(Battle(a, b, battle_dice(seed, i), options).play())
    return tally


def simulate(
    catalog: Catalog,
    fleet_a: Fleet,
    fleet_b: Fleet,
    *,
    battles: int,
    seed: int,
    options: SimOptions = DEFAULT_OPTIONS,
    first_index: int = 0,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    catalog_b: Catalog | None = None,
) -> Tally:
    """Battles ``first_index`` … ``first_index + battles - 1``; the same tally whatever
    ``workers`` is. ``progress(done, total)`` is called as chunks finish. ``catalog_b``: fleet
    B's catalogue when its edition is not fleet A's (R-163; see :func:`fleet_specs`)."""
    if not isinstance(battles, int) or not 0 <= battles <= MAX_BATTLES:
        raise SimError(f"the number of battles must be 0 to {MAX_BATTLES}")
    if not isinstance(workers, int) or workers < 1:
        raise SimError("workers must be at least 1")
    a, b = fleet_specs(catalog, fleet_a, fleet_b, catalog_b=catalog_b)
    stop = first_index + battles
    # Workers take chunks as they finish the last: small ones (about 0.15 s each) keep both
    # busy to the end instead of one waiting on the other's last long chunk.
    chunk = max(1, min(25, math.ceil(battles / (workers * 8))) if workers > 1 else 50)
    bounds = [(i, min(i + chunk, stop)) for i in range(first_index, stop, chunk)]
    tally = Tally.for_specs(a, b)
    done = 0
    if workers == 1 or len(bounds) <= 1:
        for lo, hi in bounds:
            tally = tally.merge(_play_range(a, b, options, seed, lo, hi))
            done += hi - lo
            if progress is not None:
                progress(done, battles)
        return tally
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    # The workers are forked with every object the parent holds frozen out of the collector's
    # reach (gc.freeze), so their collections never walk, and copy, the pages they inherit;
    # the parent unfreezes its own at once.
    gc.freeze()
    try:
        pool = ctx.Pool(
            min(workers, len(bounds)), initializer=_init_worker, initargs=(a, b, options, seed)
        )
    finally:
        gc.unfreeze()
    with pool:
        for state in pool.imap_unordered(_run_chunk, bounds):
            part = Tally.from_state(state)
            tally = tally.merge(part)
            done += part.battles
            if progress is not None:
                progress(done, battles)
    return tally
