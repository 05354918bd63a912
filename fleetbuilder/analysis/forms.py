"""The analysis form: one of your saved fleets against an opponent (one of your fleets, a shared
fleet or a sample), with the matchup form's sides, scenario options and seed."""

from __future__ import annotations

from typing import Any, cast

from django import forms

from fleetbuilder.simulator.forms import MatchupForm

from .models import DEFAULT_BATTLES, MAX_BATTLES


class AnalysisForm(MatchupForm):
    """Fleet A is always one of the player's saved fleets; B is any side the simulator takes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["battles"] = forms.IntegerField(
            min_value=1,
            max_value=MAX_BATTLES,
            initial=DEFAULT_BATTLES,
            label="Battles per variant",
            help_text=f"1 to {MAX_BATTLES}. Every variant plays the same battles (the same "
            "seeds) as your fleet, so the differences are sharp.",
        )
        cast(forms.ChoiceField, self.fields["a_source"]).choices = [("fleet", "One of your fleets")]
        self.fields["a_source"].initial = "fleet"
        self.fields["a_source"].label = "Your fleet"
        for name in ("a_share", "a_faction", "a_variant", "a_size"):
            self.fields.pop(name, None)
        self.fields["b_source"].label = "The opponent is"

    def clean(self) -> dict[str, Any]:
        if not self.own_fleets:
            raise forms.ValidationError("Save a fleet first: an analysis plays one of your fleets.")
        return super().clean()
