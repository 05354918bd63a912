"""Drawings the cards use, made in code: the arc diagrams and the critical-hit checklist.

The arcs of a weapons list are a raster strip behind its rows (:func:`arcs_url`), so a card
costs WeasyPrint no box and no SVG for its arcs (an inline SVG is parsed and drawn in Python,
about as dear as the rest of the weapons list). The critical checklist is the same on every
card, so it is one raster image (``<img src="drawing:criticals">``), embedded once per
document, where the checklist as text would cost a laid-out line per row on every card.
:mod:`rules_core.cards.fetcher` serves these names and refuses anything else.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from rules_core.catalog import Arc

if TYPE_CHECKING:
    from collections.abc import Iterable

    from PIL import Image, ImageFont

SCHEME = "drawing"

# A weapons list's arc diagrams are a strip of rasters, one under each row's arc column, and
# its row rules a one-pixel-wide raster stretched across the card: two backgrounds of the
# names block (markup.weapons_view), so the arcs cost WeasyPrint no box at all and a list's
# images are embedded once per document, however many cards repeat it. The URL says all that
# decides the picture, and :func:`drawing` accepts only URLs of exactly that shape.
ARCS_RE = re.compile(
    r"drawing:arcs-(\d{3})-(\d{3})-([01])-((?:[0-9a-f][1-9]\.){0,59}[0-9a-f][1-9])"
)
RULES_RE = re.compile(r"drawing:rules-(\d{3})-([01])-([1-9]{1,60})")
MAX_LINES = 60  # a weapons list's lines: far more than a card holds; bounds a drawing's size
_ARC_BITS = {Arc.FRONT: 1, Arc.RIGHT: 2, Arc.REAR: 4, Arc.LEFT: 8, Arc.ALL_AROUND: 15}
ARC_STRIP_MARGIN_MM = 0.2  # white space either side of a diagram in its strip


def _arc_bits(arcs: Iterable[Arc]) -> int:
    bits = 0
    for arc in arcs:
        bits |= _ARC_BITS.get(arc, 0)
    return bits


def arcs_url(
    rows: Iterable[tuple[tuple[Arc, ...], int]], *, pitch: float, size: float, ink_saver: bool
) -> str:
    """The strip of arc diagrams for ``rows`` ((arcs, lines) per weapon): a diagram of
    diameter ``size`` mm centred in each row's first line, rows ``pitch`` mm a line."""
    code = ".".join(f"{_arc_bits(arcs):x}{lines}" for arcs, lines in rows)
    return f"{SCHEME}:arcs-{round(pitch * 100):03d}-{round(size * 100):03d}-{int(ink_saver)}-{code}"


def rules_url(lines: Iterable[int], *, pitch: float, ink_saver: bool) -> str:
    """The rules closing each row of a weapons list whose rows are ``lines`` lines high."""
    return f"{SCHEME}:rules-{round(pitch * 100):03d}-{int(ink_saver)}-{''.join(map(str, lines))}"


def arc_strip_width(size: float) -> float:
    return size + 2 * ARC_STRIP_MARGIN_MM


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", dpi=(DPI, DPI))
    return out.getvalue()


def _arcs_png(pitch: float, size: float, ink_saver: bool, rows: list[tuple[int, int]]) -> bytes:
    """Drawn at twice the resolution and halved, so the small diagrams' edges are smooth.
    Four 90° sectors round a ship pointing up, as on the catalogue's ship pages
    (templates/catalog/_arcs.svg.html); All Around fills every sector."""
    from PIL import Image, ImageDraw

    px = 2 * DPI / 25.4
    lines = sum(n for _, n in rows)
    width, height = round(arc_strip_width(size) * px), round(lines * pitch * px)
    img = Image.new("RGBA", (width, height), (255, 255, 255, 0))  # clear between diagrams
    draw = ImageDraw.Draw(img)
    on = (185, 190, 196, 255) if ink_saver else (51, 51, 51, 255)
    grey, black, white = (85, 85, 85, 255), (0, 0, 0, 255), (255, 255, 255, 255)
    stroke = max(1, round(0.12 * px))  # drawn inside the edge: a little wider
    r = (size / 2 - 0.1) * px
    cx = width / 2
    y = 0.0
    for bits, n in rows:
        cy = (y + pitch / 2) * px
        box = (cx - r, cy - r, cx + r, cy + r)
        # PIL's angles run clockwise from three o'clock: the front sector is 225°–315°.
        for bit, start in ((1, 225), (2, 315), (4, 45), (8, 135)):
            draw.pieslice(
                box, start, start + 90, fill=on if bits & bit else white, outline=grey, width=stroke
            )
        u = size / 48 * px  # the ship, in the 48-unit frame of the catalogue's drawing
        ship = [
            (cx + (x - 24) * u, cy + (yy - 24) * u)
            for x, yy in ((24, 12), (29, 32), (24, 29), (19, 32))
        ]
        draw.polygon(ship, fill=white, outline=black, width=stroke)
        y += n * pitch
    return _png(img.resize((width // 2, height // 2), Image.Resampling.LANCZOS))


def _rules_png(pitch: float, ink_saver: bool, lines: list[int]) -> bytes:
    """One pixel wide (it is stretched across the card): a 0.15 mm rule ending each row, on a
    transparent ground, laid over the arcs as the SVG's rules were."""
    from PIL import Image, ImageDraw

    px = DPI / 25.4
    height = round(sum(lines) * pitch * px)
    img = Image.new("RGBA", (1, height), (255, 255, 255, 0))
    draw = ImageDraw.Draw(img)
    colour = (180, 186, 192, 255) if ink_saver else (138, 147, 156, 255)
    y = 0.0
    for n in lines:
        y += n * pitch
        bottom = round(y * px)
        draw.rectangle((0, bottom - round(0.15 * px), 0, bottom - 1), fill=colour)
    return _png(img)


CRITICALS_URL = f"{SCHEME}:criticals"
DPI = 600
CHECKLIST_MM = (57.8, 14.7)  # the card's inner width; six rows of 2.45 mm


class UnknownDrawing(ValueError):
    pass


STAT_CELLS_URLS = {False: f"{SCHEME}:stat-cells", True: f"{SCHEME}:stat-cells-ink"}


@lru_cache(maxsize=1024)
def drawing(url: str) -> bytes:
    """The PNG a ``drawing:`` URL names, or :class:`UnknownDrawing`.

    Rasters, drawn once per process: WeasyPrint embeds each once per document and places it
    cheaply, where an SVG would be parsed and drawn afresh on every card.
    """
    if url == CRITICALS_URL:
        return _criticals_png()
    if m := ARCS_RE.fullmatch(url):
        pitch, size = int(m[1]) / 100, int(m[2]) / 100
        if not (1.5 <= pitch <= 5 and 1.5 <= size <= 5):
            raise UnknownDrawing(url)
        rows = [(int(r[0], 16), int(r[1])) for r in m[4].split(".")]
        if sum(n for _, n in rows) > MAX_LINES:
            raise UnknownDrawing(url)
        return _arcs_png(pitch, size, m[3] == "1", rows)
    if m := RULES_RE.fullmatch(url):
        pitch = int(m[1]) / 100
        if not 1.5 <= pitch <= 5 or sum(int(c) for c in m[3]) > MAX_LINES:
            raise UnknownDrawing(url)
        return _rules_png(pitch, m[2] == "1", [int(c) for c in m[3]])
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
