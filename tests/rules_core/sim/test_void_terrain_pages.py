"""The preview's default scenario and the Rules page for seed 001 (R-136, R-130 – R-135)."""

from __future__ import annotations

import re
from pathlib import Path

RULES_HTML = Path(__file__).resolve().parents[3] / "templates" / "catalog" / "rules.html"


def test_the_preview_defaults_to_section13_and_seed_001_terrain_with_open_space_an_option():
    # R-136: "The preview's default scenario places terrain as §13 and seed 001 describe.
    # Open space stays an option."
    from fleetbuilder.simulator.forms import TERRAIN_CHOICES, MatchupForm
    from rules_core.sim.api import TERRAINS

    assert MatchupForm.base_fields["terrain"].initial == "voidscape"
    assert {value for value, _ in TERRAIN_CHOICES} == set(TERRAINS)
    assert ("none", "Open space") in TERRAIN_CHOICES


def test_the_rules_page_has_a_line_for_each_seed_001_ruling():
    # Each of gets a line on the Rules page, with its id.
    html = RULES_HTML.read_text(encoding="utf-8")
    section = html[html.index('id="terrain"') : html.index('id="victory"')]
    cited = set(re.findall(r'<span class="ruling">(R-\d+)</span>', section))
    assert {"R-130", "R-131", "R-132", "R-133", "R-134", "R-135", "R-136"} <= cited
    for words in ("fracture", "crashes", "slingshots out", "every direction", "falls in"):
        assert words in section
