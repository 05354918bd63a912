"""``manage.py restore BACKUP.tar [--force]``: restore a backup onto an empty database
(fleetbuilder/ops/backups.py). Exit 0 with a one-line summary, 2 with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from fleetbuilder.ops import backups


class Command(BaseCommand):
    help = "Restore a backup made by manage.py backup onto an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("backup", help="a .tar written by manage.py backup")
        parser.add_argument(
            "--force", action="store_true", help="replace a database that holds records"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            manifest = backups.restore(Path(options["backup"]), force=options["force"])
        except (backups.BackupError, OSError) as exc:
            raise CommandError(f"restore: {exc}", returncode=2) from None
        rows = ", ".join(
            f"{n} {label.split('.')[1].lower()}" for label, n in manifest["counts"].items()
        )
        self.stdout.write(
            f"restore: {options['backup']} (made {manifest['made']}): {rows}; row counts checked"
        )
