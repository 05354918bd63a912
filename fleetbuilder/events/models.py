"""Events: a club night or a tournament that collects, checks and reveals its lists (R-171–R-174).

- An :class:`Event` belongs to its organiser and plays one edition, fixed when it is made. Its
  phase comes from the clock: *open* until the list deadline, *locked* until the reveal, then
  *revealed* (R-171). Every change of its settings is written to its log (:class:`EventChange`).
- A player joins (an :class:`Entry`) and submits one of their own fleets: the entry keeps a
  snapshot of it (the list, its edition, points, verdict, problem codes and the time), which
  later edits to the fleet never change (R-172). Whether a submission is in time is decided by
  the database's clock inside the transaction that stores it, so every web host agrees.
- What a viewer may learn of an entry is decided in one place, :meth:`Event.viewer` and
  :class:`Viewer` (R-173): every page, partial, export and API answer asks it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models, transaction
from django.db.models.functions import Now
from django.urls import reverse
from django.utils import timezone

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.ownership import OwnedQuerySet
from fleetbuilder.pdfcache import cards_build
from fleetbuilder.renderjobs import JobStatus, QueuedRender
from rules_core import fleet as rf
from rules_core import swiss
from rules_core.validator import ValidationReport, validate

GAME_SIZE_CHOICES = [(g.value, g.label) for g in rf.GameSize]
MAX_PLAYER_CAP = 512


class Phase(StrEnum):
    OPEN = "open"  # lists may be submitted
    LOCKED = "locked"  # the deadline has passed; lists are hidden until the reveal
    REVEALED = "revealed"  # participants see every list

    @property
    def label(self) -> str:
        return {"open": "Open for lists", "locked": "Lists locked", "revealed": "Lists revealed"}[
            self.value
        ]


class Role(StrEnum):
    ORGANISER = "organiser"
    PARTICIPANT = "participant"
    VISITOR = "visitor"  # signed in or not, not in the event


class SubmissionRefused(ValueError):
    """A submission the event refuses; the message is for the player. Nothing was stored."""


class EditionMismatch(SubmissionRefused):
    """The list is built under another edition than the event's: it may be updated first."""


def new_token() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits: an invite link nobody can guess


def new_seed() -> int:
    return secrets.randbelow(2**31)  # round 1's draw (R-170): fixed when the event is made


