"""The changelog's "compare with" form: a GET select of the other editions (R-160)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from rules_core.editions import EditionInfo, describe


class CompareForm(forms.Form):
    against = forms.TypedChoiceField(
        label="Compare with", required=False, coerce=int, empty_value=None
    )

    def __init__(
        self,
        data: Any = None,
        *,
        edition: EditionInfo,
        known: Sequence[EditionInfo],
        default: EditionInfo | None,
    ) -> None:
        # Without ?against= the page compares with the previous edition: the select shows it.
        super().__init__(data, initial={"against": default.number if default else None})
        others = [i for i in known if i.number != edition.number]
        choices: list[tuple[str, str]] = [(str(i.number), i.title) for i in reversed(others)]
        if default is None:  # the first edition has nothing before it
            choices.insert(0, ("", "Choose an edition"))
        field = self.fields["against"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = choices
        field.error_messages["invalid_choice"] = (
            f"“%(value)s” is not an edition to compare edition {edition.number} with: choose "
            f"one of editions {describe(i.number for i in others)}."
        )
