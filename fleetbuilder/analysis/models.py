"""A what-if analysis ("Which ship matters?"), played on the simulator's workers.

An ``Analysis`` stores everything that decides its numbers: the fleet and the opponent as they
were when it started, the variants (the baseline, each unit removed, each swap: R-97), the
options, the seed and the battles per variant. Every variant plays battles ``0 … battles-1``
with the dice of ``(seed, i)``, so battle ``i`` of the baseline and of each variant share their
random numbers and the differences are compared battle by battle (paired).

The work is cut into (variant, chunk) tasks (``tasks.play_analysis_chunk``); a played chunk is
written once (``AnalysisChunk``, unique on analysis, variant and chunk) under the analysis's row
lock, holding each battle's result compactly: the fleet's half-points (``"2"`` a win, ``"1"``
a draw, ``"0"`` a loss) as a string and both sides' victory points as lists. The results are
computed from those, exactly, when the page is read.

The fleet's variants are priced and played under the fleet's edition, the opponent under its
own (R-163); both are recorded (``edition_a``, ``edition_b``, and in the stored files).
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from fleetbuilder.catalog import editions
from fleetbuilder.ownership import OwnedQuerySet
from fleetbuilder.runs import ChunkedRun, Key, Played, RunRefused, lock_run_owner
from fleetbuilder.simulator import editions as side_editions
from fleetbuilder.simulator.models import Matchup
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.sim import SimError, SimOptions
from rules_core.sim.batch import fleet_specs
from rules_core.sim.battle import Battle, battle_dice
from rules_core.validator import validate
from rules_core.whatif import Skipped, Variant, half_points, paired_difference

log = logging.getLogger("fleetbuilder.analysis")

DEFAULT_BATTLES = 500
MAX_BATTLES = 2_000  # per variant
# the versions one analysis plays, the baseline included. The armada samples have at
# most 49; a fleet of many unlike units could have hundreds (seconds to check in the request,
# megabytes in its row, and most of the simulator's queue).
MAX_VARIANTS = 100


class AnalysisQuerySet(OwnedQuerySet):
    """Analyses are owned as saved fleets and matchups are (``fleetbuilder.ownership``)."""

    def waiting_battles(self) -> int:
        """Battles of unfinished analyses not yet played (the queue bound counts them)."""
        total = 0
        for battles, count, done in self.filter(status__in=Analysis.ACTIVE).values_list(
            "battles", "variant_count", "done"
        ):
            total += battles * count - done
        return total


class Analysis(ChunkedRun, models.Model):
    """An analysis's life is ``runs.ChunkedRun``'s; its chunks are keyed on (variant, index)."""

    log = log
    run_field = "analysis"
    chunk_keys = ("variant", "index")
    locked_fields = ("pk", "status", "done", "started", "battles", "variant_count")

    public_id = models.CharField(max_length=32, unique=True, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="analyses",
    )
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    fleet = models.JSONField(help_text="The fleet's file (contract 1) when the analysis started.")
    opponent = models.JSONField(help_text="The opponent's file (contract 1).")
    # The editions the fleet (and its variants) and the opponent are priced, judged and played
    # under; null: the loaded catalogue, as for a matchup's sides.
    edition_a = models.PositiveIntegerField(null=True, blank=True)
    edition_b = models.PositiveIntegerField(null=True, blank=True)
    sources = models.JSONField(default=dict)  # {"a": {...}, "b": {...}} as for a matchup
    # [{"key", "kind", "label", "unit", "note", "fleet": contract 1}], the baseline first
    variants = models.JSONField()
    variant_count = models.PositiveIntegerField()
    skipped = models.JSONField(default=list)  # [{"label", "reason"}]
    options = models.JSONField(default=dict, help_text="SimOptions.to_dict()")
    seed = models.BigIntegerField()
    battles = models.PositiveIntegerField(help_text="Battles per variant.")
    chunk_battles = models.PositiveIntegerField(default=50)
    status = models.CharField(
        max_length=10,
        choices=ChunkedRun.Status.choices,
        default=ChunkedRun.Status.QUEUED,
        db_index=True,
    )
    done = models.PositiveIntegerField(default=0, help_text="Battles played, all variants.")
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True, db_index=True)
    finished = models.DateTimeField(null=True, blank=True)
    requeued = models.DateTimeField(null=True, blank=True)

    objects = AnalysisQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name_plural = "analyses"

    def __str__(self) -> str:
        return f"{self.label('a')} vs {self.label('b')}: which ship matters?"

    def get_absolute_url(self) -> str:
        return reverse("analysis:analysis", args=[self.public_id])

    # --- creating ---------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        *,
        fleet: rf.Fleet,
        opponent: rf.Fleet,
        variants: list[dict[str, Any]],
        skipped: list[dict[str, str]],
        sources: dict[str, Any],
        options: SimOptions,
        seed: int,
        battles: int,
        owner: Any = None,
        owner_token: str = "",
        send: bool = True,
    ) -> Analysis:
        """Create an analysis within the simulator's limits and queue its chunks.

        The per-owner limit counts unfinished matchups and analyses together; the queue bound
        counts both kinds' waiting battles. ``send=False`` leaves the chunks to the caller (the
        benchmark plays them itself).
        """
        if not 1 <= battles <= MAX_BATTLES:
            raise ValueError(f"An analysis plays 1 to {MAX_BATTLES} battles a variant.")
        if not variants or variants[0]["kind"] != "base":
            raise ValueError("The baseline comes first.")
        cls.check_size(len(variants))
        signed_in = owner is not None and owner.is_authenticated
        analysis = cls(
            public_id=secrets.token_urlsafe(16),
            owner=owner if signed_in else None,
            session_key="" if signed_in else owner_token,
            fleet=rf.fleet_to_dict(fleet),
            opponent=rf.fleet_to_dict(opponent),
            edition_a=fleet.edition,
            edition_b=opponent.edition,
            sources=sources,
            variants=variants,
            variant_count=len(variants),
            skipped=skipped,
            options=options.to_dict(),
            seed=seed,
            battles=battles,
            chunk_battles=max(
                1, int(getattr(settings, "ANALYSIS_CHUNK_BATTLES", settings.SIM_CHUNK_BATTLES))
            ),
        )
        total = battles * len(variants)
        cap = int(settings.SIM_MAX_QUEUED_BATTLES)
        if total > cap:  # more than the queue ever holds: no wait would let it in
            raise ValueError(
                f"This analysis asks for {total:,} battles ({len(variants)} versions × "
                f"{battles:,}); the simulator takes at most {cap:,} at a time. Ask for at most "
                f"{max(1, cap // len(variants)):,} battles a version."
            )
        with transaction.atomic():
            lock_run_owner(owner, owner_token)
            active = (
                Matchup.objects.owned_by(owner, owner_token)
                .filter(status__in=Matchup.ACTIVE)
                .count()
                + cls.objects.owned_by(owner, owner_token).filter(status__in=cls.ACTIVE).count()
            )
            limit = int(settings.SIM_MAX_ACTIVE_PER_OWNER)
            if active >= limit:
                raise RunRefused(
                    f"You already have {limit} previews or analyses running. Wait for one to "
                    "finish, or cancel one from its page, then start this one.",
                    429,
                )
            waiting = (
                Matchup.objects.filter(status__in=Matchup.ACTIVE).aggregate(
                    n=models.Sum(models.F("battles") - models.F("done"))
                )["n"]
                or 0
            ) + cls.objects.waiting_battles()
            if waiting + total > int(settings.SIM_MAX_QUEUED_BATTLES):
                raise RunRefused(
                    f"The simulator is busy: {waiting:,} battles are waiting to be played. "
                    "Try again in a few minutes, or ask for fewer battles.",
                    503,
                )
            analysis.save()
        if send:
            analysis.enqueue()
        return analysis

    @staticmethod
    def check_size(versions: int) -> None:
        """ValueError past R-153's versions (checked before any fleet is: it costs nothing)."""
        if versions > MAX_VARIANTS:
            raise ValueError(
                f"An analysis plays at most {MAX_VARIANTS} versions of a fleet; "
                f"this one has {versions} (R-153)."
            )

    @property
    def chunks(self) -> int:
        """Chunks per variant."""
        return -(-self.battles // self.chunk_battles)

    @property
    def total_battles(self) -> int:
        return self.battles * self.variant_count

    def chunk_bounds(self, index: int) -> tuple[int, int]:
        first = index * self.chunk_battles
        return first, min(self.battles, first + self.chunk_battles)

    def all_tasks(self) -> list[tuple[int, int]]:
        """Every (variant, chunk), chunk-major: the baseline and the variants advance together,
        so partial results compare like with like."""
        return [(v, c) for c in range(self.chunks) for v in range(self.variant_count)]

    def all_keys(self) -> list[Key]:
        return list(self.all_tasks())

    def name(self) -> str:
        return f"analysis {self.public_id}"

    def describe(self, key: Key) -> str:
        return f"variant {key[0]} chunk {key[1]}"

    def enqueue(self, tasks: list[tuple[int, int]] | None = None) -> None:
        from .tasks import play_analysis_chunk  # the task module imports this one

        try:
            for variant, index in self.all_tasks() if tasks is None else tasks:
                play_analysis_chunk.apply_async((self.pk, variant, index))
        except Exception as exc:  # the broker is away
            log.exception("analysis %s: could not queue its chunks", self.public_id)
            self.fail(
                "The simulator's queue could not be reached. Nothing was lost; start "
                "the analysis again in a moment."
            )
            raise RunRefused(
                "The simulator's queue cannot be reached right now. Try again in a moment.", 503
            ) from exc

    def inputs(self) -> dict[str, Any]:
        """Everything that decides the numbers: ``Analysis.start(**inputs)`` repeats them."""
        return {
            "fleet": self.core_fleet(),
            "opponent": self.core_opponent(),
            "variants": self.variants,
            "skipped": self.skipped,
            "sources": self.sources,
            "options": self.sim_options,
            "seed": self.seed,
            "battles": self.battles,
        }

    # --- reading ----------------------------------------------------------------------------

    def core_fleet(self) -> rf.Fleet:
        return rf.parse_fleet(self.fleet)

    def core_opponent(self) -> rf.Fleet:
        return rf.parse_fleet(self.opponent)

    def variant_fleet(self, variant: int) -> rf.Fleet:
        return rf.parse_fleet(self.variants[variant]["fleet"])

    def edition(self, side: str) -> int | None:
        """The edition of the fleet and its variants ("a") or of the opponent ("b"), R-163."""
        if side == "a":
            return side_editions.recorded_edition(self.edition_a, self.fleet)
        return side_editions.recorded_edition(self.edition_b, self.opponent)

    def catalog(self, side: str) -> core.Catalog:
        """That side's edition's catalogue; SimError if this server does not know it."""
        try:
            return editions.catalog_for(self.edition(side))
        except side_editions.UnknownEdition as exc:
            raise SimError(f"{self.label(side)} cannot be played: {exc}") from None

    @property
    def sim_options(self) -> SimOptions:
        return SimOptions.from_dict(self.options)

    def label(self, side: str) -> str:
        source = (self.sources or {}).get(side) or {}
        doc = self.fleet if side == "a" else self.opponent
        return (
            source.get("label") or doc.get("name") or ("Your fleet" if side == "a" else "Opponent")
        )

    def points(self, side: str) -> int | None:
        """The fleet's ("a") or the opponent's ("b") points under its own edition (R-163);
        None when this server does not know that edition."""
        try:
            catalog = self.catalog(side)
        except SimError:
            return None
        return validate(self.core_fleet() if side == "a" else self.core_opponent(), catalog).points

    @property
    def percent(self) -> int:
        total = self.total_battles
        return int(100 * self.done / total) if total else 100

    @property
    def seconds_left(self) -> int | None:
        if self.is_done or not self.done or self.started is None:
            return None
        elapsed = (timezone.now() - self.started).total_seconds()
        return max(1, round(elapsed / self.done * (self.total_battles - self.done)))

    def per_battle(self) -> dict[int, tuple[dict[int, int], dict[int, int]]]:
        """Each variant's played battles: ({battle: half-points}, {battle: VP margin})."""
        out: dict[int, tuple[dict[int, int], dict[int, int]]] = {
            v: ({}, {}) for v in range(self.variant_count)
        }
        for chunk in self.played_chunks.all():
            first, _ = self.chunk_bounds(chunk.index)
            scores, margins = out[chunk.variant]
            for k, (hp, va, vb) in enumerate(
                zip(chunk.scores, chunk.vp_a, chunk.vp_b, strict=True)
            ):
                scores[first + k] = int(hp)
                margins[first + k] = va - vb
        return out

    def results(self) -> dict[str, Any]:
        """The table: every variant against the baseline on the battles both have played,
        sorted by the change in score (best first)."""
        data = self.per_battle()
        base_scores, base_margins = data[0]
        rows = []
        for v in range(1, self.variant_count):
            scores, margins = data[v]
            common = sorted(set(scores) & set(base_scores))
            if not common:
                continue
            score = paired_difference(
                [base_scores[i] / 2 for i in common], [scores[i] / 2 for i in common]
            )
            vp = paired_difference([base_margins[i] for i in common], [margins[i] for i in common])
            meta = self.variants[v]
            rows.append(
                {
                    "variant": v,
                    "key": meta["key"],
                    "kind": meta["kind"],
                    "label": meta["label"],
                    "note": meta.get("note", ""),
                    "battles": score.n,
                    "score": sum(scores[i] for i in common) / 2 / len(common),
                    "base_score": sum(base_scores[i] for i in common) / 2 / len(common),
                    "delta": score.mean,
                    "half_width": score.half_width,
                    "vp_delta": vp.mean,
                    "vp_half_width": vp.half_width,
                    "clear": score.half_width is not None and abs(score.mean) > score.half_width,
                }
            )
        rows.sort(key=lambda r: (-r["delta"], r["variant"]))
        n = len(base_scores)
        return {
            "rows": rows,
            "base_battles": n,
            "base_score": sum(base_scores.values()) / 2 / n if n else None,
            "base_vp_margin": sum(base_margins.values()) / n if n else None,
            "matters_most": min(
                (r for r in rows if r["kind"] == "remove"),
                key=lambda r: (r["delta"], r["variant"]),
                default=None,
            ),
            "best_swap": next((r for r in rows if r["kind"] == "swap" and r["delta"] > 0), None),
        }

    # --- playing (on a worker) ----------------------------------------------------------------

    def play_range(self, variant: int, first: int, stop: int) -> tuple[str, list[int], list[int]]:
        """Battles ``first … stop-1`` of one variant: half-points, and each side's VP.

        Battle ``i`` takes the dice of (seed, i) whatever the variant: common random numbers.
        The variant plays the fleet's edition, the opponent its own (R-163).
        """
        a, b = fleet_specs(
            self.catalog("a"),
            self.variant_fleet(variant),
            self.core_opponent(),
            catalog_b=self.catalog("b"),
        )
        options = self.sim_options
        scores, vp_a, vp_b = [], [], []
        for i in range(first, stop):
            result = Battle(a, b, battle_dice(self.seed, i), options).play()
            scores.append(str(half_points(result.winner)))
            vp_a.append(int(result.vp["a"]))
            vp_b.append(int(result.vp["b"]))
        return "".join(scores), vp_a, vp_b

    def play_chunk(self, key: Key) -> Played:
        variant, index = key
        scores, vp_a, vp_b = self.play_range(variant, *self.chunk_bounds(index))
        return Played(len(scores), {"scores": scores, "vp_a": vp_a, "vp_b": vp_b})

    def refused(self, key: Key, exc: SimError) -> str:
        return f"The simulator cannot play {self.variants[key[0]]['label']}: {exc}"

    def broken(self, key: Key) -> str:
        return (
            "The simulator failed on one of the variants. The error was logged; run "
            "again, and if it happens again please report this analysis's link."
        )

    def record_chunk(
        self,
        variant: int,
        index: int,
        scores: str,
        vp_a: list[int],
        vp_b: list[int],
        seconds: float,
        worker: str = "",
    ) -> bool:
        """Write a played chunk once and count it, under the analysis's row lock
        (``ChunkedRun.record``). False when it was already written or the analysis stopped."""
        return self.record(
            (variant, index),
            Played(len(scores), {"scores": scores, "vp_a": vp_a, "vp_b": vp_b}),
            seconds,
            worker,
        )


class AnalysisChunk(models.Model):
    """One played (variant, chunk): each battle's result, written once."""

    analysis = models.ForeignKey(Analysis, on_delete=models.CASCADE, related_name="played_chunks")
    variant = models.PositiveIntegerField()
    index = models.PositiveIntegerField()
    scores = models.CharField(
        max_length=10_000, help_text="The fleet's half-points per battle: 2 win, 1 draw, 0 loss."
    )
    vp_a = models.JSONField(help_text="Victory points the fleet scored, per battle.")
    vp_b = models.JSONField(help_text="Victory points the opponent scored, per battle.")
    seconds = models.FloatField()
    worker = models.CharField(max_length=100, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["analysis", "variant", "index"], name="analysis_chunk_once"
            )
        ]
        ordering = ["analysis", "variant", "index"]

    def __str__(self) -> str:
        return f"chunk {self.index} of variant {self.variant} of {self.analysis_id}"


