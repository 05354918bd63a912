from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from fleetbuilder.dbready import require_database
from rules_core.catalog import DATA_DIR, CatalogError
from rules_core.editions import EditionError

from ... import editions, loader


class Command(BaseCommand):
    help = (
        "Publish the catalogue's data files as the next edition (R-160): its file is added "
        "to data/editions/ for good, then loaded. Saved lists keep their own editions."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--label", required=True, help='one line, e.g. "2026-12, fourth calibration"'
        )
        parser.add_argument("--notes", default="", help="what changed and why, for players")
        parser.add_argument("--data", type=Path, default=DATA_DIR, help="data folder")
        parser.add_argument(
            "--editions", type=Path, default=editions.EDITIONS_DIR, help="editions folder"
        )
        parser.add_argument(
            "--no-load",
            action="store_true",
            help="only write the file (load_catalog loads it later)",
        )

    def handle(
        self, *args, label: str, notes: str, data: Path, editions: Path, no_load: bool, **options
    ) -> None:
        from ... import editions as published

        try:
            info = published.publish(label, notes=notes, data_dir=data, directory=editions)
        except (CatalogError, EditionError, OSError) as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(
            f"Published {info.title}: {editions / f'edition-{info.number:03d}.json'}"
            f" (sha256 {info.sha256[:12]}…)."
        )
        if not no_load:
            require_database()
            loader.load(data, editions_dir=editions)
            self.stdout.write(f"Loaded: this server now serves {info.title}.")
