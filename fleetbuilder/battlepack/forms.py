"""The battle pack form: any two fleets the player can see (one of their fleets, a shared
fleet or a sample), the terrain in play, the movement rules and the paper. The sides are the
matchup form's own, so a fleet is chosen and checked the same way in both."""

from __future__ import annotations

from typing import Any

from django import forms

from fleetbuilder.simulator.forms import MatchupForm

from .models import PAPERS

NOT_FOR_A_PACK = ("battles", "max_rounds", "table", "scoring", "seed", "a_policy", "b_policy")


class PackForm(MatchupForm):
    paper = forms.ChoiceField(
        choices=PAPERS,
        initial="a4",
        label="Paper",
        help_text="The quick reference and the card sheets (nine cards a sheet, with cut marks).",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in NOT_FOR_A_PACK:
            del self.fields[name]
        self.fields["terrain"].help_text = "The quick reference prints the terrain in play."
