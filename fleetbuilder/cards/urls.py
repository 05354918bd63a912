from django.urls import path

from . import views

app_name = "cards"

urlpatterns = [
    path("fleet/<int:pk>/", views.fleet_pdf, name="fleet_pdf"),
    path("fleet/<int:pk>/print/", views.print_options, name="print"),
    path("print/<str:public_id>/", views.print_job, name="print_job"),
    path("print/<str:public_id>/cards.pdf", views.print_job_pdf, name="print_job_pdf"),
]

# The print pages of a fleet shared by link and of a share code's fleet: under the sharing
# pages' paths and names (shared:print, fleets:code_print, …), joined to them in
# fleetbuilder/urls.py.
shared_link_patterns = [  # /s/
    path("<str:share_id>/cards/", views.shared_print_options, name="print"),
    path("<str:share_id>/cards.pdf", views.shared_cards, name="cards"),
]
share_code_patterns = [  # /fleets/
    path("code/<str:code>/cards/", views.code_print_options, name="code_print"),
    path("code/<str:code>/cards.pdf", views.code_cards, name="code_cards"),
]
