from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "fleetbuilder.catalog"
    verbose_name = "Catalogue"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import signals

        signals.connect()
