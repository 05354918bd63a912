"""One life for the simulator's chunked runs: matchups, what-if analyses, balance round robins.

A run is ``queued`` until a worker records its first chunk, then ``running``; it ends
``done`` when its last chunk is counted, ``failed`` when a chunk cannot be played or the queue
cannot be reached, ``cancelled`` when its owner stops it. Only an active run (queued or
running) moves, and each move is one conditional update or is made under the run's row lock,
so two workers (or a worker and the owner) never both move it (docs/architecture.md, "The life
of a run").

Written once here: the status values (``RunStatus``, the same strings the runs have always
stored), the owner's lock on starting one (``lock_run_owner``), a played chunk written once and
merged under the run's lock (:meth:`ChunkedRun.record`), a worker's whole part in one chunk,
with the "delivered again" guard (:meth:`ChunkedRun.play`), failing, cancelling, and sending
the missing chunks again when a run stalls. Each model keeps its own fields (so this changes
nothing stored), names its chunks and plays them.
"""

from __future__ import annotations

import logging
import socket
import time
from datetime import timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, models, transaction
from django.utils import timezone

from fleetbuilder.ownership import lock_owner, owner_key
from rules_core.sim import SimError

HOST = socket.gethostname()

Key = tuple[int, ...]


class RunStatus(models.TextChoices):
    QUEUED = "queued", "waiting for a worker"
    RUNNING = "running", "running"
    DONE = "done", "finished"
    FAILED = "failed", "failed"
    CANCELLED = "cancelled", "cancelled"


ACTIVE = (RunStatus.QUEUED, RunStatus.RUNNING)


class RunRefused(Exception):
    """A run that may not start now (a limit), with the message for the player and a status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def lock_run_owner(owner: Any, owner_token: str) -> None:
    """One owner's starts of matchups and analyses, one at a time (inside the transaction
    that counts the owner's active runs against SIM_MAX_ACTIVE_PER_OWNER)."""
    lock_owner(owner_key(owner, owner_token))


class Played:
    """One chunk as a worker played it: its battles, the chunk row's fields, and what the run
    merges from it under its lock (``merge``, see :meth:`ChunkedRun.merge_chunk`)."""

    __slots__ = ("battles", "fields", "merge")

    def __init__(self, battles: int, fields: dict[str, Any], merge: Any = None) -> None:
        self.battles, self.fields, self.merge = battles, fields, merge


class RunLife:
    """The states and the moves every piece of queued work shares, chunked runs and queued
    renders (``fleetbuilder.renderjobs``) alike: for models with ``status``, ``error`` and
    ``finished`` (and the ``stamps``, set when it stops)."""

    Status = RunStatus
    ACTIVE = ACTIVE
    stamps: ClassVar[tuple[str, ...]] = ("finished",)  # set to now when it stops

    pk: Any
    status: str
    objects: Any

    @property
    def is_done(self) -> bool:
        """Nothing more will happen: finished, failed or cancelled."""
        return self.status not in self.ACTIVE

    def _stop(self, status: RunStatus, **also: Any) -> bool:
        """Move an active run to ``status`` (one conditional update); False if it had stopped."""
        now = timezone.now()
        n = (
            type(self)
            .objects.filter(pk=self.pk, status__in=self.ACTIVE)
            .update(status=status, **dict.fromkeys(self.stamps, now), **also)
        )
        self.refresh_from_db(fields=["status", "finished", *also])  # type: ignore[attr-defined]
        return bool(n)

    def fail(self, message: str) -> None:
        """Stop it for good with ``message`` for its owner (if it is still active)."""
        self._stop(RunStatus.FAILED, error=message)


