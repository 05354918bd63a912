"""The battle pack's two-page quick reference, cut from the Rules page itself.

Every number on the Rules page is written once, in ``templates/catalog/rules.html``; the quick
reference renders that page (``catalog.views.rules_context``, ``pagecache.render_blocks``)
and keeps the sections a table needs: the game round and command checks, the six special
orders, gunnery (to hit, armour and shields, blast markers), critical hits, catastrophic
damage, crippled ships, and the terrain in play. So a change to the rules page is a change to
the pack, and nothing is typed twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fleetbuilder.catalog.pagecache import render_blocks
from fleetbuilder.catalog.views import RULES_TEMPLATE, rules_context

# The Rules page's sections the reference prints, in its order.
SECTIONS = (
    "game-round",
    "special-orders",
    "gunnery",
    "critical-hits",
    "catastrophic-damage",
    "crippled",
)
TERRAIN_SECTION = "terrain"
ADVANCED_SECTION = "advanced-movement"
VOID_HEADING = "<h3>Void elements"
_SECTION = re.compile(r'<section class="rules-section" id="([\w-]+)"[^>]*>(.*?)</section>', re.S)

TERRAIN_WORDS = {
    "none": "No terrain: an open table.",
    "section13": "The core rules' terrain (§13): asteroid belts, gas clouds, planets and "
    "debris fields.",
    "void": "Void elements: debris, gravity wells, gas clouds and drifting bodies.",
    "voidscape": "The core rules' terrain (§13) and the void elements.",
}


class ReferenceError(RuntimeError):
    """The Rules page no longer has a section the quick reference prints."""


def rules_sections() -> dict[str, str]:
    """The Rules page's sections by id, as the page renders them (HTML inside <section>)."""
    content = render_blocks(RULES_TEMPLATE, rules_context())["content"]
    return {m.group(1): m.group(2) for m in _SECTION.finditer(content)}


@dataclass(frozen=True)
class Reference:
    sections: list[str]  # HTML, from the Rules page
    terrain_words: str


def terrain_html(section: str, terrain: str) -> str:
    """The terrain section cut to what is in play: §13's table, seed 001's void elements,
    both, or nothing."""
    head, void = (section.split(VOID_HEADING, 1) + [""])[:2]
    if terrain == "section13":
        return head
    if terrain == "void":
        title = head.split("</h2>", 1)[0] + "</h2>"
        return title + VOID_HEADING + void
    if terrain == "voidscape":
        return section
    return ""


def quick_reference(terrain: str, movement: str = "standard") -> Reference:
    found = rules_sections()
    missing = [s for s in (*SECTIONS, TERRAIN_SECTION) if s not in found]
    if missing:
        raise ReferenceError(f"the Rules page has no section {', '.join(missing)}")
    parts = [found[s] for s in SECTIONS]
    if terrain != "none":
        parts.append(terrain_html(found[TERRAIN_SECTION], terrain))
    if movement == "advanced" and ADVANCED_SECTION in found:
        parts.append(found[ADVANCED_SECTION])
    return Reference(parts, TERRAIN_WORDS.get(terrain, ""))
