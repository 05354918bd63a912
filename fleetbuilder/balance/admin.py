from django.contrib import admin

from .models import BalanceRun, BalanceTable


@admin.register(BalanceTable)
class BalanceTableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "battles", "seed", "catalog_version", "created")
    list_filter = ("size", "policy", "terrain")
    readonly_fields = ("created",)


@admin.register(BalanceRun)
class BalanceRunAdmin(admin.ModelAdmin):
    list_display = ("pk", "status", "done", "total", "created", "finished")
    list_filter = ("status",)
