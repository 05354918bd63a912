"""Fit the points model (rules_core/points_model.py) on the reference-converted ships.

    .venv/bin/python tools/fit_points_model.py [DATA_DIR] [--worst N] [--designed]

Loads the catalogue data folder (default ``fleetbuilder/catalog/data``) with
``rules_core.catalog.load_catalog_dir``, takes every ship with ``source == "reference"`` (but
those with a rule in ``points_model.FIT_EXCLUDED_RULES``), and fits
``points ≈ Σ coefficient × feature`` by ordinary least squares on the features of
``rules_core.points_model.features``. Every coefficient but the class-group intercepts is held
at 0 or above (active set: the most negative one is fixed at 0 and the fit repeated). Prints the
coefficients as a block to paste into ``COEFFICIENTS``, then R², the median and 90th-percentile
absolute relative error of the pasted (rounded) coefficients, and of the constants currently in
points_model.py for comparison.

``--worst N`` lists the N reference ships the new fit prices worst; ``--designed`` lists every
designed ship against the current constants and the tolerance band.

Pure Python (no numpy): a dozen features and a few hundred ships solve instantly by the normal
equations.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_core import points_model as pm  # noqa: E402
from rules_core.catalog import DATA_DIR, Catalog, ShipProfile, load_catalog_dir  # noqa: E402


def fit_set(catalog: Catalog) -> list[ShipProfile]:
    """The reference-converted ships the model is fitted and judged on."""
    return [s for f in catalog.factions for s in f.ships if pm.in_fit_set(s)]


def load(directory: Path) -> Catalog:
    return load_catalog_dir(directory)


def solve(rows: list[list[float]], targets: list[float]) -> list[float]:
    """Least squares by the normal equations and Gauss–Jordan elimination with pivoting."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * t for r, t in zip(rows, targets, strict=True)) for i in range(n)]
    m = [a[i] + [b[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-9:
            raise ValueError(f"feature {col} is not identifiable from these ships")
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(ships: list[ShipProfile]) -> dict[str, float]:
    """Coefficients for every feature; constrained ones never negative (0 when fixed)."""
    table = [pm.features(s) for s in ships]
    targets = [float(s.points) for s in ships]
    free = [name for name in pm.FEATURES if any(row[name] for row in table)]
    while True:
        coef = dict(
            zip(free, solve([[row[k] for k in free] for row in table], targets), strict=True)
        )
        negative = [k for k in free if k not in pm.INTERCEPTS and coef[k] < 0]
        if not negative:
            break
        free.remove(min(negative, key=coef.__getitem__))
    return {name: coef.get(name, 0.0) for name in pm.FEATURES}


def rounded(coef: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 1) if k in pm.INTERCEPTS else round(v, 2) for k, v in coef.items()}


def report(label: str, ships: list[ShipProfile], coef: dict[str, float]) -> None:
    q = pm.fit_quality(ships, coef)
    print(
        f"{label}: n={q.count}  R²={q.r_squared:.3f}  "
        f"median |rel err|={q.median_relative_error:.3f}  90th pct={q.p90_relative_error:.3f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=DATA_DIR)
    parser.add_argument("--worst", type=int, default=0, metavar="N")
    parser.add_argument("--designed", action="store_true")
    args = parser.parse_args(argv)

    catalog = load(args.data)
    reference = fit_set(catalog)
    if len(reference) < len(pm.FEATURES) * 3:
        print(f"only {len(reference)} reference ships: too few to fit", file=sys.stderr)
        return 2
    factions = sorted({f.slug for f in catalog.factions for s in f.ships if s in reference})
    print(
        f"fitting on {len(reference)} reference ships of {len(factions)} factions: "
        + ", ".join(factions)
    )

    new = rounded(fit(reference))
    print("\nCOEFFICIENTS: Mapping[str, float] = {")
    for name in pm.FEATURES:
        print(f'    "{name}": {new[name]},')
    print("}\n")
    report("new fit (rounded)", reference, new)
    report("constants in points_model.py", reference, dict(pm.COEFFICIENTS))

    if args.worst:
        print(f"\n{args.worst} worst-priced reference ships (new fit):")

        def error(s: ShipProfile) -> float:
            return abs(pm.estimate_points(s, new) - s.points) / s.points

        ranked = sorted(reference, key=error, reverse=True)
        for s in ranked[: args.worst]:
            print(
                f"  {s.slug:48} {s.ship_class.value:14} {s.points:4d}  "
                f"model {pm.estimate_points(s, new):6.1f}"
            )

    if args.designed:
        print("\ndesigned ships against the constants in points_model.py:")
        bad = 0
        for f in catalog.factions:
            for s in f.ships:
                if s.source != "designed":
                    continue
                est = pm.estimate_points(s)
                ok = abs(s.points - est) <= pm.tolerance(est)
                bad += not ok
                print(
                    f"  {'ok ' if ok else 'OUT'} {s.slug:48} {s.points:4d}  model {est:6.1f}  "
                    f"band {est - pm.tolerance(est):6.1f}–{est + pm.tolerance(est):6.1f}"
                )
        print(f"{bad} designed ship(s) outside the tolerance")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
