from django.contrib import admin

from .models import Matchup


@admin.register(Matchup)
class MatchupAdmin(admin.ModelAdmin):
    list_display = ("public_id", "__str__", "battles", "done", "seed", "owner", "created")
    list_filter = ("created",)
    search_fields = ("public_id",)
    readonly_fields = ("public_id", "created", "finished")
    raw_id_fields = ("owner",)
