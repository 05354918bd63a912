"""``python manage.py simulate A.json B.json [--battles N] [--seed S] [--json] [--workers W]
[--log] [--terrain T] [--scoring S] [--rounds R] [--table T] [--policy-a P] [--policy-b P]
[--movement M] [--asteroids still|moving]`` (contract 3).

Plays fleet A against fleet B; exit 0 with the summary (``--json``: contract 3's shape), 2 on
unusable input with a one-line reason on stderr. ``--log`` prints the log of the first battle
(index ``--seed``'s battle 0 … or ``--log-battle I``).

Each fleet is priced, judged and played under the edition its file names (R-163); a file
naming none is read under the first edition, with R-161's note on stderr; one naming an edition
this server does not know exits 2, naming the known editions.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from fleetbuilder.fleets.fleetfile import FleetFileError, read_fleet, under_edition
from rules_core.catalog import Catalog
from rules_core.fleet import Fleet
from rules_core.sim import POLICIES, SimError, SimOptions, play_battle, simulate
from rules_core.sim.api import ASTEROIDS, MOVEMENTS, SCORINGS, TABLES, TERRAINS

MAX_WORKERS = 64


class Command(BaseCommand):
    help = "Simulate battles between two fleet files (contract 1) and summarise the results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("fleet_a", help="fleet A's file (JSON, contract 1)")
        parser.add_argument("fleet_b", help="fleet B's file (JSON, contract 1)")
        parser.add_argument("--battles", type=int, default=1000, help="battles (default 1000)")
        parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
        parser.add_argument(
            "--workers",
            type=int,
            default=1,
            help="worker processes; the results do not depend on it",
        )
        parser.add_argument("--json", action="store_true", help="print contract 3's JSON")
        parser.add_argument(
            "--log", action="store_true", help="also print the log of one battle (see --log-battle)"
        )
        parser.add_argument(
            "--log-battle",
            type=int,
            default=0,
            metavar="I",
            help="which battle's log --log prints (default 0)",
        )
        parser.add_argument("--rounds", type=int, default=10, help="game length (R-15)")
        parser.add_argument("--scoring", choices=SCORINGS, default="core")
        parser.add_argument("--terrain", choices=TERRAINS, default="none")
        parser.add_argument(
            "--table",
            choices=TABLES,
            default=None,
            help="table size (default: fleet A's game size)",
        )
        parser.add_argument(
            "--policy-a",
            choices=sorted(POLICIES),
            default="standard",
            help="how fleet A is played (docs/simulator.md)",
        )
        parser.add_argument(
            "--policy-b", choices=sorted(POLICIES), default="standard", help="how fleet B is played"
        )
        parser.add_argument(
            "--movement",
            choices=MOVEMENTS,
            default="standard",
            help="standard (§5) or advanced (seed 003's vector movement, R-140)",
        )
        parser.add_argument(
            "--asteroids",
            choices=ASTEROIDS,
            default="still",
            help="still, or moving (seed 003's optional rule, with --movement advanced; R-147)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["battles"] < 1 or options["battles"] > 1_000_000:
            self.fail("--battles must be from 1 to 1000000")
        if not 1 <= options["workers"] <= MAX_WORKERS:
            self.fail(f"--workers must be from 1 to {MAX_WORKERS}")
        try:
            sim_options = SimOptions(
                max_rounds=options["rounds"],
                scoring=options["scoring"],
                terrain=options["terrain"],
                table=options["table"],
                policy_a=options["policy_a"],
                policy_b=options["policy_b"],
                movement=options["movement"],
                asteroids=options["asteroids"],
            )
        except ValueError as exc:
            self.fail(str(exc))
        fleet_a, catalog, note_a = self.read(options["fleet_a"])
        fleet_b, catalog_b, note_b = self.read(options["fleet_b"])
        seed = options["seed"]
        try:
            tally = simulate(
                catalog,
                fleet_a,
                fleet_b,
                battles=options["battles"],
                seed=seed,
                options=sim_options,
                workers=options["workers"],
                catalog_b=catalog_b,
            )
            battle = (
                play_battle(
                    catalog,
                    fleet_a,
                    fleet_b,
                    seed=seed,
                    index=options["log_battle"],
                    options=sim_options,
                    log=True,
                    catalog_b=catalog_b,
                )
                if options["log"]
                else None
            )
        except SimError as exc:
            self.fail(str(exc))
        for path, note in ((options["fleet_a"], note_a), (options["fleet_b"], note_b)):
            if note:  # after the run: a refusal stays one line
                self.stderr.write(f"note: {path}: {note}")
        summary = tally.summary(seed=seed)
        if options["json"]:
            if battle is not None:
                summary = {
                    **summary,
                    "log_battle": options["log_battle"],
                    "log": [e.to_dict() for e in battle.log or []],
                }
            self.stdout.write(json.dumps(summary, ensure_ascii=False, indent=2))
            return
        self.stdout.write(self.text(summary, fleet_a, fleet_b, sim_options))
        if battle is not None:
            self.stdout.write("")
            self.stdout.write(f"Battle {options['log_battle']} of seed {seed}:")
            for e in battle.log or []:
                side = f"[{e.side.upper()}] " if e.side else ""
                self.stdout.write(f"  round {e.round:>2} {e.phase:<10} {side}{e.text}")

    def read(self, path: str) -> tuple[Fleet, Catalog, str]:
        """The file's fleet under its edition (R-161, R-163), that edition's catalogue, and
        R-161's note if the file names none."""
        try:
            fleet = read_fleet(path)
        except FleetFileError as exc:
            self.fail(str(exc))
        try:
            return under_edition(fleet)
        except FleetFileError as exc:
            self.fail(f"{path}: {exc}")

    @staticmethod
    def text(s: dict[str, Any], a: Fleet, b: Fleet, opts: SimOptions) -> str:
        def pct(x: float) -> str:
            return f"{100 * x:.1f}%"

        def ci(c: list[float]) -> str:
            return f"[{pct(c[0])}, {pct(c[1])}]"

        lines = [
            f"{a.name or 'Fleet A'} (A) vs {b.name or 'Fleet B'} (B): {s['battles']} battles, "
            f"seed {s['seed']}, {opts.max_rounds} rounds, {opts.scoring} scoring, "
            f"terrain {opts.terrain}, policies {opts.policy_a}/{opts.policy_b}"
            + (f", {opts.movement} movement" if opts.movement != "standard" else ""),
            f"  editions: A {a.edition}, B {b.edition}"
            + (
                " (each side plays its own edition's points and profiles, R-163)"
                if a.edition != b.edition
                else ""
            ),
            f"  A wins {s['a_wins']:>6}  {pct(s['a_win_rate']):>6}  95% CI {ci(s['a_win_ci95'])}",
            f"  B wins {s['b_wins']:>6}  {pct(s['b_win_rate']):>6}  95% CI {ci(s['b_win_ci95'])}",
            f"  draws  {s['draws']:>6}  {pct(s['draw_rate']):>6}  95% CI {ci(s['draw_ci95'])}",
            f"  victory points  A mean {s['vp']['a']['mean']:.1f} (p10 {s['vp']['a']['p10']}, "
            f"p90 {s['vp']['a']['p90']})   B mean {s['vp']['b']['mean']:.1f} "
            f"(p10 {s['vp']['b']['p10']}, p90 {s['vp']['b']['p90']})",
            f"  rounds played  mean {s['rounds_mean']:.2f}",
            "",
            f"  {'side':<4} {'unit':>4}  {'ship':<34} {'destroyed':>9} {'crippled':>9} "
            f"{'disengaged':>10} {'intact':>7}",
        ]
        sizes = Counter((r["side"], r["unit"]) for r in s["ships"])
        for r in s["ships"]:
            name = (
                f"{r['name']} {r['index'] + 1}"
                if sizes[(r["side"], r["unit"])] > 1
                else r["unit_name"]
            )
            if len(name) > 34:
                name = name[:33] + "…"
            lines.append(
                f"  {r['side'].upper():<4} {r['unit'] + 1:>4}  {name:<34} "
                f"{pct(r['destroyed_rate']):>9} {pct(r['crippled_rate']):>9} "
                f"{pct(r['disengaged_rate']):>10} {pct(r['intact_rate']):>7}"
            )
        return "\n".join(lines)

    def fail(self, reason: str) -> NoReturn:
        self.stderr.write(reason.replace("\n", " "))
        sys.exit(2)
