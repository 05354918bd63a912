from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fleetbuilder.accounts"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the login receivers)
