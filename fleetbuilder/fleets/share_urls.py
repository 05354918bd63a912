"""The public permalinks of shared fleets, at the site's root: /s/<share_id>/ (R-92).

Their print pages (``cards/``, ``cards.pdf``) are the cards app's, in this namespace too
(fleetbuilder/urls.py)."""

from django.urls import path

from . import sharing

app_name = "shared"

link = "<str:share_id>/"
urlpatterns = [
    path(link, sharing.shared_fleet, name="fleet"),
    path(link + "copy/", sharing.copy_shared, name="copy"),
    path(link + "fleet.json", sharing.shared_file, name="file"),
    path(link + "fleet.txt", sharing.shared_text, name="text"),
]
