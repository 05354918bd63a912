"""``manage.py import_roster FILE [--json]``: a BattleScribe (.ros, .rosz) or New Recruit (JSON)
roster made into a fleet here (R-190), printed with its import report; nothing is saved.

Without ``--json`` it prints the report for a reader; with it, one JSON document: the fleet file
(contract 1), its validation report and the import report, as the API answers. Exit status 0
when the roster was read (legal or not), 2 when it could not be.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from fleetbuilder.fleets import rosters
from rules_core import fleet as rf

MAX_FILE_BYTES = 4 * 1024 * 1024


class Command(BaseCommand):
    help = "Make a fleet of a BattleScribe or New Recruit roster and print the import report."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a .ros, .rosz or New Recruit .json roster")
        parser.add_argument("--json", action="store_true", help="print one JSON document")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise CommandError(
                    f"{path} is over {MAX_FILE_BYTES // 1024 // 1024} MB; a "
                    "roster is a few tens of KB.",
                    returncode=2,
                )
            made = rosters.roster_fleet(path.read_bytes())
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}", returncode=2) from None
        except rosters.RosterError as exc:
            raise CommandError(f"{path}: {exc}", returncode=2) from None
        report, validation = made.report, made.validation
        if options["json"]:
            doc = {
                "fleet": rf.fleet_to_dict(made.fleet),
                "validation": validation.to_dict(),
                "report": report.to_dict(),
            }
            self.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1))
            return
        out = self.stdout.write
        out(
            f"{made.fleet.name}: {made.fleet.faction}"
            + (f" ({made.fleet.variant})" if made.fleet.variant else "")
            + f", edition {made.fleet.edition}, from the {report.force} force"
        )
        out(
            f"points: roster {report.roster_points:.0f}, here {report.points} "
            f"({report.difference:+d}); {'legal' if validation.legal else 'not legal'}"
        )
        for unit in report.units:
            out(
                f"  {unit.label}: roster {unit.roster_points:.0f}, here {unit.points} "
                f"({unit.difference:+d})"
            )
        for line in report.lines:
            became = f" -> {line.became}" if line.became else ""
            why = f"  [{line.reason}]" if line.reason else ""
            out(f"{'  ' * (line.depth + 1)}{line.name} x{line.number}: {line.status}{became}{why}")
        for left in report.left_out_forces:
            out(f"not imported: {left}")
        for problem in validation.problems:
            out(f"problem: {problem.message}")
