"""A big print: ship cards rendered on the task queue (``tasks.render_print``), not in a request.

A print of more than ``SYNC_MAX_CARDS`` cards is a ``PrintJob``: the request stores the fleet
document and options and queues the job; a worker renders the PDF into the shared PDF cache
under the job's key (``pdfcache``), where every process finds it; the job's page follows its
status. A job is its requester's (account, else browser), like a simulator run: nobody else may
see it or download it, whoever may see the fleet.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse

from fleetbuilder.catalog import editions
from fleetbuilder.ownership import OwnedQuerySet
from fleetbuilder.renderjobs import JobStatus, QueuedRender
from rules_core.cards import render_cards
from rules_core.fleet import parse_fleet

log = logging.getLogger("fleetbuilder.cards")


class PrintJobQuerySet(OwnedQuerySet):
    """Big prints are owned as saved fleets are (``fleetbuilder.ownership``)."""


class PrintJob(QueuedRender, models.Model):
    log = log
    unreachable = "The print queue could not be reached. Nothing was lost; print again in a moment."
    failed = (
        "The cards could not be printed. The error was logged; print again, and if it "
        "happens again please report it."
    )

    public_id = models.CharField(max_length=32, unique=True, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="print_jobs",
    )
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    document = models.JSONField(help_text="The fleet file (contract 1) as it was asked for.")
    name = models.CharField(max_length=200)
    filename = models.CharField(max_length=200)
    layout = models.CharField(max_length=10)
    ink_saver = models.BooleanField(default=False)
    advanced_movement = models.BooleanField(
        default=False, help_text="Each ship's thrust rating and SOT on its card (R-141)."
    )
    share_url = models.TextField(blank=True)
    cards = models.PositiveIntegerField()
    cache_key = models.CharField(
        max_length=100, db_index=True, help_text="Where the PDF is kept in the shared cache."
    )
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
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

    def task(self) -> Any:
        from .tasks import render_print  # the task module imports this one

        return render_print

    def render(self) -> bytes:
        fleet = parse_fleet(self.document)
        return render_cards(
            editions.catalog_for(fleet.edition),
            fleet,  # its edition's
            layout=self.layout,
            ink_saver=self.ink_saver,
            share_url=self.share_url or None,
            advanced_movement=self.advanced_movement,
        )

    def describe(self) -> str:
        return f"{self.cards} cards ({self.layout})"

    @classmethod
    def start(
        cls,
        *,
        document: dict[str, Any],
        name: str,
        filename: str,
        layout: str,
        ink_saver: bool,
        share_url: str | None,
        cards: int,
        cache_key: str,
        owner: Any,
        owner_token: str,
        advanced_movement: bool = False,
    ) -> PrintJob:
        """The requester's job for this PDF (``QueuedRender.requested``)."""
        return cls.requested(
            owner=owner,
            owner_token=owner_token,
            cache_key=cache_key,
            document=document,
            name=name[:200],
            filename=filename[:200],
            layout=layout,
            ink_saver=ink_saver,
            advanced_movement=advanced_movement,
            share_url=share_url or "",
            cards=cards,
        )

    def queue_ahead(self) -> int:
        """Unfinished prints of anyone queued before this one."""
        return PrintJob.objects.filter(status__in=self.ACTIVE, created__lt=self.created).count()
