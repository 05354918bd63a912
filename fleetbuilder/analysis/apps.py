from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fleetbuilder.analysis"
    verbose_name = "Which ship matters? (what-if analyses)"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the login receiver)
