"""A list arriving from outside (a fleet file, a zip, a text list, a share code, an API body),
and the edition it is read under (R-160, R-161).

Every way a list travels names its edition, and the list is shown, priced and saved under it:

- a known edition: that edition's catalogue;
- none (a file or a ``v1.`` code from before editions, a text without an ``Edition:`` line):
  the first edition, with R-161's note for the player, and the list saved names it;
- one this server does not know (a later one, or none such): ``UnknownEdition``, whose message
  lists the known editions; the caller answers 4xx and stores nothing.

A saved fleet does not come through here: it has its edition (``Fleet.catalog()``), and a list
saved in a development state (no edition) follows the data files (R-160).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fleetbuilder.catalog import editions
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.editions import EditionInfo, UnknownEdition

__all__ = ["Arrival", "UnknownEdition", "arrive", "edition_catalog"]


@dataclass(frozen=True)
class Arrival:
    """A list read under its edition: ``fleet.edition`` is that edition's number (None only
    for a saved list of a development state, which follows the data files)."""

    fleet: rf.Fleet
    catalog: core.Catalog
    edition: EditionInfo | None
    note: str = ""  # R-161's note when the list named no edition, else ""

    @property
    def named_none(self) -> bool:
        return bool(self.note)


def edition_catalog(number: int | None) -> tuple[int, core.Catalog, str]:
    """The edition a list naming ``number`` is read under, its catalogue and R-161's note;
    UnknownEdition (naming the known editions) for one this server lacks."""
    resolved, note = editions.resolve(number)
    return resolved, editions.catalog_for(resolved), note


def arrive(fleet: rf.Fleet) -> Arrival:
    """``fleet`` under the edition it names, or the first if it names none (R-161);
    UnknownEdition for an edition this server does not know."""
    number, catalog, note = edition_catalog(fleet.edition)
    return Arrival(replace(fleet, edition=number), catalog, editions.get(number), note)
