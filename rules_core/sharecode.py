"""Share codes: a whole fleet list in a short URL-safe string that any instance can open (R-90).

A code is ``v2.`` followed by the base64url (no padding) of the raw-deflated compact JSON of the
fleet. The compact form is the contract-1 document as positional arrays with trailing defaults
left out::

    [faction, game_size, name, variant, [min, max] | null, notes, [unit, ...], edition]
    ship unit:  ["s", ship, name, flagship (0/1), admiral, [upgrade, ...]]
    squadron:   ["q", name, [[ship, [upgrade, ...]], ...]]

``edition`` (R-160) is the catalogue edition the list names: a whole number, or null for a
list that names none. A ``v2.`` code always has it, so its top array has exactly eight items
and none of the seven before it is left out. A ``v1.`` code (made before editions) is the
same form without it: at most seven items, read as a list naming no edition (``edition`` None;
R-161 says which edition the app reads it under).

Decoding rebuilds the contract-1 document and reads it with ``rules_core.fleet.parse_fleet``, so
a code is checked exactly as strictly as a fleet file (R-20). Decoding is bounded: codes longer
than :data:`MAX_CODE_LENGTH` and payloads that inflate past :data:`MAX_PAYLOAD_BYTES` are refused
before any JSON is read.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any

from rules_core.fleet import (
    FORMAT,
    VERSION,
    Fleet,
    FleetFormatError,
    ShipUnit,
    parse_fleet,
)

VERSION_CODE = 2  # the version new codes are written in; 1 is still read
PREFIX = f"v{VERSION_CODE}."
# A code travels in a URL path: stay well inside the 4 KB request line many servers allow.
MAX_CODE_LENGTH = 3000
# The inflated compact JSON. Every fleet within the bounds of ``rules_core.limits`` fits: the
# largest (100 units, 150 ships of 100-character slugs with 20 upgrades each, names and notes
# of 4-byte characters) is 393 KB, and repeats so much that its code is 2,353 characters
# (tests/security/test_sharecode_bounds.py). So a code the app makes, the app opens;
# the bound only stops a hand-made code from inflating without end (a "zip bomb").
MAX_PAYLOAD_BYTES = 512 * 1024
_CODE_RE = re.compile(r"^v(\d{1,4})\.([A-Za-z0-9_-]*)$")
_SHIP, _SQUADRON = "s", "q"


class ShareCodeError(ValueError):
    """A share code that cannot be read (or a fleet too big to be one); the message says why.

    ``path`` is the JSON path of the fleet-file error when the code decoded to an unusable fleet.
    """

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path


# --- writing ------------------------------------------------------------------------------


def _trim(items: list[Any], defaults: tuple[Any, ...]) -> list[Any]:
    """Drop trailing items equal to their default (``defaults`` aligns with the items' end)."""
    out = list(items)
    offset = len(items) - len(defaults)
    while out and len(out) > offset and out[-1] == defaults[len(out) - 1 - offset]:
        out.pop()
    return out


def to_compact(fleet: Fleet) -> list[Any]:
    """The compact positional form of ``fleet``, as a ``v2.`` code holds it (module docstring)."""
    units: list[Any] = []
    for unit in fleet.units:
        if isinstance(unit, ShipUnit):
            units.append(
                _trim(
                    [
                        _SHIP,
                        unit.ship,
                        unit.name,
                        int(unit.flagship),
                        unit.admiral,
                        list(unit.upgrades),
                    ],
                    (None, 0, None, []),
                )
            )
        else:
            ships = [_trim([s.ship, list(s.upgrades)], ([],)) for s in unit.ships]
            units.append([_SQUADRON, unit.name, ships])
    limit = fleet.points_limit
    return [
        fleet.faction,
        fleet.game_size.value,
        fleet.name,
        fleet.variant,
        None if limit is None else [limit.min, limit.max],
        fleet.notes,
        units,
        fleet.edition,
    ]


def encode(fleet: Fleet) -> str:
    """The share code of ``fleet``; ShareCodeError, saying why, if ``decode`` would refuse it
    (longer than MAX_CODE_LENGTH, or unpacking past MAX_PAYLOAD_BYTES)."""
    payload = json.dumps(to_compact(fleet), ensure_ascii=False, separators=(",", ":")).encode()
    if len(payload) > MAX_PAYLOAD_BYTES:  # only a fleet past the bounds of rules_core.limits
        raise ShareCodeError(
            f"This fleet is too big for a share code (it unpacks to {len(payload) // 1024} KB; "
            f"the limit is {MAX_PAYLOAD_BYTES // 1024} KB). Share the link or the fleet file "
            "instead."
        )
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress(payload) + packer.flush()
    code = PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
    if len(code) > MAX_CODE_LENGTH:
        raise ShareCodeError(
            f"This fleet is too big for a share code ({len(code)} characters; the limit is "
            f"{MAX_CODE_LENGTH}). Share the link or the fleet file instead."
        )
    return code


# --- reading ------------------------------------------------------------------------------


def _inflate(code: str) -> tuple[int, bytes]:
    """The code's version (1 or 2) and its inflated payload."""
    if len(code) > MAX_CODE_LENGTH:
        raise ShareCodeError(
            f"The share code is {len(code)} characters long; the limit is {MAX_CODE_LENGTH}."
        )
    match = _CODE_RE.match(code)
    if match is None:
        raise ShareCodeError(
            f"That is not a share code: a code starts with '{PREFIX}' (or 'v1.') followed by "
            "letters, digits, '-' and '_'."
        )
    version = int(match.group(1))
    if version not in (1, VERSION_CODE):
        newer = " (made by a newer version of the app)" if version > VERSION_CODE else ""
        raise ShareCodeError(f"Share codes of version {version} cannot be read{newer}.")
    body = match.group(2)
    if len(body) % 4 == 1:
        # A lone last character holds no whole byte: the code was cut in the middle of one
        # (the inflater then says it is cut short, or that the rest is damaged).
        body = body[:-1]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise ShareCodeError("The share code is damaged (it is not base64url).") from None
    inflater = zlib.decompressobj(-15)
    try:
        payload = inflater.decompress(raw, MAX_PAYLOAD_BYTES)
    except zlib.error:
        raise ShareCodeError("The share code is damaged (it does not decompress).") from None
    if inflater.unconsumed_tail:
        raise ShareCodeError(
            f"The share code unpacks to more than {MAX_PAYLOAD_BYTES // 1024} KB; it is refused."
        )
    if not inflater.eof:
        raise ShareCodeError("The share code is cut short; copy the whole code.")
    if inflater.unused_data:
        raise ShareCodeError("The share code has extra characters after its end.")
    return version, payload


def _at(items: list[Any], i: int, default: Any = None) -> Any:
    return items[i] if i < len(items) else default


def _array(value: object, where: str, max_len: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > max_len:
        raise ShareCodeError(
            f"The share code is damaged ({where} is not a list of at most {max_len} items).",
            path=where,
        )
    return value


def from_compact(data: object, version: int = VERSION_CODE) -> dict[str, Any]:
    """The contract-1 document of a compact form of code ``version`` (shape errors are left to
    ``parse_fleet``): a ``v2.`` form has exactly eight items, the last its edition; a ``v1.``
    form at most seven, and no edition."""
    top = _array(data, "the fleet", 8 if version >= 2 else 7)
    if version >= 2 and len(top) != 8:
        raise ShareCodeError(
            "The share code is damaged (a version 2 code names its edition "
            f"as the 8th item of the fleet; it has {len(top)} items).",
            path="edition",
        )
    limit = _at(top, 4)
    if isinstance(limit, list) and len(limit) == 2:
        limit = {"min": limit[0], "max": limit[1]}
    units: list[Any] = []
    for i, raw in enumerate(_array(_at(top, 6, []), "units", 10_000)):
        where = f"units[{i}]"
        unit = _array(raw, where, 6)
        kind = _at(unit, 0)
        if kind == _SHIP:
            flag = _at(unit, 3, 0)
            units.append(
                {
                    "kind": "ship",
                    "ship": _at(unit, 1),
                    "name": _at(unit, 2),
                    "flagship": bool(flag) if flag in (0, 1) else flag,
                    "admiral": _at(unit, 4),
                    "upgrades": _at(unit, 5, []),
                }
            )
        elif kind == _SQUADRON and len(unit) <= 3:
            ships = []
            for j, ship in enumerate(_array(_at(unit, 2, []), f"{where}.ships", 10_000)):
                entry = _array(ship, f"{where}.ships[{j}]", 2)
                ships.append({"ship": _at(entry, 0), "upgrades": _at(entry, 1, [])})
            units.append({"kind": "squadron", "name": _at(unit, 1), "ships": ships})
        else:
            raise ShareCodeError(
                f"The share code is damaged ({where} is neither a ship nor a squadron).", path=where
            )
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "name": _at(top, 2),
        "faction": _at(top, 0),
        "variant": _at(top, 3),
        "game_size": _at(top, 1),
        "points_limit": limit,
        "units": units,
        "notes": _at(top, 5, ""),
    }
    if version >= 2:
        doc["edition"] = top[7]  # parse_fleet checks it: a whole number 1–9999, or null
    return doc


def decode(code: str) -> Fleet:
    """The fleet a share code holds; ShareCodeError (with a message for players) if unusable.

    A ``v1.`` code names no edition: its fleet's ``edition`` is None (R-161)."""
    code = code.strip()
    version, payload = _inflate(code)
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ShareCodeError("The share code is damaged (its contents are not readable).") from None
    try:
        return parse_fleet(from_compact(data, version))
    except FleetFormatError as exc:
        raise ShareCodeError(
            f"The share code holds an unusable fleet ({exc.path or 'the fleet'}: {exc.message}).",
            path=exc.path,
        ) from None
