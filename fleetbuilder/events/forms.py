"""Forms for events: every value an organiser or player sends is checked here (R-171, R-172)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django import forms
from django.utils import timezone

from fleetbuilder.catalog import editions
from fleetbuilder.text import FollowsR94
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.limits import MAX_FLEET_POINTS

from .models import EDITABLE, GAME_SIZE_CHOICES, MAX_PLAYER_CAP, Event, Game

LOCAL = "%Y-%m-%dT%H:%M"


def zone_choices() -> list[tuple[str, str]]:
    return [("UTC", "UTC")] + [
        (z, z.replace("_", " "))
        for z in sorted(available_timezones())
        if "/" in z and not z.startswith(("Etc/", "SystemV/", "US/"))
    ]


class LocalDateTimeField(forms.DateTimeField):
    """A date and time as the organiser's clock shows it (``datetime-local``), read in the
    event's time zone (the form's ``time_zone`` field) by the form's ``clean``."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL)
    input_formats = [LOCAL, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"]

    def to_python(self, value: Any) -> datetime | None:
        moment = super().to_python(value)
        # Naive on purpose: the form attaches the event's zone once it knows it.
        return moment.replace(tzinfo=None) if moment is not None else None


class EventForm(FollowsR94, forms.ModelForm):
    multiline_fields = ("description",)

    starts_at = LocalDateTimeField(label="Starts")
    deadline = LocalDateTimeField(label="List deadline")
    reveal_at = LocalDateTimeField(
        label="Lists revealed", required=False, help_text="Empty: at the deadline."
    )
    edition = forms.TypedChoiceField(coerce=int, label="Edition played")
    factions = forms.MultipleChoiceField(
        required=False,
        label="Allowed factions",
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: every faction.",
    )
    time_zone = forms.ChoiceField(label="Time zone")
    player_cap = forms.IntegerField(min_value=2, max_value=MAX_PLAYER_CAP, initial=16)
    points_min = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_FLEET_POINTS, label="Custom minimum"
    )
    points_max = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_FLEET_POINTS, label="Custom maximum"
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "starts_at",
            "time_zone",
            "place",
            "description",
            "edition",
            "game_size",
            "points_min",
            "points_max",
            "factions",
            "player_cap",
            "deadline",
            "reveal_at",
            "allow_illegal",
            "show_factions",
            "public",
        ]
        labels = {
            "allow_illegal": "Illegal lists may be submitted",
            "show_factions": "Show factions before the reveal",
            "public": "List the event publicly (else: invite link only)",
        }
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args: Any, catalog: core.Catalog, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.now = timezone.now()
        cast(forms.ChoiceField, self.fields["time_zone"]).choices = zone_choices()
        cast(forms.ChoiceField, self.fields["factions"]).choices = [
            (f.slug, f.name) for f in catalog.factions
        ]
        cast(forms.ChoiceField, self.fields["game_size"]).choices = GAME_SIZE_CHOICES
        known = editions.known()
        cast(forms.ChoiceField, self.fields["edition"]).choices = [
            (i.number, i.title) for i in reversed(known)
        ]
        if self.instance.pk:
            # The edition is fixed when the event is made; after the deadline only the reveal
            # time and the description may change.
            del self.fields["edition"]
            allowed = self.instance.editable_fields(self.now)
            for name in list(self.fields):
                if name not in allowed:
                    self.fields[name].disabled = True
            zone = self.instance.zone
            for name in ("starts_at", "deadline", "reveal_at"):
                self.initial[name] = getattr(self.instance, name).astimezone(zone).strftime(LOCAL)
        else:
            current = editions.current()
            if current is not None:
                self.initial.setdefault("edition", current.number)
            self.initial.setdefault("time_zone", "UTC")
            self.initial.setdefault("game_size", "skirmish")

    def clean_time_zone(self) -> str:
        name = self.cleaned_data["time_zone"]
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise forms.ValidationError("Choose a time zone from the list.") from None
        return str(name)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        zone_name = data.get("time_zone") or (
            self.instance.time_zone if self.instance.pk else "UTC"
        )
        zone = ZoneInfo(zone_name)
        for name in ("starts_at", "deadline", "reveal_at"):
            value = data.get(name)
            if isinstance(value, datetime) and value.tzinfo is None:
                data[name] = value.replace(tzinfo=zone)
        deadline, reveal = data.get("deadline"), data.get("reveal_at")
        changing = self.instance.pk is None or "deadline" in self.changed_data
        if deadline is not None and changing and deadline <= self.now:
            self.add_error("deadline", "The list deadline must be in the future.")
        if deadline is not None and reveal is None and "reveal_at" in data:
            data["reveal_at"] = reveal = deadline
        if deadline is not None and reveal is not None and reveal < deadline:
            self.add_error("reveal_at", "The lists cannot be revealed before the deadline.")
        starts = data.get("starts_at")
        if starts is not None and deadline is not None and starts + timedelta(days=1) < deadline:
            self.add_error(
                "deadline", "The list deadline is more than a day after the event starts."
            )
        if data.get("game_size") == rf.GameSize.CUSTOM.value:
            lo, hi = data.get("points_min"), data.get("points_max")
            if lo is None or hi is None:
                self.add_error("points_max", "A custom band needs a minimum and a maximum.")
            elif hi < lo:
                self.add_error("points_max", "The maximum must not be below the minimum.")
        else:
            data["points_min"] = data["points_max"] = None
        if self.instance.pk and data.get("player_cap") is not None:
            taken = self.instance.active_entries().count()
            if data["player_cap"] < taken:
                self.add_error("player_cap", f"{taken} players have joined already.")
        return data

    def changed_values(self) -> dict[str, Any]:
        """The editable settings as cleaned, for ``Event.change`` (the log compares them)."""
        allowed = self.instance.editable_fields(self.now)
        return {
            n: self.cleaned_data[n] for n in EDITABLE if n in allowed and n in self.cleaned_data
        }


class SubmitForm(forms.Form):
    fleet = forms.IntegerField(min_value=1)
    update_edition = forms.BooleanField(required=False)


class ReviewForm(FollowsR94, forms.Form):
    multiline_fields = ("comment",)

    action = forms.ChoiceField(
        choices=[("approve", "Approve"), ("return", "Send back"), ("remove", "Remove the player")]
    )
    comment = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") == "return" and not (data.get("comment") or "").strip():
            self.add_error("comment", "Say why the list is sent back.")
        return data


class ExtendForm(forms.Form):
    deadline = LocalDateTimeField(label="New deadline")


class ResultForm(forms.Form):
    """A game's result as the organiser records it (R-175): who won or a draw, and each
    side's victory points; an empty result clears it."""

    result = forms.ChoiceField(choices=Game.Result.choices, required=False)
    vp_a = forms.IntegerField(
        min_value=0, max_value=Game.MAX_VP, required=False, label="First player's victory points"
    )
    vp_b = forms.IntegerField(
        min_value=0, max_value=Game.MAX_VP, required=False, label="Second player's victory points"
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["vp_a"] = data.get("vp_a") or 0
        data["vp_b"] = data.get("vp_b") or 0
        return data
