"""A PDF rendered on the task queue for its requester: big prints of cards and battle packs.

Both follow one life: the request finds the requester's job for the same PDF (the same cache
key, not failed) or creates one and queues it; a worker claims it (once, even if the task is
delivered twice), renders into the shared PDF cache and finishes or fails it; the job's page
follows its status. Written once here; each model keeps its own fields (so this adds no
migration) and names its task.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any, ClassVar, Self

from django.db import models
from django.utils import timezone


class JobStatus(models.TextChoices):
    QUEUED = "queued", "waiting for a worker"
    RUNNING = "running", "rendering"
    DONE = "done", "ready"
    FAILED = "failed", "failed"


class QueuedRender:
    """For models with ``public_id``, ``owner``, ``session_key``, ``cache_key``, ``status``,
    ``error``, ``seconds``, ``started`` and ``finished`` and an ``OwnedQuerySet`` manager."""

    Status = JobStatus
    ACTIVE = (JobStatus.QUEUED, JobStatus.RUNNING)
    log: ClassVar[logging.Logger]
    unreachable: ClassVar[str]  # what the player reads when the broker is away

    pk: Any
    public_id: str
    status: str
    objects: Any

    def task(self) -> Any:
        """The Celery task that renders this kind of job (imported late: it imports the model)."""
        raise NotImplementedError

    @property
    def is_done(self) -> bool:
        return self.status not in self.ACTIVE

    @classmethod
    def requested(cls, *, owner: Any, owner_token: str, cache_key: str, **fields: Any) -> Self:
        """The requester's unfinished or finished job for this PDF (asked twice, rendered once),
        else a new one, queued."""
        signed_in = owner is not None and owner.is_authenticated
        mine = cls.objects.owned_by(owner if signed_in else None, owner_token)
        same = mine.filter(cache_key=cache_key).exclude(status=JobStatus.FAILED).first()
        if same is not None:
            return same  # type: ignore[no-any-return]
        job = cls.objects.create(
            public_id=secrets.token_urlsafe(16), owner=owner if signed_in else None,
            session_key="" if signed_in else owner_token, cache_key=cache_key, **fields)
        job.enqueue()
        return job  # type: ignore[no-any-return]

    def enqueue(self) -> None:
        """Send the job to the workers (outside any transaction: a worker may start at once)."""
        try:
            self.task().apply_async((self.pk,))
        except Exception:  # kombu's OperationalError and friends: the broker is away
            self.log.exception("%s: could not queue it", self.public_id)
            self.fail(self.unreachable)

    def _update(self, **values: Any) -> int:
        n: int = type(self).objects.filter(pk=self.pk).update(**values)
        self.refresh_from_db(fields=list(values))  # type: ignore[attr-defined]
        return n

    def claim(self, **also: Any) -> bool:
        """A worker takes the job (False if another did, or it is finished)."""
        n = type(self).objects.filter(pk=self.pk, status=JobStatus.QUEUED).update(
            status=JobStatus.RUNNING, started=timezone.now(), **also)
        self.refresh_from_db(fields=["status", "started", *also])  # type: ignore[attr-defined]
        return bool(n)

    def finish(self, seconds: float, **also: Any) -> None:
        self._update(status=JobStatus.DONE, seconds=seconds, finished=timezone.now(), **also)

    def fail(self, message: str) -> None:
        self._update(status=JobStatus.FAILED, error=message, finished=timezone.now())
