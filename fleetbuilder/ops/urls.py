from django.urls import path

from . import views

app_name = "ops"

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
]
