"""Calibrate the catalogue's points so that equal points are a fair fight (issue 16 §3).

    .venv/bin/python tools/calibrate_points.py fit [--iterations 6] [--battles 100]
        [--sizes skirmish,battle] [--policies standard] [--seed 160301] [--workers 2]
        [--out FIT.json]
    .venv/bin/python tools/calibrate_points.py refine --factors FIT.json --out REFINE.json
        [--grid 0.94,0.97,1,1.03,1.06] [--battles 40] [--sizes skirmish,battle]
        [--policies standard,cautious] [--seed 160401] [--only SLUG,...]
    .venv/bin/python tools/calibrate_points.py write --factors REFINE.json
        --evidence FIT.json REFINE.json
    .venv/bin/python tools/calibrate_points.py report [--battles 200] [--seed 1]
        [--sizes skirmish,battle] [--policies standard,cautious] [--terrains none,voidscape]
        [--original] [--json OUT]
    .venv/bin/python tools/calibrate_points.py opponents craftworld-eldar [--factor 0.7]
        [--ship void-stalker-class-battleship=1.15 ...] [--battles 100] [--seed 777]

The method (written out in ``docs/catalogue.md``, "Calibration"):

- Each faction gets one **points factor**. A ship's calibrated price is its original price
  (``original_points`` in ``calibration.json``: the reference conversion or the points model)
  times its faction's factor, rounded to a multiple of 5 (never under 5). Within a faction the
  ships keep their relative prices: the points model and the reference already price a ship's
  profile against its neighbours; what neither sees is what the faction's rules and play are
  worth, and that is one number per faction. This is the strongest possible prior toward the
  original values: 14 free numbers for 180+ ships.
- The factors are fitted on round robins of the built-in sample fleets (which are rebuilt from
  the calibrated prices each time, so a cheaper faction fields more ships), on **fit seeds**
  only. Each iteration moves a faction's log-factor by ``rate`` times the logit of its mean
  score against the field (a faction scoring 0.8 gets dearer, 0.2 cheaper), at most
  ``max_step`` at once, and the factors are then normalised to a geometric mean of 1 so the
  catalogue's overall price level does not drift.
- ``refine`` then takes one faction at a time and tries its factor on a small grid against the
  rest of the field (both sizes, both policies), keeping the one whose worst setting is closest
  to 50 %: a sample fleet changes in steps, which the smooth update above cannot see.
- ``write`` writes the prices into the faction files and ``calibration.json`` (the factors, every
  ship's profile price, every changed ship's old and new points, and the fit's and refinement's
  outputs, with their seeds and scores, as the evidence).
- ``opponents`` plays one faction against every other sample fleet, setting by setting, and
  prints its score against each (the pairs beyond 80/20 named), at the shipped prices or with
  its factor or some ships' factors overridden: the per-pair view of a search such as the
  Eldar's of Dec 2 (``docs/catalogue.md``, "Fifth calibration"), on fit seeds.
- ``report`` plays the round robins that are published, on **report seeds** kept apart from the
  fit seeds, at every size, policy and terrain asked for.

No Django: this runs on rules_core alone, with ``--workers`` forked processes.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules_core.balance import (  # noqa: E402
    BalanceSpec,
    Pair,
    RoundRobin,
    format_table,
    pair_seed,
    play_chunk,
)
from rules_core.catalog import DATA_DIR, Catalog, catalog_from_dicts  # noqa: E402
from rules_core.fleet import Fleet, GameSize  # noqa: E402
from rules_core.points_model import calibrated_price  # noqa: E402
from rules_core.sample_fleets import sample_fleet  # noqa: E402

CALIBRATION = DATA_DIR / "calibration.json"


# --- the data ----------------------------------------------------------------------------------


def read_data() -> tuple[dict[str, Any], list[Any], list[Any]]:
    factions = {
        p.stem: json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((DATA_DIR / "factions").glob("*.json"))
    }
    admirals = json.loads((DATA_DIR / "admirals.json").read_text(encoding="utf-8"))
    refits = json.loads((DATA_DIR / "refits.json").read_text(encoding="utf-8"))
    return factions, admirals, refits


def original_points(factions: dict[str, Any]) -> dict[str, int]:
    """Every ship's price before calibration: from calibration.json when it exists (the files
    then hold calibrated prices), else the files' own prices."""
    if CALIBRATION.exists():
        record = json.loads(CALIBRATION.read_text(encoding="utf-8"))
        return {slug: int(v) for slug, v in record["original_points"].items()}
    return {s["slug"]: int(s["points"]) for f in factions.values() for s in f["ships"]}


