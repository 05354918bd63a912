from django.urls import path

from . import views

app_name = "analysis"

urlpatterns = [
    path("", views.new, name="new"),
    path("a/<str:public_id>/", views.analysis, name="analysis"),
    path("a/<str:public_id>/cancel/", views.cancel, name="cancel"),
    path("a/<str:public_id>/again/", views.again, name="again"),
    path("a/<str:public_id>/results.json", views.results_json, name="results_json"),
    path("a/<str:public_id>/v/<int:variant>/open/", views.open_variant, name="open_variant"),
]
