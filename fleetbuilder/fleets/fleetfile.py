"""Reading a fleet file named on the command line (contract 3): one message per failure."""

from __future__ import annotations

import sys
from pathlib import Path

from rules_core import fleet as rf


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