calibrated = calibrated_price


def priced(
    factions: dict[str, Any],
    originals: dict[str, int],
    factors: dict[str, float],
    ship_factors: dict[str, float] | None = None,
) -> dict[str, Any]:
    out = {}
    ship_factors = ship_factors or {}
    for slug, data in factions.items():
        data = json.loads(json.dumps(data))
        for ship in data["ships"]:
            factor = factors.get(slug, 1.0) * ship_factors.get(ship["slug"], 1.0)
            ship["points"] = calibrated(originals[ship["slug"]], factor)
        out[slug] = data
    return out


def catalog_for(
    factions: dict[str, Any], admirals: list[Any], refits: list[Any], version: str
) -> Catalog:
    return catalog_from_dicts(
        [factions[k] for k in sorted(factions)], admirals, refits, version=version
    )


# --- round robins ------------------------------------------------------------------------------


def round_robin(
    catalog: Catalog, size: str, battles: int, seed: int, policy: str, terrain: str, workers: int
) -> dict[str, Any]:
    spec = BalanceSpec(size=size, battles=battles, seed=seed, policy=policy, terrain=terrain)
    return RoundRobin.prepare(catalog, spec).play(workers=workers)


def scores(table: dict[str, Any]) -> dict[str, float]:
    return {r["slug"]: float(r["score"]) for r in table["factions"]}


def logit(p: float) -> float:
    p = min(max(p, 0.02), 0.98)
    return math.log(p / (1 - p))


def fit(args: argparse.Namespace) -> int:
    factions, admirals, refits = read_data()
    originals = original_points(factions)
    factors = {slug: 1.0 for slug in factions}
    if args.start and CALIBRATION.exists():
        # The files hold calibrated prices; start from them (ship factors stay as they are).
        originals = {s["slug"]: int(s["points"]) for f in factions.values() for s in f["ships"]}
    sizes = args.sizes.split(",")
    policies = args.policies.split(",")
    history: list[dict[str, Any]] = []
    best: dict[str, Any] | None = None
    for it in range(args.iterations + 1):
        t0 = time.monotonic()
        catalog = catalog_for(
            priced(factions, originals, factors), admirals, refits, version=f"calibration-{it}"
        )
        per_run: list[dict[str, float]] = []
        labels: list[str] = []
        figures: dict[str, Any] = {}
        for size in sizes:
            for policy in policies:
                table = round_robin(
                    catalog, size, args.battles, args.seed + it, policy, "none", args.workers
                )
                per_run.append(scores(table))
                labels.append(f"{size[:4]}/{policy[:4]}")
                figures[f"{size}/{policy}"] = {
                    "within_40_60": table["summary"]["factions_within_40_60"],
                    "pairs_within_35_65_share": table["summary"]["pairs_within_35_65_share"],
                    "pairs_beyond_80_20": table["summary"]["pairs_beyond_80_20"],
                    "sample_points": table["sample_points"],
                }
        mean = {slug: sum(r[slug] for r in per_run) / len(per_run) for slug in factions}
        worst = max(abs(s - 0.5) for r in per_run for s in r.values())
        entry = {
            "iteration": it,
            "seed": args.seed + it,
            "factors": dict(factors),
            "scores": {k: round(v, 4) for k, v in mean.items()},
            "worst": round(worst, 4),
            "figures": figures,
            "seconds": round(time.monotonic() - t0, 1),
        }
        history.append(entry)
        print(
            f"== iteration {it} ({entry['seconds']} s): worst |score - 0.5| = {worst:.3f}; "
            + "; ".join(f"{k} {v}" for k, v in figures.items()),
            flush=True,
        )
        for slug in sorted(factions, key=lambda s: -mean[s]):
            each = "  ".join(f"{lab} {r[slug]:.3f}" for lab, r in zip(labels, per_run, strict=True))
            print(
                f"   {slug:20s} factor {factors[slug]:.3f}  score {mean[slug]:.3f}  ({each})",
                flush=True,
            )
        if best is None or worst < best["worst"]:
            best = entry
        if args.out:
            Path(args.out).write_text(
                json.dumps({"step": "fit", "best": best, "history": history}, indent=1) + "\n",
                encoding="utf-8",
            )
        if it == args.iterations:
            break
        logs = {}
        for slug in factions:
            step = args.rate * logit(mean[slug])
            step = max(-args.max_step, min(args.max_step, step))
            logs[slug] = math.log(factors[slug]) + step
        centre = sum(logs.values()) / len(logs)
        factors = {slug: round(math.exp(v - centre), 4) for slug, v in logs.items()}
    assert best is not None
    print(f"== best: iteration {best['iteration']} (worst {best['worst']:.3f})")
    return 0


