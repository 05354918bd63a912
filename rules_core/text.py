"""Text a player writes: which characters it may hold (ruling R-94).

Fleet names, unit names, notes and every other text a player types may hold any Unicode scalar
value except

- surrogates, U+D800–DFFF (in a Python ``str`` always unpaired: a JSON ``"\\ud800"`` escape
  decodes to one, and it cannot be encoded as UTF-8, so no page or file could show it);
- control characters, U+0000–001F and U+007F–009F (NUL breaks PostgreSQL, the rest corrupt
  lines and terminals), but tab and newline in multi-line text (notes);
- noncharacters, U+FDD0–FDEF and the last two code points of every plane (U+FFFE, U+FFFF,
  U+1FFFE, … U+10FFFF), which Unicode reserves for a program's internal use.

Text is not normalised (no NFC): what the player wrote is kept and written back exactly. Only
the line ends of multi-line text are: CR LF and a lone CR become LF (:func:`normalise_newlines`).
"""

from __future__ import annotations

import re
from typing import Any

_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(
    chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17)
)
_SINGLE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f\ud800-\udfff{_NONCHARACTERS}]")
_MULTI_LINE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff{_NONCHARACTERS}]")
_NEWLINES = re.compile(r"\r\n?")
REPLACEMENT = "\ufffd"


class TextError(ValueError):
    """Text that breaks R-94; ``message`` says which character, e.g. ``contains a control
    character (U+0000)``, and ``index`` where it is."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.message = message
        self.index = index


def kind_of(char: str) -> str:
    """What a forbidden character is, in words: "a control character (U+0000)"."""
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        kind = "a lone surrogate"
    elif code <= 0x1F or 0x7F <= code <= 0x9F:
        kind = "a control character"
    else:
        kind = "a noncharacter"
    return f"{kind} (U+{code:04X})"


def problem(text: str, *, multiline: bool = False) -> str | None:
    """Why ``text`` breaks R-94 ("contains a control character (U+0000)"), or None."""
    found = (_MULTI_LINE if multiline else _SINGLE_LINE).search(text)
    return None if found is None else f"contains {kind_of(found.group())}"


def check(text: str, *, multiline: bool = False) -> str:
    """``text`` itself if it follows R-94, else :class:`TextError` naming the first offender."""
    found = (_MULTI_LINE if multiline else _SINGLE_LINE).search(text)
    if found is not None:
        raise TextError(f"contains {kind_of(found.group())}", found.start())
    return text


def normalise_newlines(text: str) -> str:
    """CR LF and lone CR as LF: the line ends of multi-line text (a browser sends CR LF)."""
    return _NEWLINES.sub("\n", text)


def scrub(text: str, *, multiline: bool = False) -> str:
    """``text`` with each character R-94 forbids replaced by U+FFFD (for text stored before
    the ruling, so that it can still be shown, exported and fixed)."""
    if multiline:
        text = normalise_newlines(text)
    return (_MULTI_LINE if multiline else _SINGLE_LINE).sub(REPLACEMENT, text)


def scrub_tree(value: Any, multiline_keys: frozenset[str] = frozenset({"notes"})) -> Any:
    """A JSON value (a stored fleet document) with every string scrubbed (:func:`scrub`); the
    values of ``multiline_keys`` as multi-line text. Keys are scrubbed too."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, list):
        return [scrub_tree(v, multiline_keys) for v in value]
    if isinstance(value, dict):
        return {
            scrub(str(k)): scrub(v, multiline=True)
            if k in multiline_keys and isinstance(v, str)
            else scrub_tree(v, multiline_keys)
            for k, v in value.items()
        }
    return value


def shown(text: str) -> str:
    """``text`` safe to quote in a message: each forbidden character written as ``\\uXXXX``."""
    return _SINGLE_LINE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
