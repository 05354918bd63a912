"""The fleet builder: pages, and one POST view per edit.

Every edit saves at once. With htmx it answers with the re-rendered region it changed, plus the
points meter and the problems panel as out-of-band swaps, so one response always carries one
consistent state (separate refresh requests could land out of order on quick edits), and
``HX-Trigger: fleetChanged`` for anything else that listens. Without JavaScript it redirects back
to the builder page (POST/redirect/GET).

Edits to one fleet never interleave (architecture: "Rules that keep it scalable"): each runs in a
short transaction holding the fleet's row (``select_for_update``) and is refused with 409 when
the version the page sent is not the fleet's (another tab changed it). Nothing is applied then;
the answer refreshes every region of the page and says why, and without JavaScript the player
is sent back to the refreshed builder with that message. Rendering happens after the commit.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event
from django_htmx.middleware import HtmxDetails

from fleetbuilder.catalog import loader
from rules_core import catalog as core

from .forms import (
    AdmiralForm,
    FleetSettingsForm,
    MoveForm,
    NameForm,
    PlaceForm,
    ShipForm,
    UpgradeForm,
)
from .models import EditError, Fleet, FleetChanged, session_owner_token
from .sheet import build_sheet, meter, problem_rows, ship_groups

PAGE = "fleets/builder.html"
FLEET_CHANGED = "fleetChanged"
SETTINGS_CHANGED = "fleetSettingsChanged"


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# --- access ---------------------------------------------------------------------------------


def _owner_token(request: HttpRequest, *, create: bool = False) -> str | None:
    """The browser's owner token, shared by saved fleets and simulator runs."""
    return session_owner_token(request.session, create=create)


def _get_fleet_for_request(request: HttpRequest, pk: int, *, lock: bool = False) -> Fleet:
    """The fleet if this browser (or signed-in player) owns it; 404 for anyone else.

    With ``lock`` (inside a transaction) its row is held until the commit: an edit's read,
    version check and write then see no other edit in between.
    """
    token = _owner_token(request)
    fleets = Fleet.objects.alive().owned_by(request.user, token).filter(pk=pk)
    fleet = (fleets.select_for_update() if lock else fleets).first()
    if fleet is None:
        raise Http404("No such fleet.")
    return fleet


# --- pages ----------------------------------------------------------------------------------


# The Saved Fleets page and the trash are in library.py.


