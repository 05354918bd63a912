from django.contrib import admin

from .models import (
    AdmiralRank,
    AttackCraft,
    CompositionRule,
    Faction,
    ShipProfile,
    Upgrade,
    Variant,
    Weapon,
)


class VariantInline(admin.StackedInline):
    model = Variant
    extra = 0


class CraftInline(admin.TabularInline):
    model = AttackCraft
    extra = 0


class CompositionInline(admin.TabularInline):
    model = CompositionRule
    extra = 0


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ["name", "allegiance", "leadership"]
    inlines = [VariantInline, CraftInline, CompositionInline]


class WeaponInline(admin.TabularInline):
    model = Weapon
    extra = 0


@admin.register(ShipProfile)
class ShipProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "faction", "ship_class", "points", "hull", "shields", "armor"]
    list_filter = ["faction", "ship_class", "source"]
    search_fields = ["name", "slug"]
    inlines = [WeaponInline]


@admin.register(Upgrade)
class UpgradeAdmin(admin.ModelAdmin):
    list_display = ["name", "faction", "points", "max_per_fleet"]
    list_filter = ["faction"]


@admin.register(AdmiralRank)
class AdmiralRankAdmin(admin.ModelAdmin):
    list_display = ["name", "points", "leadership_bonus", "command_radius_cm"]
