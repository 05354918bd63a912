"""Import parsing: what a pasted text or an uploaded file holds, read as a fleet under its
edition (R-160, R-161) and held to R-95's points bound.

A fleet file (contract 1), a share code or its URL (R-90), a permalink of a shared fleet (R-92)
or a plain-text list: ``read_fleet`` tells them apart and reads each, and ``ImportProblem``
says why a text is none of them, naming the JSON path or the line at fault. The import page
(``import_page``) shows what was read and saves it only when asked (R-93).
"""

from __future__ import annotations

import re
from dataclasses import replace

from fleetbuilder.catalog import editions
from rules_core import fleet as rf
from rules_core import sharecode, textlist
from rules_core.validator import check_points_bound, validate

from .incoming import Arrival, UnknownEdition, arrive, edition_catalog
from .models import Fleet

_CODE_IN_TEXT = re.compile(r"(?:^|/fleets/code/)(v\d{1,4}\.[A-Za-z0-9_-]*)/?$")
_LINK_IN_TEXT = re.compile(r"^(?:https?://[^/\s]+)?/s/([A-Za-z0-9_-]{1,64})/?$")


class ImportProblem(ValueError):
    """Input that is not a fleet; the message names the problem (JSON path, line, reason).

    ``line`` is the line of the text at fault, when there is one (1 is the first).
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def read_fleet(text: str) -> tuple[Arrival, str]:
    """The fleet ``text`` holds, under its edition, and what it was: a file, a share code, a
    link or a list.

    Whatever it was, the fleet is held to R-95's points bound (the readers check its size). An
    edition this server does not know is an ImportProblem naming the known ones (R-161).
    """
    try:
        arrival, kind = _read_any(text)
    except UnknownEdition as exc:
        raise ImportProblem(f"This list cannot be imported here: {exc.message}") from None
    try:
        check_points_bound(validate(arrival.fleet, arrival.catalog))
    except rf.FleetFormatError as exc:
        raise ImportProblem(f"This {kind} cannot be imported: {exc.path} {exc.message}.") from None
    return arrival, kind


def _read_any(text: str) -> tuple[Arrival, str]:
    stripped = text.strip().lstrip("\ufeff")
    if stripped.startswith("{"):
        try:
            # The text as given (JSON allows the blank lines around it): error lines are the
            # lines the player sees.
            return arrive(rf.load_fleet_json(text.lstrip("\ufeff"))), "fleet file"
        except rf.FleetFormatError as exc:
            if exc.path and exc.message.startswith("is "):  # "is required", "is not a key…"
                why = f": “{exc.path}” {exc.message}"
            else:
                why = f" at {exc.path}: {exc.message}" if exc.path else f": {exc.message}"
            raise ImportProblem(f"This fleet file cannot be read{why}.", exc.line) from None
    one_line = "\n" not in stripped
    code = _CODE_IN_TEXT.search(stripped) if one_line else None
    if code:
        try:
            return arrive(sharecode.decode(code.group(1))), "share code"
        except sharecode.ShareCodeError as exc:
            raise ImportProblem(exc.message) from None
    link = _LINK_IN_TEXT.match(stripped) if one_line else None
    if link:
        fleet = Fleet.objects.shared(link.group(1)).first()
        if fleet is None:
            raise ImportProblem("No fleet is shared at that link (it may have been turned off).")
        return _saved(fleet), "shared link"
    try:
        # The names are looked up in the edition the text names, else the first's.
        number, catalog, note = edition_catalog(textlist.edition_of(text))
        fleet = replace(textlist.from_text(catalog, text), edition=number)
        return Arrival(fleet, catalog, editions.get(number), note), "plain-text list"
    except textlist.TextListError as exc:
        where = f"Line {exc.line}: " if exc.line else ""
        raise ImportProblem(f"{where}{exc.message[0].upper()}{exc.message[1:]}", exc.line) from None


def _saved(fleet: Fleet) -> Arrival:
    """A saved (shared) fleet as it is: on its own edition, no note. One saved in a development
    state follows the data files (R-160), as on its shared page."""
    if fleet.edition is None:
        return Arrival(fleet.to_core(), fleet.catalog(), None, "")
    return arrive(fleet.to_core())
