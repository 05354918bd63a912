"""A manage.py command starts without importing WeasyPrint: the URL checks import
every view, and the cards' PDF machinery is imported only when a PDF is made."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_by(*args: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return {
        line.rsplit("|", 1)[1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def test_manage_py_check_loads_every_view_but_not_weasyprint() -> None:
    modules = imported_by("check")
    assert {"fleetbuilder.cards.views", "fleetbuilder.fleets.views", "rules_core.cards"} <= modules
    assert sorted(m for m in modules if m.split(".")[0] == "weasyprint") == []


def test_the_cards_still_name_their_fetcher() -> None:
    from rules_core import cards
    from rules_core.cards.fetcher import AssetFetcher, RefusedURL

    assert cards.AssetFetcher is AssetFetcher and cards.RefusedURL is RefusedURL
