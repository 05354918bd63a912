"""The cards' HTML: Jinja2 templates (``templates/``) over :mod:`rules_core.cards.model` values.

The templates are autoescaped: every value from a fleet file or the catalogue is printed as the
characters it is (a name holding markup, a URL or template syntax included), and nothing here
names a URL but the stylesheet's own assets (see :mod:`rules_core.cards.fetcher`). The one
fragment the templates take as markup is the QR code (:func:`qr_svg`, segno's drawing).

What the cards lay out on a character grid in DejaVu Sans Mono (the stat line, the weapons'
tails, squadron rows) and where a weapon's name breaks is worked out here, as plain text; the
templates only place it. The environment and its compiled templates are made once per process.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from jinja2 import Environment, PackageLoader, StrictUndefined
from jinja2.ext import Extension
from markupsafe import Markup

from .drawings import CRITICALS_URL, arc_strip_width, arcs_url, rules_url
from .model import CRITICALS, ROLE_LABELS, Card, HullTrack, Roster, ShipBlock

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont as ImageFontType

LAYOUTS = ("poker", "a4", "letter")

# Boxes are the ballot-box glyph (U+2610) in a span: to WeasyPrint a row of them is one run of
# text, not one box per square, which keeps a 30-card fleet well inside its time budget.
BOX = "\u2610"


# --- the stat line -------------------------------------------------------------------------

# The stat line and the critical checklist are set in DejaVu Sans Mono on a fixed character grid
# (cards.css sizes the font so the grid spans the card): a line of text each, aligned without a
# table, where a table would cost WeasyPrint a laid-out cell per value.
# Nine label characters a cell, so that the seven of SHIELDS and TURRETS keep a space from the
# cell's borders on both sides (with eight they touched the left one).
STAT_LABEL_CHARS = 9
STAT_VALUE_CHARS = 4


def _centre(text: str, width: int) -> str:
    """Centred, an odd space going to the left (a lone digit sits right of centre, not left)."""
    pad = width - len(text)
    return " " * (pad - pad // 2) + text + " " * (pad // 2)


def stat_text(block: ShipBlock, leadership: int | None) -> tuple[str, str]:
    """The stat line's labels and values, each a line on the character grid."""
    s = block.stats
    ld = leadership if leadership is not None else s.leadership
    cells = (
        ("SPEED", f"{s.speed_cm}"),
        ("TURNS", f"{s.turns}°"),
        ("LD", f"{ld}"),
        ("SHIELDS", f"{s.shields}"),
        ("HULL", f"{s.hull}"),
        ("ARMOR", f"{s.armor}+"),
        ("TURRETS", f"{s.turrets}"),
        ("BASE", f"{s.base_mm}"),
    )
    labels = "".join(_centre(k, STAT_LABEL_CHARS) for k, _ in cells)
    values = "".join(_centre(v, STAT_VALUE_CHARS) for _, v in cells)
    return labels, values


def squadron_text(blocks: tuple[ShipBlock, ...]) -> tuple[str, list[tuple[str, str]]]:
    """Escorts of several kinds: the labels' row, then (name, stats) columns for each kind."""
    head = f"{'ESCORT':<20}{'SPD TRN LD SH HL ARM TUR BASE':>29}"
    rows = []
    for b in blocks:
        s = b.stats
        name = f"{b.count}× {b.profile.name.replace(' Class ', ' ')}"
        name = name if len(name) <= 20 else name[:19] + "…"
        values = (
            f"{s.speed_cm:>3} {str(s.turns) + '°':>3} {s.leadership:>2} {s.shields:>2} "
            f"{s.hull:>2} {str(s.armor) + '+':>3} {s.turrets:>3} {s.base_mm:>4}"
        )
        rows.append((f"{name:<20}", f"{values:>29}"))
    return head, rows


# --- the weapons list ----------------------------------------------------------------------

