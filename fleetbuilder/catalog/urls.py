from django.urls import path

from . import views

app_name = "catalog"
urlpatterns = [
    path("", views.home, name="home"),
    path("ships/", views.faction_list, name="factions"),
    path("ships/<slug:faction>/", views.faction_detail, name="faction"),
    path("ships/<slug:faction>/<slug:ship>/", views.ship_detail, name="ship"),
    path("rules/", views.rules, name="rules"),
]
