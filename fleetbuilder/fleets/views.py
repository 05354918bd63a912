"""The fleet builder: pages, and one POST view per edit.

Every edit saves at once. With htmx it answers with only the unit rows it changed (compared row
by row with what they showed before: sheet.row_states; of an open editor, only its pieces that
changed: pieces.py), the new labels of squadrons only renumbered, the points meter, the problems
panel and a sentence for the page's live region, all as out-of-band swaps (under 12 KB on a
40-unit fleet: ``manage.py bench_builder``), so one response always carries
one consistent state (separate refresh requests could land out of order on quick edits) and its
size does not grow with the fleet; ``HX-Trigger: fleetChanged`` for anything else that listens,
and after the swap ``fleetFocus`` names where the keyboard focus goes if the focused control is
gone (static/js/builder.js). Without JavaScript it redirects back to the builder page
(POST/redirect/GET).

Edits to one fleet never interleave (architecture: "Rules that keep it scalable"): each runs in a
short transaction holding the fleet's row (``select_for_update``) and is refused with 409 when
the version the page sent is not the fleet's (another tab changed it). Nothing is applied then;
the answer refreshes every region of the page and says why, and without JavaScript the player
is sent back to the refreshed builder with that message. Rendering happens after the commit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from fleetbuilder.catalog import editions, loader
from fleetbuilder.http import HtmxHttpRequest
from fleetbuilder.ownership import owner_token
from rules_core import catalog as core
from rules_core.editions import UnknownEdition
from rules_core.edits import EditRefused
from rules_core.validator import catalog_index

from . import start
from .access import fleet_for_request
from .forms import (
    AdmiralForm,
    EditionForm,
    FleetSettingsForm,
    MoveForm,
    NameForm,
    PlaceForm,
    ReorderForm,
    ShipForm,
    UpgradeForm,
    UpgradeSetForm,
)
from .models import DEFAULT_NAME, Fleet, FleetChanged
from .pieces import Pieces, changed_pieces, mark_copies, unit_pieces
from .sheet import (
    RowState,
    build_sheet,
    changed_rows,
    meter,
    problem_rows,
    row_states,
    ship_groups,
    unit_labels,
)

PAGE = "fleets/builder.html"
FLEET_CHANGED = "fleetChanged"
SETTINGS_CHANGED = "fleetSettingsChanged"


# --- pages ----------------------------------------------------------------------------------


# The Saved Fleets page and the trash are in library.py.


@require_http_methods(["GET", "POST"])
def fleet_new(request: HtmxHttpRequest) -> HttpResponse:
    catalog = loader.core_catalog()
    form = FleetSettingsForm(
        request.POST or None, catalog=catalog, initial=start.initial_choices(request, catalog)
    )
    first = start.catalogue_ship(catalog, request.POST.get("ship") or request.GET.get("ship", ""))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fleet = Fleet.start(
            name=data["name"],
            faction=data["faction"],
            variant=data["variant"],
            game_size=data["game_size"],
            points_limit=data["points_limit"],
            catalog=catalog,
            edition=editions.current_number(),
            owner=request.user,
            owner_token=owner_token(request, create=True) or "",
        )
        start.remember_choices(request, data)
        if first is not None:  # the ship page's "Start a fleet": it is the first ship
            try:
                fleet.add_ship(catalog, first[0].slug)
            except EditRefused as exc:
                messages.warning(request, f"{first[0].name} was not added: {exc}")
        return redirect(fleet)
    ctx = {"form": form, "factions": catalog.factions, "first": first[0] if first else None}
    return render(request, "fleets/new.html", ctx, status=400 if form.errors else 200)


def _status_ctx(fleet: Fleet, catalog: core.Catalog) -> dict[str, Any]:
    """What the points meter, the problems panel and the edition banner show."""
    report = fleet.report(catalog)
    return {
        "fleet": fleet,
        "report": report,
        "band": fleet.band,
        "meter": meter(report.points, fleet.band),
        "problems": problem_rows(fleet, catalog, report),
        "starting": fleet.unit_count == 0,  # its problems are one line
        "news": fleet.edition_news(),
    }


def _head_ctx(
    fleet: Fleet, catalog: core.Catalog, form: FleetSettingsForm | None = None, **extra: Any
) -> dict[str, Any]:
    faction = catalog.faction(fleet.faction)
    if form is None:
        form = FleetSettingsForm(
            catalog=catalog, faction=fleet.faction, initial=_settings_initial(fleet)
        )
    return {
        "fleet": fleet,
        "faction": faction,
        "variant": faction.variant(fleet.variant) if faction and fleet.variant else None,
        "band": fleet.band,
        "settings_form": form,
        **extra,
    }


def _units_ctx(
    fleet: Fleet,
    catalog: core.Catalog,
    *,
    open_unit: int | None = None,
    show_undo: bool = True,
    **extra: Any,
) -> dict[str, Any]:
    report = fleet.report(catalog)
    return {
        "fleet": fleet,
        "report": report,
        "sheet": build_sheet(fleet, catalog, report, open_unit=open_unit),
        "undo_label": fleet.removed_label(catalog) if fleet.last_removed and show_undo else "",
        **extra,
    }


def _unit_param(fleet: Fleet, raw: str | None) -> int | None:
    """A unit index from the query string, if it names one of the fleet's units."""
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= 4 and int(raw) < fleet.unit_count:
        return int(raw)
    return None


