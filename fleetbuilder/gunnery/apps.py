from django.apps import AppConfig


class GunneryConfig(AppConfig):
    name = "fleetbuilder.gunnery"
    verbose_name = "Gunnery calculator"
