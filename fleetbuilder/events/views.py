"""Event pages (R-171–R-174). Every view finds the event by its unguessable token and asks the
event's :class:`~.models.Viewer` what the visitor may see; the organiser's views 404 for
anyone else, as an outsider's fleet does."""

from __future__ import annotations

import csv
import io
from datetime import UTC, timedelta
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from fleetbuilder.catalog import editions, loader
from fleetbuilder.fleets.models import Fleet
from rules_core import sharecode, swiss
from rules_core.validator import catalog_index, validate

from .forms import EventForm, ExtendForm, ResultForm, ReviewForm, SubmitForm
from .models import (
    EditionMismatch,
    Entry,
    Event,
    Phase,
    Role,
    SubmissionRefused,
    SwissState,
    Viewer,
)


def _event(token: str, *, lock: bool = False) -> Event:
    events = Event.objects.filter(token=token)
    event = (events.select_for_update() if lock else events).first()
    if event is None:
        raise Http404("No such event.")
    return event


def _organised(request: HttpRequest, token: str, *, lock: bool = False) -> Event:
    """The event if the visitor organises it; 404 for anyone else (they learn nothing)."""
    event = _event(token, lock=lock)
    if not (request.user.is_authenticated and event.organiser_id == request.user.pk):
        raise Http404("No such event.")
    return event


