"""Reading printed cards back: poppler's pdfinfo and pdftotext (installed by scripts/setup.sh)."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from functools import cached_property

from rules_core.catalog import Catalog

MM = 72 / 25.4  # PDF points per millimetre


def price(catalog: Catalog, *slugs: str, faction: str = "imperial-navy") -> int:
    """The catalogue's price of these ships, upgrades, refits and admirals, summed: prices are
    calibrated (docs/catalogue.md, Calibration), so the tests read them rather than copy them."""
    side = catalog.faction(faction)
    assert side is not None
    items = (*side.ships, *side.upgrades, *catalog.refits, *catalog.admirals)
    return sum(next(i.points for i in items if i.slug == slug) for slug in slugs)


@dataclass
class Pdf:
    data: bytes

    def _run(self, *args: str) -> str:
        done = subprocess.run(args, input=self.data, capture_output=True, check=True)
        return done.stdout.decode("utf-8")

    @cached_property
    def info(self) -> str:
        return self._run("pdfinfo", "-")

    @property
    def pages(self) -> int:
        return int(re.search(r"^Pages:\s+(\d+)", self.info, re.M)[1])

    @property
    def page_size_mm(self) -> tuple[float, float]:
        m = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", self.info, re.M)
        return round(float(m[1]) / MM, 1), round(float(m[2]) / MM, 1)

    @cached_property
    def page_texts(self) -> list[str]:
        """Each page's text (layout kept, so a table row stays on one line)."""
        return self._run("pdftotext", "-layout", "-", "-").split("\f")[: self.pages]

    @cached_property
    def raw_texts(self) -> list[str]:
        """Each page's text in drawing order: a wrapped title stays in one piece."""
        return self._run("pdftotext", "-raw", "-", "-").split("\f")[: self.pages]

    @property
    def text(self) -> str:
        return "\n".join(self.page_texts)

    @property
    def card_pages(self) -> list[int]:
        """Pages (0-based) that hold a card: each card names its unit ("· Unit 3")."""
        return [i for i, t in enumerate(self.page_texts) if re.search(r"· Unit \d+\b", t)]

    def fonts(self) -> str:
        return self._run("pdffonts", "-")
