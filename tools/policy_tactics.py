"""Measure the standard policy's faction tactics (issue 12 §5, issue 16 §2).

    .venv/bin/python tools/policy_tactics.py mirror [--battles 1000] [--seed 12016]
        [--size skirmish] [--terrain none] [--faction SLUG ...] [--against SLUG|field]
        [--workers 2] [--json OUT]
    .venv/bin/python tools/policy_tactics.py roundrobin [--battles 100] [--seed 16]
        [--size skirmish] [--terrain none] [--policy standard] [--workers 2] [--json OUT]

``mirror``: for each faction, its sample fleet against itself, one side played by the standard
policy and the other by ``UnawarePolicy`` (the same policy with its faction tactics off), the
aware side as A in the first half of the battles and as B in the second (same seeds), so the
table's edge is the tactics' and not the side's. Score = wins + draws / 2 over battles, with the
95 % Wilson interval. ``--against FACTION`` (or ``field``: every other faction, an equal share of
the battles each) plays the faction aware, then unaware, against that opponent's standard play
on the same seeds, for a rule that cannot matter in a mirror (both sides have it); the verdict
is then the difference's.

``roundrobin``: every pair of the factions' sample fleets, half the battles each way round, and
each faction's mean score against the field (until ``manage.py balance`` lands).

Both play on at most ``--workers`` processes (default 2: this machine has 2 cores, shared).
Run after ``scripts/build_sim.py`` (pure Python is about 3x slower).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules_core.catalog import DATA_DIR, load_catalog_dir  # noqa: E402
from rules_core.sample_fleets import sample_fleet  # noqa: E402
from rules_core.sim import SimOptions, simulate, wilson  # noqa: E402
from rules_core.sim import policy as sim_policy  # noqa: E402

FACTIONS = (
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
)
UNAWARE = "unaware"
FIELD = "field"  # --against field: every other faction's sample fleet in turn

_STATE: dict[str, Any] = {}


def _setup(size: str) -> None:
    unaware = getattr(sim_policy, "UnawarePolicy", None)  # absent before the tactics landed
    if unaware is not None:
        sim_policy.register_policy(UNAWARE, unaware)
    catalog = load_catalog_dir(DATA_DIR)
    _STATE["catalog"] = catalog
    _STATE["fleets"] = {f: sample_fleet(catalog, f, size) for f in FACTIONS}


Job = tuple[str, str, str, str, int, int, str]


def _play(job: Job) -> tuple[Job, float]:
    """One block of battles: A's faction, B's, their policies, first index, count, terrain.
    Returns it with A's score (wins + draws / 2)."""
    fa, fb, pa, pb, first, count, terrain = job
    fleets = _STATE["fleets"]
    options = SimOptions(terrain=terrain, policy_a=pa, policy_b=pb)
    tally = simulate(
        _STATE["catalog"],
        fleets[fa],
        fleets[fb],
        battles=count,
        seed=_STATE["seed"],
        first_index=first,
        options=options,
    )
    s = tally.summary(seed=_STATE["seed"])
    return job, s["a_wins"] + s["draws"] / 2.0


def _run(jobs: list, workers: int) -> list:
    if workers <= 1:
        return [_play(j) for j in jobs]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers) as pool:
        return list(pool.imap_unordered(_play, jobs))


def _blocks(n: int, size: int = 50) -> list[tuple[int, int]]:
    return [(i, min(size, n - i)) for i in range(0, n, size)]