class ChunkedRun(RunLife):
    """For models with ``status``, ``error``, ``done``, ``updated`` and ``finished`` (and,
    when ``tracks_start``, ``started``; when stalls are resent, ``requeued``), whose played
    chunks are the related ``played_chunks``, unique on the run and ``chunk_keys``."""

    stamps = ("finished", "updated")
    log: ClassVar[logging.Logger]
    chunk_keys: ClassVar[tuple[str, ...]] = ("index",)
    run_field: ClassVar[str]  # the chunk's foreign key to its run
    locked_fields: ClassVar[tuple[str, ...] | None] = None  # what record() reads under the lock
    tracks_start: ClassVar[bool] = True

    updated: Any
    requeued: Any  # on runs whose stalls are sent again
    played_chunks: Any

    # --- each kind of run says -------------------------------------------------------------

    @property
    def total_battles(self) -> int:
        raise NotImplementedError

    def all_keys(self) -> list[Key]:
        """Every chunk's key, in the order they are sent."""
        raise NotImplementedError

    def name(self) -> str:
        """The run in the workers' log lines: "simulator run <id>"."""
        raise NotImplementedError

    def describe(self, key: Key) -> str:
        """A chunk in the workers' log lines."""
        return "chunk " + "/".join(str(k) for k in key)

    def before_play(self) -> bool:
        """Checks before a worker plays a chunk; False (the run failed, saying why) stops it."""
        return True

    def play_chunk(self, key: Key) -> Played:
        """Play chunk ``key`` (on a worker). SimError: the engine refuses these fleets."""
        raise NotImplementedError

    def refused(self, key: Key, exc: SimError) -> str:
        """What the player reads when the engine refused chunk ``key``."""
        return f"The simulator cannot play these fleets: {exc}"

    def broken(self, key: Key) -> str:
        """What the player reads when playing chunk ``key`` raised (it is logged)."""
        raise NotImplementedError

    def merge_chunk(self, run: Any, merge: Any) -> list[str]:
        """Merge a new chunk's ``Played.merge`` into ``run`` (locked); the fields changed."""
        return []

    def enqueue(self, keys: list[Any] | None = None) -> None:
        raise NotImplementedError

    # --- the life --------------------------------------------------------------------------

    def _key(self, row: Any) -> Any:
        return row[0] if len(self.chunk_keys) == 1 else tuple(row)

    def missing_chunks(self) -> list[Any]:
        """The chunks not yet written: an index each for one key field, else tuples."""
        played = set(self.played_chunks.values_list(*self.chunk_keys))
        return [self._key(key) for key in self.all_keys() if key not in played]

    def is_played(self, key: Key) -> bool:
        return bool(
            self.played_chunks.filter(**dict(zip(self.chunk_keys, key, strict=True))).exists()
        )

    @classmethod
    def play(cls, pk: int, key: Key, runs: Any = None) -> int:
        """A worker's whole part in chunk ``key`` of run ``pk``: play it unless the run has
        stopped or the chunk is written already (delivered again), fail the run if it cannot
        be played, else record it once. Returns the battles it added (0 if none). Tasks are
        acknowledged late (settings: CELERY_TASK_*): a chunk is never lost, and one played
        twice counts once."""
        run = (cls.objects if runs is None else runs).filter(pk=pk).first()
        if run is None or run.is_done or key not in set(run.all_keys()):
            return 0
        if run.is_played(key):
            return 0  # delivered again after it was written
        if not run.before_play():
            return 0
        what = run.describe(key)
        run.log.info("%s: %s started", run.name(), what)
        began = time.perf_counter()
        try:
            played = run.play_chunk(key)
        except SimError as exc:  # a fleet the engine cannot play (e.g. the catalogue changed)
            run.log.warning("%s: %s refused by the engine: %s", run.name(), what, exc)
            run.fail(run.refused(key, exc))
            return 0
        except Exception:
            run.log.exception("%s: %s failed", run.name(), what)
            run.fail(run.broken(key))
            return 0
        seconds = time.perf_counter() - began
        try:
            added = run.record(key, played, seconds, worker=HOST)
        except (InterfaceError, OperationalError):
            if connection.in_atomic_block:  # inside a caller's transaction: it is the caller's
                raise
            # The database connection went while the chunk was played: a worker cut off for
            # longer than the server waits for a silent client (DB_KEEPALIVE) finds its
            # session ended when it comes back. A new connection, and once more: recording
            # is idempotent, so a chunk another worker wrote meanwhile counts nothing.
            run.log.warning(
                "%s: %s: the database connection was lost; recording on a new one",
                run.name(),
                what,
            )
            try:
                connection.close()
            except Exception:  # a broken connection may fail to close; it is dropped anyway
                pass
            added = run.record(key, played, seconds, worker=HOST)
        run.log.info(
            "%s: %s finished in %.2f s (%s)",
            run.name(),
            what,
            seconds,
            "recorded" if added else "already recorded or run stopped",
        )
        return played.battles if added else 0

    def record(self, key: Key, played: Played, seconds: float, worker: str = "") -> bool:
        """Write a played chunk once and count it, under the run's row lock: a chunk played
        twice (a worker killed after playing, a message delivered again) counts once, and a
        run that stopped takes no more. False when nothing changed."""
        model = type(self)
        with transaction.atomic():
            locked = model.objects.select_for_update()  # type: ignore[attr-defined]
            if self.locked_fields is not None:
                locked = locked.only(*self.locked_fields)
            run = locked.get(pk=self.pk)
            if run.status not in self.ACTIVE:
                return False
            _, created = self.played_chunks.model.objects.get_or_create(
                **{self.run_field: run},
                **dict(zip(self.chunk_keys, key, strict=True)),
                defaults={**played.fields, "seconds": seconds, "worker": worker[:100]},
            )
            if not created:
                return False
            run.done += played.battles
            fields = ["done", "updated", *self.merge_chunk(run, played.merge)]
            copied = ["done", "status", "finished", *fields[2:]]
            if self.tracks_start:
                copied.append("started")
                if run.started is None:
                    run.started = timezone.now() - timedelta(seconds=seconds)
                    fields.append("started")
            if run.done >= run.total_battles:
                run.status, run.finished = RunStatus.DONE, timezone.now()
                fields += ["status", "finished"]
            elif run.status == RunStatus.QUEUED:
                run.status = RunStatus.RUNNING
                fields.append("status")
            run.save(update_fields=fields)
        self.__dict__.update({f: getattr(run, f) for f in copied})
        return True

    def cancel(self) -> bool:
        """The owner stops the run; played battles stay. False if it had already stopped."""
        return self._stop(RunStatus.CANCELLED)

    def resume_if_stalled(self) -> bool:
        """Send the missing chunks again if nothing moved for SIM_STALL_SECONDS.

        Messages can be lost outside our control (a Redis restarted without its data, a worker
        machine gone until the broker's visibility timeout). A chunk sent twice is played once
        and counted once, so sending again is always safe; a conditional update makes sure one
        request does it, once per period. Returns whether it sent anything.
        """
        if self.is_done:
            return False
        now = timezone.now()
        stall = int(settings.SIM_STALL_SECONDS)
        quiet = now - timedelta(seconds=stall)
        requeued = getattr(self, "requeued", None)
        if self.updated > quiet or (requeued is not None and requeued > quiet):
            return False
        claimed = (
            type(self)
            .objects.filter(pk=self.pk, status__in=self.ACTIVE, updated__lte=quiet)
            .filter(models.Q(requeued__isnull=True) | models.Q(requeued__lte=quiet))
            .update(requeued=now)
        )
        if not claimed:
            return False
        missing = self.missing_chunks()
        self.log.warning(
            "%s: no progress for %d s; sending %d chunks again", self.name(), stall, len(missing)
        )
        self.requeued = now
        try:
            self.enqueue(missing)
        except RunRefused:
            return False
        return bool(missing)
