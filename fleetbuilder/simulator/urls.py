from django.urls import path

from . import views

app_name = "simulator"

urlpatterns = [
    path("", views.new, name="new"),
    path("m/<str:public_id>/", views.matchup, name="matchup"),
    path("m/<str:public_id>/cancel/", views.cancel, name="cancel"),
    path("m/<str:public_id>/again/", views.again, name="again"),
    path("m/<str:public_id>/fleet-<str:side>.json", views.fleet_file, name="fleet_file"),
    path("m/<str:public_id>/results.json", views.results_json, name="results_json"),
    path("m/<str:public_id>/battles/<int:battle>/", views.replay, name="replay"),
    path(
        "m/<str:public_id>/battles/<int:battle>/replay.json", views.replay_json, name="replay_json"
    ),
]
