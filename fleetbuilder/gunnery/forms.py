"""The calculator's form: a query string in, an attack, a target and circumstances out.

Every choice is filled from the cached catalogue (``loader.core_catalog()``), never a query.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.http import QueryDict

from rules_core.catalog import Catalog, Faction, ShipProfile
from rules_core.damage import SpecialOrder
from rules_core.odds import OddsWeapon

from .volley import (
    CUSTOM,
    ORDER_LABELS,
    WEAPON_LABELS,
    Attack,
    Circumstances,
    TargetValues,
    WeaponChoice,
    custom_attack,
    ship_target,
    weapon_choices,
)

MAX_STRENGTH = 40
MAX_HULL = 40
MAX_RANGE_CM = 150
MAX_SHIELDS = 10
MAX_TURRETS = 10
MAX_BLAST_MARKERS = 10

# What an empty query string means: a battery of 6 at 20 cm against a cruiser-like ship.
DEFAULTS = {
    "weapon": CUSTOM,
    "weapon_type": OddsWeapon.BATTERY.value,
    "strength": "6",
    "armor": "5",
    "shields": "1",
    "hull": "8",
    "turrets": "2",
    "range_cm": "20",
    "blast_markers": "0",
}


@dataclass(frozen=True, slots=True)
class Ships:
    """The catalogue's ships by slug, with their factions, in catalogue order."""

    catalog: Catalog

    def find(self, slug: str) -> tuple[Faction, ShipProfile] | None:
        for faction in self.catalog.factions:
            ship = faction.ship(slug)
            if ship is not None:
                return faction, ship
        return None

    def grouped(self, faction_slug: str = "") -> list[tuple[str, list[tuple[str, str]]]]:
        return [
            (f.name, [(s.slug, f"{s.name} ({s.ship_class.label})") for s in f.ships])
            for f in self.catalog.factions
            if not faction_slug or f.slug == faction_slug
        ]


def _int(
    label: str, lo: int, hi: int, *, required: bool = False, help_text: str = ""
) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=lo,
        max_value=hi,
        required=required,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": lo, "max": hi}),
    )


