"""``python manage.py ship_cards FILE -o OUT.pdf [--layout poker|a4|letter]
[--movement standard|advanced]`` (contract 3).

``--movement advanced`` prints each ship's thrust rating and safe operating thrust (SOT) for
the advanced movement module (R-140, R-141).

Exit 0 when the PDF is written — an illegal fleet prints too (its roster says why) and gets a
one-line warning on stderr; exit 2 for input that cannot be used (a file that is not a fleet
file, an unknown layout, an output that cannot be written), with a one-line reason on stderr.
There is no exit 1: the cards answer "here they are", not "is this legal" (validate_fleet does).

The cards are the edition's the file names (R-160): a file naming none prints under the first
edition, with R-161's note on stderr; one naming an edition this server does not know exits 2,
naming the known editions.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from fleetbuilder.fleets.fleetfile import FleetFileError, read_fleet, under_edition
from rules_core.cards import LAYOUTS, render_cards
from rules_core.validator import validate


class Command(BaseCommand):
    help = (
        "Print a fleet file's roster and ship cards as a PDF. Exit 0 written (an illegal "
        "fleet too, with a warning), 2 unusable input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the fleet file (JSON, contract 1); - for stdin")
        parser.add_argument(
            "-o", "--output", required=True, metavar="OUT.pdf", help="where to write the PDF"
        )
        parser.add_argument(
            "--layout",
            choices=LAYOUTS,
            default="poker",
            help="poker: one 63 × 88 mm card a page; a4 / letter: nine a sheet "
            "with cut marks (default poker)",
        )
        parser.add_argument(
            "--ink-saver",
            action="store_true",
            help="outlines and light shading instead of dark fills",
        )
        parser.add_argument(
            "--movement",
            choices=("standard", "advanced"),
            default="standard",
            help="advanced: print each ship's thrust rating and SOT for the "
            "advanced movement module (R-141); default standard",
        )
        parser.add_argument(
            "--share-url",
            metavar="URL",
            help="the fleet's share link, printed as a QR code on the roster",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            fleet = read_fleet(path)
        except FleetFileError as exc:
            self.fail(str(exc))
        try:
            fleet, catalog, note = under_edition(fleet)
        except FleetFileError as exc:
            self.fail(f"{path}: {exc}")
        if note:
            self.stderr.write(f"note: {note}")
        report = validate(fleet, catalog)
        pdf = render_cards(
            catalog,
            fleet,
            layout=options["layout"],
            ink_saver=options["ink_saver"],
            share_url=options["share_url"],
            report=report,
            advanced_movement=options["movement"] == "advanced",
        )
        out = Path(options["output"])
        try:
            out.write_bytes(pdf)
        except OSError as exc:
            self.fail(f"cannot write {out}: {exc.strerror or exc}")
        n = len(fleet.units)
        self.stdout.write(
            f"{out}: roster and {n} card{'s' if n != 1 else ''} "
            f"({options['layout']}"
            f"{', advanced movement' if options['movement'] == 'advanced' else ''}"
            f", {len(pdf) // 1024} KB)"
        )
        if not report.legal:
            errors = len(report.errors)
            self.stderr.write(
                f"warning: {fleet.name or path} is not legal: {errors} "
                f"error{'s' if errors != 1 else ''} (first: "
                f"{report.errors[0].code}); printed anyway, the roster says why"
            )

    def fail(self, reason: str) -> NoReturn:
        self.stderr.write(reason.replace("\n", " "))
        sys.exit(2)