class EventQuerySet(models.QuerySet["Event"]):
    def listed(self) -> EventQuerySet:
        """Events anyone may find: public ones, soonest first."""
        return self.filter(public=True).order_by("starts_at", "pk")

    def of_player(self, user: Any) -> EventQuerySet:
        """Events a signed-in player organises or takes part in."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(
            models.Q(organiser=user) | models.Q(entries__player=user, entries__removed_at=None)
        ).distinct()


class Event(models.Model):
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_events"
    )
    name = models.CharField(max_length=rf.MAX_NAME_LENGTH)
    starts_at = models.DateTimeField(help_text="When play starts (stored in UTC).")
    time_zone = models.CharField(max_length=64, default="UTC")
    place = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True, max_length=4000)
    edition = models.PositiveIntegerField(help_text="The edition it plays; never changes.")
    game_size = models.CharField(max_length=10, choices=GAME_SIZE_CHOICES)
    points_min = models.PositiveIntegerField(null=True, blank=True)  # a custom band only
    points_max = models.PositiveIntegerField(null=True, blank=True)
    factions = models.JSONField(
        default=list, blank=True, help_text="Allowed faction slugs; empty: every faction."
    )
    player_cap = models.PositiveIntegerField(default=16)
    deadline = models.DateTimeField(help_text="Lists are refused from this moment.")
    reveal_at = models.DateTimeField(help_text="Participants see every list from then.")
    allow_illegal = models.BooleanField(default=False)
    show_factions = models.BooleanField(
        default=False, help_text="Show each player's faction before the reveal."
    )
    public = models.BooleanField(default=True, help_text="Listed; otherwise invite link only.")
    seed = models.PositiveIntegerField(
        default=new_seed, editable=False, help_text="Draws round 1 (R-170)."
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["starts_at", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("events:event", args=[self.token])

    # --- settings -----------------------------------------------------------------------------

    @property
    def band(self) -> rf.PointsBand:
        size = rf.GameSize(self.game_size)
        if size is rf.GameSize.CUSTOM:
            return rf.PointsBand("custom", self.points_min or 0, self.points_max or 0)
        return rf.POINTS_BANDS[size]

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    def local(self, moment: datetime) -> datetime:
        return moment.astimezone(self.zone)

    @property
    def edition_info(self) -> editions.EditionInfo | None:
        try:
            return editions.get(self.edition)
        except editions.UnknownEdition:
            return None

    # --- the clock (R-171) ----------------------------------------------------------------------

    def phase(self, now: datetime | None = None) -> Phase:
        now = now or timezone.now()
        if now < self.deadline:
            return Phase.OPEN
        if now < self.reveal_at:
            return Phase.LOCKED
        return Phase.REVEALED

    def editable_fields(self, now: datetime | None = None) -> set[str]:
        """Before the deadline every setting but the edition; after it, only the reveal time
        and the description (R-171)."""
        if self.phase(now) is Phase.OPEN:
            return set(EDITABLE)
        return {"reveal_at", "description"}

    def change(self, by: Any, values: dict[str, Any]) -> list[EventChange]:
        """Apply ``values`` (already validated) and log each changed field; the caller holds
        the row (``select_for_update``) inside a transaction."""
        allowed = self.editable_fields()
        logged = []
        for name, value in values.items():
            if name not in allowed:
                raise ValueError(f"{name} cannot change after the deadline")
            old = getattr(self, name)
            if old != value:
                setattr(self, name, value)
                logged.append(
                    EventChange(event=self, by=by, field=name, old=_shown(old), new=_shown(value))
                )
        if logged:
            self.save()
            EventChange.objects.bulk_create(logged)
        return logged

    def extend_deadline(self, by: Any, deadline: datetime) -> None:
        """A later deadline (the organiser's, any time before the reveal); a reveal that was
        at or before it moves with it (R-171)."""
        if deadline <= self.deadline:
            raise ValueError("An extended deadline is later than the current one.")
        if self.phase() is Phase.REVEALED:
            raise ValueError("The lists are revealed; the deadline can no longer move.")
        values: dict[str, Any] = {"deadline": deadline}
        if self.reveal_at <= deadline:
            values["reveal_at"] = deadline
        logged = []
        for name, value in values.items():
            logged.append(
                EventChange(
                    event=self,
                    by=by,
                    field=name,
                    old=_shown(getattr(self, name)),
                    new=_shown(value),
                )
            )
            setattr(self, name, value)
        self.save(update_fields=list(values))
        EventChange.objects.bulk_create(logged)

    # --- who sees what (R-173) ----------------------------------------------------------------

    def viewer(self, user: Any) -> Viewer:
        if user.is_authenticated and user.pk == self.organiser_id:
            return Viewer(self, Role.ORGANISER, None)
        entry = None
        if user.is_authenticated:
            entry = self.entries.filter(player=user, removed_at=None).first()
        return Viewer(self, Role.PARTICIPANT if entry else Role.VISITOR, entry)

    def active_entries(self) -> models.QuerySet[Entry]:
        return (
            self.entries.filter(removed_at=None)
            .select_related("player")
            .order_by("joined_at", "pk")
        )

    @property
    def full(self) -> bool:
        return self.active_entries().count() >= self.player_cap

    # --- joining and submitting (R-172) -------------------------------------------------------

    def join(self, player: Any) -> Entry:
        """``player`` joins (again, if removed: no); refused when full or after the deadline."""
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=self.pk)
            entry = event.entries.filter(player=player).first()
            if entry is not None:
                if entry.removed_at is not None:
                    raise SubmissionRefused("The organiser removed you from this event.")
                return entry
            if not Event.objects.filter(pk=self.pk, deadline__gt=Now()).exists():
                raise SubmissionRefused("The list deadline has passed; the event is closed.")
            if event.full:
                raise SubmissionRefused(f"The event is full ({event.player_cap} players).")
            return Entry.objects.create(event=event, player=player)

    def judge(self, fleet: Fleet) -> tuple[rf.Fleet, ValidationReport]:
        """The fleet as this event would take it, and its report under the event's edition
        and band; SubmissionRefused with the reason when the event cannot take it."""
        if fleet.in_trash:
            raise SubmissionRefused("That fleet is in the trash; restore it first.")
        if fleet.edition != self.edition:
            built = f"edition {fleet.edition}" if fleet.edition else "the development catalogue"
            raise EditionMismatch(
                f"That list is built under {built}; this event plays edition {self.edition}. "
                "Update the list to it first."
            )
        if self.factions and fleet.faction not in self.factions:
            raise SubmissionRefused("This event does not allow that fleet's faction.")
        band = self.band
        size = rf.GameSize(self.game_size)
        # The list is judged at the event's size, whatever size its builder was set to.
        core = replace(
            fleet.to_core(),
            game_size=size,
            edition=self.edition,
            points_limit=band if size is rf.GameSize.CUSTOM else None,
        )
        report = validate(core, editions.catalog_for(self.edition))
        if not report.legal and not self.allow_illegal:
            codes = ", ".join(sorted({p.code for p in report.errors}))
            raise SubmissionRefused(
                f"This event takes only legal lists, and this one has {len(report.errors)} "
                f"problem{'s' if len(report.errors) != 1 else ''} ({codes}) under the event's "
                f"band ({band.min}–{band.max})."
            )
        return core, report

    def submit(self, player: Any, fleet: Fleet, *, update_edition: bool = False) -> Entry:
        """Store a snapshot of ``fleet`` as ``player``'s list (replacing the last), if the
        database's clock says the deadline has not passed, in the transaction that stores it.
        With ``update_edition`` a list of another edition is first moved to the event's (as the
        builder's banner does, Undo included), in the same transaction: a refusal keeps it
        where it was."""
        if fleet.owner_id != player.pk:
            raise SubmissionRefused("You can submit only a fleet of your own.")
        with transaction.atomic():
            if update_edition and fleet.edition != self.edition and not fleet.in_trash:
                fleet = Fleet.objects.select_for_update().get(pk=fleet.pk)
                try:
                    fleet.change_edition(self.edition)
                except (ValueError, editions.UnknownEdition) as exc:
                    raise SubmissionRefused(str(exc)) from None
            return self._store(player, fleet)

    def _store(self, player: Any, fleet: Fleet) -> Entry:
        snapshot, report = self.judge(fleet)
        with transaction.atomic():
            entry = (
                Entry.objects.select_for_update()
                .filter(event=self, player=player, removed_at=None)
                .first()
            )
            if entry is None:
                raise SubmissionRefused("Join the event before you submit a list.")
            stored = Entry.objects.filter(pk=entry.pk, event__deadline__gt=Now()).update(
                document=rf.fleet_to_dict(snapshot),
                fleet_id=fleet.pk,
                faction=fleet.faction,
                points=report.points,
                legal=report.legal,
                problems=[p.code for p in report.errors],
                submitted_at=Now(),
                review=Entry.Review.PENDING,
                comment="",
            )
            if stored != 1:
                raise SubmissionRefused(
                    "The list deadline has passed: this list was not "
                    "taken (the server's clock decides)."
                )
        entry.refresh_from_db()
        return entry

    # --- rounds and standings (R-170, R-175) -------------------------------------------------

    def swiss_state(self) -> SwissState:
        """The games recorded so far, and who takes part in the rounds: every player with a
        submitted list, and every player who has played; the removed among them withdrawn."""
        games = list(self.games.select_related("a__player", "b__player"))
        played = {g.a_id for g in games} | {g.b_id for g in games if g.b_id is not None}
        entries = [
            e
            for e in self.entries.select_related("player")
            .defer("document")
            .order_by("joined_at", "pk")
            if e.pk in played or (e.removed_at is None and e.submitted)
        ]
        return SwissState(self, entries, games)

    def pair_next_round(self, by: Any) -> list[Game]:
        """Pair the next round (R-175) and log it; ValueError with the reason when it cannot
        be. The caller holds the event's row (``select_for_update``) in a transaction."""
        if self.phase() is not Phase.REVEALED:
            raise ValueError("Rounds are paired once the lists are revealed.")
        state = self.swiss_state()
        if len(state.active) < 2:
            raise ValueError("Two players with a submitted list are needed to pair a round.")
        pairings = swiss.pair_round(
            state.ids, state.swiss_games, seed=self.seed, withdrawn=state.withdrawn
        )
        made = Game.objects.bulk_create(
            Game(
                event=self,
                round=p.round,
                table=p.table,
                a_id=int(p.a),
                b_id=int(p.b) if p.b is not None else None,
            )
            for p in pairings
        )
        tables = sum(1 for p in pairings if not p.is_bye)
        bye = next((state.names[p.a] for p in pairings if p.is_bye), None)
        EventChange.objects.create(
            event=self,
            by=by,
            field="rounds",
            old="",
            new=f"round {pairings[0].round} paired: {tables} table{'s' if tables != 1 else ''}"
            + (f", a bye for {bye}" if bye else ""),
        )
        return made

    def unpair_last_round(self, by: Any) -> int:
        """Take back the last round while none of its results is in; its number."""
        last = self.games.aggregate(models.Max("round"))["round__max"]
        if last is None:
            raise ValueError("No round has been paired yet.")
        if self.games.filter(round=last).exclude(result="").exists():
            raise ValueError(f"Round {last} has results; clear them before taking it back.")
        self.games.filter(round=last).delete()
        EventChange.objects.create(
            event=self, by=by, field="rounds", old="", new=f"round {last} taken back"
        )
        return int(last)


EDITABLE = (
    "name",
    "starts_at",
    "time_zone",
    "place",
    "description",
    "game_size",
    "points_min",
    "points_max",
    "factions",
    "player_cap",
    "deadline",
    "reveal_at",
    "allow_illegal",
    "show_factions",
    "public",
)


def _shown(value: Any) -> str:
    if isinstance(value, datetime):
        return value.astimezone(ZoneInfo("UTC")).strftime("%Y-%m-%d %H:%M UTC")
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "(none)"
    return str(value)


@dataclass(frozen=True)
class Viewer:
    """A viewer of an event: what they may see of each entry (R-173)."""

    event: Event
    role: Role
    entry: Entry | None  # theirs, for a participant

    @property
    def is_organiser(self) -> bool:
        return self.role is Role.ORGANISER

    def sees_list(self, entry: Entry) -> bool:
        """The list, its points, verdict and size: the organiser always; the player their own;
        other participants once revealed; visitors never."""
        if self.is_organiser or (self.entry is not None and entry.pk == self.entry.pk):
            return True
        return self.role is Role.PARTICIPANT and self.event.phase() is Phase.REVEALED

    def sees_faction(self, entry: Entry) -> bool:
        return self.sees_list(entry) or (self.event.show_factions and self.role is not Role.VISITOR)


class Entry(models.Model):
    """A player in an event, with the snapshot of the list they submitted (R-172)."""

    class Review(models.TextChoices):
        PENDING = "pending", "Waiting for the organiser"
        APPROVED = "approved", "Approved"
        RETURNED = "returned", "Sent back"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    # The snapshot: never changed by later edits of the fleet it was taken from.
    fleet = models.ForeignKey(
        Fleet, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    document = models.JSONField(null=True, blank=True, help_text="The list (contract 1).")
    faction = models.SlugField(max_length=100, blank=True)
    points = models.IntegerField(null=True, blank=True)
    legal = models.BooleanField(default=False)
    problems = models.JSONField(default=list, blank=True, help_text="Problem codes.")
    submitted_at = models.DateTimeField(null=True, blank=True)
    review = models.CharField(max_length=10, choices=Review.choices, default=Review.PENDING)
    comment = models.TextField(
        blank=True, max_length=2000, help_text="The organiser's word when sending a list back."
    )

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"

    @property
    def submitted(self) -> bool:
        """A list is in (its snapshot and time are written together): asks nothing of the
        snapshot, so pages listing many entries may leave it unread."""
        return self.submitted_at is not None

    def to_core(self) -> rf.Fleet:
        assert self.document is not None
        return rf.parse_fleet(self.document)


class EventChange(models.Model):
    """One change of an event's settings: who, when, what was and what is (R-171)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="changes")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    field = models.CharField(max_length=40)
    old = models.TextField(blank=True)
    new = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.field}: {self.old} → {self.new}"


class Game(models.Model):
    """One table of one round, or a bye (``b`` empty), with its result (R-170, R-175)."""

    class Result(models.TextChoices):
        NONE = "", "Not played yet"
        A = "a", "First player won"
        B = "b", "Second player won"
        DRAW = "draw", "Draw"

    MAX_VP = 100_000

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveIntegerField()
    table = models.PositiveIntegerField(null=True, blank=True, help_text="Empty for a bye.")
    a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    result = models.CharField(max_length=4, choices=Result.choices, blank=True, default="")
    vp_a = models.PositiveIntegerField(default=0)
    vp_b = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["round", models.F("table").asc(nulls_last=True), "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "round", "a"], name="one_game_a"),
            models.UniqueConstraint(fields=["event", "round", "b"], name="one_game_b"),
            models.UniqueConstraint(fields=["event", "round", "table"], name="one_game_table"),
        ]

    def __str__(self) -> str:
        return f"Round {self.round}, table {self.table or 'bye'}"

    @property
    def is_bye(self) -> bool:
        return self.b_id is None

    @property
    def played(self) -> bool:
        return self.is_bye or self.result != ""

    def to_swiss(self) -> swiss.Game:
        return swiss.Game(
            self.round,
            str(self.a_id),
            str(self.b_id) if self.b_id is not None else None,
            self.result or None,  # type: ignore[arg-type]
            self.vp_a,
            self.vp_b,
        )

    def record(self, by: Any, result: str, vp_a: int, vp_b: int) -> bool:
        """Write (or correct) the result and log it on the event; False if nothing changed.
        The caller holds the event's row in a transaction."""
        if self.is_bye:
            raise ValueError("A bye has no result to record.")
        if result not in self.Result.values:
            raise ValueError("Choose who won, or a draw.")
        if not (0 <= vp_a <= self.MAX_VP and 0 <= vp_b <= self.MAX_VP):
            raise ValueError(f"Victory points are whole numbers from 0 to {self.MAX_VP:,}.")
        if result == "" and (vp_a or vp_b):
            raise ValueError("Victory points need a result: who won, or a draw.")
        old = self.describe()
        self.result, self.vp_a, self.vp_b = result, vp_a, vp_b
        new = self.describe()
        if new == old:
            return False
        self.save(update_fields=["result", "vp_a", "vp_b"])
        EventChange.objects.create(
            event_id=self.event_id,
            by=by,
            field=f"round {self.round} table {self.table}",
            old=old,
            new=new,
        )
        return True

    def describe(self) -> str:
        """The result in words, for the log: names come from the entries."""
        if self.result == "":
            return "not played"
        a, b = self.a.player.get_username(), self.b.player.get_username() if self.b else ""
        winner = {"a": f"{a} won", "b": f"{b} won", "draw": "draw"}[self.result]
        return f"{winner}, {a} {self.vp_a}–{self.vp_b} {b}"


@dataclass(frozen=True)
class SwissState:
    """An event's rounds as ``rules_core.swiss`` takes them: players by entry id (as text), in
    the order they joined (the seed order), and every game recorded."""

    event: Event
    entries: list[Entry]
    games: list[Game]

    @property
    def ids(self) -> list[str]:
        return [str(e.pk) for e in self.entries]

    @property
    def names(self) -> dict[str, str]:
        return {str(e.pk): e.player.get_username() for e in self.entries}

    @property
    def withdrawn(self) -> set[str]:
        return {str(e.pk) for e in self.entries if e.removed_at is not None}

    @property
    def active(self) -> list[Entry]:
        return [e for e in self.entries if e.removed_at is None]

    @property
    def swiss_games(self) -> list[swiss.Game]:
        return [g.to_swiss() for g in self.games]

    def rounds(self) -> list[tuple[int, list[Game]]]:
        """Each round's games, tables in order, the bye last."""
        by_round: dict[int, list[Game]] = {}
        for game in self.games:
            by_round.setdefault(game.round, []).append(game)
        return sorted(by_round.items())

    @property
    def current_round(self) -> int:
        return max((g.round for g in self.games), default=0)

    def standings(self) -> list[swiss.Standing]:
        return swiss.standings(self.ids, self.swiss_games)

    def standings_csv(self) -> str:
        return swiss.standings_csv(self.standings(), self.names)


# --- the organiser's print of every list ---------------------------------------------------

PACK_FORMAT = "1"  # what the pack's PDF looks like; a change makes every pack new


class EventPackQuerySet(OwnedQuerySet):
    """A pack is its organiser's (``fleetbuilder.ownership``)."""


class EventPack(QueuedRender, models.Model):
    """Every list of an event as one PDF for the organiser: a cover page (the event, its
    edition, band and players, each list's verdict and problem codes), then each submitted
    list's roster as the cards print it, under the event's edition, in the dashboard's order.

    Rendered on the task queue (``tasks.render_event_pack``) with the battle packs' life
    (``fleetbuilder.renderjobs``, R-155). The lists are copied into the pack when it is asked
    for, so a later submission never changes it: asking again after one is a new pack (the
    key holds each entry's submission time and the event's edition)."""

    log = logging.getLogger("fleetbuilder.events")
    unreachable = (
        "The print queue could not be reached. Nothing was lost; ask for the lists "
        "again in a moment."
    )
    what_plural = "prints of an event's lists"
    failed = (
        "The lists could not be printed. The error was logged; ask again, and if it "
        "happens again please report it."
    )

    public_id = models.CharField(max_length=32, unique=True, editable=False)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="packs")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="event_packs",
    )
    session_key = models.CharField(max_length=64, blank=True)  # unused: organisers sign in
    lists = models.JSONField(
        help_text="Each player, in the dashboard's order, with the "
        "snapshot of their list (or none)."
    )
    cache_key = models.CharField(max_length=100, db_index=True)
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    stage = models.PositiveIntegerField(
        default=0, help_text="0: waiting; 1: the cover; then one per roster; last: binding."
    )
    error = models.TextField(blank=True, help_text="Why it failed, for the organiser.")
    seconds = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    objects = EventPackQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"Every list of {self.event} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("events:pack", args=[self.event.token, self.public_id])

    @property
    def submitted(self) -> list[dict[str, Any]]:
        """The players' lists the pack prints a roster of."""
        return [row for row in self.lists if row["document"] is not None]

    @property
    def steps(self) -> int:
        return len(self.submitted) + 3

    @property
    def stage_words(self) -> str:
        rosters = len(self.submitted)
        if self.stage <= 1:
            return "cover page"
        if self.stage - 1 <= rosters:
            return f"roster {self.stage - 1} of {rosters}"
        return "binding the pack"

    @property
    def filename(self) -> str:
        from django.utils.text import slugify

        return f"{slugify(self.event.name)[:60] or 'event'}-every-list.pdf"

    @staticmethod
    def snapshot(event: Event) -> list[dict[str, Any]]:
        """Every player of ``event`` in the dashboard's order, with their list as submitted."""
        return [
            {
                "entry": e.pk,
                "player": e.player.get_username(),
                "document": e.document,
                "faction": e.faction,
                "points": e.points,
                "legal": e.legal,
                "problems": e.problems,
                "submitted_at": e.submitted_at.isoformat() if e.submitted_at else None,
            }
            for e in event.active_entries()
        ]

    @staticmethod
    def key_for(event: Event, lists: list[dict[str, Any]]) -> str:
        """What decides the PDF's bytes: the event's edition and cover, each player and the
        time their list was submitted (a snapshot changes only with a new submission), the
        cards' build and this pack's format."""
        cover = [
            event.name,
            event.starts_at.isoformat(),
            event.time_zone,
            event.edition,
            event.game_size,
            event.points_min,
            event.points_max,
        ]
        players = [[row["entry"], row["player"], row["submitted_at"]] for row in lists]
        doc = json.dumps(
            [cover, players, cards_build(), PACK_FORMAT], separators=(",", ":"), ensure_ascii=False
        )
        return "events:pack:" + hashlib.sha256(doc.encode("utf-8")).hexdigest()

    @classmethod
    def start(cls, event: Event, *, owner: Any) -> EventPack:
        """The organiser's pack of the event's lists as they are now: the same one when asked
        again for the same lists (unless it failed), else a new one, queued (R-155's bounds)."""
        lists = cls.snapshot(event)
        return cls.requested(
            owner=owner,
            owner_token="",
            cache_key=cls.key_for(event, lists),
            event=event,
            lists=lists,
        )

    def task(self) -> Any:
        from .tasks import render_event_pack  # the task module imports this one

        return render_event_pack

    def render(self) -> bytes:
        from .pdf import render_event_pack  # the PDF module imports this one

        return render_event_pack(self, progress=self.advance)

    def describe(self) -> str:
        return f"{len(self.submitted)} lists of event {self.event_id}"

    def claim(self, **also: Any) -> bool:
        return super().claim(stage=1, **also)

    def advance(self, stage: int) -> None:
        EventPack.objects.filter(pk=self.pk).update(stage=stage)
        self.stage = stage

    def finish(self, seconds: float, **also: Any) -> None:
        super().finish(seconds, stage=self.steps - 1, **also)
