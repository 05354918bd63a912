"""``/api/``: the API's version 1 (``/api/v1/…``, its OpenAPI document at
``/api/v1/openapi.json``), its docs page, and the account page's token forms."""

from django.urls import path

from . import views
from .api import api

# No app_name: api.urls brings its own namespace, "api" (ninja reverses "api:openapi-json").
urlpatterns = [
    path("v1/", api.urls),
    path("docs", views.docs, name="api_docs"),
    path("tokens/new/", views.make_token, name="api_make_token"),
    path("tokens/<int:pk>/revoke/", views.revoke_token, name="api_revoke_token"),
]
