"""Drawings the cards use, made in code: the arc diagrams and the critical-hit checklist.

The arcs of a card's weapons are one inline SVG per weapons list (:func:`arcs_svg`), laid over
the rows it belongs to, so a card costs WeasyPrint one drawing for its arcs, not one image per
weapon. The critical checklist is the same on every card, so it is one raster image
(``<img src="drawing:criticals">``), embedded once per document, where the checklist as text
would cost a laid-out line per row on every card. :mod:`rules_core.cards.fetcher` serves that
name and refuses anything else.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

from rules_core.catalog import Arc

if TYPE_CHECKING:
    from collections.abc import Iterable

    from PIL import ImageFont

SCHEME = "drawing"

# Four 90° sectors around a ship pointing up, as on the catalogue's ship pages
# (templates/catalog/_arcs.svg.html); All Around fills every sector. The corners of each
# sector, on a unit circle (y down).
_R = 0.70710678
_SECTORS = ((Arc.FRONT, (-_R, -_R), (_R, -_R)), (Arc.RIGHT, (_R, -_R), (_R, _R)),
            (Arc.REAR, (_R, _R), (-_R, _R)), (Arc.LEFT, (-_R, _R), (-_R, -_R)))


def _sector(cx: float, cy: float, r: float, start: tuple[float, float],
            end: tuple[float, float]) -> str:
    return (f"M{cx:.2f} {cy:.2f}L{cx + r * start[0]:.2f} {cy + r * start[1]:.2f}"
            f"A{r:.2f} {r:.2f} 0 0 1 {cx + r * end[0]:.2f} {cy + r * end[1]:.2f}Z")


def _ship(cx: float, cy: float, size: float) -> str:
    """The ship at the diagram's centre, in the 48-unit frame of the catalogue's drawing."""
    u = size / 48
    corners = ((24, 12), (29, 32), (24, 29), (19, 32))
    return "M" + "L".join(f"{cx + (x - 24) * u:.2f} {cy + (y - 24) * u:.2f}"
                          for x, y in corners) + "Z"


def arcs_svg(rows: Iterable[tuple[tuple[Arc, ...], int]], *, x: float, pitch: float,
             size: float, width: float, rule: str, ink_saver: bool) -> str:
    """The arc diagrams and row rules of a weapons list, as one SVG laid over its rows.

    ``rows`` are (arcs, lines) per weapon, ``pitch`` the height of a line in mm, ``x`` the
    diagrams' centre from the left and ``size`` their diameter; a rule of colour ``rule``
    closes each row. WeasyPrint parses and draws an inline SVG per node, so the whole list is
    four paths: the sectors in fire, the others, the ships and the rules.
    """
    r = size / 2 - 0.1
    on: list[str] = []
    off: list[str] = []
    ships: list[str] = []
    rules: list[str] = []
    y = 0.0
    for arcs, lines in rows:
        cy = y + pitch / 2
        wanted = set(arcs)
        for arc, start, end in _SECTORS:
            fired = Arc.ALL_AROUND in wanted or arc in wanted
            (on if fired else off).append(_sector(x, cy, r, start, end))
        ships.append(_ship(x, cy, size))
        y += lines * pitch
        rules.append(f"M0 {y - 0.075:.3f}H{width}")
    fill = "#b9bec4" if ink_saver else "#333"
    paths = [(fill, "#555", 0.1, on), ("#fff", "#555", 0.1, off), ("#fff", "#000", 0.1, ships),
             ("none", rule, 0.15, rules)]
    body = "".join(f'<path fill="{f}" stroke="{s}" stroke-width="{w}" d="{"".join(d)}"/>'
                   for f, s, w, d in paths if d)
    return (f'<svg class="arcs" width="{width}mm" height="{y:.3f}mm" '
            f'viewBox="0 0 {width} {y:.3f}">{body}</svg>')


CRITICALS_URL = f"{SCHEME}:criticals"
DPI = 600
CHECKLIST_MM = (57.8, 14.7)  # the card's inner width; six rows of 2.45 mm


class UnknownDrawing(ValueError):
    pass


STAT_CELLS_URLS = {False: f"{SCHEME}:stat-cells", True: f"{SCHEME}:stat-cells-ink"}


@lru_cache(maxsize=4)
def drawing(url: str) -> bytes:
    """The PNG a ``drawing:`` URL names, or :class:`UnknownDrawing`.

    Rasters, drawn once per process: WeasyPrint embeds each once per document and places it
    cheaply, where an SVG would be drawn afresh on every card.
    """
    if url == CRITICALS_URL:
        return _criticals_png()
    for ink, name in STAT_CELLS_URLS.items():
        if url == name:
            return _stat_cells_png(ink)
    raise UnknownDrawing(url)


def _stat_cells_png(ink_saver: bool) -> bytes:
    """The stat line's eight cell borders (0.2 mm lines every 7.225 mm), behind its text."""
    from PIL import Image, ImageDraw

    px = DPI / 25.4
    img = Image.new("RGBA", (round(57.8 * px), 8), (255, 255, 255, 0))
    draw = ImageDraw.Draw(img)
    colour = (180, 186, 192, 255) if ink_saver else (138, 147, 156, 255)
    for n in range(8):
        left = round(n * 7.225 * px)
        draw.rectangle((left, 0, left + round(0.2 * px) - 1, 7), fill=colour)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _criticals_png() -> bytes:
    """R-64's checklist in two columns: roll, result, and a box per copy at the column's end.

    Drawn once at 600 dpi in DejaVu Sans Condensed (the cards' font, from fonts-dejavu-extra):
    the same on every card, so one image embedded once serves them all.
    """
    from PIL import Image, ImageDraw, ImageFont

    from .model import CRITICALS

    px = DPI / 25.4
    width, height = round(CHECKLIST_MM[0] * px), round(CHECKLIST_MM[1] * px)
    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    size = round(4.8 / 72 * DPI)  # 4.8 pt
    bold = ImageFont.truetype("DejaVuSansCondensed-Bold.ttf", size)
    row_h = height / 6
    box = round(1.85 * px)
    gap = round(0.35 * px)
    column = width / 2
    half = (len(CRITICALS) + 1) // 2
    for i, (roll, text, copies) in enumerate(CRITICALS):
        x0 = 0 if i < half else round(column + 0.8 * px)
        right = round(column - 1.0 * px) if i < half else width - 4
        y = (i % half) * row_h + row_h / 2
        draw.text((x0 + round(2.6 * px), y), str(roll), font=bold, fill=0, anchor="rm")
        room = right - copies * (box + gap) - (x0 + round(3.3 * px)) - round(0.4 * px)
        font = _fitting_font(text, size, room)
        draw.text((x0 + round(3.3 * px), y), text, font=font, fill=0, anchor="lm")
        for n in range(copies):
            left = right - (copies - n) * box - (copies - n - 1) * gap
            top = round(y - box / 2)
            draw.rectangle((left, top, left + box, top + box), outline=0, width=4)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True, dpi=(DPI, DPI))
    return out.getvalue()


def _fitting_font(text: str, size: int, room: float) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Condensed at ``size`` pixels, or smaller until ``text`` fits ``room``."""
    from PIL import ImageFont

    while True:
        font = ImageFont.truetype("DejaVuSansCondensed.ttf", size)
        if font.getlength(text) <= room or size <= 20:
            return font
        size -= 1
