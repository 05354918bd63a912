"""A weapon's type, arc, range and strength print on the line of its name, the first line when
a long name takes two (the columns are a block pulled up beside the names, no float)."""

from __future__ import annotations

import re

from rules_core.cards import render_cards
from rules_core.cards.markup import density, weapons_view
from rules_core.cards.model import build_cards
from rules_core.catalog import Catalog
from rules_core.fleet import Fleet, GameSize, Squadron, SquadronShip
from rules_core.validator import validate

from .conftest import Pdf


def test_a_two_line_last_weapon_keeps_its_columns_on_its_first_line(real_catalog: Catalog) -> None:
    # Four Kinstar frigates print densely enough that "Prow Bolt Cannon Battery", their only
    # weapon, takes two lines: its columns once slid a line down, off their row.
    fleet = Fleet(
        "leagues-of-votann",
        GameSize.BATTLE,
        (Squadron((SquadronShip("votann-kinstar-frigate"),) * 4),),
        name="Kinstar",
    )
    card = build_cards(real_catalog, fleet, validate(fleet, real_catalog))[0]
    block = card.blocks[0]
    view = weapons_view(block, density=density(card))
    assert view is not None and "\n" in view.names[-1][0]  # the name does take two lines
    weapon = block.weapons[-1].weapon
    first_line = view.names[-1][0].split("\n")[0].removeprefix("\u2610 ")

    text = Pdf(render_cards(real_catalog, fleet, layout="poker")).page_texts[1]
    rows = [line for line in text.splitlines() if first_line in line]
    assert len(rows) == 1, text  # the name's first line printed clear of the header's labels
    row = rows[0]
    assert re.search(
        rf"{re.escape(first_line)}\s+\S+\s+{re.escape(weapon.arc_label)}\s+\d+"
        rf"\s+{weapon.strength} \(\d+\)",
        row,
    ), row
