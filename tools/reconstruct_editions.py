"""Publish the catalogue's history as editions 1–7, from the repository's own commits (one-off).

Before editions existed the data files changed in place. This tool reads the data folder as it
stood at each release of the points (``git archive``) and writes it as an edition file, dated by
that commit (R-160). Run once, from the project root, in a clone with the whole history:

    .venv/bin/python tools/reconstruct_editions.py

It refuses to overwrite an edition file that exists: an edition never changes once published.
Later editions are published with ``manage.py publish_edition``.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_core import editions  # noqa: E402
from rules_core.catalog import DATA_DIR, load_catalog_dir  # noqa: E402

OUT = DATA_DIR / "editions"

# (commit, published, label, notes): the data as the commit left it, dated by the commit (the
# first by the original conversion, whose prices it still had).
HISTORY = [
    (
        "3c43eed",
        "2026-11-29T19:26:35Z",
        "2026-11, original conversion",
        "The first catalogue: 135 ships converted from the original game's statistics and 62 "
        "designed by the points model, 14 factions. Includes the ship descriptions and the "
        "upgrade prerequisites of 1 December (R-150), which changed no price.",
    ),
    (
        "0a37df3",
        "2026-12-01T11:36:31Z",
        "2026-12-01, first calibration",
        "One points factor per faction, fitted on round robins of the sample fleets (Archenemy "
        "up, Eldar down); three Mechanicus Battle-only ships priced apart.",
    ),
    (
        "024634e",
        "2026-12-01T14:27:52Z",
        "2026-12-01, second calibration",
        "Recalibrated after the faction tactics: five factions priced apart on Skirmish and on "
        "Battle, ten more ships priced by ship.",
    ),
    (
        "c977772",
        "2026-12-01T20:01:09Z",
        "2026-12-01, third calibration",
        "After the Eldar's order of play: Archenemy, Drukhari, Mechanicus, Orks and Tyranids "
        "factors changed (52 ships).",
    ),
    (
        "766fc75",
        "2026-12-02T00:35:47Z",
        "2026-12-02, Astartes by ship",
        "The Astartes priced by ship: escorts x1.25 (30 to 40 points for the smallest), strike "
        "cruisers x0.85.",
    ),
    (
        "88ce8dd",
        "2026-12-02T02:46:21Z",
        "2026-12-02, fourth calibration",
        "Eldar holofields redesigned (a hit from within 15 cm is ignored on a 5+; R-89) and the "
        "Eldar repriced: Void Stalker 305, Aurora 100, Eclipse 175, Flame of Asuryan 225.",
    ),
    (
        "c2b7331",
        "2026-12-02T03:35:22Z",
        "2026-12, Necrons' Battle ships",
        "The Necrons' two Battle-only ships x1.05: the Scythe Class Harvest Ship 265 to 280, "
        "the Harbinger-class Heavy Cruiser 300 to 315.",
    ),
]


def data_at(commit: str, into: Path) -> Path:
    folder = DATA_DIR.relative_to(ROOT).as_posix()
    archive = subprocess.run(
        ["git", "archive", commit, folder], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / folder


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for number, (commit, published, label, notes) in enumerate(HISTORY, start=1):
        path = OUT / editions.file_name(number)
        if path.exists():
            print(f"{path.name}: exists, left as it is")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            data = data_at(commit, Path(tmp))
            raw = editions.edition_bytes(
                number=number,
                label=label,
                published=datetime.strptime(published, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC),
                notes=notes,
                data_version=load_catalog_dir(data).version,
                catalog=editions.data_dicts(data),
            )
        editions.read_edition(raw)  # it must read back
        path.write_bytes(raw)
        print(f"{path.name}: {label} ({len(raw) // 1024} KB, from {commit})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
