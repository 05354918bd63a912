"""Which sheet a visitor's printer most likely holds, from the browser's languages.

US Letter in the Americas that use it (the United States, Canada, Mexico, and the countries of
Central and South America that follow them) and the Philippines; A4 everywhere else. The first
language tag that names a region decides (``en-US`` → Letter, ``en-GB`` → A4); a header naming
no region gives A4. Read on the server, so the print page needs no script to choose.
"""

from __future__ import annotations

import re

LETTER_REGIONS = frozenset(
    {"US", "CA", "MX", "PH", "PR", "CL", "CO", "VE", "GT", "CR", "PA", "DO", "SV", "NI", "HN", "BZ"}
)
MAX_HEADER = 1000  # characters of Accept-Language read; a longer header is cut there
_TAG = re.compile(r"^\s*([A-Za-z]{1,8})(?:-([A-Za-z0-9]{1,8}))*\s*$")


def _weighted_tags(header: str) -> list[tuple[float, int, str]]:
    tags = []
    for order, part in enumerate(header[:MAX_HEADER].split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]{1,5})", params)
        if match:
            try:
                quality = float(match[1])
            except ValueError:
                quality = 0.0
        if _TAG.match(tag) and quality > 0:
            tags.append((-quality, order, tag.strip()))
    return sorted(tags)


def default_paper(accept_language: str) -> str:
    """ "letter" or "a4" for an Accept-Language header (see the module docstring)."""
    for _, _, tag in _weighted_tags(accept_language):
        subtags = tag.split("-")[1:]
        region = next((s.upper() for s in subtags if len(s) == 2 and s.isalpha()), None)
        if region is not None:
            return "letter" if region in LETTER_REGIONS else "a4"
    return "a4"
