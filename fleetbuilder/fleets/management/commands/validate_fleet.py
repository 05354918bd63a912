"""``python manage.py validate_fleet FILE [--json]`` (contract 3).

Exit 0 for a legal fleet, 1 for an illegal one, 2 for a file that cannot be read as a fleet file;
a one-line reason goes to stderr whenever the answer is not 0. ``--json`` prints contract 2, with
the API's ``edition`` (the edition it was judged under) and ``edition_note`` (R-161's note, or
null).

The fleet is judged under the edition it names (R-160); a file naming none is judged under the
first edition, with R-161's note on stderr; one naming an edition this server does not know
exits 2, naming the known editions.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from fleetbuilder.fleets.fleetfile import FleetFileError, read_text, under_edition
from rules_core.fleet import FleetFormatError, load_fleet_json
from rules_core.validator import ValidationReport, validate


class Command(BaseCommand):
    help = "Validate a fleet file (contract 1); exit 0 legal, 1 illegal, 2 unreadable."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the fleet file (JSON, contract 1); - for stdin")
        parser.add_argument("--json", action="store_true", help="print the report (contract 2)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            text = read_text(path)
        except FleetFileError as exc:
            self.fail(2, str(exc))
        try:
            fleet = load_fleet_json(text)
        except FleetFormatError as exc:
            if options["json"]:
                self.emit_json(ValidationReport.for_format_error(exc), None)
            where = f" at {exc.path}" if exc.path else ""
            self.fail(2, f"{path} is not a usable fleet file{where}: {exc.message}")
        try:
            fleet, catalog, note = under_edition(fleet)
        except FleetFileError as exc:
            self.fail(2, f"{path}: {exc}")
        if note:
            self.stderr.write(f"note: {note}")
        report = validate(fleet, catalog)
        if options["json"]:
            self.emit_json(report, fleet.edition, note)
        else:
            self.stdout.write(
                f"{fleet.name or path}: {report.points} points, "
                f"{fleet.band.label} band {fleet.band.min}–{fleet.band.max}: "
                f"{'legal' if report.legal else 'not legal'}"
            )
            for p in report.problems:
                where = (
                    f" [unit {p.unit}{'' if p.ship is None else f', ship {p.ship}'}]"
                    if p.unit is not None
                    else ""
                )
                self.stdout.write(f"  {p.severity.value}: {p.code}{where}: {p.message}")
        if not report.legal:
            n = len(report.errors)
            self.fail(
                1,
                f"{path} is not legal: {n} error{'s' if n != 1 else ''} "
                f"(first: {report.errors[0].code})",
            )

    def emit_json(self, report: ValidationReport, edition: int | None, note: str = "") -> None:
        body = {**report.to_dict(), "edition": edition, "edition_note": note or None}
        self.stdout.write(json.dumps(body, ensure_ascii=False, indent=2))

    def fail(self, code: int, reason: str) -> NoReturn:
        self.stderr.write(reason.replace("\n", " "))
        sys.exit(code)