def read_factors(path: Path) -> tuple[dict[str, float], dict[str, float]]:
    """(faction factors, ship factors) from a file: a plain {faction: factor}, or a fit's or
    refinement's output."""
    data = json.loads(path.read_text(encoding="utf-8"))
    ships = data.get("ship_factors", {}) if isinstance(data.get("ship_factors"), dict) else {}
    if "factors" in data and isinstance(data["factors"], dict):
        data = data["factors"]
    elif "averaged_factors" in data:
        data = data["averaged_factors"]
    elif "best" in data:
        data = data["best"]["factors"]
    return (
        {str(k): float(v) for k, v in data.items()},
        {str(k): float(v) for k, v in ships.items()},
    )


def write_cmd(args: argparse.Namespace) -> int:
    factions, _, _ = read_data()
    originals = original_points(factions)
    factors = {slug: 1.0 for slug in factions}
    given, ship_factors = read_factors(Path(args.factors))
    factors.update(given)
    evidence = [json.loads(Path(p).read_text(encoding="utf-8")) for p in args.evidence]
    write(factions, originals, factors, ship_factors, evidence, args)
    return 0


def write(
    factions: dict[str, Any],
    originals: dict[str, int],
    factors: dict[str, float],
    ship_factors: dict[str, float],
    evidence: list[dict[str, Any]],
    args: argparse.Namespace,
) -> None:
    changes = []
    for slug, data in sorted(factions.items()):
        path = DATA_DIR / "factions" / f"{slug}.json"
        text = path.read_text(encoding="utf-8")
        for ship in data["ships"]:
            new = calibrated(
                originals[ship["slug"]], factors[slug] * ship_factors.get(ship["slug"], 1.0)
            )
            if new != originals[ship["slug"]]:
                changes.append(
                    {
                        "faction": slug,
                        "ship": ship["slug"],
                        "name": ship["name"],
                        "old": originals[ship["slug"]],
                        "new": new,
                    }
                )
            # Only the number changes, so the files keep their hand-kept layout.
            pattern = re.compile(
                r'("slug": "' + re.escape(ship["slug"]) + r'",.*?"points": )\d+', re.DOTALL
            )
            text, n = pattern.subn(lambda m, new=new: m.group(1) + str(new), text, count=1)
            if n != 1:
                raise SystemExit(f"{path.name}: no price found for {ship['slug']}")
        path.write_text(text, encoding="utf-8")
    record = {
        "method": "one points factor per faction, fitted on round robins of the sample fleets; "
        "see docs/catalogue.md, Calibration",
        "command": "tools/calibrate_points.py " + " ".join(sys.argv[1:]),
        "factors": {k: factors[k] for k in sorted(factors)},
        "ship_factors": {
            k: ship_factors[k] for k in sorted(ship_factors) if ship_factors[k] != 1.0
        },
        "original_points": {k: originals[k] for k in sorted(originals)},
        "changes": changes,
        "evidence": evidence,
    }
    CALIBRATION.write_text(
        json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"== wrote {len(changes)} changed prices and {CALIBRATION.relative_to(ROOT)}")