@require_http_methods(["GET", "POST"])
def fleet_new(request: HtmxHttpRequest) -> HttpResponse:
    catalog = loader.core_catalog()
    initial = {"faction": request.GET.get("faction", "")}
    form = FleetSettingsForm(request.POST or None, catalog=catalog, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fleet = Fleet.start(
            name=data["name"], faction=data["faction"], variant=data["variant"],
            game_size=data["game_size"], points_limit=data["points_limit"], catalog=catalog,
            owner=request.user, owner_token=_owner_token(request, create=True) or "",
        )
        return redirect(fleet)
    ctx = {"form": form, "factions": catalog.factions}
    return render(request, "fleets/new.html", ctx, status=400 if form.errors else 200)


def _status_ctx(fleet: Fleet, catalog: core.Catalog) -> dict[str, Any]:
    """What the points meter and the problems panel show."""
    report = fleet.report(catalog)
    return {
        "fleet": fleet,
        "report": report,
        "band": fleet.band,
        "meter": meter(report.points, fleet.band),
        "problems": problem_rows(fleet, catalog, report),
    }


def _head_ctx(fleet: Fleet, catalog: core.Catalog, form: FleetSettingsForm | None = None,
              **extra: Any) -> dict[str, Any]:
    faction = catalog.faction(fleet.faction)
    if form is None:
        form = FleetSettingsForm(catalog=catalog, faction=fleet.faction,
                                 initial=_settings_initial(fleet))
    return {
        "fleet": fleet,
        "faction": faction,
        "variant": faction.variant(fleet.variant) if faction and fleet.variant else None,
        "band": fleet.band,
        "settings_form": form,
        **extra,
    }


def _units_ctx(fleet: Fleet, catalog: core.Catalog, **extra: Any) -> dict[str, Any]:
    report = fleet.report(catalog)
    return {
        "fleet": fleet,
        "report": report,
        "sheet": build_sheet(fleet, catalog, report),
        "undo_label": fleet.removed_label(catalog) if fleet.last_removed else "",
        **extra,
    }


@require_GET
def fleet_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    fleet = _get_fleet_for_request(request, pk)
    catalog = loader.core_catalog()
    ctx = {
        **_head_ctx(fleet, catalog),
        **_status_ctx(fleet, catalog),
        **_units_ctx(fleet, catalog),
        "ship_groups": ship_groups(fleet, catalog),
    }
    return render(request, PAGE, ctx)


def _settings_initial(fleet: Fleet) -> dict[str, Any]:
    band = fleet.band
    return {"name": fleet.name, "variant": fleet.variant, "game_size": fleet.game_size,
            "points_min": band.min, "points_max": band.max}


_REGIONS: dict[str, Callable[[Fleet, core.Catalog], dict[str, Any]]] = {
    "head": _head_ctx, "meter": _status_ctx, "problems": _status_ctx, "units": _units_ctx,
    "version": _status_ctx,
}


def _region(partial: str) -> Callable[[HtmxHttpRequest, int], HttpResponse]:
    """A GET view rendering one region of the builder page (htmx refreshes them on events)."""

    @require_GET
    def view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
        fleet = _get_fleet_for_request(request, pk)
        ctx = _REGIONS[partial](fleet, loader.core_catalog())
        return render(request, f"{PAGE}#{partial}", ctx)

    view.__name__ = f"fleet_{partial}"
    return view


fleet_units = _region("units")
fleet_meter = _region("meter")
fleet_problems = _region("problems")
fleet_head = _region("head")


# --- edits ----------------------------------------------------------------------------------

Edit = Callable[..., str | None]


def _posted_version(request: HttpRequest) -> int | None:
    """The version the page sent; None if it sent none (a script). Anything else than digits
    counts as stale (0: no fleet is at it)."""
    raw = request.POST.get("version", "")
    if raw == "":
        return None
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 10 else 0


def _append_regions(request: HttpRequest, response: HttpResponse, fleet: Fleet,
                    catalog: core.Catalog, regions: tuple[str, ...]) -> HttpResponse:
    """Append ``regions`` of the builder page to an htmx response, as out-of-band swaps."""
    for partial in regions:
        ctx = {**_REGIONS[partial](fleet, catalog), "oob": True}
        response.write(render(request, f"{PAGE}#{partial}", ctx).content)
    return response


def _with_status(request: HttpRequest, response: HttpResponse, fleet: Fleet,
                 catalog: core.Catalog) -> HttpResponse:
    """Append the meter, the problems panel and the page's version (out of band) to an htmx
    edit response: every region an edit changes arrives in one answer, at one version."""
    _append_regions(request, response, fleet, catalog, ("meter", "problems", "version"))
    return trigger_client_event(response, FLEET_CHANGED)


def _stale(request: HttpRequest, pk: int, catalog: core.Catalog, *,
           region: str = "units") -> HttpResponse:
    """The answer to an edit made against an old version: nothing was applied.

    htmx gets 409 with ``region`` (the one it targets) saying why, and every other region out
    of band, all at the current version (static/js/builder.js lets htmx swap a 409). Without
    JavaScript the player is sent back to the refreshed builder page with the message.
    """
    fleet = _get_fleet_for_request(request, pk)
    if not request.htmx:
        messages.error(request, FleetChanged.message)
        return HttpResponseRedirect(fleet.get_absolute_url())
    ctx = {**_REGIONS[region](fleet, catalog), "edit_error": FleetChanged.message}
    response = render(request, f"{PAGE}#{region}", ctx, status=409)
    others = tuple(r for r in ("head", "units", "meter", "problems", "version") if r != region)
    return _append_regions(request, response, fleet, catalog, others)


def fleet_edit(edit: Edit) -> Callable[..., HttpResponse]:
    """Wrap an edit: POST only, owner only, errors shown to the player, then the response.

    ``edit(request, fleet, catalog, **kwargs)`` changes the fleet (it saves) and returns the
    anchor to come back to without JavaScript, or raises EditError with the reason.
    """

    @require_POST
    @wraps(edit)
    def view(request: HtmxHttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
        catalog = loader.core_catalog()
        try:
            with transaction.atomic():
                fleet = _get_fleet_for_request(request, pk, lock=True)
                fleet.check_version(_posted_version(request))
                anchor = edit(request, fleet, catalog, **kwargs)
        except FleetChanged:
            return _stale(request, pk, catalog)
        except EditError as exc:
            return _refused(request, pk, catalog, str(exc))
        if request.htmx:
            response = render(request, f"{PAGE}#units", _units_ctx(fleet, catalog))
            return _with_status(request, response, fleet, catalog)
        return HttpResponseRedirect(fleet.get_absolute_url() + (f"#{anchor}" if anchor else ""))

    return view


def _refused(request: HtmxHttpRequest, pk: int, catalog: core.Catalog,
             reason: str) -> HttpResponse:
    fleet = _get_fleet_for_request(request, pk)  # as stored: the refused edit was rolled back
    if request.htmx:
        ctx = _units_ctx(fleet, catalog, edit_error=reason)
        response = render(request, f"{PAGE}#units", ctx)
        return _append_regions(request, response, fleet, catalog, ("meter", "problems",
                                                                   "version"))
    messages.error(request, reason)
    return HttpResponseRedirect(fleet.get_absolute_url())


def _clean(form: forms.Form) -> dict[str, Any]:
    if not form.is_valid():
        reasons = [f"{e}" for errors in form.errors.values() for e in errors]
        raise EditError(" ".join(reasons) or "That edit was not understood.")
    return form.cleaned_data


@require_POST
def fleet_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    fleet = _get_fleet_for_request(request, pk)
    catalog = loader.core_catalog()
    form = FleetSettingsForm(request.POST, catalog=catalog, faction=fleet.faction)
    if form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                fleet = _get_fleet_for_request(request, pk, lock=True)
                fleet.check_version(_posted_version(request))
                fleet.settings_changed(catalog, name=data["name"], variant=data["variant"],
                                       game_size=data["game_size"],
                                       points_limit=data["points_limit"])
        except FleetChanged:
            return _stale(request, pk, catalog, region="head")
        if not request.htmx:
            return redirect(fleet)
        # The roster comes along: the band and the variant change what its cards say.
        response = render(request, f"{PAGE}#head", _head_ctx(fleet, catalog, saved=True))
        _append_regions(request, response, fleet, catalog, ("units",))
        return trigger_client_event(
            _with_status(request, response, fleet, catalog), SETTINGS_CHANGED
        )
    if not request.htmx:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(fleet)
    return render(request, f"{PAGE}#head", _head_ctx(fleet, catalog, form))


@fleet_edit
def add_ship(request: HttpRequest, fleet: Fleet, catalog: core.Catalog) -> str:
    data = _clean(ShipForm(request.POST))
    return f"unit-{fleet.add_ship(catalog, data['ship'])}"


@fleet_edit
def new_squadron(request: HttpRequest, fleet: Fleet, catalog: core.Catalog) -> str:
    data = _clean(NameForm(request.POST))
    return f"unit-{fleet.new_squadron(catalog, data['name'])}"


@fleet_edit
def add_escort(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> str:
    data = _clean(ShipForm(request.POST))
    fleet.add_escort(catalog, unit, data["ship"])
    return f"unit-{unit}"


@fleet_edit
def move_escort(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> str:
    data = _clean(MoveForm(request.POST))
    fleet.move_escort(catalog, unit, data["ship"], data["to"])
    return "units"


@fleet_edit
def set_flagship(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> str:
    fleet.set_flagship(catalog, unit)
    return f"unit-{unit}"


@fleet_edit
def set_admiral(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> str:
    data = _clean(AdmiralForm(request.POST))
    fleet.set_admiral(catalog, unit, data["admiral"] or None)
    return f"unit-{unit}"


def _anchor(unit: int, ship: int | None) -> str:
    return f"unit-{unit}" if ship is None else f"unit-{unit}-ship-{ship}"


@fleet_edit
def add_upgrade(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> str:
    data = _clean(UpgradeForm(request.POST))
    fleet.add_upgrade(catalog, unit, data["ship"], data["upgrade"])
    return _anchor(unit, data["ship"])


@fleet_edit
def remove_upgrade(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> str:
    data = _clean(UpgradeForm(request.POST))
    fleet.remove_upgrade(catalog, unit, data["ship"], data["upgrade"])
    return _anchor(unit, data["ship"])


@fleet_edit
def rename_unit(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> str:
    data = _clean(NameForm(request.POST))
    fleet.rename_unit(catalog, unit, data["name"])
    return f"unit-{unit}"


@fleet_edit
def duplicate(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> str:
    data = _clean(PlaceForm(request.POST))
    fleet.duplicate(catalog, unit, data["ship"])
    return f"unit-{unit}"


@fleet_edit
def remove(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> str:
    data = _clean(PlaceForm(request.POST))
    fleet.remove(catalog, unit, data["ship"])
    return "units"


@fleet_edit
def undo_remove(request: HttpRequest, fleet: Fleet, catalog: core.Catalog) -> str:
    fleet.undo_remove(catalog)
    return "units"
