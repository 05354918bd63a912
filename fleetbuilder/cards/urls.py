from django.urls import path

from . import views

app_name = "cards"

urlpatterns = [
    path("fleet/<int:pk>/", views.fleet_pdf, name="fleet_pdf"),
    path("fleet/<int:pk>/print/", views.print_options, name="print"),
    path("print/<str:public_id>/", views.print_job, name="print_job"),
    path("print/<str:public_id>/cards.pdf", views.print_job_pdf, name="print_job_pdf"),
]
