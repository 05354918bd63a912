from django.urls import path

from . import pack_views, views

app_name = "events"

event = "<str:token>/"
urlpatterns = [
    path("", views.event_list, name="list"),
    path("new/", views.event_new, name="new"),
    path(event, views.event_page, name="event"),
    path(event + "edit/", views.event_edit, name="edit"),
    path(event + "join/", views.join, name="join"),
    path(event + "submit/", views.submit, name="submit"),
    path(event + "lists/<int:pk>/", views.entry_page, name="entry"),
    path(event + "event.ics", views.calendar, name="ics"),
    path(event + "preview/", views.preview, name="preview"),
    path(event + "dashboard/", views.dashboard, name="dashboard"),
    path(event + "players/<int:pk>/review/", views.review, name="review"),
    path(event + "extend/", views.extend, name="extend"),
    path(event + "export.csv", views.export_csv, name="export_csv"),
    path(event + "export.json", views.export_json, name="export_json"),
    path(event + "rounds/", views.rounds, name="rounds"),
    path(event + "rounds/pair/", views.pair, name="pair"),
    path(event + "rounds/unpair/", views.unpair, name="unpair"),
    path(event + "games/<int:pk>/result/", views.result, name="result"),
    path(event + "standings/", views.standings, name="standings"),
    path(event + "standings.csv", views.standings_csv, name="standings_csv"),
    path(event + "pack/", pack_views.pack_new, name="pack_new"),
    path(event + "pack/<str:public_id>/", pack_views.pack_page, name="pack"),
    path(event + "pack/<str:public_id>/pdf", pack_views.pack_pdf, name="pack_pdf"),
]
