"""Reading a fleet file named on the command line (contract 3): one message per failure, and
the edition it is read under (R-160, R-161).

A command may run on a clone whose database is not set up: then the editions are read from the
shipped files (``fleetbuilder/catalog/data/editions/``), which are byte for byte the ones a
loaded database holds.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from django.db import DatabaseError

from fleetbuilder.catalog import editions
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.editions import UnknownEdition


class FleetFileError(ValueError):
    """The file cannot be used; the message is the one-line reason for stderr."""


def read_text(path: str) -> str:
    """The file's text (``-`` reads standard input)."""
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise FleetFileError(f"cannot read {path}: {reason}") from exc


def read_fleet(path: str) -> rf.Fleet:
    """The fleet in the file, or FleetFileError naming the JSON path of the first shape error."""
    try:
        return rf.load_fleet_json(read_text(path))
    except rf.FleetFormatError as exc:
        where = f" at {exc.path}" if exc.path else ""
        raise FleetFileError(f"{path} is not a usable fleet file{where}: {exc.message}") from exc


def under_edition(fleet: rf.Fleet) -> tuple[rf.Fleet, core.Catalog, str]:
    """``fleet`` under the edition it names (the first if none, with R-161's note), and that
    edition's catalogue; FleetFileError naming the known editions for one this server lacks."""
    try:
        try:
            number, note = editions.resolve(fleet.edition)
            catalog = editions.catalog_for(number)
        except (DatabaseError, UnknownEdition) as exc:
            if isinstance(exc, UnknownEdition) and exc.known:
                raise
            number, catalog, note = editions.from_shipped_files(fleet.edition)
    except UnknownEdition as exc:
        raise FleetFileError(exc.message) from exc
    return replace(fleet, edition=number), catalog, note