# --- refine: one faction at a time ------------------------------------------------------------

_WORK: dict[str, Any] = {}


def _init(catalog: Catalog, fleets: dict[str, dict[str, Fleet]]) -> None:
    _WORK["catalog"], _WORK["fleets"] = catalog, fleets


def _play(job: tuple[str, str, str, str, str, int, int, int]) -> tuple[str, str, int, int, int]:
    """(size, policy, terrain, faction, opponent, seed, start, stop) -> (setting, opponent,
    wins, draws, battles)."""
    size, policy, terrain, faction, opponent, seed, start, stop = job
    spec = BalanceSpec(size=size, battles=2, seed=seed, policy=policy, terrain=terrain)
    pair = Pair(0, faction, opponent, pair_seed(seed, faction, opponent))
    counts = play_chunk(_WORK["catalog"], _WORK["fleets"][size], pair, start, stop, spec.options)
    setting = f"{size}/{policy}" + ("" if terrain == "none" else f"/{terrain}")
    return setting, opponent, counts.wins, counts.draws, counts.battles


def against_each(
    catalog: Catalog,
    faction: str,
    others: list[str],
    sizes: list[str],
    policies: list[str],
    battles: int,
    seed: int,
    workers: int,
    terrains: tuple[str, ...] = ("none",),
) -> dict[str, dict[str, list[float]]]:
    """``faction`` against every other sample fleet: per "size/policy[/terrain]" and per
    opponent, [points scored (a win 1, a draw 1/2), battles]."""
    import multiprocessing

    fleets = {
        size: {slug: sample_fleet(catalog, slug, GameSize(size)) for slug in [faction, *others]}
        for size in sizes
    }
    step = 10
    jobs = [
        (size, policy, terrain, faction, other, seed, k, min(battles, k + step))
        for size in sizes
        for policy in policies
        for terrain in terrains
        for other in others
        for k in range(0, battles, step)
    ]
    totals: dict[str, dict[str, list[float]]] = {}
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers, initializer=_init, initargs=(catalog, fleets)) as pool:
        for setting, other, wins, draws, n in pool.imap_unordered(_play, jobs, chunksize=4):
            t = totals.setdefault(setting, {}).setdefault(other, [0.0, 0.0])
            t[0] += wins + draws / 2
            t[1] += n
    return totals


def against_field(
    catalog: Catalog,
    faction: str,
    others: list[str],
    sizes: list[str],
    policies: list[str],
    battles: int,
    seed: int,
    workers: int,
    terrains: tuple[str, ...] = ("none",),
) -> dict[str, float]:
    """``faction``'s mean score against every other sample fleet, per "size/policy[/terrain]"."""
    totals = against_each(
        catalog, faction, others, sizes, policies, battles, seed, workers, terrains
    )
    return {
        k: sum(v[0] for v in per.values()) / sum(v[1] for v in per.values())
        for k, per in totals.items()
    }


def _ship_slugs(unit: Any) -> list[str]:
    ship = getattr(unit, "ship", None)
    return [ship] if ship else [s.ship for s in unit.ships]


