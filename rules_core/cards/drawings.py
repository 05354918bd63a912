"""Small drawings the cards use many times, made in code and served to WeasyPrint as images.

An ``<img src="drawing:arc-l-f-r">`` costs WeasyPrint one box and one embedded image, where the
same diagram as SVG would cost a drawing per weapon row on every card, and the critical checklist
as text would cost a laid-out line per row on every card. Only the names below exist;
:mod:`rules_core.cards.fetcher` serves them and refuses anything else.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

from rules_core.catalog import ARC_ORDER, Arc

if TYPE_CHECKING:
    from PIL import ImageFont

SCHEME = "drawing"
_KEYS = {Arc.LEFT: "l", Arc.FRONT: "f", Arc.RIGHT: "r", Arc.REAR: "re", Arc.ALL_AROUND: "aa"}
_ARCS = {v: k for k, v in _KEYS.items()}

# Four 90° sectors around a ship pointing up, as on the catalogue's ship pages
# (templates/catalog/_arcs.svg.html); All Around fills every sector. Pillow's angles run
# clockwise from 3 o'clock.
_SECTORS = ((Arc.FRONT, 225, 315), (Arc.RIGHT, 315, 405), (Arc.REAR, 45, 135),
            (Arc.LEFT, 135, 225))
ARC_PX = 96  # a 3.6 mm diagram at about 680 dpi


CRITICALS_URL = f"{SCHEME}:criticals"
DPI = 600
CHECKLIST_MM = (57.8, 14.7)  # the card's inner width; six rows of 2.45 mm


def arc_url(arcs: tuple[Arc, ...], *, ink_saver: bool = False) -> str:
    keys = "-".join(_KEYS[a] for a in sorted(set(arcs), key=ARC_ORDER.index))
    return f"{SCHEME}:arc{'-ink' if ink_saver else ''}-{keys}"


class UnknownDrawing(ValueError):
    pass


@lru_cache(maxsize=64)
def drawing(url: str) -> bytes:
    """The PNG a ``drawing:`` URL names, or :class:`UnknownDrawing`.

    A raster, drawn once per process: WeasyPrint embeds it once per document and places it
    cheaply, where an SVG would be drawn afresh on every row of every card.
    """
    name = url.removeprefix(f"{SCHEME}:")
    if url == CRITICALS_URL:
        return _criticals_png()
    parts = name.split("-")
    if len(parts) < 2 or parts[0] != "arc":
        raise UnknownDrawing(url)
    ink = parts[1] == "ink"
    keys = parts[2:] if ink else parts[1:]
    if not keys or any(k not in _ARCS for k in keys) or len(set(keys)) != len(keys):
        raise UnknownDrawing(url)
    return _arc_png({_ARCS[k] for k in keys}, ink)


def _arc_png(arcs: set[Arc], ink_saver: bool) -> bytes:
    from PIL import Image, ImageDraw  # WeasyPrint's own dependency

    scale = 4  # drawn large, then reduced: smooth edges
    size = ARC_PX * scale
    img = Image.new("RGBA", (size, size), (255, 255, 255, 0))
    draw = ImageDraw.Draw(img)
    on = (185, 190, 196, 255) if ink_saver else (51, 51, 51, 255)
    line = (85, 85, 85, 255)
    width = 3 * scale
    box = (width, width, size - width, size - width)
    everywhere = Arc.ALL_AROUND in arcs
    for arc, start, end in _SECTORS:
        fill = on if everywhere or arc in arcs else (255, 255, 255, 255)
        draw.pieslice(box, start, end, fill=fill, outline=line, width=width)
    u = size / 48  # the ship, in the 48-unit frame of the catalogue's drawing
    ship = [(24 * u, 12 * u), (29 * u, 32 * u), (24 * u, 29 * u), (19 * u, 32 * u)]
    draw.polygon(ship, fill=(255, 255, 255, 255), outline=(0, 0, 0, 255), width=width)
    out = io.BytesIO()
    img.resize((ARC_PX, ARC_PX), Image.Resampling.LANCZOS).save(out, format="PNG", optimize=True)
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
