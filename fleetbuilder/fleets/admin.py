from django.contrib import admin

from .models import Fleet


@admin.register(Fleet)
class FleetAdmin(admin.ModelAdmin):
    list_display = ["name", "faction", "game_size", "points", "legal", "owner", "updated"]
    list_filter = ["faction", "game_size", "legal"]
    search_fields = ["name"]
    readonly_fields = ["created", "updated"]
