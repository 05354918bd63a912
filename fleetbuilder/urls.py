from django.contrib import admin
from django.urls import include, path

from fleetbuilder.cards import urls as cards_urls
from fleetbuilder.fleets import share_urls
from fleetbuilder.fleets import urls as fleets_urls

urlpatterns = [
    path("admin/", admin.site.urls),
    # A shared fleet's and a share code's print pages are the cards app's (cards sits above
    # fleets: docs/architecture.md), under the sharing pages' paths and names.
    path(
        "fleets/",
        include((fleets_urls.urlpatterns + cards_urls.share_code_patterns, fleets_urls.app_name)),
    ),
    path(
        "s/",
        include((share_urls.urlpatterns + cards_urls.shared_link_patterns, share_urls.app_name)),
    ),
    path("gunnery/", include("fleetbuilder.gunnery.urls")),
    path("accounts/", include("fleetbuilder.accounts.urls")),
    path("cards/", include("fleetbuilder.cards.urls")),
    path("simulator/", include("fleetbuilder.simulator.urls")),
    path("balance/", include("fleetbuilder.balance.urls")),
    path("editions/", include("fleetbuilder.editions.urls")),  # changelog and feed
    path("events/", include("fleetbuilder.events.urls")),  # club nights and tournaments
    path("analysis/", include("fleetbuilder.analysis.urls")),  # which ship matters?
    path("pack/", include("fleetbuilder.battlepack.urls")),  # game-night battle packs
    path("api/", include("fleetbuilder.api.urls")),  # /api/v1/, /api/docs (contract 4)
    path("", include("fleetbuilder.ops.urls")),  # /healthz
    path("", include("fleetbuilder.catalog.urls")),
]

# Every uncaught exception: a 503 in words when the database is away, else the 500 page.
handler500 = "fleetbuilder.ops.outage.server_error"
