from django.urls import path

from . import feeds, views

app_name = "editions"

urlpatterns = [
    path("", views.edition_list, name="list"),
    path("feed/", feeds.EditionsFeed(), name="feed"),
    path("<int:number>/", views.edition, name="edition"),
]
