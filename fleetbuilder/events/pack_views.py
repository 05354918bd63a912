"""The organiser's print of every list: asked for from the dashboard, rendered on
the task queue like a battle pack (R-155's bounds), followed on its own page, then downloaded.
Organiser-only: anyone else gets 404, as from every organiser view (``views._organised``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_POST

from fleetbuilder import pdfcache
from fleetbuilder.cards.printing import busy
from fleetbuilder.http import HtmxHttpRequest
from fleetbuilder.ratelimit import rate_limit
from fleetbuilder.renderjobs import RenderRefused

from .models import EventPack
from .views import _organised

PAGE = "events/pack.html"


def _pack(request: HttpRequest, token: str, public_id: str) -> EventPack:
    """The organiser's pack of this event; 404 for anyone else, or an unknown pack."""
    event = _organised(request, token)
    return get_object_or_404(
        EventPack.objects.select_related("event").filter(event=event, owner=request.user),
        public_id=public_id,
    )


@login_required
@require_POST
@rate_limit("cards")
def pack_new(request: HttpRequest, token: str) -> HttpResponse:
    """Queue a PDF of every list as it is now (the same pack if these lists were asked for
    already)."""
    event = _organised(request, token)
    try:
        pack = EventPack.start(event, owner=request.user)
    except RenderRefused as exc:
        return busy(request, exc, back=reverse("events:dashboard", args=[event.token]))
    return redirect(pack)


@login_required
@require_GET
def pack_page(request: HtmxHttpRequest, token: str, public_id: str) -> HttpResponse:
    """Where the worker is (htmx every second, else the page refreshes itself), then the
    download link, or why it failed."""
    pack = _pack(request, token, public_id)
    ctx: dict[str, Any] = {
        "pack": pack,
        "event": pack.event,
        "download_url": reverse("events:pack_pdf", args=[token, pack.public_id]),
    }
    template = PAGE
    if request.htmx and request.htmx.target == "event-pack":
        template += "#job"
    response = render(request, template, ctx)
    response["Cache-Control"] = "private, no-store"
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


@login_required
@require_GET
def pack_pdf(request: HttpRequest, token: str, public_id: str) -> HttpResponse:
    """A finished pack's PDF; made again on the workers if the cache let it go."""
    pack = _pack(request, token, public_id)
    if pack.status != EventPack.Status.DONE:
        raise Http404("This print of the lists is not ready.")
    data = pdfcache.get(pack.cache_key)
    if data is None:
        try:
            pack.make_again(owner=request.user, owner_token="", stage=0)
        except RenderRefused as exc:
            return busy(request, exc, back=pack.get_absolute_url())
        return redirect(pack)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, pack.filename)
    response["Cache-Control"] = "private, no-cache"
    return response
