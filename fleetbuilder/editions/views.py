"""The editions' pages (R-160): every edition, and what one changed against another.

``/editions/`` lists the editions, newest first, with how many prices each changed and which
one this server serves. ``/editions/<n>/`` is edition n's changelog against the previous edition
or, with ``?against=m``, any other (a GET form: a link reproduces it, and it works without
JavaScript; with htmx only the comparison is swapped). The changelog itself is kept in the
shared cache (``changelog.between``), so a page costs a cache read and a render.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from fleetbuilder.balance.models import BalanceTable
from fleetbuilder.catalog import editions
from fleetbuilder.http import HtmxHttpRequest

from . import changelog
from .forms import CompareForm

LIST_TEMPLATE = "editions/list.html"
TEMPLATE = "editions/edition.html"


def _get_edition(number: int) -> editions.EditionInfo:
    """Edition ``number``, or 404 naming the known ones."""
    try:
        return editions.get(number)
    except editions.UnknownEdition as exc:
        raise Http404(exc.message) from None


def _serving() -> dict[str, Any]:
    """What this server serves: an edition, or a development state after the newest."""
    return {"current": editions.current(), "latest": editions.latest()}


@require_GET
def edition_list(request: HtmxHttpRequest) -> HttpResponse:
    rows = []
    for info in reversed(editions.known()):
        since = changelog.since_previous(info)
        rows.append({"info": info, "changes": since.price_changes if since else None})
    ctx = {"rows": rows, **_serving()}
    return render(request, LIST_TEMPLATE, ctx)


@require_GET
def edition(request: HtmxHttpRequest, number: int) -> HttpResponse:
    info = _get_edition(number)
    default = changelog.previous(info)
    form = CompareForm(
        request.GET if "against" in request.GET else None,
        edition=info,
        known=editions.known(),
        default=default,
    )
    ctx: dict[str, Any] = {
        "edition": info,
        "form": form,
        "previous": default,
        "log": None,
        "balance": None,
        **_serving(),
    }
    status = 200
    against = default
    if form.is_bound and not form.is_valid():
        status = 400  # the select shows the default; the message says what to choose
    else:
        chosen = form.cleaned_data["against"] if form.is_bound else None
        if chosen is not None:
            against = editions.get(chosen)
        if against is not None:
            ctx["log"] = changelog.between(against, info)
            ctx["balance"] = BalanceTable.movement(against.number, info.number)
    ctx["selected"] = str(against.number) if against is not None else ""
    partial = request.htmx and not request.htmx.history_restore_request
    template = f"{TEMPLATE}#comparison" if partial else TEMPLATE
    response = render(request, template, ctx, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response
