"""Each side of a run, an analysis or a battle pack under its own list's edition (R-163).

A side keeps the edition its list names, and is priced, judged and played with that edition's
catalogue (``catalog.editions.catalog_for``); the rules of play are the same for both (R-160).
Where the list comes from decides what "no edition" means:

- a saved fleet (one of yours, or a permalink to one) names its edition; one with none was
  built in a development state and follows the loaded catalogue (R-160);
- a fleet file, a share code or an API request with none is read under the first edition,
  with a note saying so (R-161; ``fleets.incoming.arrive``); one naming an edition this server
  does not know is refused (``UnknownEdition``, which lists the known ones);
- a sample fleet is built under the current edition (the loaded catalogue).

A side recorded with no edition (a development-state list, or a run stored before editions)
is played with the loaded catalogue: the current edition, or the development state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fleetbuilder.catalog import editions
from rules_core.editions import EditionInfo, UnknownEdition

__all__ = ["SideEdition", "UnknownEdition", "differ_sentence", "recorded_edition", "side_edition"]


def recorded_edition(recorded: int | None, document: Any) -> int | None:
    """A stored side's edition: as recorded, else as its stored fleet file names it (a row
    from before the record was kept); None: the loaded catalogue."""
    if recorded is not None:
        return recorded
    named = document.get("edition") if isinstance(document, dict) else None
    return named if isinstance(named, int) and not isinstance(named, bool) else None


@dataclass(frozen=True)
class SideEdition:
    """What a page says of a side's edition."""

    number: int | None  # None: the loaded catalogue, which is no edition (a development state)
    info: EditionInfo | None

    @property
    def short(self) -> str:
        """ "edition 5", or "the development catalogue"."""
        return f"edition {self.number}" if self.number is not None else "the development catalogue"

    @property
    def title(self) -> str:
        """ "Edition 5 (2026-12-02, Astartes by ship)", for a tooltip or a footer."""
        if self.info is not None:
            return self.info.title
        if self.number is not None:
            return f"Edition {self.number}"
        return "Development catalogue (no edition)"

    @property
    def label(self) -> str:
        """ "Edition 5", or "Development catalogue": the discreet mention."""
        return self.short[0].upper() + self.short[1:]


def side_edition(recorded: int | None) -> SideEdition:
    """A recorded side's edition for the page: its own, else (a development-state list, or a
    run from before editions) the current edition the loaded catalogue is, if it is one."""
    if recorded is None:
        info = editions.current()
        return SideEdition(info.number if info else None, info)
    try:
        return SideEdition(recorded, editions.get(recorded))
    except UnknownEdition:  # recorded, then gone from this server: say its number only
        return SideEdition(recorded, None)


def differ_sentence(a: tuple[str, SideEdition], b: tuple[str, SideEdition]) -> str:
    """ "Imperial Navy (edition 5) against Orks (edition 7): each side plays its own edition's
    points and profiles, R-163", or "" when both sides play the same edition."""
    (name_a, ed_a), (name_b, ed_b) = a, b
    if ed_a.number == ed_b.number:
        return ""
    return (
        f"{name_a} ({ed_a.short}) against {name_b} ({ed_b.short}): each side plays its own "
        "edition's points and profiles, R-163."
    )
