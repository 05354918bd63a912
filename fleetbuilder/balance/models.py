"""The balance round robin on the task queue, and the published tables the Balance page shows.

A ``BalanceRun`` stores everything that decides its results: the round robin's inputs (size,
battles a pair, seed, policy, terrain, factions), every faction's sample fleet as it was built
when the run started, and the catalogue version. Its pairs' battles are cut into chunks; each
chunk is one Celery task (``tasks.play_chunk``) that any worker may play, since battle ``k`` of
a pair gets the dice of (pair seed, k) only. A played chunk is written once (``BalanceChunk``,
unique on run, pair and chunk index) under the run's row lock, so a chunk delivered twice counts
once, and the table made from the chunks equals the one the command plays in-process.

A ``BalanceTable`` is a finished round robin that someone chose to publish
(``manage.py balance … --publish``); the Balance page shows the newest of each setting.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from rules_core import fleet as rf
from rules_core.balance import BalanceSpec, Pair, PairCounts, RoundRobin, chunks, plan
from rules_core.catalog import Catalog

log = logging.getLogger("fleetbuilder.balance")


class BalanceRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "waiting for workers"
        RUNNING = "running", "running"
        DONE = "done", "finished"
        FAILED = "failed", "failed"

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    spec = models.JSONField(help_text="BalanceSpec.to_dict(), with the factions that play.")
    fleets = models.JSONField(help_text="[{slug, fleet}]: each faction's sample fleet file.")
    catalog_version = models.CharField(max_length=64)
    chunk_battles = models.PositiveIntegerField(default=10)
    total = models.PositiveIntegerField(help_text="Battles in the whole round robin.")
    done = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"balance run {self.pk} ({self.done}/{self.total})"

    @classmethod
    def create(cls, rr: RoundRobin, chunk_battles: int) -> BalanceRun:
        spec = BalanceSpec(**{**rr.spec.to_dict(), "factions": tuple(rr.fleets)})
        return cls.objects.create(
            spec=spec.to_dict(),
            fleets=[{"slug": slug, "fleet": rf.fleet_to_dict(f)} for slug, f in rr.fleets.items()],
            catalog_version=rr.catalog.version, chunk_battles=max(1, chunk_battles),
            total=rr.total_battles)

    def round_robin(self, catalog: Catalog) -> RoundRobin:
        """The run's round robin, with the fleets stored at its start."""
        spec = BalanceSpec.from_dict(self.spec)
        fleets = {row["slug"]: rf.parse_fleet(row["fleet"]) for row in self.fleets}
        return RoundRobin(spec, catalog, fleets, plan(list(fleets), spec))

    def all_chunks(self) -> list[tuple[int, int]]:
        spec = BalanceSpec.from_dict(self.spec)
        pairs = len(self.fleets) * (len(self.fleets) - 1) // 2
        stub = [Pair(i, "", "", 0) for i in range(pairs)]
        return [(c.pair, c.index) for c in chunks(stub, spec.battles, self.chunk_battles)]

    def chunk_bounds(self, index: int) -> tuple[int, int]:
        battles = int(self.spec["battles"])
        start = index * self.chunk_battles
        return start, min(battles, start + self.chunk_battles)

    def missing_chunks(self) -> list[tuple[int, int]]:
        played = set(self.played_chunks.values_list("pair", "index"))
        return [c for c in self.all_chunks() if c not in played]

    def enqueue(self, which: list[tuple[int, int]] | None = None) -> None:
        """One task per chunk (all, or ``which``), outside any transaction."""
        from .tasks import play_chunk  # the task module imports this one

        for pair, index in self.all_chunks() if which is None else which:
            play_chunk.apply_async((self.pk, pair, index))

    @property
    def is_done(self) -> bool:
        return self.status not in self.ACTIVE

    def counts(self) -> dict[int, PairCounts]:
        out: dict[int, PairCounts] = {}
        for pair, data in self.played_chunks.values_list("pair", "counts"):
            out.setdefault(pair, PairCounts()).add(PairCounts.from_dict(data))
        return out

    def record_chunk(self, pair: int, index: int, counts: PairCounts, seconds: float,
                     worker: str = "") -> bool:
        """Write a played chunk once, under the run's row lock. False when it was written
        already or the run has stopped."""
        with transaction.atomic():
            run = BalanceRun.objects.select_for_update().get(pk=self.pk)
            if run.status not in self.ACTIVE:
                return False
            _, created = BalanceChunk.objects.get_or_create(
                run=run, pair=pair, index=index,
                defaults={"counts": counts.to_dict(), "seconds": seconds,
                          "worker": worker[:100]})
            if not created:
                return False
            run.done += counts.battles
            fields = ["done", "updated", "status"]
            if run.done >= run.total:
                run.status, run.finished = self.Status.DONE, timezone.now()
                fields.append("finished")
            else:
                run.status = self.Status.RUNNING
            run.save(update_fields=fields)
        self.__dict__.update({f: getattr(run, f) for f in ("done", "status", "finished")})
        return True

    def fail(self, message: str) -> None:
        BalanceRun.objects.filter(pk=self.pk, status__in=self.ACTIVE).update(
            status=self.Status.FAILED, error=message, finished=timezone.now(),
            updated=timezone.now())
        self.refresh_from_db(fields=["status", "error", "finished"])


