"""How fast the exact odds are: the median time of one 20-die and one 40-die volley.

``python -m rules_core bench-odds`` (or ``python -m rules_core.bench``) prints the figures.
"""

from __future__ import annotations

import statistics
import time

from .odds import volley_odds

# A demanding case of each kind: long range, braced, shields up; turrets for the torpedoes.
CASES = {
    "battery": dict(range_cm=30, armor=5, shields=2, hull=8, braced=True),
    "lance": dict(armor=5, shields=2, hull=8, braced=True, to_hit_mod=1),
    "torpedo": dict(armor=5, shields=2, hull=8, braced=True, turrets=4, blast_markers=1),
}


def bench_odds(sizes: tuple[int, ...] = (20, 40), runs: int = 201) -> dict[str, dict[int, float]]:
    """Median seconds per volley (distribution and JSON-ready floats) by weapon and dice."""
    out: dict[str, dict[int, float]] = {}
    for weapon, kwargs in CASES.items():
        out[weapon] = {}
        for n in sizes:
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                volley_odds(weapon, n, **kwargs).to_dict()  # type: ignore[arg-type]
                times.append(time.perf_counter() - start)
            out[weapon][n] = statistics.median(times)
    return out


def main(runs: int = 201) -> int:
    results = bench_odds(runs=runs)
    print(f"exact volley odds, median of {runs} runs")
    for weapon, by_size in results.items():
        for n, seconds in by_size.items():
            print(f"  {weapon:<8} {n:>2} dice  {seconds * 1e3:.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