@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    ctx = {
        "listed": Event.objects.listed().filter(starts_at__gte=now - _DAY)[:100],
        "mine": Event.objects.of_player(request.user).order_by("-starts_at")[:100],
    }
    return render(request, "events/list.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None, catalog=loader.core_catalog())
    if request.method == "POST" and form.is_valid():
        event = form.save(commit=False)
        event.organiser = request.user
        event.save()
        messages.success(request, "The event is made. Share its link with the players.")
        return redirect(event)
    return render(
        request,
        "events/form.html",
        {"form": form, "event": None},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, token: str) -> HttpResponse:
    event = _organised(request, token)
    form = EventForm(request.POST or None, instance=event, catalog=loader.core_catalog())
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            locked = _organised(request, token, lock=True)
            changed = locked.change(request.user, form.changed_values())
        messages.success(
            request,
            f"Saved ({len(changed)} change{'s' if len(changed) != 1 else ''} logged)."
            if changed
            else "Nothing changed.",
        )
        return redirect(event)
    return render(
        request,
        "events/form.html",
        {"form": form, "event": event},
        status=400 if form.errors else 200,
    )


def _entry_rows(viewer: Viewer) -> list[dict[str, Any]]:
    """Each player of the event, with what this viewer may see of their list (R-173)."""
    rows = []
    names = catalog_index(editions.catalog_for(viewer.event.edition))
    for entry in viewer.event.active_entries().defer("document"):
        sees = viewer.sees_list(entry)
        faction = names.factions.get(entry.faction) if viewer.sees_faction(entry) else None
        rows.append(
            {
                "entry": entry,
                "name": entry.player.get_username(),
                "sees": sees,
                "faction": faction.name if faction else "",
                "mine": viewer.entry is not None and entry.pk == viewer.entry.pk,
            }
        )
    return rows


@require_GET
def event_page(request: HttpRequest, token: str) -> HttpResponse:
    event = _event(token)
    viewer = event.viewer(request.user)
    fleets: list[Fleet] = []
    if viewer.entry is not None and event.phase() is Phase.OPEN:
        fleets = list(
            Fleet.objects.alive()
            .filter(owner=request.user)
            .order_by("-updated")
            .defer("document", "last_removed")[:200]
        )
    rows = _entry_rows(viewer)
    revealed = (
        [r for r in rows if r["sees"] and r["entry"].submitted]
        if viewer.role is not Role.VISITOR and event.phase() is Phase.REVEALED
        else []
    )
    state = _visible_state(event, viewer)
    current = state.current_round if state else 0
    ctx = {
        "event": event,
        "viewer": viewer,
        "phase": event.phase(),
        "rows": rows,
        "fleets": fleets,
        "edition": event.edition_info,
        "revealed_lists": revealed,
        "count": event.active_entries().count(),
        "current_round": current,
        "games": [g for g in state.games if g.round == current] if state else [],
    }
    return render(request, "events/event.html", ctx)


@login_required
@require_POST
def join(request: HttpRequest, token: str) -> HttpResponse:
    event = _event(token)
    if event.organiser_id == request.user.pk:
        messages.info(request, "You organise this event.")
        return redirect(event)
    try:
        event.join(request.user)
    except SubmissionRefused as exc:
        messages.error(request, str(exc))
        return HttpResponseRedirect(event.get_absolute_url(), status=303)
    messages.success(request, "You have joined. Submit a list before the deadline.")
    return redirect(event)


@login_required
@require_POST
def submit(request: HttpRequest, token: str) -> HttpResponse:
    event = _event(token)
    form = SubmitForm(request.POST)
    fleet = None
    if form.is_valid():
        fleet = Fleet.objects.filter(pk=form.cleaned_data["fleet"], owner=request.user.pk).first()
    try:
        if fleet is None:
            raise SubmissionRefused("Choose one of your own fleets.")
        was = fleet.edition
        entry = event.submit(
            request.user, fleet, update_edition=form.cleaned_data["update_edition"]
        )
    except SubmissionRefused as exc:
        return render(
            request,
            "events/refused.html",
            {
                "event": event,
                "reason": str(exc),
                "fleet": fleet,
                "offer_update": isinstance(exc, EditionMismatch),
            },
            status=400,
        )
    verdict = "legal" if entry.legal else "not legal"
    moved = (
        f"“{fleet.name}” is updated to edition {event.edition} (Undo in the builder). "
        if was != event.edition
        else ""
    )
    messages.success(
        request,
        f"{moved}List submitted: {entry.points} points, {verdict}. You "
        "may submit again until the deadline; the last one counts.",
    )
    return redirect(event)


@require_GET
def entry_page(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """One submitted list, for whoever may see it (R-173); 404 for anyone else, the same as
    for a player who submitted nothing."""
    event = _event(token)
    viewer = event.viewer(request.user)
    entry = event.active_entries().filter(pk=pk).first()
    if entry is None or not entry.submitted or not viewer.sees_list(entry):
        raise Http404("No such list.")
    catalog = editions.catalog_for(event.edition)
    fleet = entry.to_core()
    report = validate(fleet, catalog)
    idx = catalog_index(catalog)
    ctx = {
        "event": event,
        "viewer": viewer,
        "entry": entry,
        "fleet": fleet,
        "report": report,
        "names": idx,
        "units": _units(fleet, idx),
        "faction": idx.factions.get(fleet.faction),
    }
    return render(request, "events/entry.html", ctx)


@require_GET
def preview(request: HttpRequest, token: str) -> HttpResponse:
    """Two lists this viewer may see (``?a=&b=``, entry ids), opened in the matchup preview
    as share codes of their snapshots (R-173: after the reveal, for participants)."""
    event = _event(token)
    viewer = event.viewer(request.user)
    chosen = []
    for side in ("a", "b"):
        raw = request.GET.get(side, "")
        entry = (
            event.active_entries().filter(pk=int(raw)).first()
            if raw.isascii() and raw.isdigit() and len(raw) <= 12
            else None
        )
        if entry is None or not entry.submitted or not viewer.sees_list(entry):
            raise Http404("No such list.")
        chosen.append(entry)
    try:
        codes = [sharecode.encode(entry.to_core()) for entry in chosen]
    except sharecode.ShareCodeError as exc:
        messages.error(request, str(exc))
        return redirect(event)
    query = urlencode({"a_code": codes[0], "b_code": codes[1]})
    return HttpResponseRedirect(f"{reverse('simulator:new')}?{query}")


def _units(fleet: Any, idx: Any) -> list[dict[str, Any]]:
    out = []
    for unit in fleet.units:
        ships = [unit] if unit.kind == "ship" else list(unit.ships)
        out.append(
            {
                "kind": unit.kind,
                "name": unit.name,
                "ships": [
                    {
                        "name": idx.ship_name(s.ship),
                        "upgrades": [
                            idx.upgrades[u].name if u in idx.upgrades else u for u in s.upgrades
                        ],
                    }
                    for s in ships
                ],
                "flagship": getattr(unit, "flagship", False),
                "admiral": getattr(unit, "admiral", None),
            }
        )
    return out


# --- the organiser -------------------------------------------------------------------------


@login_required
@require_GET
def dashboard(request: HttpRequest, token: str) -> HttpResponse:
    event = _organised(request, token)
    ctx = {
        "event": event,
        "phase": event.phase(),
        "rows": _dashboard_rows(event),
        "changes": event.changes.select_related("by")[:200],
        "extend_form": ExtendForm(),
    }
    template = (
        "events/dashboard.html#rows"
        if request.headers.get("HX-Request")
        else "events/dashboard.html"
    )
    response = render(request, template, ctx)
    patch_vary_headers(response, ("HX-Request",))  # the rows alone, or the whole page
    return response


def _dashboard_rows(event: Event, *, with_lists: bool = False) -> list[dict[str, Any]]:
    """Every player's row; the snapshots themselves only ``with_lists`` (the exports)."""
    names = catalog_index(editions.catalog_for(event.edition))
    rows = []
    entries = event.active_entries()
    for entry in entries if with_lists else entries.defer("document"):
        faction = names.factions.get(entry.faction)
        rows.append(
            {
                "entry": entry,
                "name": entry.player.get_username(),
                "faction": faction.name if faction else entry.faction,
            }
        )
    return rows


@login_required
@require_POST
def review(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    form = ReviewForm(request.POST)
    with transaction.atomic():
        event = _organised(request, token, lock=True)
        entry = get_object_or_404(event.entries.select_for_update(), pk=pk, removed_at=None)
        if not form.is_valid():
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, str(error))
            return redirect("events:dashboard", token)
        action = form.cleaned_data["action"]
        name = entry.player.get_username()
        if action == "remove":
            entry.removed_at = timezone.now()
            entry.save(update_fields=["removed_at"])
            messages.success(request, f"{name} is removed from the event.")
        elif not entry.submitted:
            messages.error(request, f"{name} has not submitted a list yet.")
        else:
            entry.review = Entry.Review.APPROVED if action == "approve" else Entry.Review.RETURNED
            entry.comment = form.cleaned_data["comment"].strip() if action == "return" else ""
            entry.save(update_fields=["review", "comment"])
            messages.success(request, f"{name}'s list: {entry.get_review_display().lower()}.")
    return redirect("events:dashboard", token)


@login_required
@require_POST
def extend(request: HttpRequest, token: str) -> HttpResponse:
    event = _organised(request, token)
    form = ExtendForm(request.POST)
    if form.is_valid():
        deadline = form.cleaned_data["deadline"].replace(tzinfo=event.zone)
        with transaction.atomic():
            locked = _organised(request, token, lock=True)
            try:
                locked.extend_deadline(request.user, deadline)
            except ValueError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, "The deadline is extended.")
    else:
        messages.error(request, "Give the new deadline as a date and time.")
    return redirect("events:dashboard", token)


EXPORT_COLUMNS = (
    "player",
    "faction",
    "points",
    "legal",
    "problems",
    "submitted_at",
    "review",
    "comment",
)


def _export_rows(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "player": r["name"],
            "faction": r["faction"],
            "points": r["entry"].points,
            "legal": r["entry"].legal if r["entry"].submitted else None,
            "problems": r["entry"].problems,
            "submitted_at": r["entry"].submitted_at.isoformat()
            if r["entry"].submitted_at
            else None,
            "review": r["entry"].review,
            "comment": r["entry"].comment,
            "list": r["entry"].document,
        }
        for r in _dashboard_rows(event, with_lists=True)
    ]


