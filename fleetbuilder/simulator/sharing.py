"""Shared fleets as one side of a matchup: a pasted share link or share code, read-only.

The fleets app's share permalinks are being added separately; until they exist this says so
(``available()`` is False) and the form offers only your own fleets and the sample fleets.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core import fleet as rf


class ShareError(ValueError):
    """A share link or code that names no shared fleet; the message is for the player."""


@dataclass(frozen=True)
class SharedFleet:
    code: str
    name: str
    fleet: rf.Fleet


def available() -> bool:
    return False


def resolve(text: str) -> SharedFleet:
    raise ShareError("Shared fleets cannot be used here yet.")
