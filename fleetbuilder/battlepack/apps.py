from django.apps import AppConfig


class BattlePackConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fleetbuilder.battlepack"
    verbose_name = "Battle packs"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the login receiver)
