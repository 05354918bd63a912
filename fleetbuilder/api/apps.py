from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "fleetbuilder.api"
    label = "api"
    verbose_name = "HTTP API"
