"""``python -m rules_core``: the rules engine on the command line (Contract 3).

    python -m rules_core odds --weapon battery --strength 6 --range 20 --armor 5 --shields 1 \
        --hull 8 --json
    python -m rules_core bench-odds
    python -m rules_core bench-sim [--battles 1000] [--workers 2] [--repeat 5]

Exit 0 on success, 2 on unusable input with a one-line reason on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .odds import MAX_DICE, OddsInputError, OddsWeapon, VolleyOdds, volley_odds


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rules_core", description="Void Command's rules engine."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    odds = sub.add_parser("odds", help="exact odds of one volley against one ship")
    odds.add_argument("--weapon", required=True, choices=[w.value for w in OddsWeapon])
    odds.add_argument(
        "--strength",
        required=True,
        type=int,
        help=f"dice, torpedoes or attack craft (1–{MAX_DICE})",
    )
    odds.add_argument(
        "--range",
        type=float,
        default=0.0,
        metavar="CM",
        help="batteries: 4+ up to 15 cm, 5+ beyond (default 0: point blank)",
    )
    odds.add_argument("--armor", required=True, type=int, help="the target's save, 2–6")
    odds.add_argument("--shields", required=True, type=int, help="the target's current shields")
    odds.add_argument("--hull", required=True, type=int, help="the target's current hull")
    odds.add_argument("--max-hull", type=int, help="starting hull for crippling (default --hull)")
    odds.add_argument(
        "--to-hit-mod",
        type=int,
        default=0,
        metavar="M",
        help="firer's total modifier: Lock On +1, New Heading/Burn Retros -1, "
        "hesitant -1, cover -1",
    )
    odds.add_argument("--brace", action="store_true", help="the target is braced (4+ save)")
    odds.add_argument(
        "--blast-markers",
        type=int,
        default=0,
        metavar="B",
        help="markers in contact: shields suppressed, turrets -1 each",
    )
    odds.add_argument(
        "--turrets",
        type=int,
        default=0,
        metavar="T",
        help="the target's effective turrets (ordnance)",
    )
    odds.add_argument("--json", action="store_true", help="print the JSON of Contract 3")

    bench = sub.add_parser("bench-odds", help="median time of 20- and 40-die volleys")
    bench.add_argument("--runs", type=int, default=201)

    bench_sim = sub.add_parser("bench-sim", help="simulator battles per second per core")
    bench_sim.add_argument("--battles", type=int, default=1000)
    bench_sim.add_argument("--workers", type=int, default=2)
    bench_sim.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="one-core runs of 200 battles (the best and the median shown)",
    )
    return parser


def _table(args: argparse.Namespace, odds: VolleyOdds) -> str:
    data = odds.to_dict()
    weapon = args.weapon.replace("_", " ")
    where = f" at {args.range:g} cm" if args.weapon == "battery" else ""
    lines = [
        f"{weapon}, strength {args.strength}{where}, to-hit modifier {args.to_hit_mod:+d}"
        f"{', braced' if args.brace else ''}",
        f"target: armor {args.armor}+, shields {args.shields}, hull {args.hull}/"
        f"{args.max_hull or args.hull}, turrets {args.turrets}, blast markers {args.blast_markers}",
        "",
        f"{'hull damage':>11}  {'exactly':>9}  {'at least':>9}",
    ]
    tail = odds.denominator
    for k, weight in enumerate(odds.weights):
        lines.append(f"{k:>11}  {weight / odds.denominator:>9.2%}  {tail / odds.denominator:>9.2%}")
        tail -= weight
    lines += [
        "",
        f"mean hull damage    {data['mean_hull_damage']:.3f}",
        f"crippled or worse   {data['p_crippled']:.2%}",
        f"destroyed           {data['p_destroyed']:.2%}",
        f"expected criticals  {data['expected_criticals']:.3f}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "bench-sim":
        from .sim.bench import main as bench_sim_main

        if args.battles < 1 or args.workers < 1:
            print("error: --battles and --workers must be at least 1", file=sys.stderr)
            return 2
        return bench_sim_main(
            battles=args.battles, workers=args.workers, repeat=max(1, args.repeat)
        )
    if args.command == "bench-odds":
        from .bench import main as bench_main

        if args.runs < 1:
            print("error: --runs must be at least 1", file=sys.stderr)
            return 2
        return bench_main(args.runs)
    try:
        odds = volley_odds(
            args.weapon,
            args.strength,
            armor=args.armor,
            shields=args.shields,
            hull=args.hull,
            max_hull=args.max_hull,
            range_cm=args.range,
            to_hit_mod=args.to_hit_mod,
            braced=args.brace,
            blast_markers=args.blast_markers,
            turrets=args.turrets,
        )
    except OddsInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(odds.to_dict()))
    else:
        print(_table(args, odds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