@require_GET
def fleet_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The builder page. ``?edit=i`` opens unit i's editor (the Edit link without JavaScript);
    the Undo bar shows only right after a removal (``?removed=1``), not on a later visit."""
    fleet = fleet_for_request(request, pk)
    catalog = fleet.catalog()
    ctx = {
        **_head_ctx(fleet, catalog),
        **_status_ctx(fleet, catalog),
        **_units_ctx(
            fleet,
            catalog,
            open_unit=_unit_param(fleet, request.GET.get("edit")),
            show_undo=request.GET.get("removed") == "1",
        ),
        "ship_groups": ship_groups(fleet, catalog),
    }
    return render(request, PAGE, ctx)


@require_GET
def fleet_unit(request: HtmxHttpRequest, pk: int, unit: int) -> HttpResponse:
    """One unit's row, its editor open with ``?edit=1`` (Edit and Done with htmx).

    Asked with a version that is not the fleet's (another tab changed it), it answers as a stale
    edit does: the whole page refreshed, with the reason, so no editor opens on another unit.
    """
    fleet = fleet_for_request(request, pk)
    catalog = fleet.catalog()
    opened = request.GET.get("edit") == "1"
    if not request.htmx:
        query = f"?edit={unit}" if opened else ""
        return HttpResponseRedirect(f"{fleet.get_absolute_url()}{query}#unit-{unit}")
    version = request.GET.get("version")
    if (version is not None and version != str(fleet.version)) or unit >= fleet.unit_count:
        return _stale(request, pk)
    report = fleet.report(catalog)
    sheet = build_sheet(fleet, catalog, report, indexes=[unit], open_unit=unit if opened else None)
    mark_copies(request, fleet, sheet, sheet.units[0])
    response = _compact(
        render(
            request,
            f"{PAGE}#unit",
            {"fleet": fleet, "sheet": sheet, "unit": sheet.units[0], "lean": True},
        )
    )
    # No settle delay (as for edits): the editor's boxes answer a key press at once.
    response["HX-Reswap"] = "outerHTML settle:0ms"
    return response


# The templates' indentation, between two tags: one line break says the same to the browser
# (the builder has no <pre> or <textarea>), in a third fewer bytes.
_INDENTATION = re.compile(rb">[ \t]*\n\s*<")


def _compact(response: HttpResponse) -> HttpResponse:
    """A fragment for htmx without the indentation between its tags."""
    response.content = _INDENTATION.sub(b">\n<", response.content)
    return response


def _settings_initial(fleet: Fleet) -> dict[str, Any]:
    band = fleet.band
    # The default name shows as the field's placeholder, not as text to type after.
    name = "" if fleet.name == DEFAULT_NAME else fleet.name
    return {
        "name": name,
        "variant": fleet.variant,
        "game_size": fleet.game_size,
        "points_min": band.min,
        "points_max": band.max,
    }


_REGIONS: dict[str, Callable[[Fleet, core.Catalog], dict[str, Any]]] = {
    "head": _head_ctx,
    "meter": _status_ctx,
    "problems": _status_ctx,
    "units": _units_ctx,
    "version": _status_ctx,
    "edition": _status_ctx,
}


def _region(partial: str) -> Callable[[HtmxHttpRequest, int], HttpResponse]:
    """A GET view rendering one region of the builder page (htmx refreshes them on events)."""

    @require_GET
    def view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
        fleet = fleet_for_request(request, pk)
        ctx = _REGIONS[partial](fleet, fleet.catalog())
        return render(request, f"{PAGE}#{partial}", ctx)

    view.__name__ = f"fleet_{partial}"
    return view


fleet_units = _region("units")
fleet_meter = _region("meter")
fleet_problems = _region("problems")
fleet_head = _region("head")


# --- edits ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What an edit did, for the page: where to come back to, what to say, what to show open."""

    anchor: str  # the fragment the page without JavaScript returns to
    says: str  # for the live region; the points follow ("Added … · 960 of 1000 points")
    unit: int | None = None  # the unit the edit was about, redrawn (open if its editor was)
    focus: list[str] = field(default_factory=list)  # ids to focus, in order, if focus was lost
    opened: bool = False  # open the unit's editor whatever the request said (a new squadron)
    move_focus: bool = False  # focus ``focus`` even if the focused control is still there
    removed: bool = False  # a removal: the page without JavaScript shows the Undo bar
    confirm: bool = False  # without JavaScript, the builder says what was done (a message)


