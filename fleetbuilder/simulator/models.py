"""A matchup preview: two fleet snapshots, scenario options and a seed, played on workers.

A ``Matchup`` stores everything that decides its results (both fleet files as they were when
the run started, the options, the seed and the number of battles), so its results never change
and "run again with the same seed" gives the same numbers. Its battles are cut by index into
chunks of ``chunk_battles``; each chunk is one Celery task (``tasks.play_chunk``) that any
worker on any machine may play, since battle ``i``'s dice come from (seed, i) only. A played
chunk is written once (``MatchupChunk``, unique on run and index) in the same transaction that
merges its counts into the run's ``tally``, under the run's row lock: a chunk played twice (a
worker killed after playing, a message delivered again) counts once, and the merged tally is
the command line's whatever order the chunks finish in.

Each side is played with its own list's edition (R-163): the run records both (``edition_a``,
``edition_b``, also in the stored fleet files), and every worker builds a side's ships from
that edition's catalogue (``editions.catalog_for``).

No web request plays battles: a request creates the run, and the results page reads the
progress from the database.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from fleetbuilder import sharedstate
from fleetbuilder.catalog import editions
from fleetbuilder.ownership import OwnedQuerySet, lock_owner, owner_key
from fleetbuilder.runs import ChunkedRun, Key, Played, RunRefused, lock_run_owner
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core import sharecode
from rules_core.sim import BattleResult, SimError, SimOptions, Tally, play_battle, simulate
from rules_core.sim import replay as sim_replay

from . import editions as side_editions
from . import fairness

log = logging.getLogger("fleetbuilder.simulator")

MAX_BATTLES = 10_000
DEFAULT_BATTLES = 500
MAX_SEED = 2**63 - 1
REPLAY_CACHE_SECONDS = 6 * 3600
REPLAY_SHIPS_PER_COUNT = 60


def random_seed() -> int:
    return secrets.randbelow(2**32)


class MatchupQuerySet(OwnedQuerySet):
    """Runs are owned as saved fleets are (``fleetbuilder.ownership``)."""


class Matchup(ChunkedRun, models.Model):
    """A matchup's life (queued, running, done, failed, cancelled) is ``runs.ChunkedRun``'s;
    its chunks are battle ranges, keyed on their index."""

    log = log
    run_field = "matchup"

    # The results page's address: anyone holding it may read the results, nobody may guess it.
    public_id = models.CharField(max_length=32, unique=True, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="matchups",
    )
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    fleet_a = models.JSONField(help_text="Fleet A's file (contract 1) when the run started.")
    fleet_b = models.JSONField(help_text="Fleet B's file (contract 1) when the run started.")
    # The edition each side is priced, judged and played under. Null: the loaded
    # catalogue (a list built in a development state, or a run from before editions, whose
    # stored file may still name one: see ``edition``).
    edition_a = models.PositiveIntegerField(null=True, blank=True)
    edition_b = models.PositiveIntegerField(null=True, blank=True)
    # Where each side came from, for the page: {"a": {"kind", "label", ...}, "b": {...}}.
    sources = models.JSONField(default=dict)
    options = models.JSONField(default=dict, help_text="SimOptions.to_dict()")
    seed = models.BigIntegerField()
    battles = models.PositiveIntegerField()
    chunk_battles = models.PositiveIntegerField(
        default=50, help_text="Battles per task, fixed at the start."
    )
    status = models.CharField(
        max_length=10,
        choices=ChunkedRun.Status.choices,
        default=ChunkedRun.Status.QUEUED,
        db_index=True,
    )
    done = models.PositiveIntegerField(default=0)
    tally = models.JSONField(null=True, blank=True, help_text="Tally.to_state() so far.")
    error = models.TextField(blank=True, help_text="Why the run stopped, for the player.")
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True, help_text="When a worker began.")
    updated = models.DateTimeField(auto_now=True, db_index=True)
    finished = models.DateTimeField(null=True, blank=True)
    requeued = models.DateTimeField(
        null=True, blank=True, help_text="When its missing chunks were last sent again."
    )
    # Its share of the queue: whose budget it counts against (an account, else a client
    # address), its estimated CPU-seconds, and the priority its chunks were sent at.
    client = models.CharField(max_length=80, blank=True, db_index=True)
    cost_seconds = models.FloatField(default=0.0)
    priority = models.PositiveSmallIntegerField(default=fairness.SMALL)

    objects = MatchupQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.label('a')} vs {self.label('b')}"

    def get_absolute_url(self) -> str:
        return reverse("simulator:matchup", args=[self.public_id])

    # --- creating ---------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        *,
        fleet_a: rf.Fleet,
        fleet_b: rf.Fleet,
        sources: dict[str, Any],
        options: SimOptions,
        seed: int,
        battles: int,
        owner: Any = None,
        owner_token: str = "",
        client: str = "",
    ) -> Matchup:
        """Create a run, within the owner's, the client's and the queue's limits, and queue
        its chunks at the priority its client's queued work gives it (R-98).

        ``client`` is whose budget the run counts against (``ratelimit.client_key``: the
        account, else the client address); by default the owner (account, else browser).
        Raises ``RunRefused`` (nothing kept) over a limit, and when the queue cannot be
        reached (the run is kept as failed, saying so).
        """
        if not 1 <= battles <= MAX_BATTLES:
            raise ValueError(f"A run plays 1 to {MAX_BATTLES} battles.")
        sharedstate.check_up()  # Redis away a moment ago: a 503 at once, nothing kept
        signed_in = owner is not None and owner.is_authenticated
        client = client or owner_key(owner, owner_token)
        per_battle = fairness.battle_seconds(fleet_a, fleet_b, options)
        cost = fairness.run_seconds(per_battle, battles)
        matchup = cls(
            public_id=secrets.token_urlsafe(16),
            owner=owner if signed_in else None,
            session_key="" if signed_in else owner_token,
            fleet_a=rf.fleet_to_dict(fleet_a),
            fleet_b=rf.fleet_to_dict(fleet_b),
            edition_a=fleet_a.edition,
            edition_b=fleet_b.edition,
            sources=sources,
            options=options.to_dict(),
            seed=seed,
            battles=battles,
            chunk_battles=fairness.chunk_battles(per_battle),
            client=client[:80],
            cost_seconds=cost,
        )
        with transaction.atomic():
            lock_run_owner(owner, owner_token)
            lock_owner(f"client:{client}")  # one client's starts, one at a time
            mine = cls.objects.owned_by(owner, owner_token).filter(status__in=cls.ACTIVE)
            limit = int(settings.SIM_MAX_ACTIVE_PER_OWNER)
            if mine.count() >= limit:
                raise RunRefused(
                    f"You already have {limit} previews running. Wait for one to finish, or "
                    "cancel one from its page, then start this one.",
                    429,
                )
            queued = cls.queued_seconds(client)
            if queued + cost > fairness.budget():
                raise RunRefused(fairness.over_budget_message(queued, cost), 429)
            matchup.priority = fairness.priority(queued + cost)
            if matchup.priority != fairness.SMALL:  # small work is bounded by the budgets
                waiting = (
                    cls.objects.filter(status__in=cls.ACTIVE).aggregate(
                        n=models.Sum(models.F("battles") - models.F("done"))
                    )["n"]
                    or 0
                )
                if waiting + battles > int(settings.SIM_MAX_QUEUED_BATTLES):
                    raise RunRefused(
                        f"The simulator is busy: {waiting:,} battles are waiting to be "
                        "played. Try again in a few minutes, or ask for fewer battles.",
                        503,
                    )
            matchup.save()
        matchup.enqueue()
        return matchup

    @classmethod
    def queued_seconds(cls, client: str) -> float:
        """Estimated CPU-seconds still to play in ``client``'s unfinished runs (R-98)."""
        runs = cls.objects.filter(client=client, status__in=cls.ACTIVE).values_list(
            "cost_seconds", "battles", "done"
        )
        return sum(cost * (battles - done) / battles for cost, battles, done in runs if battles)

    @property
    def chunks(self) -> int:
        return -(-self.battles // self.chunk_battles)

    def chunk_bounds(self, index: int) -> tuple[int, int]:
        first = index * self.chunk_battles
        return first, min(self.battles, first + self.chunk_battles)

    @property
    def total_battles(self) -> int:
        return self.battles

    def all_keys(self) -> list[Key]:
        return [(i,) for i in range(self.chunks)]

    def name(self) -> str:
        return f"simulator run {self.public_id}"

    def describe(self, key: Key) -> str:
        first, stop = self.chunk_bounds(key[0])
        return f"chunk {key[0]} (battles {first + 1}-{stop})"

    def enqueue(self, indexes: list[int] | None = None) -> None:
        """Send one task per chunk (all of them, or ``indexes``) to the workers' queue.

        Outside any transaction: a worker may start before this returns. If the queue cannot
        be reached the run fails, saying so, and ``RunRefused`` tells the player.
        """
        from .tasks import play_chunk  # the task module imports this one

        try:
            sharedstate.check_up()
            for index in range(self.chunks) if indexes is None else indexes:
                play_chunk.apply_async((self.pk, index), priority=self.priority)
        except Exception as exc:  # kombu's OperationalError and friends: the broker is away
            if sharedstate.is_outage(exc):
                sharedstate.mark_down(exc)
            log.exception("simulator run %s: could not queue its chunks", self.public_id)
            self.fail(
                "The simulator's queue could not be reached. Nothing was lost; start "
                "the run again in a moment."
            )
            raise RunRefused(
                "The simulator's queue cannot be reached right now. Try again in a moment.", 503
            ) from exc

    def inputs(self) -> dict[str, Any]:
        """Everything that decides the results; ``Matchup.start(**inputs)`` repeats the run."""
        return {
            "fleet_a": self.core_fleet("a"),
            "fleet_b": self.core_fleet("b"),
            "sources": self.sources,
            "options": self.sim_options,
            "seed": self.seed,
            "battles": self.battles,
        }

    def form_initial(self, own_fleets: set[int]) -> dict[str, Any]:
        """The matchup form filled in with this run's sides, options and seed.

        A side that was one of the visitor's own saved fleets stays that fleet (as it is now,
        edits included); any other side travels as a share code of the run's own copy, so
        anyone holding the link gets exactly the fleet that fought, naming the edition it
        played (a side recorded with none played the loaded catalogue: the current edition).
        """
        options = self.options or {}
        initial: dict[str, Any] = {
            "battles": self.battles,
            "seed": self.seed,
            "max_rounds": options.get("max_rounds", 10),
            "table": options.get("table") or "",
            "scoring": options.get("scoring", "core"),
            "terrain": options.get("terrain", "none"),
            "movement": options.get("movement", "standard"),
        }
        for side in ("a", "b"):
            source = (self.sources or {}).get(side) or {}
            initial[f"{side}_policy"] = options.get(f"policy_{side}", "standard")
            if source.get("kind") == "fleet" and source.get("fleet") in own_fleets:
                initial.update({f"{side}_source": "fleet", f"{side}_fleet": source["fleet"]})
            elif source.get("kind") == "sample":
                initial.update(
                    {
                        f"{side}_source": "sample",
                        f"{side}_faction": source.get("faction"),
                        f"{side}_size": source.get("size"),
                        f"{side}_variant": source.get("variant") or "",
                        f"{side}_points": source.get("points") or "",
                    }
                )
            else:
                fleet = self.core_fleet(side)
                if fleet.edition is None:
                    fleet = replace(fleet, edition=editions.current_number())
                try:
                    code = sharecode.encode(fleet)
                except sharecode.ShareCodeError:  # too big for a code: that side starts empty
                    continue
                initial.update({f"{side}_source": "shared", f"{side}_share": code})
        return initial

    # --- reading ----------------------------------------------------------------------------

    def core_fleet(self, side: str) -> rf.Fleet:
        return rf.parse_fleet(self.fleet_a if side == "a" else self.fleet_b)

    def edition(self, side: str) -> int | None:
        """The edition side ``side`` plays (R-163): as recorded, else as its stored file names
        it (a run from before the field); None: the loaded catalogue."""
        if side == "a":
            return side_editions.recorded_edition(self.edition_a, self.fleet_a)
        return side_editions.recorded_edition(self.edition_b, self.fleet_b)

    def catalog(self, side: str) -> core.Catalog:
        """Side ``side``'s catalogue: its edition's. SimError, as for any fleet the engine
        cannot play, if this server does not know the edition (editions are never removed)."""
        try:
            return editions.catalog_for(self.edition(side))
        except side_editions.UnknownEdition as exc:
            raise SimError(f"Fleet {side.upper()} cannot be played: {exc}") from None

    def catalogs(self) -> tuple[core.Catalog, core.Catalog]:
        return self.catalog("a"), self.catalog("b")

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
    def percent(self) -> int:
        return int(100 * self.done / self.battles) if self.battles else 100

    @property
    def seconds_left(self) -> int | None:
        """Roughly how long the rest of the run takes, from its pace so far."""
        if self.is_done or not self.done or self.started is None:
            return None
        elapsed = (timezone.now() - self.started).total_seconds()
        return max(1, round(elapsed / self.done * (self.battles - self.done)))

    def current_tally(self) -> Tally | None:
        return Tally.from_state(self.tally) if self.tally else None

    def summary(self) -> dict[str, Any] | None:
        tally = self.current_tally()
        return tally.summary(seed=self.seed) if tally is not None and self.done else None

    def battle(self, index: int, *, log: bool = True) -> BattleResult:
        """One battle of this run, replayed (the same dice as in the tally) with its log; kept
        in the cache as a replay is (R-154), so the results page, shown again or refreshing
        itself while the run plays, does not play it again."""
        if not 0 <= index < self.battles:
            raise ValueError(f"This run has battles 1 to {self.battles}.")
        catalog_a, catalog_b = self.catalogs()
        key = self._battle_key(index, log)
        try:
            result = cache.get(key)
        except Exception:  # the cache is away: play it
            result = None
        if result is None:
            result = play_battle(
                catalog_a,
                self.core_fleet("a"),
                self.core_fleet("b"),
                seed=self.seed,
                index=index,
                options=self.sim_options,
                log=log,
                catalog_b=catalog_b,
            )
            try:
                cache.set(key, result, REPLAY_CACHE_SECONDS)
            except Exception:
                logging.getLogger("fleetbuilder.simulator").warning(
                    "run %s: battle %s not kept in the cache", self.public_id, index + 1
                )
        return result

    def _versions(self) -> str:
        """Both sides' catalogue versions: what a cached battle of this run was played with."""
        return ":".join(c.version for c in self.catalogs())

    def _battle_key(self, index: int, log: bool) -> str:
        return (
            f"sim-battle:{sim_replay.FORMAT}:{self.public_id}:{index}:{int(log)}:{self._versions()}"
        )

    def has_battle(self, index: int) -> bool:
        """Whether battle ``index`` with its log is in the cache (showing it plays nothing)."""
        try:
            return cache.get(self._battle_key(index, True)) is not None
        except Exception:
            return False

    def replay(self, index: int) -> dict[str, Any]:
        """Battle ``index`` of this run as a replay's steps (``rules_core.sim.replay``),
        played again from the run's seed; the run itself stores nothing more. Kept in the
        cache, keyed on the run, the battle and both sides' catalogue versions, so a player
        stepping back and forth does not play it again."""
        if not 0 <= index < self.battles:
            raise ValueError(f"This run has battles 1 to {self.battles}.")
        key = self._replay_key(index)
        try:
            data = cache.get(key)
        except Exception:  # the cache is away: play it
            data = None
        if data is None:
            catalog_a, catalog_b = self.catalogs()
            _, data = sim_replay.replay_battle(
                catalog_a,
                self.core_fleet("a"),
                self.core_fleet("b"),
                seed=self.seed,
                index=index,
                options=self.sim_options,
                catalog_b=catalog_b,
            )
            try:
                cache.set(key, data, REPLAY_CACHE_SECONDS)
            except Exception:
                log.warning("run %s: replay %s not kept in the cache", self.public_id, index + 1)
        return data

    @property
    def replay_cost(self) -> int:
        """What one battle of this run played in a request counts against the replay limit
        (R-154): one for every REPLAY_SHIPS_PER_COUNT ships on the table, so two
        150-ship fleets (about 2 s of CPU) count 5, two club fleets 1."""
        ships = sum(rf.parse_fleet(doc).ship_count for doc in (self.fleet_a, self.fleet_b))
        return max(1, -(-ships // REPLAY_SHIPS_PER_COUNT))

    def _replay_key(self, index: int) -> str:
        return f"sim-replay:{sim_replay.FORMAT}:{self.public_id}:{index}:{self._versions()}"

    def has_replay(self, index: int) -> bool:
        """Whether battle ``index``'s replay is in the cache (showing it plays nothing)."""
        try:
            return cache.get(self._replay_key(index)) is not None
        except Exception:  # the cache is away: the replay will be played
            return False

    def queue_ahead(self) -> int:
        """Battles of other unfinished runs played before this one: those at a higher
        priority (R-98), and those at its own queued before it."""
        first = models.Q(priority__lt=self.priority) | models.Q(
            priority=self.priority, created__lt=self.created
        )
        ahead = (
            Matchup.objects.filter(first, status__in=self.ACTIVE)
            .exclude(pk=self.pk)
            .aggregate(n=models.Sum(models.F("battles") - models.F("done")))["n"]
        )
        return int(ahead or 0)

    # --- playing (on a worker: tasks.play_chunk) ---------------------------------------------

    def play_chunk(self, key: Key) -> Played:
        first, stop = self.chunk_bounds(key[0])
        # Each side's ships from its own edition's catalogue.
        catalog_a, catalog_b = self.catalogs()  # SimError for an edition this server lacks
        tally = simulate(
            catalog_a,
            self.core_fleet("a"),
            self.core_fleet("b"),
            battles=stop - first,
            seed=self.seed,
            options=self.sim_options,
            first_index=first,
            catalog_b=catalog_b,
        )
        return Played(
            tally.battles, {"battles": tally.battles, "tally": tally.to_state()}, merge=tally
        )

    def broken(self, key: Key) -> str:
        first, stop = self.chunk_bounds(key[0])
        return (
            f"The simulator failed on battles {first + 1}–{stop}. The error was logged; "
            "run again, and if it happens again please report this run's link."
        )

    def merge_chunk(self, run: Any, merge: Any) -> list[str]:
        current = run.current_tally()
        run.tally = (merge if current is None else current.merge(merge)).to_state()
        return ["tally"]

    def record_chunk(self, index: int, tally: Tally, seconds: float, worker: str = "") -> bool:
        """Write a played chunk once and merge its tally into the run, under the run's row
        lock (``ChunkedRun.record``). False when it was already written or the run stopped."""
        return self.record(
            (index,),
            Played(
                tally.battles, {"battles": tally.battles, "tally": tally.to_state()}, merge=tally
            ),
            seconds,
            worker,
        )


class MatchupChunk(models.Model):
    """One played chunk of a run: written once, in the transaction that counts it."""

    matchup = models.ForeignKey(Matchup, on_delete=models.CASCADE, related_name="played_chunks")
    index = models.PositiveIntegerField()
    battles = models.PositiveIntegerField()
    tally = models.JSONField(help_text="This chunk's Tally.to_state().")
    seconds = models.FloatField(help_text="How long the worker took.")
    worker = models.CharField(max_length=100, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["matchup", "index"], name="simulator_chunk_once")
        ]
        ordering = ["matchup", "index"]

    def __str__(self) -> str:
        return f"chunk {self.index} of {self.matchup_id}"


def stale_runs(days: int | None = None) -> models.QuerySet[Matchup]:
    """Runs untouched for ``days`` (SIM_RUN_DAYS): what ``purge_simulator_runs`` deletes."""
    days = int(settings.SIM_RUN_DAYS) if days is None else days
    return Matchup.objects.filter(updated__lt=timezone.now() - timedelta(days=days))