@login_required
@require_GET
def export_csv(request: HttpRequest, token: str) -> HttpResponse:
    event = _organised(request, token)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(EXPORT_COLUMNS)
    for row in _export_rows(event):
        writer.writerow(
            [_text(" ".join(row[c]) if c == "problems" else row[c]) for c in EXPORT_COLUMNS]
        )
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.csv"'
    return response


def _text(value: Any) -> str:
    """A CSV cell a spreadsheet will not run (``rules_core.swiss.safe_cell``)."""
    return swiss.safe_cell("" if value is None else str(value))


@login_required
@require_GET
def export_json(request: HttpRequest, token: str) -> HttpResponse:
    event = _organised(request, token)
    doc = {
        "event": event.name,
        "edition": event.edition,
        "band": {"min": event.band.min, "max": event.band.max},
        "deadline": event.deadline.isoformat(),
        "reveal_at": event.reveal_at.isoformat(),
        "players": _export_rows(event),
    }
    response = JsonResponse(doc, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.json"'
    return response


@require_GET
def calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The event as an iCalendar file (RFC 5545): the start and the list deadline."""
    event = _event(token)
    url = request.build_absolute_uri(event.get_absolute_url())
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")

    def utc(moment: Any) -> str:
        return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")

    def text(value: str) -> str:
        return (
            value.replace("\\", "\\\\")
            .replace(";", "\\;")
            .replace(",", "\\,")
            .replace("\r\n", "\\n")
            .replace("\n", "\\n")
            .replace("\r", "\\n")
        )

    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Void Command Fleet Builder//Events//EN",
        "CALSCALE:GREGORIAN",
    ]
    for uid, summary, start in (
        (f"event-{event.token}", event.name, event.starts_at),
        (f"deadline-{event.token}", f"List deadline: {event.name}", event.deadline),
    ):
        lines += [
            "BEGIN:VEVENT",
            f"UID:{uid}@void-command",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{utc(start)}",
            f"SUMMARY:{text(summary)}",
            f"URL:{url}",
        ]
        if uid.startswith("event") and event.place:
            lines.append(f"LOCATION:{text(event.place)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    body = "\r\n".join(_fold(line) for line in lines) + "\r\n"
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.ics"'
    return response


def _fold(line: str) -> str:
    """RFC 5545 §3.1: lines of at most 75 octets, continued with CRLF and a space."""
    raw = line.encode("utf-8")
    if len(raw) <= 75:
        return line
    parts: list[str] = []
    current = b""
    for char in line:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > (75 if not parts else 74):
            parts.append(current.decode("utf-8"))
            current = b""
        current += encoded
    parts.append(current.decode("utf-8"))
    return "\r\n ".join(parts)


# --- rounds and standings (R-170, R-175) -----------------------------------------------------


@login_required
@require_GET
def rounds(request: HttpRequest, token: str) -> HttpResponse:
    """The organiser's rounds: pair the next one, record results, take the last one back."""
    event = _organised(request, token)
    state = event.swiss_state()
    unlisted = [e for e in event.active_entries().defer("document") if not e.submitted]
    ctx = {
        "event": event,
        "phase": event.phase(),
        "state": state,
        "rounds": list(reversed(state.rounds())),
        "unlisted": unlisted,
        "error": "",
        "said": "",  # a game's own line, after its result is saved (htmx)
        "ready": event.phase() is Phase.REVEALED
        and len(state.active) >= 2
        and all(g.played for g in state.games),
    }
    return render(request, "events/rounds.html", ctx)


@login_required
@require_POST
def pair(request: HttpRequest, token: str) -> HttpResponse:
    with transaction.atomic():
        event = _organised(request, token, lock=True)
        try:
            games = event.pair_next_round(request.user)
        except ValueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Round {games[0].round} is paired.")
    return redirect("events:rounds", token)


@login_required
@require_POST
def unpair(request: HttpRequest, token: str) -> HttpResponse:
    with transaction.atomic():
        event = _organised(request, token, lock=True)
        try:
            number = event.unpair_last_round(request.user)
        except ValueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Round {number} is taken back.")
    return redirect("events:rounds", token)


@login_required
@require_POST
def result(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """Record or correct one game's result; over htmx the game's form comes back alone."""
    form = ResultForm(request.POST)
    error = said = ""
    with transaction.atomic():
        event = _organised(request, token, lock=True)
        game = get_object_or_404(event.games.select_related("a__player", "b__player"), pk=pk)
        if not form.is_valid():
            error = " ".join(str(e) for errors in form.errors.values() for e in errors)
        else:
            try:
                changed = game.record(
                    request.user,
                    form.cleaned_data["result"] or "",
                    form.cleaned_data["vp_a"],
                    form.cleaned_data["vp_b"],
                )
            except ValueError as exc:
                error = str(exc)
            else:
                said = f"Table {game.table}: " + ("saved." if changed else "nothing changed.")
    if request.headers.get("HX-Request"):
        game.refresh_from_db()
        return render(
            request,
            "events/rounds.html#game",
            {"event": event, "game": game, "error": error, "said": said},
            status=400 if error else 200,
        )
    if error:
        messages.error(request, f"Table {game.table}: {error}")
    else:
        messages.success(request, said)
    return HttpResponseRedirect(reverse("events:rounds", args=[token]) + f"#game-{game.pk}")


def _standing_rows(viewer: Viewer, state: SwissState) -> list[dict[str, Any]]:
    """The standings with each player's name, and their faction where this viewer may see it
    (R-173)."""
    entries = {str(e.pk): e for e in state.entries}
    names = catalog_index(editions.catalog_for(viewer.event.edition))
    rows = []
    for s in state.standings():
        entry = entries[s.player]
        faction = names.factions.get(entry.faction) if viewer.sees_faction(entry) else None
        rows.append(
            {
                "s": s,
                "entry": entry,
                "name": entry.player.get_username(),
                "faction": faction.name if faction else "",
                "withdrawn": entry.removed_at is not None,
                "mine": viewer.entry is not None and entry.pk == viewer.entry.pk,
            }
        )
    return rows


def _visible_state(event: Event, viewer: Viewer) -> SwissState | None:
    """The rounds, for whoever may see them: the organiser always, anyone holding the event's
    link once the lists are revealed (R-175)."""
    if viewer.is_organiser or event.phase() is Phase.REVEALED:
        return event.swiss_state()
    return None


@require_GET
def standings(request: HttpRequest, token: str) -> HttpResponse:
    event = _event(token)
    viewer = event.viewer(request.user)
    state = _visible_state(event, viewer)
    ctx = {
        "event": event,
        "viewer": viewer,
        "phase": event.phase(),
        "state": state,
        "rows": _standing_rows(viewer, state) if state else [],
        "rounds": list(reversed(state.rounds())) if state else [],
    }
    return render(request, "events/standings.html", ctx)


@require_GET
def standings_csv(request: HttpRequest, token: str) -> HttpResponse:
    event = _event(token)
    state = _visible_state(event, event.viewer(request.user))
    body = state.standings_csv() if state and state.games else ""
    if not body:
        raise Http404("No standings yet.")
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-standings.csv"'
    return response


_DAY = timedelta(days=1)
