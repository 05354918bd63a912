"""A matchup preview: two fleet snapshots, scenario options and a seed, played in chunks.

A ``Matchup`` stores everything that decides its results (both fleet files as they were when
the run started, the options, the seed and the number of battles), so its results never change
and "run again with the same seed" gives the same numbers. Battles are played a chunk per
request (no background worker): each step plays battles ``done .. done+k-1`` and merges their
raw counts into the stored ``Tally`` state. The engine derives each battle's dice from
(seed, battle index) only, so chunks add up to exactly the one-shot result.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core import sharecode
from rules_core.sim import BattleResult, SimError, SimOptions, Tally, play_battle, simulate

MAX_BATTLES = 2000
DEFAULT_BATTLES = 500
MAX_SEED = 2**63 - 1
# Seconds of battles one request may play; the page asks again until the run is done.
STEP_SECONDS = 1.0
FIRST_CHUNK = 5
# And at most this many battles per request, however fast the engine gets.
MAX_STEP_BATTLES = 500


def step_seconds() -> float:
    return float(getattr(settings, "SIMULATOR_STEP_SECONDS", STEP_SECONDS))


def max_step_battles() -> int:
    return int(getattr(settings, "SIMULATOR_MAX_STEP_BATTLES", MAX_STEP_BATTLES))


def random_seed() -> int:
    return secrets.randbelow(2**32)


class MatchupQuerySet(models.QuerySet["Matchup"]):
    def owned_by(self, user: Any, owner_token: str | None) -> MatchupQuerySet:
        """Runs of a signed-in ``user``, or of the browser session holding ``owner_token``.

        The same rule as saved fleets (``FleetQuerySet.owned_by``).
        """
        mine = models.Q(pk__in=[])
        if user is not None and user.is_authenticated:
            mine |= models.Q(owner=user)
        if owner_token:
            mine |= models.Q(owner=None, session_key=owner_token)
        return self.filter(mine)

    def adopt(self, user: Any, owner_token: str | None) -> int:
        """Give ``user`` the runs of the anonymous browser holding ``owner_token`` (at login,
        as its fleets are). Returns how many moved."""
        if not owner_token or user is None or not user.is_authenticated:
            return 0
        return self.filter(owner=None, session_key=owner_token).update(owner=user)


class Matchup(models.Model):
    # The results page's address: anyone holding it may read the results, nobody may guess it.
    public_id = models.CharField(max_length=32, unique=True, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="matchups",
    )
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    fleet_a = models.JSONField(help_text="Fleet A's file (contract 1) when the run started.")
    fleet_b = models.JSONField(help_text="Fleet B's file (contract 1) when the run started.")
    # Where each side came from, for the page: {"a": {"kind", "label", ...}, "b": {...}}.
    sources = models.JSONField(default=dict)
    options = models.JSONField(default=dict, help_text="SimOptions.to_dict()")
    seed = models.BigIntegerField()
    battles = models.PositiveIntegerField()
    done = models.PositiveIntegerField(default=0)
    tally = models.JSONField(null=True, blank=True, help_text="Tally.to_state() so far.")
    # Seconds per battle measured on the last step: sizes the next step's chunk.
    seconds_per_battle = models.FloatField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="Why the engine stopped, for the player.")
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    objects = MatchupQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.label('a')} vs {self.label('b')}"

    def get_absolute_url(self) -> str:
        return reverse("simulator:matchup", args=[self.public_id])

    # --- creating ---------------------------------------------------------------------------

    @classmethod
    def start(cls, *, fleet_a: rf.Fleet, fleet_b: rf.Fleet, sources: dict[str, Any],
              options: SimOptions, seed: int, battles: int, owner: Any = None,
              owner_token: str = "") -> Matchup:
        if not 1 <= battles <= MAX_BATTLES:
            raise ValueError(f"A run plays 1 to {MAX_BATTLES} battles.")
        matchup = cls(
            public_id=secrets.token_urlsafe(16),
            owner=owner if owner is not None and owner.is_authenticated else None,
            session_key=owner_token if owner is None or not owner.is_authenticated else "",
            fleet_a=rf.fleet_to_dict(fleet_a), fleet_b=rf.fleet_to_dict(fleet_b),
            sources=sources, options=options.to_dict(), seed=seed, battles=battles,
        )
        matchup.save()
        return matchup

    def inputs(self) -> dict[str, Any]:
        """Everything that decides the results; ``Matchup.start(**inputs)`` repeats the run."""
        return {"fleet_a": self.core_fleet("a"), "fleet_b": self.core_fleet("b"),
                "sources": self.sources, "options": self.sim_options, "seed": self.seed,
                "battles": self.battles}

    def form_initial(self, own_fleets: set[int]) -> dict[str, Any]:
        """The matchup form filled in with this run's sides, options and seed.

        A side that was one of the visitor's own saved fleets stays that fleet (as it is now,
        edits included); any other side travels as a share code of the run's own copy, so
        anyone holding the link gets exactly the fleet that fought.
        """
        options = self.options or {}
        initial: dict[str, Any] = {
            "battles": self.battles, "seed": self.seed,
            "max_rounds": options.get("max_rounds", 10), "table": options.get("table") or "",
            "scoring": options.get("scoring", "core"), "terrain": options.get("terrain", "none"),
        }
        for side in ("a", "b"):
            source = (self.sources or {}).get(side) or {}
            initial[f"{side}_policy"] = options.get(f"policy_{side}", "standard")
            if source.get("kind") == "fleet" and source.get("fleet") in own_fleets:
                initial.update({f"{side}_source": "fleet", f"{side}_fleet": source["fleet"]})
            elif source.get("kind") == "sample":
                initial.update({f"{side}_source": "sample",
                                f"{side}_faction": source.get("faction"),
                                f"{side}_size": source.get("size"),
                                f"{side}_variant": source.get("variant") or ""})
            else:
                try:
                    code = sharecode.encode(self.core_fleet(side))
                except sharecode.ShareCodeError:  # too big for a code: that side starts empty
                    continue
                initial.update({f"{side}_source": "shared", f"{side}_share": code})
        return initial

    # --- reading ----------------------------------------------------------------------------

    def core_fleet(self, side: str) -> rf.Fleet:
        return rf.parse_fleet(self.fleet_a if side == "a" else self.fleet_b)

    @property
    def sim_options(self) -> SimOptions:
        return SimOptions.from_dict(self.options)

    def label(self, side: str) -> str:
        source = (self.sources or {}).get(side) or {}
        doc = self.fleet_a if side == "a" else self.fleet_b
        return source.get("label") or doc.get("name") or f"Fleet {side.upper()}"

    @property
    def label_a(self) -> str:
        return self.label("a")

    @property
    def label_b(self) -> str:
        return self.label("b")

    @property
    def is_done(self) -> bool:
        return self.done >= self.battles or bool(self.error)

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.battles) if self.battles else 100

    @property
    def seconds_left(self) -> int | None:
        """Roughly how long the rest of the run takes, from the last step's pace."""
        if self.is_done or self.seconds_per_battle is None:
            return None
        return max(1, round(self.seconds_per_battle * (self.battles - self.done)))

    def current_tally(self) -> Tally | None:
        return Tally.from_state(self.tally) if self.tally else None

    def summary(self) -> dict[str, Any] | None:
        tally = self.current_tally()
        return tally.summary(seed=self.seed) if tally is not None and self.done else None

    def battle(self, catalog: core.Catalog, index: int, *, log: bool = True) -> BattleResult:
        """One battle of this run, replayed (the same dice as in the tally) with its log."""
        if not 0 <= index < self.battles:
            raise ValueError(f"This run has battles 1 to {self.battles}.")
        return play_battle(catalog, self.core_fleet("a"), self.core_fleet("b"), seed=self.seed,
                           index=index, options=self.sim_options, log=log)

    # --- playing ----------------------------------------------------------------------------

    def play_step(self, catalog: core.Catalog, *, budget: float | None = None) -> int:
        """Play the next battles for at most about ``budget`` seconds (always at least one, at
        most MAX_STEP_BATTLES).

        Chunks are sized from the measured time per battle. The new count and tally are saved
        only if nobody else advanced this run meanwhile (two tabs polling at once): the loser's
        battles are dropped, never counted twice. Returns the number of battles added.
        The engine's SimError propagates after being recorded in ``error``.
        """
        if self.is_done:
            return 0
        budget = step_seconds() if budget is None else budget
        fleet_a, fleet_b = self.core_fleet("a"), self.core_fleet("b")
        options = self.sim_options
        start_done = self.done
        tally = self.current_tally()
        done = self.done
        per_battle = self.seconds_per_battle
        began = time.perf_counter()
        last = min(self.battles, start_done + max_step_battles())
        while done < last:
            elapsed = time.perf_counter() - began
            if per_battle is None:
                chunk = FIRST_CHUNK
            else:
                chunk = int((budget - elapsed) / max(per_battle, 1e-6))
            if done > start_done and chunk < 1:
                break
            chunk = max(1, min(chunk, last - done))
            t0 = time.perf_counter()
            try:
                part = simulate(catalog, fleet_a, fleet_b, battles=chunk, seed=self.seed,
                                options=options, first_index=done)
            except SimError as exc:
                self.error = str(exc)
                Matchup.objects.filter(pk=self.pk).update(error=self.error)
                raise
            per_battle = (time.perf_counter() - t0) / chunk
            tally = part if tally is None else tally.merge(part)
            done += chunk
        return self._save_progress(start_done, done, tally, per_battle)

    def _save_progress(self, start_done: int, done: int, tally: Tally | None,
                       per_battle: float | None) -> int:
        finished = timezone.now() if done >= self.battles else None
        state = tally.to_state() if tally is not None else None
        with transaction.atomic():
            updated = Matchup.objects.filter(pk=self.pk, done=start_done).update(
                done=done, tally=state, seconds_per_battle=per_battle, finished=finished,
            )
        if not updated:  # another request advanced the run first; show its state
            self.refresh_from_db()
            return 0
        self.done, self.tally = done, state
        self.seconds_per_battle, self.finished = per_battle, finished
        return done - start_done
