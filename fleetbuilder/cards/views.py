"""The print pages of a fleet you own: its print options, its PDF, and big prints on the workers.

The printing itself (the PDF or a page's preview, the options page) is ``printing``'s, which the
pages of shared fleets and share codes use too.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from fleetbuilder import pdfcache
from fleetbuilder.fleets.access import fleet_for_request
from fleetbuilder.http import HtmxHttpRequest
from fleetbuilder.ownership import session_owner_token
from fleetbuilder.ratelimit import rate_limit
from fleetbuilder.renderjobs import RenderRefused

from .models import PrintJob
from .printing import busy, if_none_match, options_page, pdf_download, pdf_for_query


def _share_url(request: HttpRequest, fleet: Any) -> str | None:
    path = getattr(fleet, "share_url_path", lambda: None)()
    return request.build_absolute_uri(path) if path else None


@require_GET
@rate_limit("cards")
def fleet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """``/cards/fleet/<pk>/?layout=poker|a4|letter&ink=1``: the cards of a fleet you own."""
    fleet = fleet_for_request(request, pk)
    return pdf_for_query(request, fleet.document, name=fleet.name,
                         share_url=_share_url(request, fleet))


# --- big prints ------------------------------------------------------------------------------


def _get_job(request: HttpRequest, public_id: str) -> PrintJob:
    """The requester's print job; anyone else's, or an unknown one, is 404."""
    jobs = PrintJob.objects.owned_by(request.user, session_owner_token(request.session))
    return get_object_or_404(jobs, public_id=public_id)


@require_GET
def print_job(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A big print's page: its progress (htmx every second, else the page refreshes itself),
    then the download link, or why it failed."""
    job = _get_job(request, public_id)
    ctx = {"job": job, "queue_ahead": job.queue_ahead() if not job.is_done else 0,
           "download_url": reverse("cards:print_job_pdf", args=[job.public_id])}
    template = "cards/print_job.html"
    if request.htmx and request.htmx.target == "print-job":
        template += "#job"
    response = render(request, template, ctx)
    response["Cache-Control"] = "private, no-store"
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


@require_GET
def print_job_pdf(request: HttpRequest, public_id: str) -> HttpResponse:
    """A finished big print's PDF, for its requester only. If the cache let it go (its TTL),
    it is made again on the workers and the page follows that."""
    job = _get_job(request, public_id)
    if job.status != PrintJob.Status.DONE:
        raise Http404("This print is not ready.")
    if (not_modified := if_none_match(request, job.cache_key)) is not None:
        return not_modified
    pdf = pdfcache.get(job.cache_key)
    if pdf is None:
        try:
            job.make_again(owner=request.user,
                           owner_token=session_owner_token(request.session) or "")
        except RenderRefused as exc:
            return busy(request, exc, back=job.get_absolute_url())
        return redirect(job)
    return pdf_download(pdf, filename=job.filename, key=job.cache_key)


# --- the options page ------------------------------------------------------------------------


@require_GET
def print_options(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose a layout and ink saving, then download the PDF (a plain GET form)."""
    fleet = fleet_for_request(request, pk)
    shared = bool(_share_url(request, fleet))
    return options_page(
        request, name=fleet.name, points=fleet.points, legal=fleet.legal,
        card_count=fleet.unit_count, pdf_url=reverse("cards:fleet_pdf", args=[fleet.pk]),
        crumbs=[("Saved Fleets", reverse("fleets:list")),
                (fleet.name, fleet.get_absolute_url())],
        back_url=fleet.get_absolute_url(), back_label="Back to the builder",
        qr_note="The roster carries a QR code of the fleet's share link." if shared else
        "Share the fleet to get a QR code of its link on the roster.",
    )
