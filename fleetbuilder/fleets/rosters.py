"""BattleScribe and New Recruit rosters arriving here (R-190): read, matched through the BSData
crosswalk and made into a fleet of the newest edition, with the import report. Shared by the
import page, the API (``POST /api/v1/imports/battlescribe``) and ``manage.py import_roster``;
the work itself is ``rules_core.importers``. Nothing is saved here (R-93)."""

from __future__ import annotations

from fleetbuilder.catalog import editions
from rules_core.importers import crosswalk
from rules_core.importers.battlescribe import RosterImport, import_roster
from rules_core.importers.roster import RosterError, looks_like_roster, read_roster

__all__ = ["RosterError", "RosterImport", "looks_like_roster", "roster_fleet"]

FORMATS = ("BattleScribe .ros", "BattleScribe .rosz", "New Recruit JSON export")


def roster_fleet(data: bytes) -> RosterImport:
    """The fleet a roster makes under the edition this server serves (the newest published,
    or the development catalogue where none is), with its report; RosterError otherwise."""
    number = editions.current_number()
    return import_roster(
        read_roster(data), editions.catalog_for(number), crosswalk.load(), edition=number
    )
