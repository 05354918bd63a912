"""Forms for the builder: every value a player sends is checked here before the model sees it."""

from __future__ import annotations

from typing import Any, cast

from django import forms

from fleetbuilder.text import PlayerTextForm  # every text field follows R-94
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.edits import UPGRADE_NOT_LISTED
from rules_core.limits import MAX_EDITION

from .models import DEFAULT_NAME, GAME_SIZE_CHOICES

NAME_FIELD: dict[str, Any] = {"max_length": rf.MAX_NAME_LENGTH, "required": False, "strip": True}


class FleetSettingsForm(PlayerTextForm):
    """Name, list, variant and game size. The faction is chosen once, when the fleet starts."""

    # Empty, with the default as its placeholder: typing replaces it.
    name = forms.CharField(
        widget=forms.TextInput(attrs={"placeholder": DEFAULT_NAME}), **NAME_FIELD
    )
    faction = forms.ChoiceField()
    variant = forms.ChoiceField(required=False)
    game_size = forms.ChoiceField(choices=GAME_SIZE_CHOICES, initial="skirmish")
    points_min = forms.IntegerField(
        required=False, min_value=0, max_value=rf.MAX_POINTS_LIMIT, label="Custom minimum"
    )
    points_max = forms.IntegerField(
        required=False, min_value=0, max_value=rf.MAX_POINTS_LIMIT, label="Custom maximum"
    )

    def __init__(
        self, *args: Any, catalog: core.Catalog, faction: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.catalog = catalog
        factions = [catalog.faction(faction)] if faction else list(catalog.factions)
        cast(forms.ChoiceField, self.fields["faction"]).choices = [
            (f.slug, f.name) for f in factions if f
        ]
        if faction:
            del self.fields["faction"]
            self.fixed_faction: str | None = faction
        else:
            self.fixed_faction = None
        variants: list[Any] = [("", "Standard list (no variant)")]
        for f in factions:
            if f and f.variants:
                variants.append((f.name, [(v.slug, v.name) for v in f.variants]))
        cast(forms.ChoiceField, self.fields["variant"]).choices = variants

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        faction_slug = self.fixed_faction or data.get("faction")
        faction = self.catalog.faction(faction_slug) if faction_slug else None
        variant = data.get("variant") or None
        if faction is not None and variant and faction.variant(variant) is None:
            self.add_error("variant", f"{faction.name} has no such variant.")
        data["variant"] = variant
        data["name"] = data.get("name") or DEFAULT_NAME
        if data.get("game_size") == rf.GameSize.CUSTOM.value:
            lo, hi = data.get("points_min"), data.get("points_max")
            if lo is None or hi is None:
                self.add_error("points_max", "A custom game size needs a minimum and a maximum.")
            elif hi < lo:
                self.add_error("points_max", "The maximum must not be below the minimum.")
            else:
                data["points_limit"] = (lo, hi)
        data.setdefault("points_limit", None)
        return data


class ShipForm(forms.Form):
    ship = forms.SlugField(max_length=rf.MAX_SLUG_LENGTH)


class NameForm(PlayerTextForm):
    name = forms.CharField(**NAME_FIELD)


class PlaceForm(forms.Form):
    """Which escort inside a squadron an edit is about; empty for a capital-ship unit."""

    ship = forms.IntegerField(required=False, min_value=0, max_value=rf.MAX_SQUADRON_SHIPS)


class UpgradeForm(PlaceForm):
    upgrade = forms.SlugField(max_length=rf.MAX_SLUG_LENGTH)


class AdmiralForm(forms.Form):
    admiral = forms.SlugField(max_length=rf.MAX_SLUG_LENGTH, required=False)


class MoveForm(PlayerTextForm):
    ship = forms.IntegerField(min_value=0, max_value=rf.MAX_SQUADRON_SHIPS)
    to = forms.CharField(max_length=8, help_text="a squadron's unit index, or 'new'")

    def clean_to(self) -> int | None:
        value = self.cleaned_data["to"]
        if value == "new":
            return None
        if not (value.isascii() and value.isdigit()):  # "²".isdigit() is true
            raise forms.ValidationError("Choose a squadron.")
        return int(value)


class UpgradeSetForm(forms.Form):
    """The upgrades a ship should carry: the ticked boxes of its editor. ``ship`` is empty for a
    capital-ship unit, an escort's place in its squadron, or ``all`` for every escort of the
    squadron (squadron-wide refits, R-151)."""

    ship = forms.CharField(required=False, max_length=4)

    def clean_ship(self) -> int | None:
        value = self.cleaned_data["ship"]
        if value in ("", "all"):
            return None
        if not (value.isascii() and value.isdigit()) or int(value) > rf.MAX_SQUADRON_SHIPS:
            raise forms.ValidationError("Choose an escort of the squadron.")
        return int(value)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["squadron_wide"] = self.data.get("ship") == "all"
        raw = self.data.getlist("upgrade") if hasattr(self.data, "getlist") else []
        if len(raw) > rf.MAX_UPGRADES_PER_SHIP:
            raise forms.ValidationError(
                f"A ship takes at most {rf.MAX_UPGRADES_PER_SHIP} upgrades."
            )
        if any(len(s) > rf.MAX_SLUG_LENGTH or not core.SLUG_RE.fullmatch(s) for s in raw):
            raise forms.ValidationError(UPGRADE_NOT_LISTED)
        data["upgrades"] = list(dict.fromkeys(raw))
        return data


class ReorderForm(forms.Form):
    """Where a unit goes: ``by`` places up (-1) or down (1), or to place ``to`` (a drag)."""

    by = forms.IntegerField(required=False, min_value=-1, max_value=1)
    to = forms.IntegerField(required=False, min_value=0, max_value=rf.MAX_UNITS)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and (data.get("by") is None) == (data.get("to") is None):
            raise forms.ValidationError("Say where the unit goes: up, down, or a place.")
        return data


class EditionForm(forms.Form):
    """The edition a list moves to (R-162)."""

    edition = forms.IntegerField(min_value=1, max_value=MAX_EDITION)
