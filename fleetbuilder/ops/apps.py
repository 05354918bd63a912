from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operations: health checks, request logging, backups (no models)."""

    name = "fleetbuilder.ops"
    label = "ops"
