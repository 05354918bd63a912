"""A game-night battle pack: two fleets' rosters (with QR codes) and cards, and a two-page
quick reference, in one PDF rendered on the task queue (``tasks.render_pack``).

Like a big print of cards (``cards.PrintJob``), a pack is its requester's (account, else
browser): the request stores both fleet files and the options and queues the pack; a worker
renders it into the shared PDF cache under the pack's key, writing its progress as it goes;
the pack's page follows it and then gives the download.

Each fleet's roster and cards are made with its own list's edition and say which (R-163):
both are recorded (``edition_a``, ``edition_b``, and in the stored files).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse

from fleetbuilder.catalog import editions
from fleetbuilder.catalog.pagecache import catalogue_version
from fleetbuilder.ownership import OwnedQuerySet
from fleetbuilder.pdfcache import cards_build
from fleetbuilder.renderjobs import JobStatus, QueuedRender
from fleetbuilder.simulator import editions as side_editions
from rules_core import catalog as core
from rules_core import fleet as rf

log = logging.getLogger("fleetbuilder.battlepack")

PAPERS = (("a4", "A4"), ("letter", "US Letter"))
PACK_FORMAT = "2"  # 2: each fleet's edition printed
# What the worker does, in order: the pack page shows where it is.
STAGES = (
    "waiting",
    "quick reference",
    "fleet A's roster and cards",
    "fleet B's roster and cards",
    "binding the pack",
)


class BattlePackQuerySet(OwnedQuerySet):
    """Packs are owned as saved fleets are (``fleetbuilder.ownership``)."""


class BattlePack(QueuedRender, models.Model):
    log = log
    unreachable = (
        "The print queue could not be reached. Nothing was lost; ask for the pack "
        "again in a moment."
    )
    what_plural = "battle packs"
    failed = (
        "The battle pack could not be made. The error was logged; ask again, and if it "
        "happens again please report it."
    )

    public_id = models.CharField(max_length=32, unique=True, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="battle_packs",
    )
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    fleet_a = models.JSONField(help_text="Fleet A's file (contract 1).")
    fleet_b = models.JSONField(help_text="Fleet B's file (contract 1).")
    # The edition each fleet is printed under; null: the loaded catalogue.
    edition_a = models.PositiveIntegerField(null=True, blank=True)
    edition_b = models.PositiveIntegerField(null=True, blank=True)
    label_a = models.CharField(max_length=200)
    label_b = models.CharField(max_length=200)
    share_a = models.TextField(blank=True, help_text="The link fleet A's roster QR code holds.")
    share_b = models.TextField(blank=True, help_text="The link fleet B's roster QR code holds.")
    terrain = models.CharField(max_length=12, default="none")
    movement = models.CharField(max_length=12, default="standard")
    paper = models.CharField(max_length=8, choices=PAPERS, default="a4")
    matchup = models.ForeignKey(
        "simulator.Matchup", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cache_key = models.CharField(max_length=100, db_index=True)
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    stage = models.PositiveSmallIntegerField(default=0, help_text="An index into STAGES.")
    error = models.TextField(blank=True, help_text="Why it failed, for the player.")
    seconds = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    objects = BattlePackQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.label_a} vs {self.label_b} ({self.paper}, {self.status})"

    def get_absolute_url(self) -> str:
        return reverse("battlepack:pack", args=[self.public_id])

    @property
    def stage_words(self) -> str:
        return STAGES[min(self.stage, len(STAGES) - 1)]

    @property
    def steps(self) -> int:
        return len(STAGES)

    @property
    def filename(self) -> str:
        from django.utils.text import slugify

        a = slugify(self.label_a)[:40] or "fleet-a"
        b = slugify(self.label_b)[:40] or "fleet-b"
        return f"battle-pack-{a}-vs-{b}-{self.paper}.pdf"

    def core_fleet(self, side: str) -> rf.Fleet:
        return rf.parse_fleet(self.fleet_a if side == "a" else self.fleet_b)

    def edition(self, side: str) -> int | None:
        if side == "a":
            return side_editions.recorded_edition(self.edition_a, self.fleet_a)
        return side_editions.recorded_edition(self.edition_b, self.fleet_b)

    def catalog(self, side: str) -> core.Catalog:
        """The catalogue fleet ``side`` is printed with: its edition's (R-163)."""
        return editions.catalog_for(self.edition(side))

    def edition_words(self, side: str) -> side_editions.SideEdition:
        """What the pack prints of fleet ``side``'s edition."""
        return side_editions.side_edition(self.edition(side))

    @property
    def edition_a_words(self) -> side_editions.SideEdition:
        return self.edition_words("a")

    @property
    def edition_b_words(self) -> side_editions.SideEdition:
        return self.edition_words("b")

    @staticmethod
    def key_for(fleet_a: dict[str, Any], fleet_b: dict[str, Any], **options: str) -> str:
        """Everything that decides the PDF's bytes: both fleets, the options, the catalogue,
        the cards' build and this pack's format."""
        doc = json.dumps(
            [fleet_a, fleet_b, options, catalogue_version(), cards_build(), PACK_FORMAT],
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        return "battlepack:pdf:" + hashlib.sha256(doc.encode("utf-8")).hexdigest()

    @classmethod
    def start(
        cls,
        *,
        fleet_a: rf.Fleet,
        fleet_b: rf.Fleet,
        label_a: str,
        label_b: str,
        share_a: str | None,
        share_b: str | None,
        terrain: str,
        movement: str,
        paper: str,
        owner: Any,
        owner_token: str,
        matchup: Any = None,
    ) -> BattlePack:
        """The requester's pack for these fleets and options: the same one when asked again
        (unless it failed), else a new one, queued."""
        doc_a, doc_b = rf.fleet_to_dict(fleet_a), rf.fleet_to_dict(fleet_b)
        options = {
            "label_a": label_a[:200],
            "label_b": label_b[:200],
            "share_a": share_a or "",
            "share_b": share_b or "",
            "terrain": terrain,
            "movement": movement,
            "paper": paper,
        }
        return cls.requested(
            owner=owner,
            owner_token=owner_token,
            cache_key=cls.key_for(doc_a, doc_b, **options),
            fleet_a=doc_a,
            fleet_b=doc_b,
            edition_a=fleet_a.edition,
            edition_b=fleet_b.edition,
            matchup=matchup,
            **options,
        )

    def task(self) -> Any:
        from .tasks import render_pack  # the task module imports this one

        return render_pack

    def render(self) -> bytes:
        from .pdf import render_pack  # the PDF module imports this one

        return render_pack(self, progress=self.advance)

    def describe(self) -> str:
        return f"{self.label_a} vs {self.label_b} ({self.paper})"

    def claim(self, **also: Any) -> bool:
        return super().claim(stage=1, **also)

    def advance(self, stage: int) -> None:
        BattlePack.objects.filter(pk=self.pk).update(stage=stage)
        self.stage = stage

    def finish(self, seconds: float, **also: Any) -> None:
        super().finish(seconds, stage=len(STAGES) - 1, **also)
