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

Runs and tables record the edition (R-160) whose catalogue they were played under: the
published edition whose data files had the run's catalogue version, or none when the data files
were a development state. An edition's changelog compares two editions' tables
(:meth:`BalanceTable.movement`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import models

from fleetbuilder.catalog import editions, loader
from fleetbuilder.runs import ChunkedRun, Key, Played
from rules_core import fleet as rf
from rules_core.balance import (
    TERRAIN_LABELS,
    BalanceSpec,
    Pair,
    PairCounts,
    RoundRobin,
    chunks,
    plan,
)
from rules_core.balance import play_chunk as play_pair_battles
from rules_core.catalog import Catalog

log = logging.getLogger("fleetbuilder.balance")


def edition_of(catalog_version: str) -> int | None:
    """The published edition whose data files had ``catalog_version`` (R-160); None for a
    development state (files that are no edition)."""
    for info in reversed(editions.known()):
        if info.data_version == catalog_version:
            return info.number
    return None


def setting_label(size: str, policy: str, terrain: str) -> str:
    return f"{size.capitalize()} · {policy} policy · {TERRAIN_LABELS.get(terrain, terrain)}"


class BalanceRun(ChunkedRun, models.Model):
    """A round robin's life is ``runs.ChunkedRun``'s (it is never cancelled, and the command
    that queued it waits for it, so its stalls are not sent again); its chunks are keyed on
    (pair, index)."""

    log = log
    run_field = "run"
    chunk_keys = ("pair", "index")
    tracks_start = False

    spec = models.JSONField(help_text="BalanceSpec.to_dict(), with the factions that play.")
    fleets = models.JSONField(help_text="[{slug, fleet}]: each faction's sample fleet file.")
    catalog_version = models.CharField(max_length=64)
    edition = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The edition it was played under (R-160); empty for a development state.",
    )
    chunk_battles = models.PositiveIntegerField(default=10)
    total = models.PositiveIntegerField(help_text="Battles in the whole round robin.")
    done = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=ChunkedRun.Status.choices, default=ChunkedRun.Status.QUEUED
    )
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
            catalog_version=rr.catalog.version,
            edition=edition_of(rr.catalog.version),
            chunk_battles=max(1, chunk_battles),
            total=rr.total_battles,
        )

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

    @property
    def total_battles(self) -> int:
        return self.total

    def all_keys(self) -> list[Key]:
        return list(self.all_chunks())

    def name(self) -> str:
        return f"balance run {self.pk}"

    def enqueue(self, which: list[tuple[int, int]] | None = None) -> None:
        """One task per chunk (all, or ``which``), outside any transaction."""
        from .tasks import play_chunk  # the task module imports this one

        for pair, index in self.all_chunks() if which is None else which:
            play_chunk.apply_async((self.pk, pair, index))

    def counts(self) -> dict[int, PairCounts]:
        out: dict[int, PairCounts] = {}
        for pair, data in self.played_chunks.values_list("pair", "counts"):
            out.setdefault(pair, PairCounts()).add(PairCounts.from_dict(data))
        return out

    def before_play(self) -> bool:
        self._catalog = loader.core_catalog()
        if self._catalog.version != self.catalog_version:
            self.fail(
                f"The catalogue changed during the run ({self.catalog_version} to "
                f"{self._catalog.version}); start it again."
            )
            return False
        return True

    def play_chunk(self, key: Key) -> Played:
        pair, index = key
        rr = self.round_robin(self._catalog)
        start, stop = self.chunk_bounds(index)
        counts = play_pair_battles(
            self._catalog, rr.fleets, rr.pairs[pair], start, stop, rr.spec.options
        )
        return Played(counts.battles, {"counts": counts.to_dict()})

    def broken(self, key: Key) -> str:
        start, stop = self.chunk_bounds(key[1])
        return f"Pair {key[0]}, battles {start + 1}–{stop} failed; the error was logged."

    def record_chunk(
        self, pair: int, index: int, counts: PairCounts, seconds: float, worker: str = ""
    ) -> bool:
        """Write a played chunk once, under the run's row lock (``ChunkedRun.record``).
        False when it was written already or the run has stopped."""
        return self.record(
            (pair, index), Played(counts.battles, {"counts": counts.to_dict()}), seconds, worker
        )


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
        constraints = [
            models.UniqueConstraint(fields=["run", "pair", "index"], name="balance_chunk_once")
        ]
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

    def of_edition(self, number: int) -> list[BalanceTable]:
        """The newest table of each setting played under edition ``number``."""
        return self.filter(edition=number).newest_per_setting()


