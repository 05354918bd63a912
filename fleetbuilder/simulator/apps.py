from django.apps import AppConfig


class SimulatorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fleetbuilder.simulator"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the login receiver)
