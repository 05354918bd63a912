"""A saved fleet: its contract-1 document and the edits the builder makes to it.

The document (``Fleet.document``) is the single source of the list; units name ships by slug.
Every edit reads it as rules_core values, transforms them and writes the normalised file back,
then re-validates against the cached catalogue and caches the points and the verdict.

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
from rules_core import fleet as rf
from rules_core.editions import EditionInfo, FleetComparison, UnknownEdition, compare_fleet
from rules_core.validator import (
    CatalogIndex,
    ValidationReport,
    catalog_index,
    upgrade_refusal,
    validate,
)

from .limits import edit_refusal

GAME_SIZE_CHOICES = [(g.value, g.label) for g in rf.GameSize]
DEFAULT_NAME = "Untitled Fleet"
MAX_ESCORTS_PER_SQUADRON = 4
# The session key under which an anonymous browser's owner token is kept. A token in the
# session's data (not the session key itself) survives the key being cycled at login.
OWNER_TOKEN_SESSION_KEY = "fleet_owner_token"
# What an edit writes (Fleet._save_edit): the document, the fields mirroring it, Undo's memory.
EDITED_FIELDS = ("document", "name", "faction", "variant", "game_size", "points", "legal",
                 "last_removed", "edition", "previous_edition")


def session_owner_token(session: Any, *, create: bool = False) -> str | None:
    """The owner token of an anonymous browser, kept in its session's data (one rule for fleets
    and simulator runs); with ``create``, a new one is made and stored when there is none."""
    token = session.get(OWNER_TOKEN_SESSION_KEY)
    if token is None and create:
        token = Fleet.new_owner_token()
        session[OWNER_TOKEN_SESSION_KEY] = token
    return token


class EditError(ValueError):
    """An edit the builder refuses (a stale index, a ship of another list, a barred upgrade).

    The message is shown to the player as it is.
    """


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
                    points=report.points, legal=report.legal)
        return changed


class Fleet(models.Model):
    # Set on the rows the Saved Fleets page and the trash show (fleets/library.py), not stored.
    changed_ago: str
    deleted_ago: str
    faction_name: str
    variant_name: str
    newer_report: ValidationReport | None  # under the newest edition, where it differs

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="fleets",
    )
    # For anonymous owners: the browser session's owner token (see OWNER_TOKEN_SESSION_KEY).
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
    share_id = models.CharField(max_length=32, unique=True, null=True, blank=True,
                                editable=False)
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
    def start(cls, *, name: str, faction: str, variant: str | None, game_size: str,
              points_limit: tuple[int, int] | None, catalog: core.Catalog,
              edition: int | None = None, owner: Any = None, owner_token: str = "") -> Fleet:
        size = rf.GameSize(game_size)
        band = None
        if size is rf.GameSize.CUSTOM:
            assert points_limit is not None
            band = rf.PointsBand("custom", *points_limit)
        doc = rf.Fleet(faction=faction, game_size=size, name=name or DEFAULT_NAME,
                       variant=variant or None, points_limit=band, edition=edition)
        fleet = cls(owner=owner if owner is not None and owner.is_authenticated else None,
                    session_key=owner_token)
        fleet.store(doc, catalog)
        fleet.save()
        return fleet

    @staticmethod
    def new_owner_token() -> str:
        return secrets.token_urlsafe(24)

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
        return sum(len(u["ships"]) if u["kind"] == "squadron" else 1
                   for u in self.document.get("units", []))

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

    def apply(self, catalog: core.Catalog, units: list[rf.Unit], *,
              removed: dict[str, Any] | None = None, previous_edition: int | None = None,
              **changes: Any) -> ValidationReport:
        """Store the fleet with new ``units`` (and other field changes), then save.

        Any edit but a removal forgets the last removal, and any edit but an edition update
        forgets the edition before it: Undo puts back only what was just done.
        """
        fleet = replace(self.to_core(), units=tuple(units), **changes)
        if len(fleet.units) > rf.MAX_UNITS:
            raise EditError(f"A fleet holds at most {rf.MAX_UNITS} units.")
        refusal = edit_refusal(fleet, catalog)
        if refusal:
            raise EditError(refusal)
        report = self.store(fleet, catalog)
        self.last_removed = removed
        self.previous_edition = previous_edition
        self._save_edit()
        return report

    # --- editions (R-160) -------------------------------------------------------------------

    def change_edition(self, number: int) -> ValidationReport:
        """Move the list to edition ``number`` (its units unchanged); Undo moves it back."""
        if number == self.edition:
            raise EditError(f"This list is already on edition {number}.")
        catalog = editions.catalog_for(number)  # UnknownEdition for one this server lacks
        return self.apply(catalog, self._units(), edition=number,
                          previous_edition=self.edition)

    def undo_edition(self) -> ValidationReport:
        """Put the list back on the edition it had before its last update."""
        previous = self.previous_edition
        if previous is None:
            raise EditError("There is no edition update to undo.")
        return self.apply(editions.catalog_for(previous), self._units(), edition=previous)

    def edition_news(self) -> EditionNews:
        """Its edition, the newest one and, if that is newer, the list under it."""
        own = self._edition_info(self.edition)
        newest = editions.latest()
        comparison = None
        if own is not None and newest is not None and newest.number > own.number:
            comparison = self.compare_with(newest.number)
        kept = (comparison is not None and newest is not None
                and (self.kept_edition or 0) >= newest.number)
        return EditionNews(own, newest, comparison, kept,
                           self._edition_info(self.previous_edition))

    def compare_with(self, number: int) -> FleetComparison:
        """The list under its own edition and under edition ``number`` (UnknownEdition if
        there is none such)."""
        own = self.catalog()
        return compare_fleet(self.to_core(), own, editions.catalog_for(number),
                             old_report=self.report(own))

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
            version=self.version + 1, updated=self.updated,
            **{name: getattr(self, name) for name in EDITED_FIELDS},
        )
        if written != 1:
            raise FleetChanged
        self.version += 1

    def _units(self) -> list[rf.Unit]:
        return list(self.to_core().units)

    def _unit(self, units: list[rf.Unit], i: int) -> rf.Unit:
        if not 0 <= i < len(units):
            raise EditError("That unit is no longer in the fleet; the page has been refreshed.")
        return units[i]

    def _squadron(self, units: list[rf.Unit], i: int) -> rf.Squadron:
        unit = self._unit(units, i)
        if not isinstance(unit, rf.Squadron):
            raise EditError("That unit is not a squadron.")
        return unit

    def _ship_unit(self, units: list[rf.Unit], i: int) -> rf.ShipUnit:
        unit = self._unit(units, i)
        if not isinstance(unit, rf.ShipUnit):
            raise EditError("That unit is a squadron, not a ship.")
        return unit

    def _profile(self, slug: str, catalog: core.Catalog) -> core.ShipProfile:
        faction = catalog.faction(self.faction)
        profile = faction.ship(slug) if faction else None
        if profile is None:
            raise EditError("That ship is not in this fleet's list.")
        return profile

    def settings_changed(self, catalog: core.Catalog, *, name: str, variant: str | None,
                         game_size: str, points_limit: tuple[int, int] | None) -> ValidationReport:
        size = rf.GameSize(game_size)
        band = rf.PointsBand("custom", *points_limit) if size is rf.GameSize.CUSTOM and \
            points_limit else None
        return self.apply(catalog, self._units(), name=name or DEFAULT_NAME,
                          variant=variant or None, game_size=size, points_limit=band)

    def add_ship(self, catalog: core.Catalog, slug: str) -> tuple[int, bool]:
        """Add a ship from the list: a capital ship as its own unit; an escort joins the last
        squadron of its type that has room, else starts a new squadron (R-180).

        Returns the index of the unit it went to, and whether that unit is new.
        """
        profile = self._profile(slug, catalog)
        units = self._units()
        if profile.is_escort:
            joins = self.squadron_for_escort(units, slug)
            if joins is not None:
                squadron = units[joins]
                assert isinstance(squadron, rf.Squadron)
                units[joins] = replace(squadron, ships=(*squadron.ships, rf.SquadronShip(slug)))
                self.apply(catalog, units)
                return joins, False
            units.append(rf.Squadron(ships=(rf.SquadronShip(slug),)))
        else:
            units.append(rf.ShipUnit(ship=slug, flagship=not self._has_flagship(units)))
        self.apply(catalog, units)
        return len(units) - 1, True

    @staticmethod
    def squadron_for_escort(units: list[rf.Unit], slug: str) -> int | None:
        """The squadron an escort added from the ship list joins (R-180): the last one with room
        (R-07's four) whose escorts are all of its type, or that has none yet (a squadron the
        player started with New squadron). Types may mix (R-07), but only when the player
        asks: a squadron of another type is never joined unasked."""
        for i in range(len(units) - 1, -1, -1):
            unit = units[i]
            if (isinstance(unit, rf.Squadron) and len(unit.ships) < MAX_ESCORTS_PER_SQUADRON
                    and all(escort.ship == slug for escort in unit.ships)):
                return i
        return None

    @staticmethod
    def _has_flagship(units: list[rf.Unit]) -> bool:
        return any(isinstance(u, rf.ShipUnit) and u.flagship for u in units)

    def new_squadron(self, catalog: core.Catalog, name: str | None = None) -> int:
        units = self._units()
        units.append(rf.Squadron(ships=(), name=name or None))
        self.apply(catalog, units)
        return len(units) - 1

    def add_escort(self, catalog: core.Catalog, i: int, slug: str) -> None:
        profile = self._profile(slug, catalog)
        if not profile.is_escort:
            raise EditError(f"{profile.name} is a capital ship; only escorts fly in squadrons.")
        units = self._units()
        squadron = self._squadron(units, i)
        units[i] = replace(squadron, ships=(*squadron.ships, rf.SquadronShip(slug)))
        self.apply(catalog, units)

    def move_escort(self, catalog: core.Catalog, i: int, j: int, to: int | None) -> None:
        """Move escort ``j`` of squadron ``i`` into squadron ``to`` (None: a new squadron).

        A squadron the move leaves empty is removed.
        """
        units = self._units()
        source = self._squadron(units, i)
        if not 0 <= j < len(source.ships):
            raise EditError("That escort is no longer in the squadron.")
        if to == i:
            return
        escort = source.ships[j]
        if to is None:
            units.append(rf.Squadron(ships=(escort,)))
        else:
            target = self._squadron(units, to)
            units[to] = replace(target, ships=(*target.ships, escort))
        rest = source.ships[:j] + source.ships[j + 1:]
        units[i] = replace(source, ships=rest)
        if not rest:
            del units[i]
        self.apply(catalog, units)

    def set_flagship(self, catalog: core.Catalog, i: int) -> None:
        """Make ship unit ``i`` the flagship; the admiral moves with the flag (R-05, R-06)."""
        units = self._units()
        chosen = self._ship_unit(units, i)
        admiral = next((u.admiral for u in units if isinstance(u, rf.ShipUnit) and u.admiral),
                       None)
        profile = self._profile(chosen.ship, catalog)
        if profile.is_escort:
            raise EditError("An escort cannot be the flagship; choose a capital ship (R-05).")
        units = [replace(u, flagship=(n == i), admiral=admiral if n == i else None)
                 if isinstance(u, rf.ShipUnit) else u for n, u in enumerate(units)]
        self.apply(catalog, units)

    def set_admiral(self, catalog: core.Catalog, i: int, slug: str | None) -> None:
        units = self._units()
        unit = self._ship_unit(units, i)
        if slug is not None:
            if catalog.admiral(slug) is None:
                raise EditError("There is no such admiral rank.")
            if not unit.flagship:
                raise EditError("An admiral serves on the flagship; make this ship the "
                                "flagship first (R-06).")
        units = [replace(u, admiral=slug if n == i else None)
                 if isinstance(u, rf.ShipUnit) else u for n, u in enumerate(units)]
        self.apply(catalog, units)

    def _ship_at(self, units: list[rf.Unit], i: int, j: int | None
                 ) -> rf.ShipUnit | rf.SquadronShip:
        unit = self._unit(units, i)
        if isinstance(unit, rf.ShipUnit):
            return unit
        if j is None or not 0 <= j < len(unit.ships):
            raise EditError("That escort is no longer in the squadron.")
        return unit.ships[j]

    def _put_ship(self, units: list[rf.Unit], i: int, j: int | None,
                  ship: rf.ShipUnit | rf.SquadronShip) -> None:
        unit = units[i]
        if isinstance(unit, rf.ShipUnit):
            assert isinstance(ship, rf.ShipUnit)
            units[i] = ship
        else:
            assert j is not None and isinstance(ship, rf.SquadronShip)
            units[i] = replace(unit, ships=unit.ships[:j] + (ship,) + unit.ships[j + 1:])

    def add_upgrade(self, catalog: core.Catalog, i: int, j: int | None, slug: str) -> None:
        units = self._units()
        ship = self._ship_at(units, i, j)
        option = next((o for o in self.upgrade_options(catalog, ship.ship, ship.upgrades, units)
                       if o.upgrade.slug == slug), None)
        if option is None:
            raise EditError("That upgrade is not in this fleet's list.")
        if option.reason:
            raise EditError(option.reason)
        self._put_ship(units, i, j, replace(ship, upgrades=(*ship.upgrades, slug)))
        self.apply(catalog, units)

    def remove_upgrade(self, catalog: core.Catalog, i: int, j: int | None, slug: str) -> None:
        units = self._units()
        ship = self._ship_at(units, i, j)
        if slug not in ship.upgrades:
            raise EditError("That ship does not carry that upgrade.")
        kept = list(ship.upgrades)
        kept.remove(slug)
        self._put_ship(units, i, j, replace(ship, upgrades=tuple(kept)))
        self.apply(catalog, units)

    def set_upgrades(self, catalog: core.Catalog, i: int, j: int | None,
                     wanted: list[str]) -> tuple[list[str], list[str]]:
        """Fit exactly ``wanted`` to ship ``j`` of unit ``i`` (the ticked boxes of its editor):
        what it carries and is not wanted comes off, what is wanted and new is fitted, each
        checked as Add would (R-30, R-31, R-150). Returns (fitted, taken off); saves only on a
        change."""
        units = self._units()
        ship = self._ship_at(units, i, j)
        keep = set(wanted)
        taken_off = list(dict.fromkeys(s for s in ship.upgrades if s not in keep))
        fitted = [s for s in wanted if s not in ship.upgrades]
        ship = replace(ship, upgrades=tuple(s for s in ship.upgrades if s in keep))
        self._put_ship(units, i, j, ship)
        for slug in fitted:
            self._check_fit(catalog, units, ship, slug)
            ship = replace(ship, upgrades=(*ship.upgrades, slug))
            self._put_ship(units, i, j, ship)
        if fitted or taken_off:
            self.apply(catalog, units)
        return fitted, taken_off

    def set_squadron_upgrades(self, catalog: core.Catalog, i: int,
                              wanted: list[str]) -> tuple[list[str], list[str]]:
        """Squadron-wide refits (R-151): each upgrade in ``wanted`` is fitted to every escort of
        squadron ``i`` that lacks it, all or nothing; one every escort carries and ``wanted``
        leaves out comes off them all. An upgrade only some escorts carry and ``wanted`` leaves
        out is left as it is (chosen escort by escort). Returns (fitted, taken off)."""
        units = self._units()
        squadron = self._squadron(units, i)
        if not squadron.ships:
            raise EditError("This squadron has no escorts yet.")
        keep = set(wanted)

        def on_every(slug: str) -> bool:
            return all(slug in e.upgrades for e in squadron.ships)

        carried = dict.fromkeys(s for e in squadron.ships for s in e.upgrades)
        taken_off = [s for s in carried if s not in keep and on_every(s)]
        fitted = [s for s in wanted if not on_every(s)]
        ships = [replace(e, upgrades=tuple(s for s in e.upgrades if s not in taken_off))
                 for e in squadron.ships]
        units[i] = replace(squadron, ships=tuple(ships))
        names = catalog_index(catalog)
        for slug in fitted:
            for n, escort in enumerate(ships):
                if slug in escort.upgrades:
                    continue
                try:
                    self._check_fit(catalog, units, escort, slug)
                except EditError as exc:
                    raise EditError(f"Not fitted to the squadron: escort {n + 1} "
                                    f"({names.ship_name(escort.ship)}): {exc}") from None
                ships[n] = replace(escort, upgrades=(*escort.upgrades, slug))
                units[i] = replace(squadron, ships=tuple(ships))
        if fitted or taken_off:
            self.apply(catalog, units)
        return fitted, taken_off

    def _check_fit(self, catalog: core.Catalog, units: list[rf.Unit],
                   ship: rf.ShipUnit | rf.SquadronShip, slug: str) -> None:
        """Refuse fitting ``slug`` to ``ship`` (as it stands in ``units``) with the reason."""
        option = next((o for o in self.upgrade_options(catalog, ship.ship, ship.upgrades, units)
                       if o.upgrade.slug == slug), None)
        if option is None:
            raise EditError("That upgrade is not in this fleet's list.")
        if option.reason:
            raise EditError(option.reason)

    def move_unit(self, catalog: core.Catalog, i: int, to: int) -> int:
        """Move unit ``i`` to place ``to`` in the list (kept within it); the units between shift
        by one. Returns its new place; saves only when it moved."""
        units = self._units()
        unit = self._unit(units, i)
        to = max(0, min(to, len(units) - 1))
        if to != i:
            del units[i]
            units.insert(to, unit)
            self.apply(catalog, units)
        return to

    def rename_unit(self, catalog: core.Catalog, i: int, name: str) -> None:
        units = self._units()
        unit = self._unit(units, i)
        units[i] = replace(unit, name=name.strip() or None)
        self.apply(catalog, units)

    def duplicate(self, catalog: core.Catalog, i: int, j: int | None = None) -> None:
        """Copy a ship next to itself: a capital ship (never flagship or admiral) or an escort."""
        units = self._units()
        unit = self._unit(units, i)
        if isinstance(unit, rf.ShipUnit):
            units.insert(i + 1, replace(unit, flagship=False, admiral=None))
        else:
            escort = self._ship_at(units, i, j)
            assert j is not None and isinstance(escort, rf.SquadronShip)
            units[i] = replace(unit, ships=unit.ships[:j + 1] + (escort,) + unit.ships[j + 1:])
        self.apply(catalog, units)

    def remove(self, catalog: core.Catalog, i: int, j: int | None = None) -> None:
        """Remove unit ``i`` (or escort ``j`` of squadron ``i``), remembering it for Undo."""
        units = self._units()
        unit = self._unit(units, i)
        if isinstance(unit, rf.ShipUnit) or j is None:
            del units[i]
            entry = rf.fleet_to_dict(rf.Fleet(self.faction, rf.GameSize.PATROL, (unit,)))
            removed = {"unit": i, "ship": None, "entry": entry["units"][0]}
        else:
            escort = self._ship_at(units, i, j)
            assert isinstance(escort, rf.SquadronShip)
            units[i] = replace(unit, ships=unit.ships[:j] + unit.ships[j + 1:])
            removed = {"unit": i, "ship": j,
                       "entry": {"ship": escort.ship, "upgrades": list(escort.upgrades)}}
        self.apply(catalog, units, removed=removed)

    def undo_remove(self, catalog: core.Catalog) -> None:
        removed = self.last_removed
        if not removed:
            raise EditError("There is nothing to undo.")
        units = self._units()
        i = min(int(removed["unit"]), len(units))
        if removed["ship"] is None:
            doc = {**self.document, "units": [removed["entry"]]}
            unit = rf.parse_fleet(doc).units[0]
            if isinstance(unit, rf.ShipUnit) and unit.flagship and self._has_flagship(units):
                unit = replace(unit, flagship=False, admiral=None)
            units.insert(i, unit)
        else:
            escort = rf.SquadronShip(removed["entry"]["ship"],
                                     tuple(removed["entry"]["upgrades"]))
            target = units[i] if i < len(units) else None
            if isinstance(target, rf.Squadron):
                j = min(int(removed["ship"]), len(target.ships))
                units[i] = replace(target, ships=target.ships[:j] + (escort,) + target.ships[j:])
            else:
                units.insert(i, rf.Squadron(ships=(escort,)))
        self.apply(catalog, units)

    def removed_label(self, catalog: core.Catalog) -> str:
        """What Undo would put back, in words."""
        removed = self.last_removed or {}
        entry = removed.get("entry") or {}
        if entry.get("kind") == "squadron":
            return f"“{entry['name']}”" if entry.get("name") else "a squadron"
        name = catalog_index(catalog).ship_name(entry.get("ship", ""))
        return f"“{entry['name']}” ({name})" if entry.get("name") else name

    # --- upgrade eligibility ---------------------------------------------------------------

    def upgrade_options(self, catalog: core.Catalog, ship_slug: str, taken: tuple[str, ...],
                        units: list[rf.Unit] | None = None) -> list[UpgradeOption]:
        """Every upgrade of the list and the refits, each with why not, if not (R-30, R-31)."""
        idx = catalog_index(catalog)
        faction = idx.factions.get(self.faction)
        entry = idx.ships.get(ship_slug)
        if faction is None or entry is None:
            return []
        profile = entry[0]
        uses = fleet_upgrade_uses(units if units is not None else self._units())
        return [UpgradeOption(u, upgrade_reason(u, profile, taken, uses, self, idx))
                for u in (*faction.upgrades, *catalog.refits)]

    # --- the Saved Fleets library: rename, copy, trash ---------------------------------------

    def rename(self, name: str) -> None:
        """Give the fleet a new name (empty: the default); Undo of a removal is kept.

        Saved Fleets renames without a builder page's version: the row is locked and read again,
        so a change made meanwhile (in a builder tab) is kept, not overwritten.
        """
        with transaction.atomic():
            locked = Fleet.objects.select_for_update().get(pk=self.pk)
            locked.store(replace(locked.to_core(), name=name.strip() or DEFAULT_NAME),
                         locked.catalog())
            locked._save_edit()
        for field in (*EDITED_FIELDS, "version", "updated"):
            setattr(self, field, getattr(locked, field))
        self._report = locked._report

    def copy(self, *, owner: Any = None, owner_token: str = "",
             name: str | None = None) -> Fleet:
        """A new fleet with this one's list, on its edition, owned by ``owner`` or the browser
        of the token. Named "Copy of <name>" unless ``name`` is given; nothing else (Undo,
        trash, a kept edition) is copied."""
        prefix = "Copy of "
        name = name or prefix + self.name[: rf.MAX_NAME_LENGTH - len(prefix)]
        fleet = Fleet(owner=owner if owner is not None and owner.is_authenticated else None,
                      session_key=owner_token)
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
    def from_core(cls, fleet: rf.Fleet, catalog: core.Catalog, *, owner: Any = None,
                  owner_token: str = "") -> Fleet:
        """A new fleet holding ``fleet`` (an import or a copy of a shared list), saved."""
        new = cls(owner=owner if owner is not None and owner.is_authenticated else None,
                  session_key=owner_token)
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


class UpgradeOption:
    __slots__ = ("upgrade", "reason")

    def __init__(self, upgrade: core.Upgrade, reason: str) -> None:
        self.upgrade = upgrade
        self.reason = reason  # "" when the ship may take it

    @property
    def allowed(self) -> bool:
        return not self.reason


def fleet_upgrade_uses(units: list[rf.Unit] | tuple[rf.Unit, ...]) -> dict[str, int]:
    uses: dict[str, int] = {}
    for unit in units:
        ships = (unit,) if isinstance(unit, rf.ShipUnit) else unit.ships
        for ship in ships:
            for slug in ship.upgrades:
                uses[slug] = uses.get(slug, 0) + 1
    return uses


def upgrade_reason(upgrade: core.Upgrade, profile: core.ShipProfile, taken: tuple[str, ...],
                   uses: dict[str, int], fleet: Fleet, idx: CatalogIndex) -> str:
    """Why ``profile`` may not take ``upgrade`` now, in words; "" if it may."""
    if upgrade.slug in taken:
        return "Already fitted; a ship takes each upgrade once (R-31)."
    refusal = upgrade_refusal(upgrade, profile, fleet.faction, fleet.variant or None, idx)
    if refusal is not None:
        return refusal[1]
    limit = upgrade.max_per_fleet
    if limit is not None and uses.get(upgrade.slug, 0) >= limit:
        times = "once" if limit == 1 else "twice" if limit == 2 else f"{limit} times"
        return f"A fleet may take {upgrade.name} at most {times}, and this one already does."
    return ""


def revalidate_saved_fleets(sender: object, catalog: core.Catalog, **kwargs: Any) -> None:
    """``catalogue_loaded``: only lists built in a development state (no edition) follow the
    data files; every other list keeps its edition's totals and verdict (R-160)."""
    Fleet.objects.filter(edition=None).revalidate(catalog)
