from django.apps import AppConfig


class EditionsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fleetbuilder.editions"
