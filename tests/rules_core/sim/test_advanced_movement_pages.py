"""Advanced movement outside the battle: the cards, the preview form, the command line and the
Rules page (R-140, R-141)."""

from __future__ import annotations

from pathlib import Path

from rules_core.cards.render import cards_html
from rules_core.fleet import Fleet, GameSize, ShipUnit

RULES_HTML = Path(__file__).resolve().parents[3] / "templates" / "catalog" / "rules.html"


def test_cards_print_thrust_and_sot_only_when_asked(sim_catalog):
    # Speed 20 cm is thrust 4; Ld 8 (+1 flagship: 9) is skill 6: SOT (4 + 6) / 2 = 5.
    fleet = Fleet(
        faction="test-navy",
        game_size=GameSize.SKIRMISH,
        units=(ShipUnit(ship="gun-cruiser", flagship=True),),
    )
    assert "Advanced movement" not in cards_html(sim_catalog, fleet)
    html = cards_html(sim_catalog, fleet, advanced_movement=True)
    assert "Advanced movement: thrust 4 · SOT 5" in html


def test_the_preview_offers_advanced_movement_and_passes_it_on():
    # a scenario option of the preview; standard stays the default.
    from fleetbuilder.simulator.forms import MOVEMENT_CHOICES, MatchupForm
    from rules_core.sim.api import MOVEMENTS

    assert MatchupForm.base_fields["movement"].initial == "standard"
    assert {v for v, _ in MOVEMENT_CHOICES} == set(MOVEMENTS)


def test_the_simulate_command_takes_movement(tmp_path, capsys):  # type: ignore[no-untyped-def]
    # manage.py simulate ... --movement advanced
    from fleetbuilder.simulator.management.commands.simulate import Command

    parser = Command().create_parser("manage.py", "simulate")
    opts = parser.parse_args(["a.json", "b.json", "--movement", "advanced"])
    assert opts.movement == "advanced"
    assert parser.parse_args(["a.json", "b.json"]).movement == "standard"


def test_the_rules_page_explains_advanced_movement():
    # each get a line on the Rules page, with its id.
    import re

    html = RULES_HTML.read_text(encoding="utf-8")
    section = html[html.index('id="advanced-movement"') :]
    cited = set(re.findall(r'<span class="ruling">(R-\d+)</span>', section))
    assert {f"R-{n}" for n in range(140, 149)} <= cited
    for words in ("SOT", "push the plant", "interface zone", "Gravity"):
        assert words in section
