"""The matchup form: two sides (one of your fleets, a shared fleet or a sample fleet), the
number of battles, the scenario options and the seed. Every value is checked here, and each side
is turned into a rules_core fleet, before a run starts."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django import forms

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.text import follow_r94
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.limits import MAX_FLEET_POINTS
from rules_core.sample_fleets import (
    MIN_NEAR_POINTS,
    SampleFleetError,
    sample_fleet,
    sample_fleet_near,
)
from rules_core.sim import POLICIES

from . import sharing
from .models import DEFAULT_BATTLES, MAX_BATTLES, MAX_SEED

SIDES = ("a", "b")
SIZE_CHOICES = [(g.value, g.label) for g in rf.GameSize if g is not rf.GameSize.CUSTOM]
MAX_ROUNDS = 20
SCORING_CHOICES = [
    ("core", "Core rules: full points destroyed, half for crippled survivors (§14)"),
    ("faq", "FAQ: also 10 % / 25 % for disengaged ships, 50 % for hulks left"),
]
TERRAIN_CHOICES = [
    ("voidscape", "Terrain of §13 and void elements (R-136)"),
    ("section13", "Terrain of §13: asteroids, gas clouds, planets, debris"),
    ("void", "Void elements: gravity wells, debris fields, gas clouds, drifting bodies"),
    ("none", "Open space"),
]
MOVEMENT_CHOICES = [
    ("standard", "Standard movement (§5)"),
    ("advanced", "Advanced movement: thrust and momentum (R-140)"),
]
# How each side is played (rules_core.sim.policy); a policy added later shows its docstring.
POLICY_LABELS = {
    "standard": "Standard: closes to its best range, focuses fire",
    "cautious": "Cautious: stands off at its longest range, braces readily",
}


def policy_choices() -> list[tuple[str, str]]:
    def label(name: str) -> str:
        doc = (POLICIES[name].__doc__ or "").strip().splitlines()
        return POLICY_LABELS.get(name) or f"{name.capitalize()}: {doc[0] if doc else ''}"

    return [(name, label(name)) for name in POLICIES]


@dataclass(frozen=True)
class Side:
    """One side of a matchup: the fleet, and where it came from (for the results page)."""

    fleet: rf.Fleet
    source: dict[str, Any]


def fleet_choice_label(fleet: Fleet, faction_names: dict[str, str]) -> str:
    legal = "" if fleet.legal else ", not legal"
    faction = faction_names.get(fleet.faction, fleet.faction)
    return f"{fleet.name} — {faction}, {fleet.game_size_label}, {fleet.points} pts{legal}"


class MatchupForm(forms.Form):
    battles = forms.IntegerField(
        min_value=1,
        max_value=MAX_BATTLES,
        initial=DEFAULT_BATTLES,
        help_text=f"1 to {MAX_BATTLES}. More battles give narrower intervals.",
    )
    max_rounds = forms.IntegerField(
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=10,
        label="Rounds",
        help_text="The battle ends after this many rounds at the latest (§14: 10).",
    )
    table = forms.ChoiceField(
        choices=[("", "Fleet A's game size"), *SIZE_CHOICES],
        required=False,
        label="Table",
        help_text="Table size and deployment zones.",
    )
    scoring = forms.ChoiceField(choices=SCORING_CHOICES, initial="core", label="Victory points")
    terrain = forms.ChoiceField(choices=TERRAIN_CHOICES, initial="voidscape")
    movement = forms.ChoiceField(
        choices=MOVEMENT_CHOICES, initial="standard", required=False, label="Movement"
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        help_text="Leave empty for a random seed; the results show it, and the same seed "
        "gives the same results.",
    )

    def __init__(
        self, *args: Any, catalog: core.Catalog, fleets: list[Fleet], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.catalog = catalog
        self.own_fleets = {f.pk: f for f in fleets}
        names = {f.slug: f.name for f in catalog.factions}
        fleet_choices = [(f.pk, fleet_choice_label(f, names)) for f in fleets]
        factions = [(f.slug, f.name) for f in catalog.factions]
        variants: list[Any] = [("", "Standard list (no variant)")]
        variants += [
            (f.name, [(v.slug, v.name) for v in f.variants]) for f in catalog.factions if f.variants
        ]
        sources = []
        if fleets:
            sources.append(("fleet", "One of your fleets"))
        sources += [("sample", "A sample fleet"), ("shared", "A shared fleet")]
        fields: dict[str, forms.Field] = {}
        for side in SIDES:
            name = f"Fleet {side.upper()}"
            fields[f"{side}_source"] = forms.ChoiceField(
                choices=sources,
                widget=forms.RadioSelect,
                label=f"{name} is",
                initial=sources[0][0],
            )
            if fleets:
                fields[f"{side}_fleet"] = forms.TypedChoiceField(
                    choices=fleet_choices,
                    coerce=int,
                    required=False,
                    label="Your fleet",
                )
            fields[f"{side}_share"] = forms.CharField(
                required=False,
                max_length=sharing.MAX_INPUT,
                label="Share link or code",
                help_text="Paste a shared fleet's link, or its share code.",
            )
            fields[f"{side}_faction"] = forms.ChoiceField(
                choices=factions, required=False, label="Faction"
            )
            fields[f"{side}_variant"] = forms.ChoiceField(
                choices=variants, required=False, label="Variant"
            )
            fields[f"{side}_size"] = forms.ChoiceField(
                choices=SIZE_CHOICES, required=False, label="Game size", initial="skirmish"
            )
            fields[f"{side}_points"] = forms.IntegerField(
                required=False,
                min_value=MIN_NEAR_POINTS,
                max_value=MAX_FLEET_POINTS,
                label="Points",
                help_text="Built to about this many points, to match a fleet; empty for the "
                "game size's usual total.",
            )
            fields[f"{side}_policy"] = forms.ChoiceField(
                choices=policy_choices(),
                initial="standard",
                label="Played as",
                required=False,
            )
        self.fields = {**fields, **self.fields}
        follow_r94(self)  # the share link or code is text too

    def options_dict(self) -> dict[str, Any]:
        """The scenario options as ``SimOptions.from_dict`` reads them."""
        data = self.cleaned_data
        return {
            "max_rounds": data["max_rounds"],
            "scoring": data["scoring"],
            "terrain": data["terrain"],
            "table": data["table"] or None,
            "policy_a": data["a_policy"] or "standard",
            "policy_b": data["b_policy"] or "standard",
            # standard movement is left out, as SimOptions.to_dict leaves it
            **({"movement": "advanced"} if data.get("movement") == "advanced" else {}),
        }

    def side_fields(self, side: str) -> dict[str, forms.BoundField]:
        """The bound fields of one side by short name (source, fleet, share, faction, …)."""
        return {
            name.split("_", 1)[1]: self[name] for name in self.fields if name.startswith(f"{side}_")
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for side in SIDES:
            resolved = self._side(side, data)
            if resolved is not None:
                data[side] = resolved
        return data

    def _side(self, side: str, data: dict[str, Any]) -> Side | None:
        source = data.get(f"{side}_source")
        name = f"Fleet {side.upper()}"
        if source == "fleet":
            pk = data.get(f"{side}_fleet")
            fleet = self.own_fleets.get(pk) if pk is not None else None
            if fleet is None:
                self.add_error(f"{side}_fleet", f"Choose one of your fleets for {name}.")
                return None
            try:
                core_fleet = fleet.to_core()
            except rf.FleetFormatError as exc:  # saved before the bounds of R-95
                self.add_error(f"{side}_fleet", f"{fleet.name} cannot be played: {exc}.")
                return None
            return Side(core_fleet, {"kind": "fleet", "fleet": fleet.pk, "label": fleet.name})
        if source == "shared":
            try:
                shared = sharing.resolve(data.get(f"{side}_share") or "")
            except sharing.ShareError as exc:
                self.add_error(f"{side}_share", str(exc))
                return None
            return Side(
                shared.fleet,
                {
                    "kind": "shared",
                    "code": shared.code,
                    "label": f"{shared.name} (shared)",
                    **({"note": shared.note} if shared.note else {}),
                },
            )
        if source == "sample":
            return self._sample(side, data, name)
        return None  # the source field itself carries the error

    def _sample(self, side: str, data: dict[str, Any], name: str) -> Side | None:
        faction_slug = data.get(f"{side}_faction")
        size = data.get(f"{side}_size")
        variant = data.get(f"{side}_variant") or None
        faction = self.catalog.faction(faction_slug) if faction_slug else None
        if faction is None:
            self.add_error(f"{side}_faction", f"Choose the faction of {name}'s sample fleet.")
            return None
        if not size:
            self.add_error(f"{side}_size", f"Choose the game size of {name}'s sample fleet.")
            return None
        if variant and faction.variant(variant) is None:
            self.add_error(f"{side}_variant", f"{faction.name} has no such variant.")
            return None
        points = data.get(f"{side}_points")
        try:
            if points:
                fleet = sample_fleet_near(self.catalog, faction.slug, points, variant=variant)
            else:
                fleet = sample_fleet(self.catalog, faction.slug, size, variant=variant)
        except SampleFleetError as exc:
            self.add_error(f"{side}_faction", f"No sample fleet for that choice: {exc}.")
            return None
        fleet = replace(fleet, edition=editions.current_number())  # built from the loaded catalogue
        label = f"{fleet.name} (sample)"
        chosen = faction.variant(variant) if variant else None
        if chosen is not None:
            label = f"{fleet.name}, {chosen.name} (sample)"
        return Side(
            fleet,
            {
                "kind": "sample",
                "faction": faction.slug,
                "size": size,
                "variant": variant,
                "label": label,
                **({"points": points} if points else {}),
            },
        )
