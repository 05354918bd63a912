"""Add every slug of the current catalogue to fleetbuilder/catalog/data/published-slugs.txt.

Published slugs never change or disappear (tests/test_catalog_data.py checks it). Run after
adding ships, upgrades, variants or factions: `.venv/bin/python tools/publish_slugs.py`.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_catalog_data import all_slugs  # noqa: E402

from rules_core.catalog import DATA_DIR, load_catalog_dir  # noqa: E402

path = DATA_DIR / "published-slugs.txt"
old = set(path.read_text().splitlines()) if path.exists() else set()
old = {line for line in old if line and not line.startswith("#")}
new = all_slugs(load_catalog_dir(DATA_DIR))
header = "# Every slug ever published. Never remove a line: fleet files name these.\n"
path.write_text(header + "\n".join(sorted(old | new)) + "\n")
print(f"{len(new - old)} slugs added, {len(old | new)} published")
