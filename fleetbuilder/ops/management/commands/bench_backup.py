"""``manage.py bench_backup fill|counts``: the data of the backup benchmark, run by
``scripts/bench-backup``, which times ``scripts/backup`` and ``scripts/restore``.

``fill --fleets N [--accounts M]``: N saved fleets that look like players' ones, in seconds. A
handful are made with the app's own model API (``Fleet.store``, ``Fleet.start`` and
``add_ship``, ``rename``, ``change_edition``): every faction's sample list of three sizes,
lists still being built (a few ships), lists renamed (a later version) and lists built on an
older edition and updated (``previous_edition`` set) or kept there. The rest are copies of
those rows, written with ``bulk_create``: whole, or their first few units (a list being built,
its points and verdict from the validator, once per such list), each copy with its own name
(in the document too), now and then names on its ships, an owner (M accounts, one per 8 fleets
by default; one fleet in ten of a signed-out browser's token), a version, and now and then a
share link or a place in the trash. Nothing here is timed.

``counts``: the number of rows of every model, as JSON (one line), to compare a restored
database with the one backed up.
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import replace
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.ownership import new_owner_token
from rules_core import fleet as rf
from rules_core.sample_fleets import SampleFleetError, sample_fleet
from rules_core.validator import validate

SIZES = ("patrol", "skirmish", "battle")
BATCH = 2000
WORDS = (
    "Iron",
    "Crimson",
    "Void",
    "Silent",
    "Burning",
    "Black",
    "Golden",
    "Grim",
    "Last",
    "Lunar",
    "Storm",
    "Ashen",
    "Sable",
    "Hollow",
    "Starlit",
    "Dread",
)
SHIPS = (
    "Vengeance",
    "Dominion",
    "Relentless",
    "Iron Oath",
    "Saint Ophelia",
    "Gorefang",
    "Unbowed",
    "Starfall",
    "Wrath of Mars",
    "Kharybdis",
    "Deathbringer",
    "Lux Aeterna",
)
NOUNS = (
    "Armada",
    "Crusade",
    "Reavers",
    "Vanguard",
    "Tide",
    "Wake",
    "Hunters",
    "Lance",
    "Talon",
    "Squadron",
    "Host",
    "Covenant",
    "Raiders",
    "Sentinels",
    "Shadow",
    "Fleet",
)


def row_counts() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


class Command(BaseCommand):
    help = "Fill the database with N fleets, or print its row counts (scripts/bench-backup)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["fill", "counts"])
        parser.add_argument("--fleets", type=int, default=100_000)
        parser.add_argument(
            "--accounts",
            type=int,
            default=None,
            help="accounts owning them (default: one per 8 fleets)",
        )
        parser.add_argument("--seed", type=int, default=33)

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        if action == "counts":
            self.stdout.write(json.dumps(row_counts(), sort_keys=True))
            return
        fleets = options["fleets"]
        if fleets < 1:
            raise CommandError("--fleets must be 1 or more")
        accounts = options["accounts"] or max(2, fleets // 8)
        if Fleet.objects.exists() or get_user_model().objects.exists():
            raise CommandError("the database holds fleets or accounts already: fill an empty one")
        if editions.current() is None:
            raise CommandError("no edition is published: run manage.py load_catalog first")
        self.fill(fleets, accounts, random.Random(options["seed"]))

    def fill(self, fleets: int, accounts: int, rng: random.Random) -> None:
        users = self.make_accounts(accounts)
        models = self.model_fleets(users[0], rng)
        if len(models) > fleets:
            Fleet.objects.filter(pk__in=[f.pk for f in models[fleets:]]).delete()
            models = models[:fleets]
        partial = self.partial_lists(models)
        browsers = [new_owner_token() for _ in range(max(1, fleets // 50))]
        now = timezone.now()
        left = fleets - len(models)
        with transaction.atomic():
            for start in range(0, left, BATCH):
                rows = []
                for k in range(start, min(start + BATCH, left)):
                    i = rng.randrange(len(models))
                    model = models[i]
                    units, points, legal = model.document["units"], model.points, model.legal
                    if partial[i] and rng.random() < 0.4:  # still being built
                        units, points, legal = rng.choice(partial[i])
                    name = f"{rng.choice(WORDS)} {rng.choice(NOUNS)} {k + 1}"
                    if rng.random() < 0.3:  # the player named some of its ships
                        units = [
                            {**u, "name": f"{rng.choice(SHIPS)} {rng.randrange(1, 100)}"}
                            if u["kind"] == "ship" and rng.random() < 0.5
                            else u
                            for u in units
                        ]
                    signed_in = rng.random() >= 0.1
                    shared = rng.random() < 0.05
                    rows.append(
                        Fleet(
                            owner=users[rng.randrange(len(users))] if signed_in else None,
                            session_key="" if signed_in else rng.choice(browsers),
                            name=name,
                            faction=model.faction,
                            variant=model.variant,
                            game_size=model.game_size,
                            document={**model.document, "name": name, "units": units},
                            version=model.version + rng.choice((0, 0, 1, 2, 3, 5, 8, 13)),
                            points=points,
                            legal=legal,
                            last_removed=model.last_removed,
                            edition=model.edition,
                            previous_edition=model.previous_edition,
                            deleted_at=now if rng.random() < 0.02 else None,
                            share_id=secrets.token_hex(16) if shared else None,
                            share_enabled=shared and rng.random() < 0.8,
                        )
                    )
                Fleet.objects.bulk_create(rows)
        self.stdout.write(
            f"filled: {accounts} accounts, {fleets} fleets ({len(models)} made "
            f"with the model's API, {left} copies of them)"
        )

    @staticmethod
    def partial_lists(models: list[Fleet]) -> list[list[tuple[list[Any], int, bool]]]:
        """For each model fleet, its lists of its first 1, 2, … units: the units (as in the
        document), and the points and verdict the validator gives them."""
        lists = []
        for model in models:
            catalog = model.catalog()
            units = model.document["units"]
            found = []
            for count in range(1, len(units)):
                document = {**model.document, "units": units[:count]}
                report = validate(rf.parse_fleet(document), catalog)
                found.append((units[:count], report.points, report.legal))
            lists.append(found)
        return lists

    def make_accounts(self, count: int) -> list[Any]:
        user_model = get_user_model()
        password = make_password("Ironclad-Lunar-1138")  # one hash: a hash each takes minutes
        for start in range(0, count, BATCH):
            user_model.objects.bulk_create(
                user_model(
                    username=f"captain-{i:06d}",
                    email=f"captain-{i:06d}@example.com",
                    password=password,
                )
                for i in range(start, min(start + BATCH, count))
            )
        return list(user_model.objects.order_by("pk"))

    def model_fleets(self, owner: Any, rng: random.Random) -> list[Fleet]:
        """Fleets made as players make them, through the model's own methods."""
        number = editions.current_number()
        assert number is not None
        catalog = editions.catalog_for(number)
        older = [e.number for e in editions.read_list() if e.number != number]
        made: list[Fleet] = []
        for i, faction in enumerate(f.slug for f in catalog.factions):
            samples = []
            for size in SIZES:
                try:
                    sample = replace(sample_fleet(catalog, faction, size), edition=number)
                except SampleFleetError:
                    continue
                samples.append(sample)
                fleet = Fleet(owner=owner)
                fleet.store(sample, catalog)
                fleet.save()
                if i % 2 == 0:
                    fleet.rename(f"{sample.name} (mk {i})")  # a second version
                made.append(fleet)
            if samples:  # a list being built: started, then a few ships added
                fleet = Fleet.start(
                    name=f"Draft {faction}",
                    faction=faction,
                    variant=None,
                    game_size="skirmish",
                    points_limit=None,
                    catalog=catalog,
                    edition=number,
                    owner=owner,
                )
                for unit in samples[0].units[:3]:
                    slug = unit.ship if isinstance(unit, rf.ShipUnit) else unit.ships[0].ship
                    fleet.add_ship(catalog, slug)
                made.append(fleet)
            if older:  # built on an older edition: updated to the current one, or kept there
                edition = rng.choice(older)
                old = editions.catalog_for(edition)
                try:
                    sample = replace(sample_fleet(old, faction, "skirmish"), edition=edition)
                except SampleFleetError:
                    continue
                fleet = Fleet(owner=owner)
                fleet.store(sample, old)
                fleet.save()
                if i % 3 != 2:
                    fleet.change_edition(number)
                made.append(fleet)
        for fleet in made:
            fleet.refresh_from_db()
        return made
