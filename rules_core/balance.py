"""The balance round robin: every faction's sample fleet against every other's.

Each pair of factions plays ``battles`` battles at one game size, one policy for both sides
and one terrain. Pair ``(x, y)`` (``x`` before ``y`` in the list) has its own seed,
:func:`pair_seed` of the run's seed and the two slugs, and battle ``k`` of the pair gets the dice
of ``(pair seed, k)``, as every simulator battle does. Sides alternate: in even battles ``x`` is
side A, in odd ones ``y`` is, so each faction deploys and plays as A in exactly half of its
battles and whatever side A's edge is cancels (``battles`` must be even). Battle ``k`` is replayed
by ``play_battle(catalog, first, second, seed=pair_seed, index=k)`` with the fleets in that
order.

Results are plain counts (:class:`PairCounts`) that add up, so a run split into any chunks on
any number of processes or machines gives the same table; :func:`balance_table` turns them into
the JSON the ``balance`` command prints and the Balance page shows. No Django here.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_core.catalog import Catalog
from rules_core.fleet import POINTS_BANDS, Fleet, GameSize
from rules_core.sample_fleets import sample_fleet, sample_target
from rules_core.sim import POLICIES, SimOptions, play_battle, wilson
from rules_core.sim.api import TERRAINS
from rules_core.validator import validate

FORMAT = "void-command-balance"
VERSION = 1
SIZES = ("patrol", "skirmish", "battle", "armada")
MAX_BATTLES = 100_000
DEFAULT_CHUNK = 10

# The figures. Bounds are inclusive for "within", strict for "beyond".
FACTION_BAND = (0.40, 0.60)
PAIR_BAND = (0.35, 0.65)
BEYOND = (0.85, 0.80)

# Short names for tables (the words); any other faction shows its catalogue name.
SHORT_NAMES = {
    "adepta-sororitas": "Sororitas",
    "adeptus-astartes": "Astartes",
    "adeptus-custodes": "Custodes",
    "adeptus-mechanicus": "Mechanicus",
    "archenemy": "Archenemy",
    "craftworld-eldar": "Eldar",
    "drukhari": "Drukhari",
    "grey-knights": "Grey Knights",
    "imperial-navy": "Imperial Navy",
    "leagues-of-votann": "Votann",
    "necrons": "Necrons",
    "orks": "Orks",
    "tau-empire": "T'au",
    "tyranids": "Tyranids",
}
TERRAIN_LABELS = {
    "none": "open space",
    "section13": "§13 terrain",
    "void": "void elements",
    "voidscape": "voidscape (§13 and void elements)",
}


class BalanceError(ValueError):
    """A round robin that cannot be played as asked; the message is meant for a person."""


@dataclass(frozen=True)
class BalanceSpec:
    """Everything that decides a round robin's results (with the catalogue)."""

    size: str = "skirmish"
    battles: int = 100  # per pair, even
    seed: int = 1
    policy: str = "standard"
    terrain: str = "none"
    factions: tuple[str, ...] = ()  # empty: every faction of the catalogue

    def __post_init__(self) -> None:
        if self.size not in SIZES:
            raise BalanceError(f"size must be one of {', '.join(SIZES)}")
        if (
            not isinstance(self.battles, int)
            or not 2 <= self.battles <= MAX_BATTLES
            or self.battles % 2
        ):
            raise BalanceError(
                f"battles a pair must be an even number from 2 to {MAX_BATTLES} "
                "(half with each faction as side A)"
            )
        if self.policy not in POLICIES:
            raise BalanceError(
                f"unknown policy {self.policy!r}; known: {', '.join(sorted(POLICIES))}"
            )
        if self.terrain not in TERRAINS:
            raise BalanceError(f"terrain must be one of {', '.join(TERRAINS)}")
        if len(set(self.factions)) != len(self.factions):
            raise BalanceError("a faction is named twice")

    @property
    def options(self) -> SimOptions:
        return SimOptions(
            terrain=self.terrain, table=self.size, policy_a=self.policy, policy_b=self.policy
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "battles": self.battles,
            "seed": self.seed,
            "policy": self.policy,
            "terrain": self.terrain,
            "factions": list(self.factions),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BalanceSpec:
        return cls(
            size=str(data["size"]),
            battles=int(data["battles"]),
            seed=int(data["seed"]),
            policy=str(data["policy"]),
            terrain=str(data["terrain"]),
            factions=tuple(str(f) for f in data.get("factions", ())),
        )


@dataclass(frozen=True)
class Pair:
    index: int
    first: str  # faction slugs; ``first`` is side A in even battles
    second: str
    seed: int


@dataclass(frozen=True)
class Chunk:
    """Battles ``start`` … ``stop - 1`` of pair ``pair``; ``index`` numbers it within the pair."""

    pair: int
    index: int
    start: int
    stop: int


@dataclass
class PairCounts:
    """Results of some battles of one pair, from ``first``'s side; they add up."""

    battles: int = 0
    wins: int = 0  # first won
    losses: int = 0  # second won
    draws: int = 0
    a_wins: int = 0  # side A won, whichever faction it was (the side check)
    b_wins: int = 0

    def add(self, other: PairCounts) -> None:
        self.battles += other.battles
        self.wins += other.wins
        self.losses += other.losses
        self.draws += other.draws
        self.a_wins += other.a_wins
        self.b_wins += other.b_wins

    @property
    def score(self) -> float:
        """``first``'s mean score: a win 1, a draw ½."""
        return (self.wins + self.draws / 2) / self.battles if self.battles else 0.0

    def to_dict(self) -> dict[str, int]:
        return {
            "battles": self.battles,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PairCounts:
        return cls(
            **{k: int(data[k]) for k in ("battles", "wins", "losses", "draws", "a_wins", "b_wins")}
        )


def pair_seed(seed: int, first: str, second: str) -> int:
    """The seed of pair (first, second) of a run seeded ``seed``: SHA-256, 63 bits. It does not
    depend on which other factions play, so a run on fewer factions repeats its pairs."""
    digest = hashlib.sha256(f"balance:{seed}:{first}:{second}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)


def factions_of(catalog: Catalog, spec: BalanceSpec) -> list[str]:
    """The factions that play, in catalogue order; refuses an unknown one."""
    known = [f.slug for f in catalog.factions]
    if not spec.factions:
        return known
    unknown = [f for f in spec.factions if f not in known]
    if unknown:
        raise BalanceError(f"the catalogue has no faction {', '.join(unknown)}")
    if len(spec.factions) < 2:
        raise BalanceError("a round robin needs at least two factions")
    return [f for f in known if f in spec.factions]


def plan(factions: Sequence[str], spec: BalanceSpec) -> list[Pair]:
    pairs: list[Pair] = []
    for i, first in enumerate(factions):
        for second in factions[i + 1 :]:
            pairs.append(Pair(len(pairs), first, second, pair_seed(spec.seed, first, second)))
    return pairs


def chunks(pairs: Sequence[Pair], battles: int, size: int = DEFAULT_CHUNK) -> list[Chunk]:
    """Every pair's battles cut into chunks of ``size``, interleaved across pairs (so partial
    progress covers every pair alike)."""
    size = max(1, size)
    per_pair = math.ceil(battles / size)
    return [
        Chunk(p.index, k, k * size, min(battles, (k + 1) * size))
        for k in range(per_pair)
        for p in pairs
    ]


def sample_fleets(catalog: Catalog, factions: Iterable[str], size: str) -> dict[str, Fleet]:
    return {slug: sample_fleet(catalog, slug, GameSize(size)) for slug in factions}


def play_chunk(
    catalog: Catalog,
    fleets: Mapping[str, Fleet],
    pair: Pair,
    start: int,
    stop: int,
    options: SimOptions,
) -> PairCounts:
    """Battles ``start`` … ``stop - 1`` of ``pair``."""
    first, second = fleets[pair.first], fleets[pair.second]
    out = PairCounts()
    for k in range(start, stop):
        swapped = k % 2 == 1
        a, b = (second, first) if swapped else (first, second)
        winner = play_battle(catalog, a, b, seed=pair.seed, index=k, options=options).winner
        out.battles += 1
        if winner is None:
            out.draws += 1
            continue
        if winner == "a":
            out.a_wins += 1
        else:
            out.b_wins += 1
        if (winner == "a") != swapped:
            out.wins += 1
        else:
            out.losses += 1
    return out


# --- the table -------------------------------------------------------------------------------


def summary_figures(matrix: Mapping[str, Mapping[str, float]]) -> dict[str, Any]:
    """The issue's figures from a score matrix (``matrix[x][y]``: x's score against y; each
    pair once is enough, the other way round is one minus it).

    A faction's mean is the mean of its pair scores (every pair plays as many battles).
    """
    names = list(matrix)
    for x in matrix:
        for y in matrix[x]:
            if y not in names:
                names.append(y)

    def score(x: str, y: str) -> float | None:
        if y in matrix.get(x, {}):
            return float(matrix[x][y])
        if x in matrix.get(y, {}):
            return 1.0 - float(matrix[y][x])
        return None

    pairs: list[tuple[str, str, float]] = []
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            s = score(x, y)
            if s is not None:
                pairs.append((x, y, s))
    means = {}
    for x in names:
        row = [s for y in names if y != x and (s := score(x, y)) is not None]
        if row:
            means[x] = sum(row) / len(row)
    lo, hi = FACTION_BAND
    plo, phi = PAIR_BAND
    within_pairs = sum(1 for _, _, s in pairs if plo <= s <= phi)
    lopsided = max(pairs, key=lambda p: abs(p[2] - 0.5), default=None)
    out: dict[str, Any] = {
        "factions": len(means),
        "factions_within_40_60": sum(1 for m in means.values() if lo <= m <= hi),
        "pairs": len(pairs),
        "pairs_within_35_65": within_pairs,
        "pairs_within_35_65_share": round(within_pairs / len(pairs), 4) if pairs else 0.0,
        "pairs_beyond_85_15": sum(1 for _, _, s in pairs if max(s, 1 - s) > BEYOND[0]),
        "pairs_beyond_80_20": sum(1 for _, _, s in pairs if max(s, 1 - s) > BEYOND[1]),
        "score_spread": round(max(means.values()) - min(means.values()), 4) if means else 0.0,
        "most_lopsided": None,
    }
    if lopsided is not None:
        x, y, s = lopsided
        loser, winner, low = (x, y, s) if s < 0.5 else (y, x, 1 - s)
        out["most_lopsided"] = {"faction": loser, "against": winner, "score": round(low, 4)}
    return out


def balance_table(
    spec: BalanceSpec,
    catalog: Catalog,
    fleets: Mapping[str, Fleet],
    pairs: Sequence[Pair],
    counts: Mapping[int, PairCounts],
) -> dict[str, Any]:
    """The JSON of a finished round robin (``balance --json``; the Balance page reads it)."""
    factions = list(fleets)
    missing = [p.index for p in pairs if counts.get(p.index, PairCounts()).battles != spec.battles]
    if missing:
        raise BalanceError(f"{len(missing)} pairs have not played all their battles")
    names = {f.slug: f.name for f in catalog.factions}
    per: dict[str, PairCounts] = {x: PairCounts() for x in factions}
    matrix: dict[str, dict[str, float]] = {x: {} for x in factions}
    pair_rows = []
    side = PairCounts()
    for p in pairs:
        c = counts[p.index]
        side.add(c)
        matrix[p.first][p.second] = round(c.score, 4)
        matrix[p.second][p.first] = round(1 - c.score, 4)
        per[p.first].add(c)
        per[p.second].add(PairCounts(c.battles, c.losses, c.wins, c.draws, c.a_wins, c.b_wins))
        pair_rows.append(
            {
                "first": p.first,
                "second": p.second,
                "seed": p.seed,
                **c.to_dict(),
                "score": round(c.score, 4),
            }
        )
    rows: list[dict[str, Any]] = []
    for x in factions:
        c = per[x]
        points = validate(fleets[x], catalog).points
        rows.append(
            {
                "slug": x,
                "name": names.get(x, x),
                "short": SHORT_NAMES.get(x, names.get(x, x)),
                "points": points,
                "battles": c.battles,
                "wins": c.wins,
                "losses": c.losses,
                "draws": c.draws,
                "score": round(c.score, 4),
                "score_ci95": wilson(c.wins + c.draws / 2, c.battles),
            }
        )
    exact: dict[str, dict[str, float]] = {x: {} for x in factions}
    for p in pairs:
        exact[p.first][p.second] = counts[p.index].score
    figures = summary_figures(exact)
    figures["side_a_score"] = (
        round((side.a_wins + side.draws / 2) / side.battles, 4) if side.battles else 0.0
    )
    band = POINTS_BANDS[GameSize(spec.size)]
    totals = [int(r["points"]) for r in rows]
    return {
        "format": FORMAT,
        "version": VERSION,
        "size": spec.size,
        "policy": spec.policy,
        "terrain": spec.terrain,
        "battles_per_pair": spec.battles,
        "seed": spec.seed,
        "catalog_version": catalog.version,
        "sample_points": {"target": sample_target(band), "min": min(totals), "max": max(totals)},
        "factions": rows,
        "matrix": matrix,
        "pairs": pair_rows,
        "summary": figures,
    }


# --- one machine -----------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(
    catalog: Catalog, fleets: dict[str, Fleet], pairs: list[Pair], options: SimOptions
) -> None:
    _WORKER.update(catalog=catalog, fleets=fleets, pairs=pairs, options=options)


def _run_chunk(chunk: Chunk) -> tuple[int, dict[str, int]]:
    pair = _WORKER["pairs"][chunk.pair]
    counts = play_chunk(
        _WORKER["catalog"], _WORKER["fleets"], pair, chunk.start, chunk.stop, _WORKER["options"]
    )
    return chunk.pair, counts.to_dict()


@dataclass
class RoundRobin:
    """A round robin ready to play: its factions' fleets, pairs and chunks."""

    spec: BalanceSpec
    catalog: Catalog
    fleets: dict[str, Fleet]
    pairs: list[Pair] = field(default_factory=list)

    @classmethod
    def prepare(cls, catalog: Catalog, spec: BalanceSpec) -> RoundRobin:
        factions = factions_of(catalog, spec)
        fleets = sample_fleets(catalog, factions, spec.size)
        return cls(spec, catalog, fleets, plan(factions, spec))

    @property
    def total_battles(self) -> int:
        return len(self.pairs) * self.spec.battles

    def table(self, counts: Mapping[int, PairCounts]) -> dict[str, Any]:
        return balance_table(self.spec, self.catalog, self.fleets, self.pairs, counts)

    def play(
        self,
        workers: int = 1,
        progress: Callable[[int, int], None] | None = None,
        chunk: int = DEFAULT_CHUNK,
    ) -> dict[str, Any]:
        """Play every pair on this machine (``workers`` forked processes); the same table
        whatever ``workers`` is."""
        if not isinstance(workers, int) or workers < 1:
            raise BalanceError("workers must be at least 1")
        todo = chunks(self.pairs, self.spec.battles, chunk)
        counts = {p.index: PairCounts() for p in self.pairs}
        done = 0
        options = self.spec.options
        if workers == 1 or len(todo) <= 1:
            for c in todo:
                part = play_chunk(
                    self.catalog, self.fleets, self.pairs[c.pair], c.start, c.stop, options
                )
                counts[c.pair].add(part)
                done += part.battles
                if progress is not None:
                    progress(done, self.total_battles)
            return self.table(counts)
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ctx.Pool(
            min(workers, len(todo)),
            initializer=_init_worker,
            initargs=(self.catalog, self.fleets, self.pairs, options),
        ) as pool:
            for index, state in pool.imap_unordered(_run_chunk, todo):
                part = PairCounts.from_dict(state)
                counts[index].add(part)
                done += part.battles
                if progress is not None:
                    progress(done, self.total_battles)
        return self.table(counts)


# --- as text ---------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.0f}"


def format_table(table: Mapping[str, Any]) -> str:
    """The table for a terminal: ranking with 95 % intervals, the pair matrix, the figures."""
    rows = sorted(table["factions"], key=lambda r: (-r["score"], r["slug"]))
    order = [r["slug"] for r in rows]
    number = {slug: i + 1 for i, slug in enumerate(order)}
    s = table["summary"]
    pts = table["sample_points"]
    lines = [
        f"Balance: {table['size'].capitalize()}, {table['policy']} policy, "
        f"{TERRAIN_LABELS.get(table['terrain'], table['terrain'])}; "
        f"{table['battles_per_pair']} battles a pair (half with each side as A), "
        f"seed {table['seed']}, catalogue {table['catalog_version']}",
        f"Sample fleets {pts['min']}–{pts['max']} points (target {pts['target']}); "
        f"{s['factions']} factions, {s['pairs']} pairs",
        "",
        f"  {'#':>2}  {'faction':<20} {'points':>6} {'score':>6}  95% interval",
    ]
    for r in rows:
        lo, hi = r["score_ci95"]
        lines.append(
            f"  {number[r['slug']]:>2}  {r['name'][:20]:<20} {r['points']:>6} "
            f"{r['score']:>6.3f}  [{lo:.3f}, {hi:.3f}]"
        )
    lines += ["", "Pair matrix: the row's score against the column, in % (win 1, draw ½)", ""]
    lines.append("  " + " " * 16 + "".join(f"{number[y]:>4}" for y in order))
    matrix = table["matrix"]
    for x in order:
        short = next(r["short"] for r in rows if r["slug"] == x)
        cells = "".join("   ·" if y == x else f"{_pct(matrix[x][y]):>4}" for y in order)
        lines.append(f"  {number[x]:>2} {short[:13]:<13}{cells}")
    lop = s["most_lopsided"]
    lines += [
        "",
        f"Factions within 40–60 %: {s['factions_within_40_60']} of {s['factions']}",
        f"Pairs within 35–65 %: {s['pairs_within_35_65']} of {s['pairs']} "
        f"({100 * s['pairs_within_35_65_share']:.0f} %)",
        f"Pairs beyond 85/15: {s['pairs_beyond_85_15']}; beyond 80/20: {s['pairs_beyond_80_20']}",
    ]
    if lop is not None:
        name = {r["slug"]: r["short"] for r in rows}
        lines.append(
            f"Most lopsided: {name[lop['faction']]} against {name[lop['against']]} "
            f"scores {lop['score']:.2f}"
        )
    lines.append(f"Side A's score over every battle: {s['side_a_score']:.3f} (side check)")
    return "\n".join(lines)
