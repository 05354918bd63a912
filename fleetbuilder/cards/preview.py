"""Pictures of a cards PDF's pages for the print page, drawn with poppler's ``pdftoppm``
(installed by scripts/setup.sh, which the tests also use to read PDFs back).

:func:`page_picture` is one whole page, large enough to read a card's smallest type, as a
print dialog shows it (the strip of four 220 px thumbnails showed the layout but
nothing could be read).
"""

from __future__ import annotations

import logging
import subprocess
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

TIMEOUT_S = 20


# A page's longer side: an A4 sheet at 6 px a millimetre, where the cards' 4.2 pt type is
# 9 px tall; a poker card at 20.
PICTURE_PX = 1800


class PreviewError(RuntimeError):
    """The pages could not be drawn (no pdftoppm, a broken PDF, too slow)."""


def page_picture(pdf: bytes, page: int) -> bytes:
    """A PNG of page ``page`` (1-based) of ``pdf``; PreviewError if it has no such page."""
    with tempfile.TemporaryDirectory(prefix="cards-page-") as folder:
        source = Path(folder) / "cards.pdf"
        source.write_bytes(pdf)
        try:
            subprocess.run(
                [
                    "pdftoppm",
                    "-png",
                    "-scale-to",
                    str(PICTURE_PX),
                    "-f",
                    str(page),
                    "-l",
                    str(page),
                    "-singlefile",
                    str(source),
                    str(Path(folder) / "page"),
                ],
                check=True,
                capture_output=True,
                timeout=TIMEOUT_S,
            )
            return (Path(folder) / "page.png").read_bytes()
        except (OSError, subprocess.SubprocessError) as exc:
            # pdftoppm says "Wrong page range" past the last page: no such page, not a failure
            log.info("cards page %d not drawn: %s", page, exc)
            raise PreviewError(str(exc)) from exc