def refine(args: argparse.Namespace) -> int:
    factions, admirals, refits = read_data()
    originals = original_points(factions)
    factors = {slug: 1.0 for slug in factions}
    given, ship_factors = read_factors(Path(args.factors))
    factors.update(given)
    sizes, policies = args.sizes.split(","), args.policies.split(",")
    grid = [float(g) for g in args.grid.split(",")]
    history: list[dict[str, Any]] = []

    def measure(
        faction: str, trial: dict[str, float], trial_ships: dict[str, float], label: str, sweep: int
    ) -> tuple[tuple[float, float], dict[str, float]]:
        others = [f for f in sorted(factions) if f != faction]
        catalog = catalog_for(
            priced(factions, originals, trial, trial_ships), admirals, refits, version="refine"
        )
        t0 = time.monotonic()
        got = against_field(
            catalog,
            faction,
            others,
            sizes,
            policies,
            args.battles,
            args.seed + sweep,
            args.workers,
            tuple(args.terrains.split(",")),
        )
        devs = [abs(v - 0.5) for v in got.values()]
        print(
            f"   {faction:20s} {label}: "
            + ", ".join(f"{k} {v:.3f}" for k, v in sorted(got.items()))
            + f" ({time.monotonic() - t0:.0f} s)",
            flush=True,
        )
        return (round(max(devs), 3), round(sum(devs) / len(devs), 4)), got

    def save() -> None:
        Path(args.out).write_text(
            json.dumps(
                {
                    "step": "refine",
                    "factors": factors,
                    "ship_factors": ship_factors,
                    "history": history,
                },
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )

    def apart_ships(faction: str) -> list[str]:
        """Ships Battle's sample fleet fields and Skirmish's does not."""
        cat = catalog_for(
            priced(factions, originals, factors, ship_factors), admirals, refits, version="refine"
        )
        fleets = {
            size: {
                s for u in sample_fleet(cat, faction, GameSize(size)).units for s in _ship_slugs(u)
            }
            for size in ("skirmish", "battle")
        }
        return sorted(fleets["battle"] - fleets["skirmish"])

    for sweep in range(args.sweeps):
        for faction in args.only.split(",") if args.only else sorted(factions):
            if args.split:
                # A faction strong at one size and weak at the other: its factor is set on
                # Skirmish alone, then the ships only Battle's sample fleet fields are priced
                # together (one factor, 0.67-1.5) on Battle alone.
                nonlocal_sizes = sizes
                sizes = ["skirmish"]
                tried = []
                for g in grid:
                    trial = {**factors, faction: round(factors[faction] * g, 4)}
                    key, got = measure(
                        faction, trial, ship_factors, f"x{g:<5} factor {trial[faction]:.4f}", sweep
                    )
                    tried.append((key, trial[faction], got))
                key, best, got = min(tried, key=lambda t: t[0])
                factors[faction] = best
                history.append(
                    {
                        "sweep": sweep,
                        "faction": faction,
                        "factor": best,
                        "scores": got,
                        "sizes": sizes,
                    }
                )
                print(f"== {faction}: factor {best} on skirmish (worst {key[0]})", flush=True)
                sizes = ["battle"]
                apart = [x for x in apart_ships(faction) if x not in ship_factors]
                tried = []
                for g in args.split_grid.split(","):
                    value = float(g)
                    trial_ships = {**ship_factors, **{x: value for x in apart}}
                    key, got = measure(
                        faction,
                        factors,
                        trial_ships,
                        f"{len(apart)} battle-only ships x{value}",
                        sweep,
                    )
                    tried.append((key, value, got))
                key, best, got = min(tried, key=lambda t: t[0])
                ship_factors.update({x: best for x in apart})
                history.append(
                    {
                        "sweep": sweep,
                        "faction": faction,
                        "ships": apart,
                        "ship_factor": best,
                        "scores": got,
                        "sizes": sizes,
                    }
                )
                print(f"== {faction}: {apart} x{best} on battle (worst {key[0]})", flush=True)
                sizes = nonlocal_sizes
                save()
                continue
            if args.ships:
                # Ships in one size's sample fleet and not the other's: their price is what
                # can move one size without the other.
                cat = catalog_for(
                    priced(factions, originals, factors, ship_factors),
                    admirals,
                    refits,
                    version="refine",
                )
                fleets = {
                    size: {
                        s
                        for u in sample_fleet(cat, faction, GameSize(size)).units
                        for s in _ship_slugs(u)
                    }
                    for size in sizes
                }
                apart = sorted(set.union(*fleets.values()) - set.intersection(*fleets.values()))
                for ship in apart:
                    tried = []
                    base = ship_factors.get(ship, 1.0)
                    for g in grid:
                        value = round(min(1.5, max(0.67, base * g)), 4)
                        trial_ships = {**ship_factors, ship: value}
                        key, got = measure(faction, factors, trial_ships, f"{ship} x{value}", sweep)
                        tried.append((key, value, got))
                    key, best, got = min(tried, key=lambda t: t[0])
                    ship_factors[ship] = best
                    history.append(
                        {
                            "sweep": sweep,
                            "faction": faction,
                            "ship": ship,
                            "ship_factor": best,
                            "scores": got,
                        }
                    )
                    print(f"== {ship}: ship factor {best} (worst {key[0]})", flush=True)
                    save()
                continue
            tried = []
            for g in grid:
                trial = {**factors, faction: round(factors[faction] * g, 4)}
                key, got = measure(
                    faction, trial, ship_factors, f"x{g:<5} factor {trial[faction]:.4f}", sweep
                )
                tried.append((key, trial[faction], got))
            key, best, got = min(tried, key=lambda t: t[0])
            factors[faction] = best
            history.append({"sweep": sweep, "faction": faction, "factor": best, "scores": got})
            print(f"== {faction}: factor {best} (worst |score - 0.5| {key[0]})", flush=True)
            save()
    print(json.dumps(factors, indent=1))
    return 0


def report(args: argparse.Namespace) -> int:
    factions, admirals, refits = read_data()
    if args.original:
        originals = original_points(factions)
        factions = priced(factions, originals, {})
    catalog = catalog_for(factions, admirals, refits, version="report")
    out = []
    for size in args.sizes.split(","):
        for policy in args.policies.split(","):
            for terrain in args.terrains.split(","):
                t0 = time.monotonic()
                table = round_robin(
                    catalog, size, args.battles, args.seed, policy, terrain, args.workers
                )
                print(
                    f"\n== {size}, {policy} policy, {terrain} "
                    f"({time.monotonic() - t0:.0f} s, seed {args.seed})"
                )
                print(format_table(table), flush=True)
                out.append({"size": size, "policy": policy, "terrain": terrain, "table": table})
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


def opponents(args: argparse.Namespace) -> int:
    factions, admirals, refits = read_data()
    originals = original_points(factions)
    factors, ship_factors = read_factors(CALIBRATION)
    faction = args.faction
    if faction not in factions:
        raise SystemExit(f"unknown faction {faction!r}")
    if args.factor is not None:
        factors[faction] = args.factor
    ships = {ship["slug"] for data in factions.values() for ship in data["ships"]}
    for item in args.ship:
        slug, _, value = item.partition("=")
        try:
            factor = float(value)
        except ValueError:
            raise SystemExit(
                f"--ship {item!r}: expected SLUG=FACTOR, e.g. void-stalker-class-battleship=1.15"
            ) from None
        if slug not in ships:
            raise SystemExit(f"--ship {item!r}: no ship {slug!r} in the catalogue")
        ship_factors[slug] = factor
    catalog = catalog_for(
        priced(factions, originals, factors, ship_factors), admirals, refits, version="opponents"
    )
    others = [f for f in sorted(factions) if f != faction]
    totals = against_each(
        catalog,
        faction,
        others,
        args.sizes.split(","),
        args.policies.split(","),
        args.battles,
        args.seed,
        args.workers,
        tuple(args.terrains.split(",")),
    )
    beyond = 0
    for setting in sorted(totals):
        scores = {o: v[0] / v[1] for o, v in totals[setting].items()}
        far = {o: round(v, 3) for o, v in sorted(scores.items()) if not 0.2 <= v <= 0.8}
        beyond += len(far)
        print(
            f"{setting:28s} mean {sum(scores.values()) / len(scores):.3f}  "
            f"min {min(scores.values()):.3f}  max {max(scores.values()):.3f}  "
            f"beyond 80/20: {far or 'none'}"
        )
    print(f"{faction}: {beyond} pairs beyond 80/20 (seed {args.seed}, {args.battles} a pair)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--iterations", type=int, default=6)
    f.add_argument("--battles", type=int, default=100)
    f.add_argument("--sizes", default="skirmish,battle")
    f.add_argument("--policies", default="standard")
    f.add_argument("--seed", type=int, default=160301)
    f.add_argument("--rate", type=float, default=0.12)
    f.add_argument("--max-step", type=float, default=0.2)
    f.add_argument("--workers", type=int, default=2)
    f.add_argument("--start", action="store_true", help="start from calibration.json's factors")
    f.add_argument("--out", help="a JSON file for the iterations (the evidence)")
    w = sub.add_parser("write")
    w.add_argument("--factors", required=True, help="factors: a JSON file (fit or refine output)")
    w.add_argument("--evidence", nargs="*", default=[], help="fit/refine outputs to keep")
    r = sub.add_parser("report")
    r.add_argument("--battles", type=int, default=200)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--sizes", default="skirmish,battle")
    r.add_argument("--policies", default="standard,cautious")
    r.add_argument("--terrains", default="none,voidscape")
    r.add_argument("--original", action="store_true", help="the prices before calibration")
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--json")
    op = sub.add_parser("opponents")
    op.add_argument("faction")
    op.add_argument("--factor", type=float, help="the faction's factor instead of the shipped")
    op.add_argument(
        "--ship",
        action="append",
        default=[],
        metavar="SLUG=FACTOR",
        help="a ship's own factor instead of the shipped (repeatable)",
    )
    op.add_argument("--battles", type=int, default=100)
    op.add_argument("--seed", type=int, default=777)
    op.add_argument("--sizes", default="skirmish,battle")
    op.add_argument("--policies", default="standard,cautious")
    op.add_argument("--terrains", default="none,voidscape")
    op.add_argument("--workers", type=int, default=2)
    rf = sub.add_parser("refine")
    rf.add_argument("--factors", required=True, help="a JSON file of starting factors")
    rf.add_argument("--out", required=True, help="where the factors are written as they move")
    rf.add_argument("--grid", default="0.94,0.97,1.0,1.03,1.06")
    rf.add_argument("--battles", type=int, default=40)
    rf.add_argument("--sizes", default="skirmish,battle")
    rf.add_argument("--policies", default="standard,cautious")
    rf.add_argument("--seed", type=int, default=160401)
    rf.add_argument("--terrains", default="none", help="e.g. none,voidscape")
    rf.add_argument("--sweeps", type=int, default=1)
    rf.add_argument("--only", default="", help="comma-separated factions (default: all)")
    rf.add_argument("--workers", type=int, default=2)
    rf.add_argument(
        "--split",
        action="store_true",
        help="factor on Skirmish alone, then Battle-only ships on Battle alone",
    )
    rf.add_argument("--split-grid", default="0.8,1.0,1.15,1.3,1.5")
    rf.add_argument(
        "--ships",
        action="store_true",
        help="move the prices of ships in one size's sample fleet only (0.67-1.5)",
    )
    args = parser.parse_args(argv)
    if args.command == "refine":
        return refine(args)
    if args.command == "opponents":
        return opponents(args)
    if args.command == "write":
        return write_cmd(args)
    return fit(args) if args.command == "fit" else report(args)


if __name__ == "__main__":
    raise SystemExit(main())
