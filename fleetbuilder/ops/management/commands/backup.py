"""``manage.py backup OUT.tar``: a consistent backup of the database (fleetbuilder/ops/backups.py).
Exit 0 with a one-line summary, 2 with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from fleetbuilder.ops import backups


class Command(BaseCommand):
    help = "Write a consistent backup of the database to a tar file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("out", help="the backup file to write (a .tar)")

    def handle(self, *args: Any, **options: Any) -> None:
        out = Path(options["out"])
        try:
            manifest = backups.backup(out)
        except (backups.BackupError, OSError) as exc:
            raise CommandError(f"backup: {exc}", returncode=2) from None
        rows = ", ".join(
            f"{n} {label.split('.')[1].lower()}" for label, n in manifest["counts"].items()
        )
        self.stdout.write(
            f"backup: {out} ({manifest['engine']}, "
            f"{manifest['bytes'] / 1024 / 1024:.1f} MB): {rows}"
        )