class GunneryForm(forms.Form):
    faction = forms.ChoiceField(label="Faction", required=False)
    attacker = forms.ChoiceField(label="Attacking ship", required=False)
    weapon = forms.ChoiceField(label="Weapon")
    weapon_type = forms.ChoiceField(
        label="Custom weapon",
        required=False,
        choices=[(k.value, WEAPON_LABELS[k]) for k in OddsWeapon],
    )
    strength = _int("Strength", 1, MAX_STRENGTH, help_text="Dice, torpedoes or attack craft.")
    target = forms.ChoiceField(label="Target ship", required=False)
    armor = _int("Armor", 2, 6, help_text="5 means 5+.")
    shields = _int("Shields", 0, MAX_SHIELDS)
    hull = _int("Hull", 1, MAX_HULL, help_text="Starting hull.")
    turrets = _int("Turrets", 0, MAX_TURRETS)
    current_hull = _int("Current hull", 1, MAX_HULL, help_text="Blank: undamaged.")
    range_cm = _int("Range (cm)", 0, MAX_RANGE_CM, required=True)
    order = forms.ChoiceField(
        label="Attacker's special order",
        required=False,
        choices=[("", "None")] + [(o.value, label) for o, label in ORDER_LABELS.items()],
    )
    hesitant = forms.BooleanField(label="Attacker is hesitant", required=False)
    cover = forms.BooleanField(label="Target in cover", required=False)
    blast_markers = _int(
        "Blast markers", 0, MAX_BLAST_MARKERS, help_text="In contact with the target."
    )
    braced = forms.BooleanField(label="Target is braced", required=False)

    def __init__(
        self, data: QueryDict | dict[str, Any], *, catalog: Catalog, changed: str = ""
    ) -> None:
        self.ships = Ships(catalog)
        data = _normalise(data, self.ships, changed)
        super().__init__(data, label_suffix="")
        faction_slug = data.get("faction", "")
        cast(forms.ChoiceField, self.fields["faction"]).choices = [("", "All factions")] + [
            (f.slug, f.name) for f in catalog.factions
        ]
        cast(forms.ChoiceField, self.fields["attacker"]).choices = [
            ("", "None: a custom weapon"),
            *self.ships.grouped(faction_slug if catalog.faction(faction_slug) else ""),
        ]
        self.weapon_choices = self._weapon_choices(data.get("attacker", ""))
        cast(forms.ChoiceField, self.fields["weapon"]).choices = [
            (c.key, c.label) for c in self.weapon_choices
        ] + [(CUSTOM, "Custom weapon (type and strength below)")]
        cast(forms.ChoiceField, self.fields["target"]).choices = [
            ("", "Custom values (below)"),
            *self.ships.grouped(),
        ]

    def _weapon_choices(self, attacker: str) -> list[WeaponChoice]:
        found = self.ships.find(attacker) if attacker else None
        return weapon_choices(*found) if found else []

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("weapon") == CUSTOM:
            for name in ("weapon_type", "strength"):
                if data.get(name) in (None, "") and name not in self.errors:
                    self.add_error(name, "Needed for a custom weapon.")
        target = self.ships.find(data["target"]) if data.get("target") else None
        max_hull = target[1].hull if target else data.get("hull")
        if target is None:
            for name in ("armor", "shields", "hull", "turrets"):
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, "Needed for a custom target.")
        current = data.get("current_hull")
        if current is not None and max_hull is not None and current > max_hull:
            self.add_error("current_hull", f"Cannot be above the starting hull ({max_hull}).")
        return data

    # --- the values the calculation needs (only after is_valid()) ------------------------

    def attack(self) -> Attack:
        data = self.cleaned_data
        if data["weapon"] == CUSTOM:
            return custom_attack(OddsWeapon(data["weapon_type"]), data["strength"])
        return next(c.attack for c in self.weapon_choices if c.key == data["weapon"])

    def attacker_name(self) -> str:
        """The firing ship's name, for a catalogue weapon only."""
        if self.cleaned_data["weapon"] == CUSTOM:
            return ""
        found = self.ships.find(self.cleaned_data.get("attacker") or "")
        return found[1].name if found else ""

    def target_values(self) -> TargetValues:
        data = self.cleaned_data
        found = self.ships.find(data["target"]) if data.get("target") else None
        if found:
            return ship_target(found[1], data.get("current_hull"))
        hull = data["hull"]
        current = data.get("current_hull") or hull
        return TargetValues(
            "Custom target", data["armor"], data["shields"], hull, current, data["turrets"]
        )

    def circumstances(self) -> Circumstances:
        data = self.cleaned_data
        return Circumstances(
            range_cm=data["range_cm"],
            order=SpecialOrder(data["order"]) if data.get("order") else None,
            hesitant=data["hesitant"],
            cover=data["cover"],
            blast_markers=data.get("blast_markers") or 0,
            braced=data["braced"],
        )

    def canonical_query(self) -> QueryDict:
        """The cleaned values as a query string: the link that reproduces this calculation."""
        query = QueryDict(mutable=True)
        for name, value in self.cleaned_data.items():
            if value is None or value == "" or value is False:
                continue
            query[name] = "on" if value is True else str(value)
        return query


def _normalise(data: QueryDict | dict[str, Any], ships: Ships, changed: str) -> dict[str, Any]:
    """Keep the three linked selects consistent before validation.

    A faction that does not hold the chosen attacker picks the faction's first ship; an
    attacker without the chosen weapon picks its first weapon. ``changed`` is the field the
    player just changed (htmx sends it): picking a faction or a ship means using its weapons,
    even if a custom weapon was chosen before."""
    if not data:
        return dict(DEFAULTS)
    out = {k: data.get(k) for k in data}
    if not out.get("blast_markers"):
        out["blast_markers"] = "0"
    picked = changed in ("faction", "attacker")
    faction = ships.catalog.faction(out.get("faction") or "")
    attacker = ships.find(out.get("attacker") or "")
    if changed == "attacker" and attacker is None:
        out["weapon"] = CUSTOM
    if faction is not None and (attacker is None or attacker[0].slug != faction.slug):
        if attacker is not None or out.get("weapon") != CUSTOM or changed == "faction":
            first = next((s for s in faction.ships if weapon_choices(faction, s)), None)
            out["attacker"] = first.slug if first else ""
            attacker = (faction, first) if first else None
    if attacker is not None and (out.get("weapon") != CUSTOM or picked):
        keys = [c.key for c in weapon_choices(*attacker)]
        if keys and out.get("weapon") not in keys:
            out["weapon"] = keys[0]
    return out
