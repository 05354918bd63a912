"""Small pictures of a cards PDF's first pages, for the print page (issue 13 §7).

The PDF is drawn page by page with poppler's ``pdftoppm`` (installed by scripts/setup.sh, which
the tests also use to read PDFs back) and the pages are set side by side on one PNG with Pillow.
Each page is scaled to ``PAGE_PX`` on its longer side: enough to see the layout (the roster, nine
cards a sheet or one a page), not to read it.
"""

from __future__ import annotations

import io
import logging
import subprocess
import tempfile
from pathlib import Path

from PIL import Image

log = logging.getLogger(__name__)

MAX_PAGES = 4
PAGE_PX = 220
GAP_PX = 12
TIMEOUT_S = 20


class PreviewError(RuntimeError):
    """The pages could not be drawn (no pdftoppm, a broken PDF, too slow)."""


def page_thumbnails(pdf: bytes) -> bytes:
    """A PNG of the first ``MAX_PAGES`` pages of ``pdf`` side by side."""
    with tempfile.TemporaryDirectory(prefix="cards-preview-") as folder:
        source = Path(folder) / "cards.pdf"
        source.write_bytes(pdf)
        try:
            subprocess.run(
                ["pdftoppm", "-png", "-scale-to", str(PAGE_PX), "-l", str(MAX_PAGES),
                 str(source), str(Path(folder) / "page")],
                check=True, capture_output=True, timeout=TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as exc:
            log.warning("cards preview failed: %s", exc)
            raise PreviewError(str(exc)) from exc
        pages = [Image.open(p).convert("RGB")
                 for p in sorted(Path(folder).glob("page-*.png"))]
    if not pages:
        raise PreviewError("the PDF has no pages")
    width = sum(p.width for p in pages) + GAP_PX * (len(pages) + 1)
    height = max(p.height for p in pages) + 2 * GAP_PX
    sheet = Image.new("RGB", (width, height), (214, 218, 226))
    x = GAP_PX
    for page in pages:
        sheet.paste(page, (x, GAP_PX))
        x += page.width + GAP_PX
    out = io.BytesIO()
    sheet.save(out, format="PNG", optimize=True)
    return out.getvalue()