# The weapons list: the names in one block, and floated right, in DejaVu Sans Mono so every
# row's columns line up without a table, the type, arc, range and strength of every weapon in
# another; the arc diagrams and the rules between rows are the names block's backgrounds
# (drawings.arcs_url). A row's height is fixed (its lines times the pitch), so the drawings
# know where each row is; a name too long for its column is broken here, never by WeasyPrint.
ARC_GAP = "    "  # four mono characters where the arc diagram is drawn
TAIL_CHARS = 8 + len(ARC_GAP) + 16
MONO_ADVANCE = 0.602  # DejaVu Sans Mono's advance, in em
PT = 25.4 / 72  # millimetres per point
CARD_INNER_MM = 57.8
# Per density (the card's class): names' size (pt), the tails' size (pt), a line's pitch and
# the arc diagram's diameter (mm). cards.css sets the same sizes and pitches.
WEAPON_METRICS = {
    "": (5.6, 4.8, 3.15, 3.0),
    "dense": (5.0, 4.8, 3.05, 3.0),
    "tight": (4.5, 4.4, 2.55, 2.8),
    "max": (4.2, 4.2, 2.4, 2.4),
}


def _tail(type_label: str, arc: str, rng: str, strength: str, gap: str = ARC_GAP) -> str:
    return f"{type_label:<7} {gap}{arc:<5} {rng:>3} {strength:>6}"


@lru_cache(maxsize=4096)
def _name_lines(name: str, size_pt: float, room_mm: float) -> tuple[str, ...]:
    """``name`` broken into lines that fit ``room_mm`` in DejaVu Sans Condensed Bold."""
    from PIL import ImageFont  # WeasyPrint's own dependency

    font = ImageFont.truetype("DejaVuSansCondensed-Bold.ttf", 100)
    scale = size_pt * PT / 100 * 1.04  # a margin for the shaping WeasyPrint does
    lines: list[str] = []
    for word in name.split(" "):
        line = f"{lines[-1]} {word}" if lines else word
        if lines and font.getlength(line) * scale <= room_mm:
            lines[-1] = line
        else:
            lines.append(word)
    return tuple(lines)


@lru_cache(maxsize=8)
def _font(bold: bool) -> ImageFontType:
    from PIL import ImageFont  # WeasyPrint's own dependency

    return ImageFont.truetype(f"DejaVuSansCondensed{'-Bold' if bold else ''}.ttf", 1000)


@lru_cache(maxsize=256)
def points_width(points: str, small: str = "") -> str:
    """The width a float of points needs (``points`` in DejaVu Sans Condensed Bold, then
    ``small`` in the regular face at half its size), as a CSS length in em of the float's font.
    Given, it spares WeasyPrint measuring the float's shrink-to-fit width; rounded up, as
    WeasyPrint's own measure is a ten-thousandth of an em under PIL's."""
    em = _font(True).getlength(points) / 1000 + _font(False).getlength(small) / 2000
    return f"width:{math.ceil(em * 1000) / 1000:.3f}em"


@dataclass(frozen=True, slots=True)
class WeaponsView:
    """A weapons list as card.html places it: plain text, escaped on output like any other."""

    header: str  # the header row's column labels, or "" for no header row
    caption: str
    tails: str  # type, arc, range and strength, a line a row ("\n" between)
    tails_style: str  # the tails block pulled up by its height, level with the names
    names: tuple[tuple[str, int | None], ...]  # (a box and the name, its lines; note number)
    backgrounds: str  # the names block's CSS backgrounds: the row rules and the arc diagrams


