"""The print pages: of a fleet you own, of a fleet shared by link, of a share code's fleet;
and of big prints on the workers.

Each page finds the fleet and who may see it (``fleets.access``); the printing itself (the PDF or
a page's preview, the options page) is ``printing``'s. The pages of a shared fleet and of a share
code keep the sharing pages' paths and names (``/s/<id>/cards/`` is ``shared:print``): their
URLs are in ``urls.py``, joined to the sharing pages' in ``fleetbuilder/urls.py``.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from fleetbuilder import pdfcache
from fleetbuilder.fleets.access import (
    fleet_for_code,
    fleet_for_link,
    fleet_for_link_page,
    fleet_for_request,
)
from fleetbuilder.http import HtmxHttpRequest
from fleetbuilder.ownership import session_owner_token
from fleetbuilder.ratelimit import rate_limit
from fleetbuilder.renderjobs import RenderRefused
from rules_core import fleet as rf
from rules_core.validator import validate

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
    return pdf_for_query(
        request, fleet.document, name=fleet.name, share_url=_share_url(request, fleet)
    )


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
    ctx = {
        "job": job,
        "queue_ahead": job.queue_ahead() if not job.is_done else 0,
        "download_url": reverse("cards:print_job_pdf", args=[job.public_id]),
    }
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
            job.make_again(
                owner=request.user, owner_token=session_owner_token(request.session) or ""
            )
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
        request,
        name=fleet.name,
        points=fleet.points,
        legal=fleet.legal,
        card_count=fleet.unit_count,
        pdf_url=reverse("cards:fleet_pdf", args=[fleet.pk]),
        crumbs=[("Saved Fleets", reverse("fleets:list")), (fleet.name, fleet.get_absolute_url())],
        back_url=fleet.get_absolute_url(),
        back_label="Back to the builder",
        qr_note="The roster carries a QR code of the fleet's share link."
        if shared
        else "Share the fleet to get a QR code of its link on the roster.",
    )


# --- a fleet shared by link, a share code's fleet: anyone may print them ---------------------


@never_cache
@require_GET
def shared_print_options(request: HttpRequest, share_id: str) -> HttpResponse:
    """The same print options as the owner's (layout, ink saver), for anyone with the link."""
    fleet = fleet_for_link_page(request, share_id)
    if isinstance(fleet, HttpResponse):
        return fleet
    page = reverse("shared:fleet", args=[share_id])
    return options_page(
        request,
        name=fleet.name,
        points=fleet.points,
        legal=fleet.legal,
        card_count=fleet.unit_count,
        pdf_url=reverse("shared:cards", args=[share_id]),
        crumbs=[(f"Shared fleet: {fleet.name}", page)],
        back_url=page,
        back_label="Back to the shared fleet",
        qr_note="The roster carries a QR code of this shared fleet's link.",
    )


@never_cache
@require_GET
@rate_limit("cards")
def shared_cards(request: HttpRequest, share_id: str) -> HttpResponse:
    """``/s/<id>/cards.pdf?layout=poker|a4|letter&ink=1``: the shared fleet's ship cards."""
    fleet = fleet_for_link(share_id)
    return pdf_for_query(
        request,
        fleet.document,
        name=fleet.name,
        share_url=request.build_absolute_uri(fleet.share_url_path()),
    )


@require_GET
@rate_limit("sharecode")
def code_print_options(request: HttpRequest, code: str) -> HttpResponse:
    arrival = fleet_for_code(request, code)
    if isinstance(arrival, HttpResponse):
        return arrival
    fleet = arrival.fleet
    report = validate(fleet, arrival.catalog)
    name = fleet.name or "Shared fleet"
    page = reverse("fleets:code", args=[code])
    return options_page(
        request,
        name=name,
        points=report.points,
        legal=report.legal,
        card_count=len(fleet.units),
        pdf_url=reverse("fleets:code_cards", args=[code]),
        crumbs=[(f"Fleet from a share code: {name}", page)],
        back_url=page,
        back_label="Back to the fleet",
        qr_note="A share code is too long for a QR code that scans well, so the roster has "
        "none; a shared fleet's link gets one.",
    )


@require_GET
@rate_limit("sharecode")
@rate_limit("cards")
def code_cards(request: HttpRequest, code: str) -> HttpResponse:
    """``/fleets/code/<code>/cards.pdf?layout=…&ink=1``: a share code's ship cards."""
    arrival = fleet_for_code(request, code)
    if isinstance(arrival, HttpResponse):
        return arrival
    fleet = arrival.fleet  # its document names the edition the cards are printed under
    return pdf_for_query(
        request, rf.fleet_to_dict(fleet), name=fleet.name or "fleet", share_url=None
    )
