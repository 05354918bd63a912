"""The catalogue in the database: loaded from the JSON data files by ``load_catalog``.

The files are the source of truth; admin edits last until the next load. Each model converts
itself to the rules_core value the validator, simulator and cards read (``to_core``).
"""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.functional import cached_property

from rules_core import catalog as core

CLASS_CHOICES = [(c.value, c.label) for c in core.ShipClass]
WEAPON_CHOICES = [(t.value, t.value.replace("_", " ").title()) for t in core.WeaponType]
ROLE_CHOICES = [(r.value, r.value.replace("_", " ").title()) for r in core.CraftRole]
ROLE_SUMMARIES = {
    core.CraftRole.FIGHTER: (
        "Intercepts torpedoes and bombers near friendly ships; used up when it does."
    ),
    core.CraftRole.BOMBER: (
        "Turrets shoot first; each survivor deals 1 damage on a 4+, ignoring shields."
    ),
    core.CraftRole.ASSAULT_BOAT: (
        "Turrets shoot first; each survivor causes a critical hit on a 4+."
    ),
}
ALLEGIANCE_CHOICES = [
    ("imperium", "Imperial Forces"),
    ("chaos", "Forces of Chaos"),
    ("xenos", "Xenos Empires"),
]
# Tags that are names (gods, a Legion, a people): capitalised when shown; other tags are words.
PROPER_TAGS = {"nurgle", "slaanesh", "tzeentch", "khorne", "black-legion", "demiurg"}


def tag_label(tag: str) -> str:
    """A tag slug as words: "armoured-prow" → "armoured prow", "black-legion" → "Black Legion"."""
    words = tag.replace("-", " ").replace("_", " ")
    return words.title() if tag in PROPER_TAGS else words


class CatalogState(models.Model):
    """One row: the version of the data files last loaded (a content hash)."""

    version = models.CharField(max_length=40)
    loaded_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.version

    @classmethod
    def current_version(cls) -> str:
        row = cls.objects.order_by("pk").first()
        return row.version if row else ""


class Edition(models.Model):
    """A published catalogue (R-160): the exact bytes of its shipped file, never changed.

    ``load_catalog`` adds the editions the files hold and refuses a file whose bytes differ
    from an edition already published here. Read through ``fleetbuilder.catalog.editions``.
    """

    number = models.PositiveIntegerField(primary_key=True)
    label = models.CharField(max_length=100)
    published = models.DateTimeField()
    notes = models.TextField(blank=True)
    data_version = models.CharField(max_length=40)
    sha256 = models.CharField(max_length=64)
    data = models.TextField(help_text="The edition file, as shipped.")
    loaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Edition {self.number} ({self.label})"


class FactionQuerySet(models.QuerySet["Faction"]):
    def with_catalogue(self) -> FactionQuerySet:
        """Everything ``to_core`` reads, in a fixed number of queries."""
        return self.prefetch_related(
            "variants",
            "attack_craft",
            "upgrades",
            "composition_rules",
            models.Prefetch(
                "ships",
                queryset=ShipProfile.objects.prefetch_related("weapons", "attack_craft"),
            ),
        )

    def with_ship_counts(self) -> FactionQuerySet:
        return self.annotate(ship_count=models.Count("ships"))