def weapons_view(
    block: ShipBlock,
    ink_saver: bool = False,
    *,
    header: bool = True,
    caption: str = "",
    density: str = "",
) -> WeaponsView | None:
    """One row per weapon (None for a ship without): its name, then type, arc diagram and
    label, range and strength (crippled)."""
    if not block.weapons:
        return None
    name_pt, tail_pt, pitch, arc_mm = WEAPON_METRICS[density]
    tail_mm = TAIL_CHARS * MONO_ADVANCE * tail_pt * PT
    room = CARD_INNER_MM - tail_mm - 1.0
    names: list[tuple[str, int | None]] = []
    tails: list[str] = []
    rows = []
    for line in block.weapons:
        w = line.weapon
        lines = _name_lines(
            f"{BOX} {w.name}" + (f" {line.note}" if line.note else ""), name_pt, room
        )
        if line.note:  # the note's number is a superscript after the name
            lines = (*lines[:-1], lines[-1].removesuffix(f" {line.note}"))
        names.append(("\n".join(lines), line.note))
        tails.append(
            _tail(
                line.short_type,
                w.arc_label,
                line.range_label,
                f"{w.strength} ({line.crippled_strength})",
            )
            + "\n" * (len(lines) - 1)
        )
        rows.append((w.arcs, len(lines)))
    arc_x = CARD_INNER_MM - tail_mm + (8 + len(ARC_GAP) / 2) * MONO_ADVANCE * tail_pt * PT
    strip = arc_strip_width(arc_mm)
    height = sum(n for _, n in rows) * pitch
    # A newline at the end of pre text makes no line: the tails block is as tall as its lines
    # up to the last row's, not as the names when the last name takes two.
    tails_text = "\n".join(tails).rstrip("\n")
    tails_height = (tails_text.count("\n") + 1) * pitch
    arcs = arcs_url(rows, pitch=pitch, size=arc_mm, ink_saver=ink_saver)
    rules = rules_url((n for _, n in rows), pitch=pitch, ink_saver=ink_saver)
    # The row rules over the arcs (drawings.arcs_url); the URLs are made of numbers only.
    backgrounds = (
        f"background-image:url({rules}),url({arcs});"
        f"background-position:0 0,{arc_x - strip / 2:.2f}mm 0;"
        f"background-size:100% {height:.3f}mm,{strip:.2f}mm {height:.3f}mm"
    )
    return WeaponsView(
        header=_tail("TYPE", "ARC", "RNG", "STR(CR)", " " * len(ARC_GAP)) if header else "",
        caption=caption,
        tails=tails_text,
        tails_style=f"margin-bottom:-{tails_height:.3f}mm",
        names=tuple(names),
        backgrounds=backgrounds,
    )


# --- the rest of a card --------------------------------------------------------------------


def density(card: Card) -> str:
    """A denser type size for a card with much to say. The weights are rough millimetres of
    height; the test that prints every catalogue ship checks that each still fits one card."""
    load: float = 52 if card.criticals else 30  # head, meta, tracks, the checklist or its note
    load += sum(17 + 3.3 * len(b.weapons) for b in card.blocks)  # stat line, orders, weapons
    load += len(card.title) // 26 * 4
    load += card.text_length * 0.045  # a 5.4 pt line holds about 70 characters
    if card.kind == "squadron":
        load += 3.2 * len(card.tracks) + 3 * len(card.blocks)
    if load > 100:
        return "max"
    if load > 86:
        return "tight"
    if load > 76:
        return "dense"
    return ""


DENSITY_CLASSES = {
    "": "",
    "dense": " card--dense",
    "tight": " card--tight",
    "max": " card--tight card--max",
}


def thrust_sot(block: ShipBlock, leadership: int | None) -> str:
    """Advanced movement's numbers (R-141): thrust rating (Speed ÷ 5 cm) and SOT (its average
    with the piloting skill, Ld − 3, rounded up), as the simulator plays them."""
    from ..sim.advanced_movement import safe_operating_thrust, thrust_from_speed

    ld = leadership if leadership is not None else block.stats.leadership
    thrust = thrust_from_speed(block.stats.speed_cm)
    return f"thrust {thrust} · SOT {safe_operating_thrust(thrust, ld)}"


CRITICALS_ALT = "; ".join(f"{roll} {text}" for roll, text, _ in CRITICALS)


def qr_svg(url: str) -> Markup:
    """The share link as a QR code: segno's SVG, whose only content is the code's path data
    (no title, no description: no text of ``url``), so it is taken as markup as it is. The one
    fragment the templates do not escape; the link itself is printed, escaped, under it."""
    import segno

    return Markup(segno.make(url, error="m").svg_inline(border=2, omitsize=True, dark="#000"))


# --- the templates -------------------------------------------------------------------------


