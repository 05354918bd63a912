"""A PDF rendered on the task queue for its requester: big prints of cards and battle packs.

Both follow one life: the request finds the requester's job for the same PDF (the same cache
key, not failed) or creates one and queues it; a worker claims it (once, even if the task is
delivered twice), renders into the shared PDF cache and finishes or fails it; the job's page
follows its status. Written once here (the worker's part is :meth:`QueuedRender.run`); each
model keeps its own fields (so this adds no migration), names its task and renders its PDF.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any, ClassVar, Self

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from fleetbuilder import sharedstate
from fleetbuilder.ownership import lock_owner, owner_key
from fleetbuilder.runs import RunLife, RunStatus

# unfinished jobs of one kind (prints, or packs) a requester may have, and in all.
MAX_ACTIVE_PER_OWNER = 3
MAX_QUEUED = 200


# A job's status is a run's (``fleetbuilder.runs``): queued, running, then done or failed.
JobStatus = RunStatus


class RenderRefused(Exception):
    """A job that may not be queued now (R-155), with the message for the player and a
    status: 429 for the requester's own jobs, 503 when the queue is full."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class QueuedRender(RunLife):
    """For models with ``public_id``, ``owner``, ``session_key``, ``cache_key``, ``status``,
    ``error``, ``seconds``, ``started`` and ``finished`` and an ``OwnedQuerySet`` manager.
    Its states and ``fail`` are the runs' (``fleetbuilder.runs.RunLife``)."""

    log: ClassVar[logging.Logger]
    unreachable: ClassVar[str]  # what the player reads when the broker is away
    failed: ClassVar[str]  # what the player reads when rendering raised (it is logged)
    what_plural: ClassVar[str] = "PDFs"  # in the player's words: "big prints", "battle packs"

    public_id: str
    cache_key: str

    def task(self) -> Any:
        """The Celery task that renders this kind of job (imported late: it imports the model)."""
        raise NotImplementedError

    def render(self) -> bytes:
        """This job's PDF (run by a worker, inside :meth:`run`)."""
        raise NotImplementedError

    def describe(self) -> str:
        """What the job is, for the worker's log line."""
        return ""

    @classmethod
    def run(cls, pk: int) -> bool:
        """A worker's whole part in job ``pk``: claim it (once, however often it is delivered),
        render it into the shared PDF cache, then finish it, or fail it with ``failed``; True
        when this call wrote its PDF. Tasks are acknowledged late (settings: CELERY_TASK_*):
        a job whose worker died is run again and writes the same bytes under the same key."""
        from fleetbuilder import pdfcache  # the cache's module reads the catalogue

        job = cls.objects.filter(pk=pk).first()
        if job is None or job.is_done:
            return False
        if job.status == JobStatus.QUEUED and not job.claim():
            return False
        job.log.info("%s: %s started", job.public_id, job.describe())
        began = time.perf_counter()
        try:
            pdf = job.render()
        except Exception:
            job.log.exception("%s: failed", job.public_id)
            job.fail(job.failed)
            return False
        pdfcache.put(job.cache_key, pdf)
        seconds = time.perf_counter() - began
        job.finish(seconds)
        job.log.info("%s: finished in %.2f s (%d KB)", job.public_id, seconds, len(pdf) // 1024)
        return True

    @classmethod
    def requested(cls, *, owner: Any, owner_token: str, cache_key: str, **fields: Any) -> Self:
        """The requester's unfinished or finished job for this PDF (asked twice, rendered once),
        else a new one, queued: ``RenderRefused`` (nothing kept) when the requester already
        has ``RENDER_MAX_ACTIVE_PER_OWNER`` unfinished jobs of this kind, or the queue holds
        ``RENDER_MAX_QUEUED`` (R-155)."""
        signed_in = owner is not None and owner.is_authenticated
        with transaction.atomic():  # one owner's requests one at a time, so the bound holds
            mine = cls._mine_locked(owner, owner_token)
            same = mine.filter(cache_key=cache_key).exclude(status=JobStatus.FAILED).first()
            if same is not None:
                return same  # type: ignore[no-any-return]
            cls._check_room(mine)
            job = cls.objects.create(
                public_id=secrets.token_urlsafe(16),
                owner=owner if signed_in else None,
                session_key="" if signed_in else owner_token,
                cache_key=cache_key,
                **fields,
            )
        job.enqueue()  # outside the transaction: a worker may start at once
        return job  # type: ignore[no-any-return]

    def make_again(self, *, owner: Any, owner_token: str, **also: Any) -> None:
        """Queue a finished job again (the cache let its PDF go), within R-155's bounds as a
        new job would be: ``RenderRefused`` leaves it finished. ``also``: fields to reset."""
        with transaction.atomic():
            type(self)._check_room(type(self)._mine_locked(owner, owner_token))
            self._update(status=JobStatus.QUEUED, finished=None, **also)
        self.enqueue()

    @classmethod
    def _mine_locked(cls, owner: Any, owner_token: str) -> Any:
        """The requester's jobs of this kind, with the requester's lock held (in a
        transaction) until it ends."""
        signed_in = owner is not None and owner.is_authenticated
        lock_owner(f"render:{cls.__name__}:{owner_key(owner, owner_token)}")
        return cls.objects.owned_by(owner if signed_in else None, owner_token)

    @classmethod
    def _check_room(cls, mine: Any) -> None:
        most = int(getattr(settings, "RENDER_MAX_ACTIVE_PER_OWNER", MAX_ACTIVE_PER_OWNER))
        what = cls.what_plural
        if most and mine.filter(status__in=cls.ACTIVE).count() >= most:
            raise RenderRefused(
                f"You already have {most} {what} being made. Wait for one to finish (its page "
                "shows how far it is), then ask again.",
                429,
            )
        queued = int(getattr(settings, "RENDER_MAX_QUEUED", MAX_QUEUED))
        if queued and cls.objects.filter(status__in=cls.ACTIVE).count() >= queued:
            raise RenderRefused(
                f"The print workers are busy: {queued} {what} are waiting. Try again in a few "
                "minutes.",
                503,
            )

    def enqueue(self) -> None:
        """Send the job to the workers (outside any transaction: a worker may start at once)."""
        try:
            sharedstate.check_up()  # Redis away a moment ago: fail now, wait for nothing
            self.task().apply_async((self.pk,))
        except Exception as exc:  # kombu's OperationalError and friends: the broker is away
            if sharedstate.is_outage(exc):
                sharedstate.mark_down(exc)
            self.log.exception("%s: could not queue it", self.public_id)
            self.fail(self.unreachable)

    def _update(self, **values: Any) -> int:
        n: int = type(self).objects.filter(pk=self.pk).update(**values)
        self.refresh_from_db(fields=list(values))  # type: ignore[attr-defined]
        return n

    def claim(self, **also: Any) -> bool:
        """A worker takes the job (False if another did, or it is finished)."""
        n = (
            type(self)
            .objects.filter(pk=self.pk, status=JobStatus.QUEUED)
            .update(status=JobStatus.RUNNING, started=timezone.now(), **also)
        )
        self.refresh_from_db(fields=["status", "started", *also])  # type: ignore[attr-defined]
        return bool(n)

    def finish(self, seconds: float, **also: Any) -> None:
        self._update(status=JobStatus.DONE, seconds=seconds, finished=timezone.now(), **also)
