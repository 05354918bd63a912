"""A battle pack: asked for from a matchup's page (one click, A4 or Letter), rendered on the
task queue, followed on its own page, then downloaded. A pack is its requester's: anyone else
gets 404, as for a big print of cards."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from fleetbuilder import pdfcache
from fleetbuilder.cards.printing import busy
from fleetbuilder.catalog import loader
from fleetbuilder.fleets.models import Fleet as SavedFleet
from fleetbuilder.http import HtmxHttpRequest
from fleetbuilder.ownership import owner_token
from fleetbuilder.ratelimit import rate_limit
from fleetbuilder.renderjobs import RenderRefused
from fleetbuilder.simulator.models import Matchup
from rules_core import sharecode
from rules_core.fleet import Fleet

from .forms import PackForm
from .models import PAPERS, BattlePack

PAGE = "battlepack/pack.html"
NEW = "battlepack/new.html"


def _get_pack(request: HttpRequest, public_id: str) -> BattlePack:
    """The requester's pack; anyone else's, or an unknown one, is 404."""
    packs = BattlePack.objects.owned_by(request.user, owner_token(request))
    return get_object_or_404(packs, public_id=public_id)


def share_link(request: HttpRequest, fleet: Fleet) -> str | None:
    """What a roster's QR code holds: the fleet's share-code page (the list as it fought),
    or nothing when the fleet is too big for a code."""
    try:
        code = sharecode.encode(fleet)
    except sharecode.ShareCodeError:
        return None
    return request.build_absolute_uri(reverse("fleets:code", args=[code]))


def paper_of(request: HttpRequest) -> str | None:
    paper = request.POST.get("paper", "a4")
    return paper if paper in dict(PAPERS) else None


@require_POST
@rate_limit("cards")
def from_matchup(request: HttpRequest, public_id: str) -> HttpResponse:
    """A pack of a run's two fleets as they fought, its terrain and movement: anyone holding
    the run's link may ask; the pack is theirs."""
    run = get_object_or_404(Matchup, public_id=public_id)
    paper = paper_of(request)
    if paper is None:
        return HttpResponseBadRequest("Choose A4 or Letter paper.", content_type="text/plain")
    fleet_a, fleet_b = run.core_fleet("a"), run.core_fleet("b")
    options = run.options or {}
    try:
        pack = BattlePack.start(
            fleet_a=fleet_a,
            fleet_b=fleet_b,
            label_a=run.label("a"),
            label_b=run.label("b"),
            share_a=share_link(request, fleet_a),
            share_b=share_link(request, fleet_b),
            terrain=options.get("terrain", "none"),
            movement=options.get("movement", "standard"),
            paper=paper,
            owner=request.user,
            owner_token=owner_token(request, create=True) or "",
            matchup=run,
        )
    except RenderRefused as exc:
        return busy(request, exc, back=run.get_absolute_url())
    return redirect(pack)


@require_http_methods(["GET", "POST"])
@rate_limit("cards", methods=("POST",))
def new(request: HttpRequest) -> HttpResponse:
    """A pack of any two fleets the player can see: their own, a shared one or a sample."""
    fleets = list(
        SavedFleet.objects.alive()
        .owned_by(request.user, owner_token(request))
        .defer("last_removed")
    )
    initial: dict[str, Any] = {
        "a_faction": "imperial-navy",
        "b_faction": "archenemy",
        "terrain": "section13",
    }
    if fleets:
        initial.update(a_fleet=fleets[0].pk, b_fleet=fleets[min(1, len(fleets) - 1)].pk)
    form = PackForm(
        request.POST or None, catalog=loader.core_catalog(), fleets=fleets, initial=initial
    )
    status = 400
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        a, b = data["a"], data["b"]
        try:
            p = BattlePack.start(
                fleet_a=a.fleet,
                fleet_b=b.fleet,
                label_a=a.source["label"],
                label_b=b.source["label"],
                share_a=share_link(request, a.fleet),
                share_b=share_link(request, b.fleet),
                terrain=data["terrain"],
                movement=data.get("movement") or "standard",
                paper=data["paper"],
                owner=request.user,
                owner_token=owner_token(request, create=True) or "",
            )
        except RenderRefused as exc:
            form.add_error(None, str(exc))
            status = exc.status
        else:
            return redirect(p)
    ctx = {
        "form": form,
        "sides": [(s, form.side_fields(s)) for s in ("a", "b")],
        "has_fleets": bool(fleets),
    }
    return render(request, NEW, ctx, status=status if form.errors else 200)


@require_GET
def pack(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A pack's page: where the worker is (htmx every second, else the page refreshes
    itself), then the download link, or why it failed."""
    p = _get_pack(request, public_id)
    ctx: dict[str, Any] = {"pack": p, "download_url": reverse("battlepack:pdf", args=[p.public_id])}
    template = PAGE
    if request.htmx and request.htmx.target == "battle-pack":
        template += "#job"
    response = render(request, template, ctx)
    response["Cache-Control"] = "private, no-store"
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


@require_GET
def pdf(request: HttpRequest, public_id: str) -> HttpResponse:
    """A finished pack's PDF, for its requester only; made again on the workers if the cache
    let it go."""
    p = _get_pack(request, public_id)
    if p.status != BattlePack.Status.DONE:
        raise Http404("This battle pack is not ready.")
    data = pdfcache.get(p.cache_key)
    if data is None:
        try:
            p.make_again(owner=request.user, owner_token=owner_token(request) or "", stage=0)
        except RenderRefused as exc:
            return busy(request, exc, back=p.get_absolute_url())
        return redirect(p)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, p.filename)
    response["Cache-Control"] = "private, no-cache"
    return response
