"""Shared fleets as one side of a matchup: a pasted share link, its id, or a share code.

Two kinds of sharing exist (fleetbuilder/fleets, R-90, R-92): a permalink naming a saved fleet
by its random ``share_id`` (live only while its owner shares it), and a share code
(``v1.…``) that holds the whole list. Either may be pasted bare or inside a URL; the fleet is
read as it is now and the run keeps its own copy, with its edition (R-163): a saved fleet's
own, a code's own, and for a code naming none (made before editions) the first, with a note
saying so (R-161). A code naming an edition this server does not know is refused, listing the
known ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

from fleetbuilder.fleets.incoming import UnknownEdition, arrive
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core.sharecode import MAX_CODE_LENGTH, ShareCodeError, decode

MAX_INPUT = MAX_CODE_LENGTH + 300
_CODE_RE = re.compile(r"^v\d{1,4}\.[A-Za-z0-9_-]*$")
_SHARE_ID_RE = re.compile(r"^[A-Za-z0-9_-]{16,32}$")


class ShareError(ValueError):
    """A share link or code that names no shared fleet; the message is for the player."""


@dataclass(frozen=True)
class SharedFleet:
    code: str  # the share id or the share code, as found
    name: str
    fleet: rf.Fleet
    note: str = ""  # why the list is read under the edition it is, if it named none


def _candidates(text: str) -> list[str]:
    """The parts of a pasted text that may be a share id or code, most likely first."""
    if "/" not in text and "?" not in text:
        return [text]
    parts = urlsplit(text)
    found = [unquote(seg) for seg in reversed(parts.path.split("/")) if seg]
    found += [value for _, value in parse_qsl(parts.query)]
    return found


def resolve(text: str) -> SharedFleet:
    text = text.strip()
    if not text:
        raise ShareError("Paste the fleet's share link or its share code.")
    if len(text) > MAX_INPUT:
        raise ShareError("That is too long to be a share link or code.")
    for candidate in _candidates(text):
        if _CODE_RE.match(candidate):
            try:
                fleet = decode(candidate)
            except ShareCodeError as exc:
                raise ShareError(f"That share code cannot be read: {exc.message}") from exc
            try:
                arrival = arrive(fleet)  # a code naming no edition: the first
            except UnknownEdition as exc:
                raise ShareError(f"That share code cannot be played here: {exc}") from exc
            return SharedFleet(
                code=candidate,
                name=fleet.name or "Shared fleet",
                fleet=arrival.fleet,
                note=arrival.note,
            )
        if _SHARE_ID_RE.match(candidate):
            shared = Fleet.objects.shared(candidate).first()
            if shared is not None:
                try:
                    fleet = shared.to_core()
                except rf.FleetFormatError as exc:  # saved before the bounds of R-95
                    raise ShareError(f"That shared fleet cannot be played: {exc}.") from exc
                return SharedFleet(code=candidate, name=shared.name, fleet=fleet)
    raise ShareError(
        "No shared fleet has that link or code: check it, or ask its owner "
        "whether it is still shared."
    )