class JoinLines(Extension):
    """Drops the line breaks in a template's text, with the indentation after them.

    The templates are written an element a line, indented, for reading; the cards' HTML has no
    whitespace between elements (in the pre-formatted stat line and weapons list it would print,
    and elsewhere it would cost WeasyPrint a text box). So text that must keep a space is not
    broken across lines, and a line break the HTML needs is written ``{{ "\\n" }}``. What is
    inside ``{{ }}``, ``{% %}`` and ``{# #}`` is left as written.
    """

    _BREAK = re.compile(r"(\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\})|\n[ \t]*", re.S)

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return self._BREAK.sub(lambda m: m[1] or "", source)


# One environment a process: each template is compiled on first use and kept (no reloading).
ENV = Environment(
    loader=PackageLoader("rules_core.cards", "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    auto_reload=False,
    extensions=[JoinLines],
)
ENV.filters["pyrepr"] = repr
ENV.globals.update(
    BOX=BOX,
    CRITICALS_URL=CRITICALS_URL,
    CRITICALS_ALT=CRITICALS_ALT,
    DENSITY_CLASSES=DENSITY_CLASSES,
    ROLE_LABELS=ROLE_LABELS,
    density=density,
    points_width=points_width,
    qr_svg=qr_svg,
    squadron_text=squadron_text,
    stat_text=stat_text,
    thrust_sot=thrust_sot,
    weapons_view=weapons_view,
)


def hull_boxes(track: HullTrack) -> str:
    """One box per hull point; the last ``crippled_at`` are shaded, so a ship is crippled once
    only shaded boxes are left unticked (R-09, R-65): card.html's macro of that name."""
    module = ENV.get_template("card.html").module  # compiled once, its macros kept
    macro: Callable[[HullTrack], str] = module.hull_boxes  # type: ignore[attr-defined]
    return str(macro(track))


def roster_density(roster: Roster) -> str:
    """Denser type for a poker roster with much to say, so that it stays on its one card (issue
    29 §10: five units, their problems and the faction's rules spilled onto a second card with
    two lines on it). The estimates are millimetres of the card's 82, fitted to rosters of every
    faction's sample fleets cut to 3 to 25 units (within 5 mm); a roster too long even for
    "tight" runs on to a second card at the plain size, well filled."""
    problem_chars = sum(len(p.message) for p in (*roster.errors, *roster.warnings))
    rule_chars = sum(len(name) + len(text) + 2 for name, text in roster.faction_rules)
    link = 1 if roster.share_url else 0
    units = len(roster.lines)
    plain = 17.2 + 5.85 * units + 0.14 * problem_chars + 0.032 * rule_chars + 10 * link
    if plain <= ROSTER_ROOM_MM:
        return ""
    dense = 22.5 + 3.5 * units + 0.11 * problem_chars + 0.017 * rule_chars + 9.7 * link
    if dense <= ROSTER_ROOM_MM:
        return "dense"
    tight = 22.7 + 3.0 * units + 0.11 * problem_chars + 0.007 * rule_chars + 9.6 * link
    # Too long for one card whatever the type: two cards at the plain size, the second well
    # filled, rather than tight type and a second card holding two lines.
    return "tight" if tight <= ROSTER_ROOM_MM + 5 else ""


ROSTER_ROOM_MM = 77  # of the card's 82 mm inside its margins: room for the estimates' error
ROSTER_DENSITY_CLASSES = {
    "": "",
    "dense": " roster--dense",
    "tight": " roster--dense roster--tight",
}


def document_html(
    roster: Roster,
    cards: list[Card],
    *,
    layout: str,
    ink_saver: bool,
    advanced_movement: bool = False,
) -> str:
    """The whole document: the roster page, then the cards."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}")
    density = roster_density(roster) if layout == "poker" else ""
    return ENV.get_template("document.html").render(
        roster=roster,
        cards=cards,
        layout=layout,
        ink_saver=ink_saver,
        advanced_movement=advanced_movement,
        roster_density_class=ROSTER_DENSITY_CLASSES[density],
    )