Edit = Callable[..., Outcome]


def _posted_version(request: HttpRequest) -> int | None:
    """The version the page sent; None if it sent none (a script). Anything else than digits
    counts as stale (0: no fleet is at it)."""
    raw = request.POST.get("version", "")
    if raw == "":
        return None
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 10 else 0


def _append_regions(
    request: HttpRequest,
    response: HttpResponse,
    fleet: Fleet,
    catalog: core.Catalog,
    regions: tuple[str, ...],
) -> HttpResponse:
    """Append ``regions`` of the builder page to an htmx response, as out-of-band swaps."""
    for partial in regions:
        ctx = {**_REGIONS[partial](fleet, catalog), "oob": True}
        response.write(render(request, f"{PAGE}#{partial}", ctx).content)
    return response


def _with_status(
    request: HttpRequest, response: HttpResponse, fleet: Fleet, catalog: core.Catalog
) -> HttpResponse:
    """Append the meter, the problems panel and the page's version (out of band) to an htmx
    edit response: every region an edit changes arrives in one answer, at one version."""
    _append_regions(request, response, fleet, catalog, ("meter", "problems", "version", "edition"))
    return trigger_client_event(response, FLEET_CHANGED)


def _stale(request: HtmxHttpRequest, pk: int, *, region: str = "units") -> HttpResponse:
    """The answer to an edit made against an old version: nothing was applied.

    htmx gets 409 with ``region`` (the one it targets) saying why, and every other region out
    of band, all at the current version (static/js/builder.js lets htmx swap a 409). Without
    JavaScript the player is sent back to the refreshed builder page with the message.
    """
    fleet = fleet_for_request(request, pk)
    if not request.htmx:
        messages.error(request, FleetChanged.message)
        return HttpResponseRedirect(fleet.get_absolute_url())
    catalog = fleet.catalog()
    ctx = {**_REGIONS[region](fleet, catalog), "edit_error": FleetChanged.message}
    response = render(request, f"{PAGE}#{region}", ctx, status=409)
    others = tuple(
        r for r in ("head", "units", "meter", "problems", "version", "edition") if r != region
    )
    return _append_regions(request, response, fleet, catalog, others)