def mirror(args: argparse.Namespace) -> dict[str, Any]:
    half = args.battles // 2
    jobs = []
    played: dict[str, int] = {}  # battles per faction (and per policy, against an opponent)
    for f in args.faction or FACTIONS:
        if args.against:  # aware, then unaware, against the same opponent on the same seeds
            # "field": every other faction in turn, an equal share of the battles each
            opponents = [g for g in FACTIONS if g != f] if args.against == FIELD else [args.against]
            share = max(1, 2 * half // len(opponents))
            played[f] = share * len(opponents)
            for g in opponents:
                for first, count in _blocks(share):
                    for mine in ("standard", UNAWARE):
                        jobs.append((f, g, mine, "standard", first, count, args.terrain))
            continue
        played[f] = 2 * half
        for first, count in _blocks(half):  # aware as A on indices 0 … half-1
            jobs.append((f, f, "standard", UNAWARE, first, count, args.terrain))
        for first, count in _blocks(half):  # aware as B on the same indices
            jobs.append((f, f, UNAWARE, "standard", first, count, args.terrain))
    score: dict[str, float] = {}
    unaware: dict[str, float] = {}
    for (fa, _fb, pa, _pb, _first, count, _t), a_score in _run(jobs, args.workers):
        if args.against:
            into = score if pa == "standard" else unaware
            into[fa] = into.get(fa, 0.0) + a_score
        else:
            score[fa] = score.get(fa, 0.0) + (a_score if pa == "standard" else count - a_score)
    rows = []
    for f in args.faction or FACTIONS:
        n = played[f]
        lo, hi = wilson(score[f], n)
        rows.append(
            {
                "faction": f,
                "battles": n,
                "aware_score": score[f] / n,
                "ci95": [lo, hi],
                "verdict": "aware better"
                if lo > 0.5
                else "aware worse"
                if hi < 0.5
                else "no difference shown",
            }
        )
        if args.against:
            # Not a mirror: the verdict is the difference's (aware minus unaware against the
            # same opponent and seeds), its 95 % interval by the normal approximation of two
            # independent scores (wider than the paired one: conservative).
            a, u = score[f] / n, unaware[f] / n
            half_width = 1.96 * math.sqrt((a * (1 - a) + u * (1 - u)) / n)
            rows[-1].update(
                against=args.against,
                unaware_score=u,
                difference=a - u,
                difference_ci95=[a - u - half_width, a - u + half_width],
                verdict="aware better"
                if a - u - half_width > 0
                else "aware worse"
                if a - u + half_width < 0
                else "no difference shown",
            )
            print(
                f"{f} v {args.against}: aware {a:.3f}, unaware {u:.3f}, difference "
                f"{a - u:+.3f} ({a - u - half_width:+.3f} to {a - u + half_width:+.3f})"
            )
    print("| faction | battles | aware score | 95 % interval | verdict |")
    print("| --- | --- | --- | --- | --- |")
    for r in rows:
        print(
            f"| {r['faction']} | {r['battles']} | {r['aware_score']:.3f} | "
            f"{r['ci95'][0]:.3f}–{r['ci95'][1]:.3f} | {r['verdict']} |"
        )
    return {"mirror": rows}


def roundrobin(args: argparse.Namespace) -> dict[str, Any]:
    half = args.battles // 2
    jobs = []
    for i, fa in enumerate(FACTIONS):
        for fb in FACTIONS[i + 1 :]:
            for first, count in _blocks(half):
                jobs.append((fa, fb, args.policy, args.policy, first, count, args.terrain))
                jobs.append((fb, fa, args.policy, args.policy, half + first, count, args.terrain))
    pair: dict[tuple[str, str], float] = {}  # (f, g): f's score against g
    for (fa, fb, _pa, _pb, _first, count, _t), a_score in _run(jobs, args.workers):
        pair[fa, fb] = pair.get((fa, fb), 0.0) + a_score
        pair[fb, fa] = pair.get((fb, fa), 0.0) + count - a_score
    n = 2 * half
    means = {
        f: sum(pair[f, g] / n for g in FACTIONS if g != f) / (len(FACTIONS) - 1) for f in FACTIONS
    }
    print("| faction | mean score |")
    print("| --- | --- |")
    for f, m in sorted(means.items(), key=lambda kv: -kv[1]):
        print(f"| {f} | {m:.3f} |")
    return {
        "means": means,
        "pairs": {f"{a} v {b}": v / n for (a, b), v in sorted(pair.items()) if a < b},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name, battles, seed in (("mirror", 1000, 12016), ("roundrobin", 100, 16)):
        p = sub.add_parser(name)
        p.add_argument("--battles", type=int, default=battles)
        p.add_argument("--seed", type=int, default=seed)
        p.add_argument("--size", default="skirmish")
        p.add_argument("--terrain", default="none")
        p.add_argument("--workers", type=int, default=2)
        p.add_argument("--json")
        if name == "mirror":
            p.add_argument("--faction", nargs="*")
            p.add_argument(
                "--against",
                help="not a mirror: FACTION aware, then unaware, "
                "against this faction's standard play on the same seeds; 'field': "
                "against every other faction, an equal share of the battles each",
            )
        else:
            p.add_argument("--policy", default="standard")
    args = parser.parse_args(argv)
    args.workers = max(1, min(2, args.workers))
    _STATE["seed"] = args.seed
    _setup(args.size)
    start = time.perf_counter()
    out = mirror(args) if args.what == "mirror" else roundrobin(args)
    out["command"] = " ".join(["tools/policy_tactics.py", *(argv or sys.argv[1:])])
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(f"({out['seconds']} s)", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