class BalanceTable(models.Model):
    """A published round robin: what the Balance page shows."""

    size = models.CharField(max_length=10)
    policy = models.CharField(max_length=30)
    terrain = models.CharField(max_length=20)
    battles = models.PositiveIntegerField(help_text="Battles a pair.")
    seed = models.BigIntegerField()
    catalog_version = models.CharField(max_length=64)
    edition = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The edition it was played under (R-160); empty for a development state.",
    )
    command = models.TextField(help_text="The command that plays it again.")
    result = models.JSONField(help_text="rules_core.balance.balance_table()")
    seconds = models.FloatField(null=True, blank=True, help_text="How long it took to play.")
    note = models.TextField(
        blank=True, help_text="What the reader should know (e.g. which simulator policy played it)."
    )
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = BalanceTableQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(
                fields=["size", "policy", "terrain", "-created"], name="balance_table_setting"
            )
        ]

    SIZE_ORDER = ("patrol", "skirmish", "battle", "armada")

    def __str__(self) -> str:
        return f"{self.size.capitalize()}, {self.policy}, terrain {self.terrain}"

    @classmethod
    def publish(
        cls, result: dict[str, Any], command: str, seconds: float | None = None, note: str = ""
    ) -> BalanceTable:
        return cls.objects.create(
            size=result["size"],
            policy=result["policy"],
            terrain=result["terrain"],
            battles=result["battles_per_pair"],
            seed=result["seed"],
            catalog_version=result["catalog_version"],
            edition=edition_of(result["catalog_version"]),
            command=command,
            result=result,
            seconds=seconds,
            note=note,
        )

    @property
    def setting(self) -> tuple[str, str, str]:
        return (self.size, self.policy, self.terrain)

    @property
    def setting_label(self) -> str:
        return setting_label(*self.setting)

    def scores(self) -> dict[str, tuple[str, float]]:
        """Each faction's score against the field: slug -> (name, score)."""
        return {row["slug"]: (row["name"], float(row["score"])) for row in self.result["factions"]}

    @classmethod
    def movement(cls, old_edition: int, new_edition: int) -> BalanceMovement:
        """How each faction's score moved from one edition's tables to another's, for every
        setting both have a table of (the newest of each)."""
        old = {t.setting: t for t in cls.objects.of_edition(old_edition)}
        new = {t.setting: t for t in cls.objects.of_edition(new_edition)}
        shared = sorted(
            set(old) & set(new),
            key=lambda s: (cls.SIZE_ORDER.index(s[0]) if s[0] in cls.SIZE_ORDER else 9, s),
        )
        wanted = [t.pk for s in shared for t in (old[s], new[s])]
        tables = cls.objects.in_bulk(wanted)  # the results, in one query
        settings = []
        for setting in shared:
            before = tables[old[setting].pk].scores()
            after = tables[new[setting].pk].scores()
            factions = [
                FactionMove(slug, after[slug][0], before[slug][1], after[slug][1])
                for slug in sorted(set(before) & set(after), key=lambda slug: after[slug][0])
            ]
            settings.append(SettingMove(setting_label(*setting), tuple(factions)))
        return BalanceMovement(old_edition, new_edition, bool(old), bool(new), tuple(settings))


@dataclass(frozen=True, slots=True)
class FactionMove:
    """One faction's score against the field under two editions, on one setting."""

    slug: str
    name: str
    old: float
    new: float

    @property
    def old_pct(self) -> int:
        return round(100 * self.old)

    @property
    def new_pct(self) -> int:
        return round(100 * self.new)

    @property
    def points(self) -> int:
        """The change in percentage points, as the page shows it (from the rounded scores)."""
        return self.new_pct - self.old_pct


@dataclass(frozen=True, slots=True)
class SettingMove:
    label: str
    factions: tuple[FactionMove, ...]


@dataclass(frozen=True, slots=True)
class BalanceMovement:
    """The balance tables' movement between two editions: the settings both have a table of."""

    old_edition: int
    new_edition: int
    old_has_tables: bool
    new_has_tables: bool
    settings: tuple[SettingMove, ...]
