from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from fleetbuilder.dbready import require_database
from rules_core.catalog import DATA_DIR, CatalogError
from rules_core.editions import EditionError

from ... import editions, loader


class Command(BaseCommand):
    help = "Load the catalogue's data files into the database (skips work when unchanged)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--force", action="store_true", help="reload even if unchanged")
        parser.add_argument("--data", type=Path, default=DATA_DIR, help="data folder")

    def handle(self, *args, force: bool = False, data: Path, **options) -> None:
        require_database()  # unmigrated: one line saying to run migrate, exit 2
        try:
            result = loader.load(data, force=force)
        except (CatalogError, EditionError, OSError) as exc:
            raise CommandError(f"catalogue data is invalid: {exc}", returncode=2) from None
        state = "loaded" if result.loaded else "already up to date"
        self.stdout.write(
            f"Catalogue {result.version} {state}: {result.factions} factions, {result.ships} ships."
        )
        if result.editions_added:
            added = ", ".join(str(n) for n in result.editions_added)
            self.stdout.write(f"Editions published here: {added}.")
        edition = editions.current()
        if edition is None:
            latest = editions.latest()
            since = f" since edition {latest.number}" if latest else ""
            self.stdout.write(
                self.style.WARNING(
                    f"The data files are a development state: unpublished changes{since}. "
                    "Publish them with manage.py publish_edition --label ..."
                )
            )
        else:
            self.stdout.write(f"Serving {edition.title}.")
