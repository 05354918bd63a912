import json

from django.core.management.base import BaseCommand

from fleetbuilder.dbready import database_problem

from ... import loader
from ...export import export_catalog


class Command(BaseCommand):
    help = ("Print the whole catalogue as JSON (contract 3): the loaded one, or the data files' "
            "when the database is not set up or holds none.")

    def handle(self, *args, **options) -> None:
        # Like validate_fleet: a clone that was never migrated still exports (from the files),
        # and an SQLite file that does not exist is not created.
        catalog = loader.read_files() if database_problem() else loader.command_catalog()
        self.stdout.write(json.dumps(export_catalog(catalog), indent=2, ensure_ascii=False))