class Faction(models.Model):
    ship_count: int  # only on rows from FactionQuerySet.with_ship_counts()

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    allegiance = models.CharField(max_length=10, choices=ALLEGIANCE_CHOICES)
    description = models.TextField()
    leadership = models.PositiveSmallIntegerField(help_text="The faction's default leadership.")
    special_rules = models.JSONField(default=list, help_text='[{"name": …, "text": …}]')
    order = models.PositiveSmallIntegerField(default=0)

    objects = FactionQuerySet.as_manager()

    class Meta:
        ordering = ["order", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("catalog:faction", args=[self.slug])

    @staticmethod
    def by_allegiance(factions: list[Faction]) -> list[tuple[str, list[Faction]]]:
        """Section 16's three groups, in their order, each with its factions (empty ones kept)."""
        return [
            (label, [f for f in factions if f.allegiance == key])
            for key, label in ALLEGIANCE_CHOICES
        ]

    def ships_by_class(self) -> list[tuple[str, list[ShipProfile]]]:
        """The ships grouped by class, escorts first and battleships last (``CLASS_ORDER``).

        Reads ``self.ships.all()``, so a prefetch keeps it to no extra query.
        """
        ships = list(self.ships.all())
        groups = [
            (c.label, [s for s in ships if s.ship_class == c.value]) for c in core.CLASS_ORDER
        ]
        return [(label, group) for label, group in groups if group]

    def guidelines(self) -> list[CompositionRule]:
        """Composition guidelines for the whole faction (not a variant's own)."""
        return [r for r in self.composition_rules.all() if r.variant_id is None]

    def variants_with_guidelines(
        self,
    ) -> list[tuple[Variant, list[CompositionRule], list[str]]]:
        """Each variant with its own guidelines and the names of the ships it may not take."""
        rules = list(self.composition_rules.all())
        names = {s.slug: s.name for s in self.ships.all()}
        return [
            (
                v,
                [r for r in rules if r.variant_id == v.pk],
                [names.get(slug, slug) for slug in v.forbidden_ships],
            )
            for v in self.variants.all()
        ]

    def special_rule_text(self, name: str) -> str:
        return next((r["text"] for r in self.special_rules if r.get("name") == name), "")

    def to_core(self) -> core.Faction:
        rules = list(self.composition_rules.all())
        return core.Faction(
            slug=self.slug,
            name=self.name,
            allegiance=self.allegiance,
            description=self.description,
            leadership=self.leadership,
            special_rules=tuple(core.SpecialRule(r["name"], r["text"]) for r in self.special_rules),
            variants=tuple(v.to_core(rules) for v in self.variants.all()),
            attack_craft=tuple(c.to_core() for c in self.attack_craft.all()),
            upgrades=tuple(u.to_core() for u in self.upgrades.all()),
            composition=tuple(r.to_core() for r in rules if r.variant_id is None),
            ships=tuple(s.to_core() for s in self.ships.all()),
        )


class Variant(models.Model):
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="variants")
    slug = models.SlugField()
    name = models.CharField(max_length=80)
    text = models.TextField()
    forbidden_ships = models.JSONField(default=list, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order"]
        constraints = [
            models.UniqueConstraint(fields=["faction", "slug"], name="variant_slug_per_faction")
        ]

    def __str__(self) -> str:
        return f"{self.faction.name}: {self.name}"

    def to_core(self, rules: list[CompositionRule]) -> core.Variant:
        return core.Variant(
            slug=self.slug,
            name=self.name,
            text=self.text,
            composition=tuple(r.to_core() for r in rules if r.variant_id == self.pk),
            forbidden_ships=frozenset(self.forbidden_ships),
        )


class AttackCraft(models.Model):
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="attack_craft")
    slug = models.SlugField()
    name = models.CharField(max_length=80)
    role = models.CharField(max_length=20, choices=ROLE_CHOICES)
    speed_cm = models.PositiveSmallIntegerField(default=20)
    rule = models.TextField(blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order"]
        verbose_name_plural = "attack craft"
        constraints = [
            models.UniqueConstraint(fields=["faction", "slug"], name="craft_slug_per_faction")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def role_summary(self) -> str:
        """What every craft of this role does under the core rules (section 12), in brief."""
        return ROLE_SUMMARIES[core.CraftRole(self.role)]

    def to_core(self) -> core.AttackCraft:
        return core.AttackCraft(
            slug=self.slug,
            name=self.name,
            role=core.CraftRole(self.role),
            speed_cm=self.speed_cm,
            rule=self.rule,
        )


class ShipProfile(models.Model):
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="ships")
    slug = models.SlugField(unique=True, max_length=80)
    name = models.CharField(max_length=100)
    ship_class = models.CharField(max_length=20, choices=CLASS_CHOICES)
    points = models.PositiveSmallIntegerField()
    speed_cm = models.PositiveSmallIntegerField()
    turns = models.PositiveSmallIntegerField(help_text="Degrees after the minimum move: 45 or 90.")
    leadership = models.PositiveSmallIntegerField()
    shields = models.PositiveSmallIntegerField()
    hull = models.PositiveSmallIntegerField()
    armor = models.PositiveSmallIntegerField(
        help_text="The save: a d6 at or above it ignores a hit."
    )
    turrets = models.PositiveSmallIntegerField()
    all_ahead_full = models.CharField(max_length=4, default="4d6")
    special_rules = models.JSONField(default=list, blank=True)
    tags = models.JSONField(default=list, blank=True)
    attack_craft = models.ManyToManyField(AttackCraft, blank=True, related_name="carriers")
    description = models.TextField(blank=True)
    source = models.CharField(max_length=20, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("catalog:ship", args=[self.faction.slug, self.slug])

    @property
    def class_label(self) -> str:
        return core.ShipClass(self.ship_class).label

    @cached_property
    def profile(self) -> core.ShipProfile:
        """The rules_core profile: base size and crippling come from there, one rule, one place."""
        return self.to_core()

    @property
    def armor_label(self) -> str:
        return f"{self.armor}+"

    @property
    def base_mm(self) -> int:
        return self.profile.base_mm

    @property
    def has_large_base_by_rule(self) -> bool:
        """A 60 mm base that comes from the Large Base Rule (R-10), not from the class."""
        return self.base_mm > core.ShipClass(self.ship_class).class_base_mm

    @property
    def crippled_at(self) -> int | None:
        return self.profile.crippled_at

    @property
    def is_unique(self) -> bool:
        return "unique" in self.tags

    @property
    def tag_labels(self) -> list[str]:
        """The tags as players say them: "armoured prow", "Black Legion" (data keeps slugs)."""
        return [tag_label(tag) for tag in self.tags]

    @property
    def source_label(self) -> str:
        return {
            "reference": "Converted from a reference profile",
            "designed": "Designed with the project's points model",
        }.get(self.source, self.source.replace("_", " ").capitalize())

    def special_rules_explained(self) -> list[tuple[str, str]]:
        """Each special rule with its text where the faction defines one by that name."""
        return [(name, self.faction.special_rule_text(name)) for name in self.special_rules]

    def to_core(self) -> core.ShipProfile:
        return core.ShipProfile(
            slug=self.slug,
            name=self.name,
            ship_class=core.ShipClass(self.ship_class),
            points=self.points,
            speed_cm=self.speed_cm,
            turns=self.turns,
            leadership=self.leadership,
            shields=self.shields,
            hull=self.hull,
            armor=self.armor,
            turrets=self.turrets,
            weapons=tuple(w.to_core() for w in self.weapons.all()),
            attack_craft=tuple(c.slug for c in self.attack_craft.all()),
            all_ahead_full=self.all_ahead_full,
            special_rules=tuple(self.special_rules),
            tags=tuple(self.tags),
            description=self.description,
            source=self.source,
        )


class Weapon(models.Model):
    ship = models.ForeignKey(ShipProfile, on_delete=models.CASCADE, related_name="weapons")
    name = models.CharField(max_length=100)
    type = models.CharField(max_length=20, choices=WEAPON_CHOICES)
    arcs = models.JSONField(help_text='e.g. ["left", "front", "right"]')
    strength = models.PositiveSmallIntegerField()
    range_cm = models.PositiveSmallIntegerField()
    rule = models.TextField(blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return self.name

    @property
    def arc_label(self) -> str:
        return self.to_core().arc_label

    @property
    def arc_names(self) -> str:
        return ", ".join(core.Arc(a).value.replace("_", " ") for a in self.arcs)

    @property
    def is_launch_bay(self) -> bool:
        return self.type == core.WeaponType.LAUNCH_BAY

    def to_core(self) -> core.Weapon:
        return core.Weapon(
            name=self.name,
            type=core.WeaponType(self.type),
            arcs=tuple(core.Arc(a) for a in self.arcs),
            strength=self.strength,
            range_cm=self.range_cm,
            rule=self.rule,
        )


class Upgrade(models.Model):
    faction = models.ForeignKey(
        Faction,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="upgrades",
        help_text="Empty for a refit every faction may take.",
    )
    slug = models.SlugField(unique=True, max_length=80)
    name = models.CharField(max_length=100)
    points = models.PositiveSmallIntegerField()
    classes = models.JSONField(help_text="Ship classes that may take it.")
    variants = models.JSONField(default=list, blank=True, help_text="Only for these variants.")
    max_per_fleet = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField()
    effects = models.JSONField(default=dict, blank=True)
    requires_weapon = models.JSONField(
        default=list,
        blank=True,
        help_text="Only for a ship carrying a weapon of one of these types (R-150).",
    )
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return self.name

    @property
    def class_labels(self) -> list[str]:
        return [core.ShipClass(c).label for c in core.CLASS_ORDER if c.value in self.classes]

    def to_core(self) -> core.Upgrade:
        return core.Upgrade(
            slug=self.slug,
            name=self.name,
            points=self.points,
            classes=frozenset(core.ShipClass(c) for c in self.classes),
            text=self.text,
            faction=self.faction.slug if self.faction is not None else None,
            variants=frozenset(self.variants),
            max_per_fleet=self.max_per_fleet,
            effects=dict(self.effects),
            requires_weapon=frozenset(core.WeaponType(t) for t in self.requires_weapon),
        )


class AdmiralRank(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=40)
    points = models.PositiveSmallIntegerField()
    leadership_bonus = models.PositiveSmallIntegerField()
    command_radius_cm = models.PositiveSmallIntegerField()
    rule = models.TextField()
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return self.name

    def to_core(self) -> core.AdmiralRank:
        return core.AdmiralRank(
            slug=self.slug,
            name=self.name,
            points=self.points,
            leadership_bonus=self.leadership_bonus,
            command_radius_cm=self.command_radius_cm,
            rule=self.rule,
        )


class CompositionRule(models.Model):
    """A composition guideline as data; ``params`` holds the rule as rules_core reads it."""

    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="composition_rules")
    variant = models.ForeignKey(
        Variant, on_delete=models.CASCADE, null=True, blank=True, related_name="composition_rules"
    )
    code = models.CharField(max_length=60)
    text = models.TextField()
    params = models.JSONField()
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return self.text

    def to_core(self) -> core.CompositionRule:
        return core.composition_rule_from_dict(self.params, f"composition.{self.code}")
