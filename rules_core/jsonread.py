"""Typed reading of decoded JSON objects, every error naming the JSON path at fault.

The catalogue's files (``rules_core.catalog``) and the fleet file (``rules_core.fleet``) are
both read through :class:`ObjectReader`: one object at a time, each key asked for by the type it
should hold, then :meth:`ObjectReader.done` refuses any key nobody asked for. A bad value raises
the reader's error class (a :class:`ShapeError`) with the path (``orks.ships[3].points``,
``units[1].ships[0].ship``) and a message saying what was expected and what was found.

No imports from the rest of ``rules_core`` but the text checks: the readers sit at the bottom.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import NoReturn, TypeVar

from rules_core import text as player_text

E = TypeVar("E", bound=StrEnum)


class ShapeError(ValueError):
    """A JSON value of the wrong shape; ``path`` is its JSON path (``""``: the whole document)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


def kind(value: object) -> str:
    """What a JSON value is, in words (``a string``, ``null``), for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def shown(value: object) -> str:
    """A value quoted in a message: a string by its repr, anything else by its kind."""
    return repr(value) if isinstance(value, str) else kind(value)


def child(path: str, key: str) -> str:
    """The path of ``key`` inside the object at ``path`` (the root's path is ``""``)."""
    return f"{path}.{key}" if path else key


class ObjectReader:
    """One JSON object, read key by key; errors are ``error(path, message)``."""

    def __init__(self, data: object, path: str, error: type[ShapeError]) -> None:
        if not isinstance(data, dict):
            raise error(path, f"expected an object, found {kind(data)}")
        self.data: dict[object, object] = data
        self.path = path
        self.error = error
        self.seen: set[str] = set()

    def at(self, key: str) -> str:
        return child(self.path, key)

    def fail(self, key: str, message: str) -> NoReturn:
        raise self.error(self.at(key), message)

    def has(self, key: str) -> bool:
        return key in self.data

    def _or_default(self, key: str, default: object) -> object:
        """The value, or ``default`` when absent; with no default (None) the key is required."""
        if default is not None and not self.has(key):
            self.seen.add(key)
            return default
        return self.value(key, required=default is None)

    def value(self, key: str, *, required: bool = False) -> object:
        """The raw value (``None`` when absent); a missing required key is an error."""
        self.seen.add(key)
        if key in self.data:
            return self.data[key]
        if required:
            self.fail(key, "is required")
        return None

    def text(
        self, key: str, default: str | None = None, *, pattern: re.Pattern[str] | None = None
    ) -> str:
        """A string; required unless it has a default. ``pattern``: it must match it."""
        value = self._or_default(key, default)
        if not isinstance(value, str):
            self.fail(key, f"expected a string, found {kind(value)}")
        if pattern is not None and not pattern.match(value):
            self.fail(key, f"{value!r} is not a valid identifier")
        return value

    def optional_text(self, key: str) -> str | None:
        """A string or null; absent reads as null."""
        value = self.value(key)
        if value is not None and not isinstance(value, str):
            self.fail(key, f"expected a string or null, found {kind(value)}")
        return value

    def texts(self, key: str, *, pattern: re.Pattern[str] | None = None) -> tuple[str, ...]:
        """A list of strings (absent: empty), each matching ``pattern`` if one is given."""
        out = []
        for i, item in enumerate(self.items(key)):
            if not isinstance(item, str) or (pattern is not None and not pattern.match(item)):
                raise self.error(f"{self.at(key)}[{i}]", f"{item!r} is not valid here")
            out.append(item)
        return tuple(out)

    def whole_number(
        self, key: str, default: int | None = None, *, lo: int = 0, hi: int = 10_000
    ) -> int:
        """An integer in ``lo``–``hi`` (both included); required unless it has a default."""
        value = self._or_default(key, default)
        return whole_number(value, self.at(key), lo, hi, self.error)

    def optional_whole_number(self, key: str, *, lo: int = 0, hi: int = 10_000) -> int | None:
        """An integer in ``lo``–``hi``, or null; absent reads as null."""
        value = self.value(key)
        return None if value is None else whole_number(value, self.at(key), lo, hi, self.error)

    def flag(self, key: str) -> bool:
        """true or false; absent reads as false."""
        value = self.value(key)
        if value is None and not self.has(key):
            return False
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, found {kind(value)}")
        return value

    def items(
        self, key: str, *, required: bool = False, max_items: int | None = None
    ) -> list[object]:
        """A list (absent and not required: empty), of at most ``max_items`` entries."""
        if not required and not self.has(key):
            self.seen.add(key)
            return []
        value = self.value(key, required=required)
        if not isinstance(value, list):
            self.fail(key, f"expected a list, found {kind(value)}")
        if max_items is not None and len(value) > max_items:
            self.fail(key, f"has {len(value)} entries; the limit is {max_items}")
        return value

    def choice(self, key: str, enum: type[E], default: str | None = None) -> E:
        """One of a StrEnum's values; required unless it has a default."""
        value = self._or_default(key, default)
        try:
            if isinstance(value, str):
                return enum(value)
        except ValueError:
            pass
        allowed = ", ".join(e.value for e in enum)
        self.fail(key, f"{shown(value)} is not one of {allowed}")

    def done(self) -> None:
        """Refuse the first key (in sorted order) that nobody asked for."""
        unknown = sorted(str(k) for k in self.data if k not in self.seen)
        if unknown:  # the key is quoted in the message: shown without forbidden characters
            self.fail(player_text.shown(unknown[0]), "is not a key of this object")


def whole_number(
    value: object, path: str, lo: int, hi: int, error: type[ShapeError] = ShapeError
) -> int:
    """``value`` as an integer in ``lo``–``hi`` (a boolean is not a number here)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise error(path, f"expected a whole number, found {kind(value)}")
    if not lo <= value <= hi:
        raise error(path, f"{value} is outside {lo}–{hi}")
    return value
