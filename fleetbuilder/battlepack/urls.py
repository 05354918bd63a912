from django.urls import path

from . import views

app_name = "battlepack"

urlpatterns = [
    path("", views.new, name="new"),
    path("from-run/<str:public_id>/", views.from_matchup, name="from_matchup"),
    path("<str:public_id>/", views.pack, name="pack"),
    path("<str:public_id>/battle-pack.pdf", views.pdf, name="pdf"),
]
