"""Small drawings the cards use many times, made in code and served to WeasyPrint as images.

An ``<img src="drawing:arc-l-f-r">`` costs WeasyPrint one box and one embedded image, where the
same diagram as SVG would cost a drawing per weapon row on every card. Only the names below exist;
:mod:`rules_core.cards.fetcher` serves them and refuses anything else.
"""

from __future__ import annotations

import io
from functools import lru_cache

from rules_core.catalog import ARC_ORDER, Arc

SCHEME = "drawing"
_KEYS = {Arc.LEFT: "l", Arc.FRONT: "f", Arc.RIGHT: "r", Arc.REAR: "re", Arc.ALL_AROUND: "aa"}
_ARCS = {v: k for k, v in _KEYS.items()}

# Four 90° sectors around a ship pointing up, as on the catalogue's ship pages
# (templates/catalog/_arcs.svg.html); All Around fills every sector. Pillow's angles run
# clockwise from 3 o'clock.
_SECTORS = ((Arc.FRONT, 225, 315), (Arc.RIGHT, 315, 405), (Arc.REAR, 45, 135),
            (Arc.LEFT, 135, 225))
ARC_PX = 96  # a 3.6 mm diagram at about 680 dpi


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
