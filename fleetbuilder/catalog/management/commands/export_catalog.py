import json

from django.core.management.base import BaseCommand

from ...export import export_catalog


class Command(BaseCommand):
    help = "Print the whole catalogue as JSON (contract 3)."

    def handle(self, *args, **options) -> None:  # noqa: ANN002, ANN003
        self.stdout.write(json.dumps(export_catalog(), indent=2, ensure_ascii=False))
