import json

from django.core.management.base import BaseCommand, CommandError

from fleetbuilder.dbready import database_problem
from rules_core import editions as ed

from ... import editions, loader
from ...export import export_catalog


class Command(BaseCommand):
    help = (
        "Print the whole catalogue as JSON (contract 3): the loaded one, or the data files' "
        "when the database is not set up or holds none; --edition N prints a published "
        "edition's (R-160)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--edition",
            type=int,
            default=None,
            help="a published edition's catalogue instead of the loaded one",
        )

    def handle(self, *args, edition: int | None = None, **options) -> None:
        # Like validate_fleet: a clone that was never migrated still exports (from the files),
        # and an SQLite file that does not exist is not created.
        if edition is None:
            catalog = loader.read_files() if database_problem() else loader.command_catalog()
            number = None if database_problem() else editions.current_number()
        else:
            catalog = self.edition_catalog(edition)
            number = edition
        out = export_catalog(catalog, edition=number)
        self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))

    @staticmethod
    def edition_catalog(number: int):
        try:
            if database_problem():
                return editions.from_shipped_files(number)[1]
            return editions.catalog_for(number)
        except ed.EditionError as exc:
            raise CommandError(str(exc), returncode=2) from None
