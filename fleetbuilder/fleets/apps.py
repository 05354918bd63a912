from django.apps import AppConfig


class FleetsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fleetbuilder.fleets"
    verbose_name = "Fleets"

    def ready(self) -> None:
        from fleetbuilder.catalog.signals import catalogue_loaded

        from .models import revalidate_saved_fleets

        catalogue_loaded.connect(revalidate_saved_fleets, dispatch_uid="fleets-revalidate")