def fleet_edit(edit: Edit) -> Callable[..., HttpResponse]:
    """Wrap an edit: POST only, owner only, errors shown to the player, then the response.

    ``edit(request, fleet, catalog, **kwargs)`` changes the fleet (it saves) and returns its
    Outcome, or raises EditRefused with the reason.
    """

    @require_POST
    @wraps(edit)
    def view(request: HtmxHttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
        from_editor = request.POST.get("open") == "1"
        try:
            with transaction.atomic():
                fleet = fleet_for_request(request, pk, lock=True)
                fleet.check_version(_posted_version(request))
                edition, catalog = fleet.edition, fleet.catalog()
                # The rows as the page shows them (its version is the fleet's): the answer
                # carries only those the edit changes.
                before = row_states(fleet, catalog, fleet.report(catalog)) if request.htmx else []
                problems_before = _problems_shown(fleet, catalog) if request.htmx else None
                pieces = _open_pieces(request, fleet, catalog, kwargs.get("unit"), from_editor)
                outcome = edit(request, fleet, catalog, **kwargs)
        except FleetChanged:
            return _stale(request, pk)
        except EditRefused as exc:
            return _refused(request, pk, str(exc), adding=edit.__name__ in ADDING)
        if fleet.edition != edition:  # an edition update (or its undo) changed it
            catalog = fleet.catalog()
        keep_open = outcome.unit is not None and (outcome.opened or from_editor)
        if request.htmx:
            return _edit_answer(
                request,
                fleet,
                catalog,
                before,
                outcome,
                keep_open,
                kwargs.get("unit"),
                pieces,
                problems_before,
            )
        query = f"?edit={outcome.unit}" if keep_open else "?removed=1" if outcome.removed else ""
        if outcome.confirm:
            messages.success(
                request,
                f"{outcome.says} · {fleet.points} of {fleet.band.max} points in “{fleet.name}”.",
            )
        anchor = f"#{outcome.anchor}" if outcome.anchor else ""
        return HttpResponseRedirect(f"{fleet.get_absolute_url()}{query}{anchor}")

    return view


def _open_pieces(
    request: HtmxHttpRequest,
    fleet: Fleet,
    catalog: core.Catalog,
    unit: int | None,
    from_editor: bool,
) -> Pieces | None:
    """The open editor an htmx edit was made in, in pieces, as the page shows it now."""
    if not (request.htmx and from_editor and unit is not None and 0 <= unit < fleet.unit_count):
        return None
    sheet = build_sheet(fleet, catalog, fleet.report(catalog), indexes=[unit], open_unit=unit)
    return unit_pieces(request, fleet, sheet, sheet.units[0])


def _problems_shown(fleet: Fleet, catalog: core.Catalog) -> tuple[Any, ...]:
    """Everything the problems panel shows, to tell whether an edit changed it."""
    rows = problem_rows(fleet, catalog, fleet.report(catalog))
    return (
        fleet.unit_count == 0,
        *((r.problem.code, r.problem.message, r.problem.severity, tuple(r.places)) for r in rows),
    )


def _edit_answer(
    request: HtmxHttpRequest,
    fleet: Fleet,
    catalog: core.Catalog,
    before: list[RowState],
    outcome: Outcome,
    keep_open: bool,
    unit: int | None,
    pieces: Pieces | None,
    problems_before: tuple[Any, ...] | None = None,
) -> HttpResponse:
    """The htmx answer to an edit: the rows it changed, the new labels of rows only renumbered,
    the meter, the problems (when they changed: ``problems_before`` is what the page shows),
    the version and the sentence for the live region, all out of band (``HX-Reswap: none``).
    ``unit``: the unit the edit was posted for; ``pieces``: its editor before the edit, if it
    was open (then only the pieces that changed are sent)."""
    report = fleet.report(catalog)
    after = row_states(fleet, catalog, report)
    rows = changed_rows(before, after, unit)
    open_unit = outcome.unit if keep_open else None
    redraw = set(rows.redrawn)
    if (
        open_unit is not None
        and open_unit < fleet.unit_count
        and open_unit not in rows.inserted
        and rows.moved is None
    ):
        redraw.add(open_unit)  # its editor's options may change though its row did not
    sheet = build_sheet(
        fleet, catalog, report, indexes=[*redraw, *rows.inserted], open_unit=open_unit
    )
    cards = {card.index: card for card in sheet.units}
    parts: list[SafeString] = []
    if pieces is not None and open_unit == unit and open_unit in redraw:
        changed = changed_pieces(pieces, unit_pieces(request, fleet, sheet, cards[open_unit]))
        if changed is not None:
            redraw.discard(open_unit)
            parts = changed
    for card in sheet.units:
        mark_copies(request, fleet, sheet, card)
    ctx = {
        **_status_ctx(fleet, catalog),
        "sheet": sheet,
        "redrawn": [cards[i] for i in sorted(redraw)],
        "parts": parts,
        "inserted": [cards[i] for i in rows.inserted],
        "insert_after": rows.insert_after,
        "gone": rows.gone,
        "relabelled": [(i, after[i].label) for i in rows.relabelled],
        "lean": True,
        "undo_label": fleet.removed_label(catalog) if fleet.last_removed else "",
        "announce": f"{outcome.says} · {report.points} of {fleet.band.max} points",
        "send_problems": problems_before != _problems_shown(fleet, catalog),
    }
    response = _compact(render(request, f"{PAGE}#edit_answer", ctx))
    # No settle delay: the rows have no CSS transitions to wait for (htmx waits 20 ms by default).
    response["HX-Reswap"] = "none settle:0ms"
    if rows.gone or rows.shift_by:  # done by builder.js when the answer arrives, before the swap
        trigger_client_event(
            response,
            "fleetRows",
            {
                "gone": rows.gone,
                "from": rows.shift_from,
                "by": rows.shift_by,
                "until": rows.shift_until,
                "moved": rows.moved,
            },
        )
    trigger_client_event(response, FLEET_CHANGED)
    if outcome.focus:
        trigger_client_event(
            response,
            "fleetFocus",
            {"ids": outcome.focus, "move": outcome.move_focus},
            after="settle",
        )
    return response


# The edits that add a ship: refused, they say "Not added".
ADDING = frozenset({"add_ship", "add_escort", "duplicate", "new_squadron"})


def _refused(
    request: HtmxHttpRequest, pk: int, reason: str, *, adding: bool = False
) -> HttpResponse:
    """A refused edit changed nothing. htmx gets the reason where the player is looking:
    in the live region, in the phone's bar (out of band; the rows stay as they
    are) and, with ``fleetRefused``, beside the control that was used (static/js/builder.js);
    the page without JavaScript, the builder with the message."""
    fleet = fleet_for_request(request, pk)  # as stored: the refused edit was rolled back
    if request.htmx:
        catalog = fleet.catalog()
        report = fleet.report(catalog)
        says = (
            reason
            if reason.startswith("Not ")
            else (f"{'Not added' if adding else 'Not done'}: {reason}")
        )
        ctx = {
            "fleet": fleet,
            "report": report,
            "band": fleet.band,
            "meter": meter(report.points, fleet.band),
            "announce": says,
            "refused": True,
        }
        response = _compact(render(request, f"{PAGE}#refusal", ctx))
        response["HX-Reswap"] = "none"
        return trigger_client_event(response, "fleetRefused", {"message": says})
    messages.error(request, reason)
    return HttpResponseRedirect(fleet.get_absolute_url())


def _clean(form: forms.Form) -> dict[str, Any]:
    if not form.is_valid():
        reasons = [f"{e}" for errors in form.errors.values() for e in errors]
        raise EditRefused(" ".join(reasons) or "That edit was not understood.")
    return form.cleaned_data


@require_POST
def fleet_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    fleet = fleet_for_request(request, pk)
    catalog = fleet.catalog()
    form = FleetSettingsForm(request.POST, catalog=catalog, faction=fleet.faction)
    if form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                fleet = fleet_for_request(request, pk, lock=True)
                fleet.check_version(_posted_version(request))
                fleet.settings_changed(
                    catalog,
                    name=data["name"],
                    variant=data["variant"],
                    game_size=data["game_size"],
                    points_limit=data["points_limit"],
                )
        except FleetChanged:
            return _stale(request, pk, region="head")
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
                messages.error(request, str(error))
        return redirect(fleet)
    return render(request, f"{PAGE}#head", _head_ctx(fleet, catalog, form))


def _names(catalog: core.Catalog, fleet: Fleet) -> tuple[Callable[[str], str], list[str]]:
    """The catalogue's ship names, and how the page names each unit now."""
    return catalog_index(catalog).ship_name, unit_labels(fleet, catalog)


def _escort_slug(fleet: Fleet, unit: int, ship: int | None) -> str:
    units = fleet.document.get("units", [])
    if 0 <= unit < len(units):
        entry = units[unit]
        if entry["kind"] == "ship":
            return str(entry["ship"])
        if ship is not None and 0 <= ship < len(entry["ships"]):
            return str(entry["ships"][ship]["ship"])
    return ""


@fleet_edit
def add_ship(request: HttpRequest, fleet: Fleet, catalog: core.Catalog) -> Outcome:
    """The ship list's Add: a capital ship stands alone; an escort joins the last squadron of
    its type with room, or starts one (R-180), and the sentence says which."""
    data = _clean(ShipForm(request.POST))
    i, new = fleet.add_ship(catalog, data["ship"])
    name, labels = _names(catalog, fleet)
    says = f"Added {name(data['ship'])}"
    if fleet.document["units"][i]["kind"] == "squadron":
        count = len(fleet.document["units"][i]["ships"])
        says += (
            f" in a new squadron, {labels[i]}"
            if new
            else f" to {labels[i]}, now {count} escort{'' if count == 1 else 's'}"
        )
    # From a ship page ("Add to my fleet"): the page opens at its top, where the message is.
    anchor = "" if request.POST.get("from") == "ship-page" else f"unit-{i}"
    return Outcome(anchor, says, confirm=True)


@fleet_edit
def new_squadron(request: HttpRequest, fleet: Fleet, catalog: core.Catalog) -> Outcome:
    data = _clean(NameForm(request.POST))
    i = fleet.new_squadron(catalog, data["name"])
    _, labels = _names(catalog, fleet)
    return Outcome(
        f"unit-{i}",
        f"Added {labels[i]}, an empty squadron",
        unit=i,
        focus=[f"unit-{i}-escort", f"unit-{i}-edit"],
        opened=True,
        move_focus=True,
    )


@fleet_edit
def add_escort(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    data = _clean(ShipForm(request.POST))
    fleet.add_escort(catalog, unit, data["ship"])
    name, labels = _names(catalog, fleet)
    return Outcome(
        f"unit-{unit}",
        f"Added {name(data['ship'])} to {labels[unit]}",
        unit=unit,
        focus=[f"unit-{unit}-edit"],
    )


@fleet_edit
def move_escort(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    data = _clean(MoveForm(request.POST))
    moved = _escort_slug(fleet, unit, data["ship"])
    squadrons = fleet.unit_count
    fleet.move_escort(catalog, unit, data["ship"], data["to"])
    name, labels = _names(catalog, fleet)
    emptied = fleet.unit_count < squadrons + (data["to"] is None)
    if emptied:
        n = fleet.unit_count
        after = min(unit, n - 1)
        return Outcome(
            "units",
            f"Moved {name(moved)}; its squadron was left empty and removed",
            focus=[f"unit-{after}-edit"] if n else ["units-heading"],
        )
    to = data["to"] if data["to"] is not None else fleet.unit_count - 1
    return Outcome(
        f"unit-{unit}",
        f"Moved {name(moved)} to {labels[to]}",
        unit=unit,
        focus=[f"unit-{unit}-ship-{data['ship']}-move", f"unit-{unit}-edit"],
    )


@fleet_edit
def set_flagship(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    fleet.set_flagship(catalog, unit)
    _, labels = _names(catalog, fleet)
    return Outcome(
        f"unit-{unit}",
        f"{labels[unit]} is the flagship",
        unit=unit,
        focus=[f"unit-{unit}-admiral", f"unit-{unit}-edit"],
    )


@fleet_edit
def set_admiral(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    data = _clean(AdmiralForm(request.POST))
    fleet.set_admiral(catalog, unit, data["admiral"] or None)
    _, labels = _names(catalog, fleet)
    rank = catalog.admiral(data["admiral"]) if data["admiral"] else None
    says = f"{rank.name} in command on {labels[unit]}" if rank else f"No admiral on {labels[unit]}"
    return Outcome(
        f"unit-{unit}", says, unit=unit, focus=[f"unit-{unit}-admiral", f"unit-{unit}-edit"]
    )


def _anchor(unit: int, ship: int | None) -> str:
    return f"unit-{unit}" if ship is None else f"unit-{unit}-ship-{ship}"


def _upgrade_name(catalog: core.Catalog, slug: str) -> str:
    known = catalog_index(catalog).upgrades.get(slug)
    return known.name if known else slug


@fleet_edit
def add_upgrade(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    data = _clean(UpgradeForm(request.POST))
    fleet.add_upgrade(catalog, unit, data["ship"], data["upgrade"])
    name, _ = _names(catalog, fleet)
    anchor = _anchor(unit, data["ship"])
    ship = name(_escort_slug(fleet, unit, data["ship"]))
    return Outcome(
        anchor,
        f"{_upgrade_name(catalog, data['upgrade'])} fitted to {ship}",
        unit=unit,
        focus=[f"{anchor}-upgrade", f"unit-{unit}-edit"],
    )


@fleet_edit
def remove_upgrade(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    data = _clean(UpgradeForm(request.POST))
    fleet.remove_upgrade(catalog, unit, data["ship"], data["upgrade"])
    name, _ = _names(catalog, fleet)
    anchor = _anchor(unit, data["ship"])
    ship = name(_escort_slug(fleet, unit, data["ship"]))
    return Outcome(
        anchor,
        f"{_upgrade_name(catalog, data['upgrade'])} taken off {ship}",
        unit=unit,
        focus=[f"{anchor}-upgrade", f"unit-{unit}-edit"],
    )


def _names_of(catalog: core.Catalog, slugs: list[str]) -> str:
    return ", ".join(_upgrade_name(catalog, s) for s in slugs)


@fleet_edit
def set_upgrades(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    """The editor's upgrade boxes: one tick or untick is one POST (htmx sends the form on each
    change); without JavaScript, Save upgrades sends them all. ``ship=all``: squadron-wide."""
    data = _clean(UpgradeSetForm(request.POST))
    _, labels = _names(catalog, fleet)
    if data["squadron_wide"]:
        fitted, off = fleet.set_squadron_upgrades(catalog, unit, data["upgrades"])
        where, anchor, box = f"every escort of {labels[unit]}", f"unit-{unit}", f"unit-{unit}-all"
    else:
        fitted, off = fleet.set_upgrades(catalog, unit, data["ship"], data["upgrades"])
        name, _ = _names(catalog, fleet)
        where = name(_escort_slug(fleet, unit, data["ship"]))
        anchor = _anchor(unit, data["ship"])
        box = f"{anchor}-up"
    says = (
        "; ".join(
            part
            for part in (
                f"{_names_of(catalog, fitted)} fitted to {where}" if fitted else "",
                f"{_names_of(catalog, off)} taken off {where}" if off else "",
            )
            if part
        )
        or f"No change to the upgrades of {where}"
    )
    changed = [*fitted, *off]
    return Outcome(
        anchor,
        says,
        unit=unit,
        focus=[f"{box}-{changed[0]}" if changed else f"unit-{unit}-edit", f"unit-{unit}-edit"],
    )


@fleet_edit
def reorder(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    """Move a unit up or down one place (its buttons) or to a place (a drag, builder.js)."""
    data = _clean(ReorderForm(request.POST))
    to = unit + data["by"] if data["by"] is not None else data["to"]
    at = fleet.move_unit(catalog, unit, to)
    _, labels = _names(catalog, fleet)
    n = fleet.unit_count
    says = (
        f"Moved {labels[at]} to place {at + 1} of {n}"
        if at != unit
        else f"{labels[at]} stays at place {at + 1} of {n}"
    )
    # Focus stays on the button pressed, on the moved unit; at the top or bottom, where that
    # button is hidden, on the other one (after a drag, on Edit).
    buttons = {-1: ["up", "down"], 1: ["down", "up"]}.get(data["by"], [])
    return Outcome(
        f"unit-{at}",
        says,
        unit=at,
        move_focus=True,
        focus=[*(f"unit-{at}-{b}" for b in buttons), f"unit-{at}-edit"],
    )


@fleet_edit
def rename_unit(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    data = _clean(NameForm(request.POST))
    fleet.rename_unit(catalog, unit, data["name"])
    _, labels = _names(catalog, fleet)
    return Outcome(
        f"unit-{unit}",
        f"Renamed {labels[unit]}",
        unit=unit,
        focus=[f"unit-{unit}-name", f"unit-{unit}-edit"],
    )


@fleet_edit
def duplicate(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    data = _clean(PlaceForm(request.POST))
    slug = _escort_slug(fleet, unit, data["ship"])
    fleet.duplicate(catalog, unit, data["ship"])
    name, labels = _names(catalog, fleet)
    where = f" to {labels[unit]}" if data["ship"] is not None else ""
    return Outcome(
        f"unit-{unit}", f"Added another {name(slug)}{where}", unit=unit, focus=[f"unit-{unit}-edit"]
    )


@fleet_edit
def remove(request: HttpRequest, fleet: Fleet, catalog: core.Catalog, unit: int) -> Outcome:
    data = _clean(PlaceForm(request.POST))
    name, labels = _names(catalog, fleet)
    was = labels[unit] if 0 <= unit < len(labels) else ""
    slug = _escort_slug(fleet, unit, data["ship"])
    squadron_before = fleet.unit_count
    fleet.remove(catalog, unit, data["ship"])
    if fleet.unit_count < squadron_before:  # the whole unit went: focus the next one
        n = fleet.unit_count
        return Outcome(
            "units",
            f"Removed {was}",
            removed=True,
            focus=[f"unit-{min(unit, n - 1)}-edit"] if n else ["units-heading"],
        )
    j = data["ship"] or 0
    return Outcome(
        f"unit-{unit}",
        f"Removed {name(slug)} from {was}",
        unit=unit,
        removed=True,
        focus=[
            f"unit-{unit}-ship-{j}-remove",
            f"unit-{unit}-ship-{j - 1}-remove",
            f"unit-{unit}-edit",
        ],
    )


@fleet_edit
def undo_remove(request: HttpRequest, fleet: Fleet, catalog: core.Catalog) -> Outcome:
    restored = fleet.removed_label(catalog)
    at = int((fleet.last_removed or {}).get("unit") or 0)
    fleet.undo_remove(catalog)
    at = min(at, fleet.unit_count - 1)
    return Outcome(f"unit-{at}", f"Put back {restored}", focus=[f"unit-{at}-edit"])


# --- editions (R-160, R-162) -------------------------------------------------------------------


@require_GET
def fleet_compare(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The list under its edition and another (``?against=n``, default the newest), unit by
    unit, side by side; nothing is changed."""
    fleet = fleet_for_request(request, pk)
    if fleet.edition is None:
        messages.info(
            request,
            "This list was built on the development catalogue; it has no edition to compare.",
        )
        return redirect(fleet)
    own = editions.get(fleet.edition)
    form = EditionForm({"edition": request.GET.get("against", "")})
    newest = editions.latest()
    try:
        other = editions.get(form.cleaned_data["edition"]) if form.is_valid() else newest
    except UnknownEdition as exc:
        return render(
            request,
            "fleets/compare_unknown.html",
            {"fleet": fleet, "message": exc.message},
            status=404,
        )
    assert other is not None  # the list has an edition, so there is one
    comparison = fleet.compare_with(other.number)
    labels = unit_labels(fleet, fleet.catalog())
    rows = [
        {"label": labels[i], "old": a.points, "new": b.points, "delta": b.points - a.points}
        for i, (a, b) in enumerate(zip(comparison.old.units, comparison.new.units, strict=False))
    ]
    ctx = {
        "fleet": fleet,
        "own": own,
        "other": other,
        "known": editions.known(),
        "comparison": comparison,
        "rows": rows,
        "delta": comparison.new.points - comparison.old.points,
        "problem_sets": [(own.title, comparison.old), (other.title, comparison.new)],
    }
    return render(request, "fleets/compare.html", ctx)


@fleet_edit
def update_edition(request: HttpRequest, fleet: Fleet, catalog: core.Catalog) -> Outcome:
    """Move the list to the edition posted (the newest, from the banner); Undo comes back."""
    data = _clean(EditionForm(request.POST))
    was = fleet.points
    try:
        report = fleet.change_edition(data["edition"])
    except UnknownEdition as exc:
        raise EditRefused(exc.message) from None
    return Outcome(
        "fleet-edition",
        f"Updated to edition {fleet.edition}: {report.points} points (was {was})",
        focus=["edition-undo"],
        move_focus=True,
    )


@fleet_edit
def undo_edition(request: HttpRequest, fleet: Fleet, catalog: core.Catalog) -> Outcome:
    was = fleet.points
    report = fleet.undo_edition()
    return Outcome(
        "fleet-edition",
        f"Back on edition {fleet.edition}: {report.points} points (was {was})",
        focus=["edition-update", "edition-heading"],
        move_focus=True,
    )


@fleet_edit
def keep_edition(request: HttpRequest, fleet: Fleet, catalog: core.Catalog) -> Outcome:
    newest = editions.latest()
    if newest is None or fleet.edition is None or newest.number <= fleet.edition:
        raise EditRefused("There is no newer edition to keep this list away from.")
    fleet.keep_edition(newest.number)
    return Outcome(
        "fleet-edition",
        f"Kept on edition {fleet.edition}; edition {newest.number} stays one click away",
        focus=["edition-update"],
        move_focus=True,
    )
