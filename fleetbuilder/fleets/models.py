"""A saved fleet: its contract-1 document, its versions and Undo.

The document (``Fleet.document``) is the single source of the list; units name ships by slug.
Every edit reads it as rules_core values, asks ``rules_core.edits`` for the next fleet (which
decides what is allowed and refuses with EditRefused), writes the normalised file back, then
re-validates against the cached catalogue and caches the points and the verdict.

Edits to one fleet are serialised: the builder takes the row with ``select_for_update()`` in a
short transaction, checks the version its page was drawn at (``check_version``) and applies
the edit, which bumps ``version``. The write itself only lands on the version it read, so even
an edit made outside the lock can never overwrite a newer document (it raises FleetChanged).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from fleetbuilder.catalog import editions
from fleetbuilder.ownership import OwnedQuerySet
from rules_core import catalog as core
from rules_core import edits
from rules_core import fleet as rf
from rules_core.editions import EditionInfo, FleetComparison, UnknownEdition, compare_fleet
from rules_core.edits import EditRefused
from rules_core.validator import ValidationReport, catalog_index, validate

GAME_SIZE_CHOICES = [(g.value, g.label) for g in rf.GameSize]
DEFAULT_NAME = "Untitled Fleet"
# The session key under which an anonymous browser's owner token is kept. A token in the
# session's data (not the session key itself) survives the key being cycled at login.
# What an edit writes (Fleet._save_edit): the document, the fields mirroring it, Undo's memory.
EDITED_FIELDS = (
    "document",
    "name",
    "faction",
    "variant",
    "game_size",
    "points",
    "legal",
    "last_removed",
    "edition",
    "previous_edition",
)


class FleetChanged(Exception):
    """The fleet is no longer at the version the edit was made against (another tab changed it).

    Nothing was applied: a stale edit may name units by positions that now hold other units.
    """

    message = "This fleet changed in another tab. It has been refreshed; make your change again."

    def __init__(self) -> None:
        super().__init__(self.message)


class FleetQuerySet(OwnedQuerySet):
    def alive(self) -> FleetQuerySet:
        return self.filter(deleted_at=None)

    def shared(self, share_id: str) -> FleetQuerySet:
        """The fleet behind a permalink, if its owner shares it (R-92); trashed ones are not."""
        return self.alive().filter(share_enabled=True, share_id=share_id)

    # --- the Saved Fleets library (fleetbuilder/fleets/library.py) ---------------------------

    def trashed(self) -> FleetQuerySet:
        return self.exclude(deleted_at=None)

    def named_like(self, text: str) -> FleetQuerySet:
        """Fleets whose name contains ``text`` (any case); all of them for an empty text."""
        return self.filter(name__icontains=text) if text else self

    def revalidate(self, catalog: core.Catalog) -> int:
        """Cache every fleet's points and verdict under ``catalog`` (a new catalogue version,
        new prices); the number of fleets whose figures changed. The list itself is never
        touched (a saved fleet keeps its list; its total is what the validator now says), nor
        its version or ``updated``. A row is written only at the version that was read, so an
        edit made meanwhile (which caches its own verdict) is never overwritten."""
        changed = 0
        rows = self.values_list("pk", "version", "document", "points", "legal")
        for pk, version, document, points, legal in rows.iterator(chunk_size=500):
            try:
                report = validate(rf.parse_fleet(document), catalog)
            except rf.FleetFormatError:  # cannot happen for a stored document; never fatal
                continue
            if (report.points, report.legal) != (points, legal):
                changed += self.model.objects.filter(pk=pk, version=version).update(
                    points=report.points, legal=report.legal
                )
        return changed


class Fleet(models.Model):
    # Set on the rows the Saved Fleets page and the trash show (fleets/library.py), not stored.
    changed_ago: str
    deleted_ago: str
    faction_name: str
    variant_name: str
    newer_report: ValidationReport | None  # under the newest edition, where it differs

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="fleets",
    )
    # For anonymous owners: the browser session's owner token (fleetbuilder/ownership.py).
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    name = models.CharField(max_length=rf.MAX_NAME_LENGTH, default=DEFAULT_NAME)
    faction = models.SlugField(max_length=100)
    variant = models.SlugField(max_length=100, blank=True, default="")
    game_size = models.CharField(max_length=10, choices=GAME_SIZE_CHOICES)
    document = models.JSONField(default=dict, help_text="The fleet file (contract 1).")
    # Bumped by every change of the document; the builder's forms carry the version they were
    # drawn at, and an edit made against another version is refused (FleetChanged).
    version = models.PositiveIntegerField(default=1)
    points = models.IntegerField(default=0)
    legal = models.BooleanField(default=False)
    # The unit (or escort) removed last, so it can be put back: {"unit", "ship", "entry"}.
    last_removed = models.JSONField(null=True, blank=True)
    # The catalogue edition the list is priced and judged under, mirroring the
    # document's; null: built while the data files were a development state (it follows them).
    edition = models.PositiveIntegerField(null=True, blank=True)
    # The edition before the last update, so Undo can put it back; any other edit forgets it.
    previous_edition = models.PositiveIntegerField(null=True, blank=True)
    # The newest edition the owner chose to stay away from ("Keep"): its banner stays folded
    # until a newer edition is published.
    kept_edition = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    # Sharing (fleetbuilder/fleets/sharing.py, R-92): a random 128-bit id, never derived from the
    # pk; null until the owner first shares, kept when the link is turned off.
    share_id = models.CharField(max_length=32, unique=True, null=True, blank=True, editable=False)
    share_enabled = models.BooleanField(default=False)

    objects = FleetQuerySet.as_manager()

    class Meta:
        ordering = ["-updated", "-pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("fleets:detail", args=[self.pk])

    # --- creating -------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        *,
        name: str,
        faction: str,
        variant: str | None,
        game_size: str,
        points_limit: tuple[int, int] | None,
        catalog: core.Catalog,
        edition: int | None = None,
        owner: Any = None,
        owner_token: str = "",
    ) -> Fleet:
        size = rf.GameSize(game_size)
        band = None
        if size is rf.GameSize.CUSTOM:
            assert points_limit is not None
            band = rf.PointsBand("custom", *points_limit)
        doc = rf.Fleet(
            faction=faction,
            game_size=size,
            name=name or DEFAULT_NAME,
            variant=variant or None,
            points_limit=band,
            edition=edition,
        )
        fleet = cls(
            owner=owner if owner is not None and owner.is_authenticated else None,
            session_key=owner_token,
        )
        fleet.store(doc, catalog)
        fleet.save()
        return fleet

    # --- reading --------------------------------------------------------------------------

    def catalog(self) -> core.Catalog:
        """The catalogue this list is priced and judged under: its edition's (R-160)."""
        return editions.catalog_for(self.edition)

    def to_core(self) -> rf.Fleet:
        """The document as rules_core values (it was written by ``store``, so it parses)."""
        return rf.parse_fleet(self.document)

    @property
    def band(self) -> rf.PointsBand:
        limit = self.document.get("points_limit")
        if limit:
            return rf.PointsBand("custom", limit["min"], limit["max"])
        return rf.POINTS_BANDS[rf.GameSize(self.game_size)]

    @property
    def game_size_label(self) -> str:
        return rf.GameSize(self.game_size).label

    @property
    def unit_count(self) -> int:
        return len(self.document.get("units", []))

    @property
    def ship_count(self) -> int:
        return sum(
            len(u["ships"]) if u["kind"] == "squadron" else 1
            for u in self.document.get("units", [])
        )

    # --- writing --------------------------------------------------------------------------

    def store(self, fleet: rf.Fleet, catalog: core.Catalog) -> ValidationReport:
        """Write ``fleet`` as the document, mirror its fields and cache the verdict. A list
        that names no edition stays on the fleet's own (an edition changes only by
        ``change_edition``, R-162)."""
        if fleet.edition is None and self.edition is not None:
            fleet = replace(fleet, edition=self.edition)
        self.document = rf.fleet_to_dict(fleet)
        self.name = fleet.name or DEFAULT_NAME
        self.faction = fleet.faction
        self.variant = fleet.variant or ""
        self.game_size = fleet.game_size.value
        self.edition = fleet.edition
        report = validate(fleet, catalog)
        self.points = report.points
        self.legal = report.legal
        self._report = (catalog, report)
        return report

    def report(self, catalog: core.Catalog) -> ValidationReport:
        """The validation report of the stored document (kept from the last edit if any)."""
        cached = getattr(self, "_report", None)
        if cached is not None and cached[0] is catalog:
            return cached[1]
        report = validate(self.to_core(), catalog)
        self._report = (catalog, report)
        return report

    def apply(
        self,
        catalog: core.Catalog,
        units: list[rf.Unit],
        *,
        removed: dict[str, Any] | None = None,
        previous_edition: int | None = None,
        **changes: Any,
    ) -> ValidationReport:
        """Store the fleet with new ``units`` (and other field changes), then save.

        Any edit but a removal forgets the last removal, and any edit but an edition update
        forgets the edition before it: Undo puts back only what was just done.
        """
        fleet = replace(self.to_core(), units=tuple(units), **changes)
        edits.check_bounds(fleet, catalog)
        return self._store_edit(fleet, catalog, removed=removed, previous_edition=previous_edition)

    def _store_edit(
        self,
        fleet: rf.Fleet,
        catalog: core.Catalog,
        *,
        removed: dict[str, Any] | None = None,
        previous_edition: int | None = None,
    ) -> ValidationReport:
        """Store ``fleet`` (checked by the caller) as an edit: Undo remembers only ``removed``
        and ``previous_edition``; the version is bumped (``_save_edit``)."""
        report = self.store(fleet, catalog)
        self.last_removed = removed
        self.previous_edition = previous_edition
        self._save_edit()
        return report

    # --- editions (R-160) -------------------------------------------------------------------

    def change_edition(self, number: int) -> ValidationReport:
        """Move the list to edition ``number`` (its units unchanged); Undo moves it back."""
        if number == self.edition:
            raise EditRefused(f"This list is already on edition {number}.")
        catalog = editions.catalog_for(number)  # UnknownEdition for one this server lacks
        return self.apply(
            catalog, list(self.to_core().units), edition=number, previous_edition=self.edition
        )

    def undo_edition(self) -> ValidationReport:
        """Put the list back on the edition it had before its last update."""
        previous = self.previous_edition
        if previous is None:
            raise EditRefused("There is no edition update to undo.")
        return self.apply(
            editions.catalog_for(previous), list(self.to_core().units), edition=previous
        )

    def edition_news(self) -> EditionNews:
        """Its edition, the newest one and, if that is newer, the list under it."""
        own = self._edition_info(self.edition)
        newest = editions.latest()
        comparison = None
        if own is not None and newest is not None and newest.number > own.number:
            comparison = self.compare_with(newest.number)
        kept = (
            comparison is not None
            and newest is not None
            and (self.kept_edition or 0) >= newest.number
        )
        return EditionNews(own, newest, comparison, kept, self._edition_info(self.previous_edition))

    def compare_with(self, number: int) -> FleetComparison:
        """The list under its own edition and under edition ``number`` (UnknownEdition if
        there is none such)."""
        own = self.catalog()
        return compare_fleet(
            self.to_core(), own, editions.catalog_for(number), old_report=self.report(own)
        )

    @staticmethod
    def _edition_info(number: int | None) -> EditionInfo | None:
        if number is None:
            return None
        try:
            return editions.get(number)
        except UnknownEdition:
            return None

    def keep_edition(self, newest: int) -> None:
        """Stay on this edition: fold the banner of every edition up to ``newest``."""
        self.kept_edition = newest
        self.save(update_fields=["kept_edition"])

    def check_version(self, version: int | None) -> None:
        """Refuse an edit made against another version (None: the sender did not say)."""
        if version is not None and version != self.version:
            raise FleetChanged

    def _save_edit(self) -> None:
        """Write the edited document and bump the version, only over the version it was read at.

        Under the builder's row lock this always lands; an edit made on a stale copy without
        the lock (a script, a test) raises FleetChanged instead of losing a newer change.
        """
        self.updated = timezone.now()
        written = Fleet.objects.filter(pk=self.pk, version=self.version).update(
            version=self.version + 1,
            updated=self.updated,
            **{name: getattr(self, name) for name in EDITED_FIELDS},
        )
        if written != 1:
            raise FleetChanged
        self.version += 1

    # --- edits: rules_core.edits decides each; the fleet stores what it returns -------------

    def _commit(
        self,
        catalog: core.Catalog,
        before: rf.Fleet,
        after: rf.Fleet,
        *,
        removed: dict[str, Any] | None = None,
    ) -> None:
        """Store an edit's result (already held to every rule and bound), unless it changed
        nothing (``after is before``): then nothing is written and Undo is kept."""
        if after is not before:
            self._store_edit(after, catalog, removed=removed)

    def settings_changed(
        self,
        catalog: core.Catalog,
        *,
        name: str,
        variant: str | None,
        game_size: str,
        points_limit: tuple[int, int] | None,
    ) -> ValidationReport:
        fleet = edits.change_settings(
            self.to_core(),
            catalog,
            name=name or DEFAULT_NAME,
            variant=variant,
            game_size=game_size,
            points_limit=points_limit,
        )
        return self._store_edit(fleet, catalog)

    def add_ship(self, catalog: core.Catalog, slug: str) -> tuple[int, bool]:
        """The ship list's Add (R-180): the unit it went to, and whether that unit is new."""
        before = self.to_core()
        after, unit, new = edits.add_ship(before, catalog, slug)
        self._commit(catalog, before, after)
        return unit, new

    def new_squadron(self, catalog: core.Catalog, name: str | None = None) -> int:
        before = self.to_core()
        self._commit(catalog, before, edits.new_squadron(before, catalog, name))
        return self.unit_count - 1

    def add_escort(self, catalog: core.Catalog, i: int, slug: str) -> None:
        before = self.to_core()
        self._commit(catalog, before, edits.add_escort(before, catalog, i, slug))

    def move_escort(self, catalog: core.Catalog, i: int, j: int, to: int | None) -> None:
        before = self.to_core()
        self._commit(catalog, before, edits.move_escort(before, catalog, i, j, to))

    def set_flagship(self, catalog: core.Catalog, i: int) -> None:
        before = self.to_core()
        self._commit(catalog, before, edits.set_flagship(before, catalog, i))

    def set_admiral(self, catalog: core.Catalog, i: int, slug: str | None) -> None:
        before = self.to_core()
        self._commit(catalog, before, edits.set_admiral(before, catalog, i, slug))

    def add_upgrade(self, catalog: core.Catalog, i: int, j: int | None, slug: str) -> None:
        before = self.to_core()
        self._commit(catalog, before, edits.add_upgrade(before, catalog, i, j, slug))

    def remove_upgrade(self, catalog: core.Catalog, i: int, j: int | None, slug: str) -> None:
        before = self.to_core()
        self._commit(catalog, before, edits.remove_upgrade(before, catalog, i, j, slug))

    def set_upgrades(
        self, catalog: core.Catalog, i: int, j: int | None, wanted: list[str]
    ) -> tuple[list[str], list[str]]:
        """The editor's boxes: (fitted, taken off); saves only on a change."""
        before = self.to_core()
        after, fitted, taken_off = edits.set_upgrades(before, catalog, i, j, wanted)
        self._commit(catalog, before, after)
        return fitted, taken_off

    def set_squadron_upgrades(
        self, catalog: core.Catalog, i: int, wanted: list[str]
    ) -> tuple[list[str], list[str]]:
        """Squadron-wide refits (R-151): (fitted, taken off); saves only on a change."""
        before = self.to_core()
        after, fitted, taken_off = edits.set_squadron_upgrades(before, catalog, i, wanted)
        self._commit(catalog, before, after)
        return fitted, taken_off

    def move_unit(self, catalog: core.Catalog, i: int, to: int) -> int:
        """Unit ``i`` to place ``to``: its new place; saves only when it moved."""
        before = self.to_core()
        after, at = edits.move_unit(before, catalog, i, to)
        self._commit(catalog, before, after)
        return at

    def rename_unit(self, catalog: core.Catalog, i: int, name: str) -> None:
        before = self.to_core()
        self._commit(catalog, before, edits.rename_unit(before, catalog, i, name))

    def duplicate(self, catalog: core.Catalog, i: int, j: int | None = None) -> None:
        before = self.to_core()
        self._commit(catalog, before, edits.duplicate(before, catalog, i, j))

    # --- Undo of a removal ------------------------------------------------------------------

    def remove(self, catalog: core.Catalog, i: int, j: int | None = None) -> None:
        """Remove unit ``i`` (or escort ``j`` of squadron ``i``), remembering it for Undo."""
        before = self.to_core()
        after, memo = edits.remove(before, catalog, i, j)
        self._commit(catalog, before, after, removed=memo)

    def undo_remove(self, catalog: core.Catalog) -> None:
        before = self.to_core()
        self._commit(catalog, before, edits.undo_remove(before, catalog, self.last_removed))

    def removed_label(self, catalog: core.Catalog) -> str:
        """What Undo would put back, in words."""
        removed = self.last_removed or {}
        entry = removed.get("entry") or {}
        if entry.get("kind") == "squadron":
            return f"“{entry['name']}”" if entry.get("name") else "a squadron"
        name = catalog_index(catalog).ship_name(entry.get("ship", ""))
        return f"“{entry['name']}” ({name})" if entry.get("name") else name

    # --- the Saved Fleets library: rename, copy, trash ---------------------------------------

    def rename(self, name: str) -> None:
        """Give the fleet a new name (empty: the default); Undo of a removal is kept.

        Saved Fleets renames without a builder page's version: the row is locked and read again,
        so a change made meanwhile (in a builder tab) is kept, not overwritten.
        """
        with transaction.atomic():
            locked = Fleet.objects.select_for_update().get(pk=self.pk)
            locked.store(
                replace(locked.to_core(), name=name.strip() or DEFAULT_NAME), locked.catalog()
            )
            locked._save_edit()
        for field in (*EDITED_FIELDS, "version", "updated"):
            setattr(self, field, getattr(locked, field))
        self._report = locked._report

    def copy(self, *, owner: Any = None, owner_token: str = "", name: str | None = None) -> Fleet:
        """A new fleet with this one's list, on its edition, owned by ``owner`` or the browser
        of the token. Named "Copy of <name>" unless ``name`` is given; nothing else (Undo,
        trash, a kept edition) is copied."""
        prefix = "Copy of "
        name = name or prefix + self.name[: rf.MAX_NAME_LENGTH - len(prefix)]
        fleet = Fleet(
            owner=owner if owner is not None and owner.is_authenticated else None,
            session_key=owner_token,
        )
        fleet.store(replace(self.to_core(), name=name), self.catalog())
        fleet.save()
        return fleet

    @property
    def in_trash(self) -> bool:
        return self.deleted_at is not None

    def trash(self) -> None:
        """Move the fleet to its owner's trash, from which ``restore`` brings it back."""
        if self.deleted_at is None:
            self.deleted_at = timezone.now()
            self.save(update_fields=["deleted_at"])

    def restore(self) -> None:
        if self.deleted_at is not None:
            self.deleted_at = None
            self.save(update_fields=["deleted_at"])

    # --- sharing (fleetbuilder/fleets/sharing.py) -------------------------------------------

    @classmethod
    def from_core(
        cls, fleet: rf.Fleet, catalog: core.Catalog, *, owner: Any = None, owner_token: str = ""
    ) -> Fleet:
        """A new fleet holding ``fleet`` (an import or a copy of a shared list), saved."""
        new = cls(
            owner=owner if owner is not None and owner.is_authenticated else None,
            session_key=owner_token,
        )
        new.store(fleet, catalog)
        new.save()
        return new

    def share_url_path(self) -> str | None:
        """The permalink's path while the owner shares this fleet (and it is not trashed)."""
        if not self.share_enabled or not self.share_id or self.deleted_at is not None:
            return None
        return reverse("shared:fleet", args=[self.share_id])

    @staticmethod
    def new_share_id() -> str:
        return secrets.token_urlsafe(16)  # 128 random bits, 22 URL-safe characters

    def _fresh_share_id(self) -> str:
        while True:
            candidate = self.new_share_id()
            if not Fleet.objects.filter(share_id=candidate).exists():
                return candidate

    def share(self) -> None:
        """Turn the permalink on; it is the same link as before it was turned off (R-92)."""
        if not self.share_id:
            self.share_id = self._fresh_share_id()
        self.share_enabled = True
        self.save(update_fields=["share_id", "share_enabled"])

    def unshare(self) -> None:
        """Turn the permalink off: it answers 404 until it is turned on again."""
        self.share_enabled = False
        self.save(update_fields=["share_enabled"])

    def new_share_link(self) -> None:
        """Replace the permalink with a new one (shared); the old one is dead for good (R-92)."""
        self.share_id = self._fresh_share_id()
        self.share_enabled = True
        self.save(update_fields=["share_id", "share_enabled"])


@dataclass(frozen=True)
class EditionNews:
    """What the builder's edition banner says about a list (R-160, R-162)."""

    own: EditionInfo | None  # None: built in a development state
    newest: EditionInfo | None
    comparison: FleetComparison | None  # the list under ``newest``, when that is newer
    kept: bool  # the owner chose to stay on ``own`` with ``newest`` out
    undo_to: EditionInfo | None  # the edition before the last update, while Undo can return

    @property
    def newer(self) -> bool:
        return self.comparison is not None

    @property
    def total_delta(self) -> int:
        return self.comparison.new.points - self.comparison.old.points if self.comparison else 0


def revalidate_saved_fleets(sender: object, catalog: core.Catalog, **kwargs: Any) -> None:
    """``catalogue_loaded``: only lists built in a development state (no edition) follow the
    data files; every other list keeps its edition's totals and verdict (R-160)."""
    Fleet.objects.filter(edition=None).revalidate(catalog)
