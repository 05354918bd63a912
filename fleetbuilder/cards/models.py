"""A big print: ship cards rendered on the task queue (``tasks.render_print``), not in a request.

A print of more than ``SYNC_MAX_CARDS`` cards is a ``PrintJob``: the request stores the fleet
document and options and queues the job; a worker renders the PDF into the shared PDF cache
under the job's key (``pdfcache``), where every process finds it; the job's page follows its
status. A job is its requester's (account, else browser), like a simulator run: nobody else may
see it or download it, whoever may see the fleet.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from fleetbuilder.ownership import OwnedQuerySet

log = logging.getLogger("fleetbuilder.cards")


class PrintJobQuerySet(OwnedQuerySet):
    """Big prints are owned as saved fleets are (``fleetbuilder.ownership``)."""


class PrintJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "waiting for a worker"
        RUNNING = "running", "rendering"
        DONE = "done", "ready"
        FAILED = "failed", "failed"

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    public_id = models.CharField(max_length=32, unique=True, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.CASCADE, related_name="print_jobs")
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    document = models.JSONField(help_text="The fleet file (contract 1) as it was asked for.")
    name = models.CharField(max_length=200)
    filename = models.CharField(max_length=200)
    layout = models.CharField(max_length=10)
    ink_saver = models.BooleanField(default=False)
    advanced_movement = models.BooleanField(
        default=False, help_text="Each ship's thrust rating and SOT on its card (R-141).")
    share_url = models.TextField(blank=True)
    cards = models.PositiveIntegerField()
    cache_key = models.CharField(max_length=100, db_index=True,
                                 help_text="Where the PDF is kept in the shared cache.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True, help_text="Why it failed, for the player.")
    seconds = models.FloatField(null=True, blank=True, help_text="How long the worker took.")
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    objects = PrintJobQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.name}: {self.cards} cards ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("cards:print_job", args=[self.public_id])

    @property
    def is_done(self) -> bool:
        return self.status not in self.ACTIVE

    @classmethod
    def start(cls, *, document: dict[str, Any], name: str, filename: str, layout: str,
              ink_saver: bool, share_url: str | None, cards: int, cache_key: str,
              owner: Any, owner_token: str, advanced_movement: bool = False) -> PrintJob:
        """The requester's job for this PDF: an unfinished or finished one with the same key
        (asked twice, rendered once), else a new one, queued."""
        signed_in = owner is not None and owner.is_authenticated
        mine = cls.objects.owned_by(owner if signed_in else None, owner_token)
        same = mine.filter(cache_key=cache_key).exclude(status=cls.Status.FAILED).first()
        if same is not None:
            return same
        job = cls.objects.create(
            public_id=secrets.token_urlsafe(16), owner=owner if signed_in else None,
            session_key="" if signed_in else owner_token, document=document, name=name[:200],
            filename=filename[:200], layout=layout, ink_saver=ink_saver,
            advanced_movement=advanced_movement, share_url=share_url or "", cards=cards,
            cache_key=cache_key)
        job.enqueue()
        return job

    def enqueue(self) -> None:
        """Send the job to the workers (outside any transaction: a worker may start at once)."""
        from .tasks import render_print  # the task module imports this one

        try:
            render_print.apply_async((self.pk,))
        except Exception:  # kombu's OperationalError and friends: the broker is away
            log.exception("print %s: could not queue it", self.public_id)
            self.fail("The print queue could not be reached. Nothing was lost; print again "
                      "in a moment.")

    def claim(self) -> bool:
        """A worker takes the job (False if another did, or it is finished)."""
        n = PrintJob.objects.filter(pk=self.pk, status=self.Status.QUEUED).update(
            status=self.Status.RUNNING, started=timezone.now())
        self.refresh_from_db(fields=["status", "started"])
        return bool(n)

    def finish(self, seconds: float) -> None:
        PrintJob.objects.filter(pk=self.pk).update(status=self.Status.DONE, seconds=seconds,
                                                   finished=timezone.now())
        self.refresh_from_db(fields=["status", "seconds", "finished"])

    def fail(self, message: str) -> None:
        PrintJob.objects.filter(pk=self.pk).update(status=self.Status.FAILED, error=message,
                                                   finished=timezone.now())
        self.refresh_from_db(fields=["status", "error", "finished"])

    def queue_ahead(self) -> int:
        """Unfinished prints of anyone queued before this one."""
        return PrintJob.objects.filter(status__in=self.ACTIVE, created__lt=self.created).count()
