"""Published balance tables as files in the repository, so every install shows them.

    manage.py balance_tables export     # the newest table of each setting -> published/*.json
    manage.py balance_tables load       # published/*.json -> the database (scripts/run, serve)

A table is loaded once: a file whose table (setting, seed, battles, catalogue version and date)
is already in the database changes nothing, except to give a table stored before editions the
file's edition. A file names the edition it was played under (R-160); one from before editions
takes the edition whose data files had its catalogue version.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.dateparse import parse_datetime

from fleetbuilder.balance.models import BalanceTable, edition_of

PUBLISHED = Path(__file__).resolve().parents[2] / "published"
FIELDS = (
    "size",
    "policy",
    "terrain",
    "battles",
    "seed",
    "catalog_version",
    "command",
    "result",
    "seconds",
    "note",
)
OPTIONAL = ("edition",)  # files from before editions lack it


def table_file(table: BalanceTable) -> Path:
    return PUBLISHED / f"{table.size}-{table.policy}-{table.terrain}.json"


class Command(BaseCommand):
    help = "Export the published balance tables to files, or load those files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["export", "load"])
        parser.add_argument("--folder", type=Path, default=PUBLISHED)

    def handle(self, *args: Any, action: str, folder: Path, **options: Any) -> None:
        if action == "export":
            folder.mkdir(parents=True, exist_ok=True)
            for table in BalanceTable.objects.newest_per_setting():
                table = BalanceTable.objects.get(pk=table.pk)
                doc = {f: getattr(table, f) for f in (*FIELDS, *OPTIONAL)}
                doc["created"] = table.created.isoformat()
                path = folder / table_file(table).name
                path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
                self.stdout.write(f"Wrote {path}")
            return
        loaded = 0
        for path in sorted(folder.glob("*.json")):
            try:
                doc = json.loads(path.read_text())
                created = parse_datetime(doc["created"])
                values = {f: doc[f] for f in FIELDS}
                values["edition"] = (
                    doc["edition"] if "edition" in doc else edition_of(values["catalog_version"])
                )
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise CommandError(f"{path.name}: not a published balance table ({exc})") from None
            if created is None:
                raise CommandError(f"{path.name}: 'created' is not a date and time")
            edition = values["edition"]
            if edition is not None and (
                not isinstance(edition, int) or isinstance(edition, bool) or edition < 1
            ):
                raise CommandError(f"{path.name}: 'edition' is an edition's number or null")
            key = {
                f: values[f]
                for f in ("size", "policy", "terrain", "battles", "seed", "catalog_version")
            }
            stored = BalanceTable.objects.filter(**key, created=created)
            if stored.exists():
                if edition is not None:
                    stored.filter(edition=None).update(edition=edition)
                continue
            table = BalanceTable.objects.create(**values)
            BalanceTable.objects.filter(pk=table.pk).update(created=created)  # auto_now_add
            loaded += 1
        self.stdout.write(f"Loaded {loaded} balance table{'s' if loaded != 1 else ''}.")
