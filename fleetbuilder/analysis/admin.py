from django.contrib import admin

from .models import Analysis


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin):
    list_display = (
        "public_id",
        "__str__",
        "variant_count",
        "battles",
        "done",
        "status",
        "owner",
        "created",
    )
    list_filter = ("status", "created")
    search_fields = ("public_id",)
    readonly_fields = ("public_id", "created", "finished")
    raw_id_fields = ("owner",)