def bound_variants(
    variants: list[Variant], skipped: list[Skipped]
) -> tuple[list[Variant], list[Skipped]]:
    """At most ``MAX_VARIANTS`` versions (R-153): the baseline, then every removal (in list
    order), then the swaps, as many as fit; the rest are listed as not played, saying why."""
    if len(variants) <= MAX_VARIANTS:
        return variants, skipped
    base, rest = variants[:1], variants[1:]
    ranked = sorted(range(len(rest)), key=lambda i: (rest[i].kind != "remove", i))
    kept = set(ranked[: MAX_VARIANTS - 1])
    why = (
        f"not played: an analysis plays at most {MAX_VARIANTS} versions of a fleet, "
        "removals first (R-153)"
    )
    return (
        [*base, *(v for i, v in enumerate(rest) if i in kept)],
        [*skipped, *(Skipped(v.label, why) for i, v in enumerate(rest) if i not in kept)],
    )


def variant_records(variants: list[Variant]) -> list[dict[str, Any]]:
    """rules_core's variants as the analysis stores them."""
    return [
        {
            "key": v.key,
            "kind": v.kind,
            "label": v.label,
            "unit": v.unit,
            "note": v.note,
            "fleet": rf.fleet_to_dict(v.fleet),
        }
        for v in variants
    ]
