from django.urls import path

from . import views

app_name = "simulator"

urlpatterns = [
    path("", views.new, name="new"),
    path("m/<str:public_id>/", views.matchup, name="matchup"),
    path("m/<str:public_id>/step/", views.step, name="step"),
    path("m/<str:public_id>/again/", views.again, name="again"),
]
