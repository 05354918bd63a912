from django.urls import path

from . import views

app_name = "gunnery"
urlpatterns = [
    path("", views.calculator, name="calculator"),
]