class BalanceChunk(models.Model):
    """One played chunk of a balance run: written once."""

    run = models.ForeignKey(BalanceRun, on_delete=models.CASCADE, related_name="played_chunks")
    pair = models.PositiveIntegerField()
    index = models.PositiveIntegerField()
    counts = models.JSONField(help_text="PairCounts.to_dict() of these battles.")
    seconds = models.FloatField()
    worker = models.CharField(max_length=100, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "pair", "index"],
                                               name="balance_chunk_once")]
        ordering = ["run", "pair", "index"]

    def __str__(self) -> str:
        return f"chunk {self.pair}/{self.index} of balance run {self.run_id}"


class BalanceTableQuerySet(models.QuerySet["BalanceTable"]):
    def newest_per_setting(self) -> list[BalanceTable]:
        """The newest table of each (size, policy, terrain), without their results."""
        seen: set[tuple[str, str, str]] = set()
        out: list[BalanceTable] = []
        for table in self.defer("result").order_by("-created", "-pk"):
            key = (table.size, table.policy, table.terrain)
            if key not in seen:
                seen.add(key)
                out.append(table)
        return out


class BalanceTable(models.Model):
    """A published round robin: what the Balance page shows."""

    size = models.CharField(max_length=10)
    policy = models.CharField(max_length=30)
    terrain = models.CharField(max_length=20)
    battles = models.PositiveIntegerField(help_text="Battles a pair.")
    seed = models.BigIntegerField()
    catalog_version = models.CharField(max_length=64)
    command = models.TextField(help_text="The command that plays it again.")
    result = models.JSONField(help_text="rules_core.balance.balance_table()")
    seconds = models.FloatField(null=True, blank=True, help_text="How long it took to play.")
    note = models.TextField(blank=True, help_text="What the reader should know (e.g. which "
                            "simulator policy played it).")
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = BalanceTableQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["size", "policy", "terrain", "-created"],
                                name="balance_table_setting")]

    SIZE_ORDER = ("patrol", "skirmish", "battle", "armada")

    def __str__(self) -> str:
        return f"{self.size.capitalize()}, {self.policy}, terrain {self.terrain}"

    @classmethod
    def publish(cls, result: dict[str, Any], command: str, seconds: float | None = None,
                note: str = "") -> BalanceTable:
        return cls.objects.create(
            size=result["size"], policy=result["policy"], terrain=result["terrain"],
            battles=result["battles_per_pair"], seed=result["seed"],
            catalog_version=result["catalog_version"], command=command, result=result,
            seconds=seconds, note=note)

    @property
    def setting(self) -> tuple[str, str, str]:
        return (self.size, self.policy, self.terrain)
