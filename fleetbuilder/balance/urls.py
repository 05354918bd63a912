from django.urls import path

from . import views

app_name = "balance"

urlpatterns = [
    path("", views.balance_page, name="page"),
]
