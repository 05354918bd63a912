"""Saved Fleets: the owner's library of fleets, its search, and the trash.

Every fleet of the signed-in account (or of this anonymous browser) with its faction, size,
points, verdict and last change; search by name, filter by faction, sort. Rename, copy and
"delete" (to the trash, from which Restore brings it back) answer with the list region
re-rendered under htmx, or redirect back to the page they came from without JavaScript.
Deleting forever takes a confirmation page. Anyone but the owner gets 404 on every URL here.
"""

from __future__ import annotations

import io
import zipfile
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode, urlsplit

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header, url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.utils.timesince import timesince
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url, replace_url

from fleetbuilder.catalog import editions, loader
from fleetbuilder.ownership import session_owner_token
from fleetbuilder.text import PlayerTextForm
from rules_core import fleet as rf
from rules_core import text as player_text
from rules_core.validator import validate

from .forms import NameForm
from .models import Fleet, FleetQuerySet
from .start import catalogue_ship

PER_PAGE = 50
LIST_PAGE = "fleets/list.html"
TRASH_PAGE = "fleets/trash.html"
# The fleet just moved to the trash, offered for Undo on the next render of the list.
UNDO_SESSION_KEY = "library_undo_trash"

SORTS = {
    "recent": ("Last change", ("-updated", "-pk")),
    "name": ("Name", ("name", "-updated", "pk")),
    "points": ("Points", ("-points", "-updated", "pk")),
}


class LibraryFilter(PlayerTextForm):
    q = forms.CharField(label="Search by name", max_length=100, required=False, strip=True)
    faction = forms.SlugField(label="Faction", max_length=100, required=False)
    sort = forms.ChoiceField(
        label="Sort by", required=False, choices=[(k, label) for k, (label, _) in SORTS.items()]
    )


# --- access ---------------------------------------------------------------------------------


def _owned(request: HttpRequest) -> FleetQuerySet:
    return Fleet.objects.owned_by(request.user, session_owner_token(request.session))


def _get_owned(request: HttpRequest, pk: int, *, in_trash: bool = False) -> Fleet:
    """The owner's fleet (alive, or in the trash); 404 for anyone else and for the other kind."""
    fleets = _owned(request)
    fleet = (fleets.trashed() if in_trash else fleets.alive()).filter(pk=pk).first()
    if fleet is None:
        raise Http404("No such fleet.")
    return fleet


def _back(request: HttpRequest) -> str:
    """Where a mutation returns to: the ``next`` page if it is ours, else the list."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("fleets:list")


def _ago(when: datetime | None) -> str:
    if when is None:
        return ""
    return (
        "just now"
        if timezone.now() - when < timedelta(minutes=1)
        else f"{timesince(when, depth=1)} ago"
    )


def _label_factions(fleets: list[Fleet]) -> list[Fleet]:
    """Give each fleet its faction and variant names and how long ago it changed (or went)."""
    catalog = loader.core_catalog()
    for fleet in fleets:
        fleet.changed_ago = _ago(fleet.updated)
        fleet.deleted_ago = _ago(fleet.deleted_at)
        faction = catalog.faction(fleet.faction)
        variant = faction.variant(fleet.variant) if faction and fleet.variant else None
        fleet.faction_name = faction.name if faction else fleet.faction
        fleet.variant_name = variant.name if variant else ""
    return fleets


def _mark_editions(fleets: list[Fleet]) -> list[Fleet]:
    """Flag each listed fleet that the newest edition would change (R-162): its total or
    verdict under it (``newer_report``), read only for fleets on an older edition."""
    newest = editions.latest()
    older = [f.pk for f in fleets if newest and f.edition is not None and f.edition < newest.number]
    documents = dict(Fleet.objects.filter(pk__in=older).values_list("pk", "document"))
    catalog = editions.catalog_for(newest.number) if newest and older else None
    for fleet in fleets:
        fleet.newer_report = None
        if catalog is not None and fleet.pk in documents:
            report = validate(rf.parse_fleet(documents[fleet.pk]), catalog)
            if (report.points, report.legal) != (fleet.points, fleet.legal):
                fleet.newer_report = report
    return fleets


# --- pages ----------------------------------------------------------------------------------


def library_url(query: str = "", faction: str = "", sort: str = "recent", page: int = 1) -> str:
    """The canonical address of a view of the list: empty and default parameters left out."""
    params: dict[str, str | int] = {}
    if query:
        params["q"] = query
    if faction:
        params["faction"] = faction
    if sort and sort != "recent":
        params["sort"] = sort
    if page > 1:
        params["page"] = page
    base = reverse("fleets:list")
    return f"{base}?{urlencode(params)}" if params else base


def _list_ctx(request: HttpRequest, params: QueryDict) -> dict[str, Any]:
    form = LibraryFilter(params)
    valid = form.is_valid()
    data = form.cleaned_data if valid else {}
    query, faction, sort = data.get("q", ""), data.get("faction", ""), data.get("sort") or "recent"
    alive = _owned(request).alive()
    counts = dict(alive.values_list("faction").annotate(n=Count("pk")).order_by())
    catalog = loader.core_catalog()
    faction_options = [
        (f.slug, f.name, counts.get(f.slug, 0))
        for f in catalog.factions
        if counts.get(f.slug) or f.slug == faction
    ]
    fleets = alive.named_like(query)
    if faction:
        fleets = fleets.filter(faction=faction)
    fleets = fleets.order_by(*SORTS[sort][1]).defer("document", "last_removed")
    page = Paginator(fleets, PER_PAGE).get_page(params.get("page"))
    here = library_url(query, faction, sort, page.number)
    undo = None
    undo_pk = request.session.pop(UNDO_SESSION_KEY, None)
    if undo_pk is not None:
        undo = _owned(request).trashed().filter(pk=undo_pk).only("pk", "name").first()
    return {
        "filter": form,
        "params": params,
        "query": query,
        "faction": faction,
        "sort": sort,
        "sorts": [(k, label) for k, (label, _) in SORTS.items()],
        "faction_options": faction_options,
        "total": sum(counts.values()),
        "page_obj": page,
        "fleets": _mark_editions(_label_factions(list(page.object_list))),
        "newest_edition": editions.latest(),
        "filtered": bool(query or faction),
        "trash_count": _owned(request).trashed().count(),
        "undo": undo,
        "list_url": here if request.method == "GET" else "",
        "canonical_url": here,
        "anonymous_days": settings.ANONYMOUS_SESSION_DAYS,
        "prev_url": library_url(query, faction, sort, page.previous_page_number())
        if page.has_previous()
        else "",
        "next_url": library_url(query, faction, sort, page.next_page_number())
        if page.has_next()
        else "",
    }


def _list_region(
    request: HttpRequest, ctx: dict[str, Any], *, changed: bool = False
) -> HttpResponse:
    """The results region; out of band, the trash link's count and words for screen readers.

    After a change (``changed``) the search form comes too, for its faction counts; not while
    searching, so the field or menu the player is using is never swapped out from under them.
    """
    response = render(request, f"{LIST_PAGE}#results", {**ctx, "changed": changed})
    partials = ("trash_link", "status", "filter") if changed else ("trash_link", "status")
    for partial in partials:
        response.write(render(request, f"{LIST_PAGE}#{partial}", {**ctx, "oob": True}).content)
    return response


def _is_partial(request: HttpRequest) -> bool:
    """An htmx request for a region (not htmx restoring a whole page from history)."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


def _only_query_changed(request: HttpRequest, url: str) -> bool:
    """Whether ``url`` differs from the page the player is on by the search text only."""
    current = request.htmx.current_url  # type: ignore[attr-defined]
    if not current:
        return False
    before, after = QueryDict(urlsplit(current).query), QueryDict(urlsplit(url).query)
    return all(before.get(k, "") == after.get(k, "") for k in ("faction", "sort", "page"))


@require_GET
@vary_on_headers("HX-Request")
def fleet_list(request: HttpRequest) -> HttpResponse:
    ctx = _list_ctx(request, request.GET)
    if _is_partial(request):
        response = _list_region(request, ctx)
        # The address bar shows the clean address of what is listed. Typing in the search box
        # replaces the history entry (Back does not step through each word); the menus and
        # the pager add one.
        url = ctx["canonical_url"]
        return (
            replace_url(response, url)
            if _only_query_changed(request, url)
            else push_url(response, url)
        )
    return render(request, LIST_PAGE, ctx)


def _trash_ctx(request: HttpRequest, params: QueryDict, **extra: Any) -> dict[str, Any]:
    trashed = (
        _owned(request).trashed().order_by("-deleted_at", "-pk").defer("document", "last_removed")
    )
    page = Paginator(trashed, PER_PAGE).get_page(params.get("page"))
    return {
        "params": params,
        "page_obj": page,
        "fleets": _label_factions(list(page.object_list)),
        "trash_url": request.get_full_path() if request.method == "GET" else "",
        **extra,
    }


@require_GET
@vary_on_headers("HX-Request")
def trash_list(request: HttpRequest) -> HttpResponse:
    template = f"{TRASH_PAGE}#results" if _is_partial(request) else TRASH_PAGE
    return render(request, template, _trash_ctx(request, request.GET))


def _answer(request: HttpRequest) -> HttpResponse:
    """After a change: the region of the page it came from (htmx), or that page (no JS)."""
    back = _back(request)
    if not getattr(request, "htmx", False):
        return HttpResponseRedirect(back)
    url = urlsplit(back)
    params = QueryDict(url.query)
    if url.path == reverse("fleets:trash"):
        ctx = _trash_ctx(request, params, trash_url=back, changed=True)
        return render(request, f"{TRASH_PAGE}#results", ctx)
    return _list_region(request, {**_list_ctx(request, params), "list_url": back}, changed=True)


# --- changes --------------------------------------------------------------------------------


@require_POST
def rename_fleet(request: HttpRequest, pk: int) -> HttpResponse:
    fleet = _get_owned(request, pk)
    form = NameForm(request.POST)
    if form.is_valid():
        fleet.rename(form.cleaned_data["name"])
        messages.success(request, f"Renamed to “{fleet.name}”.")
    else:
        for error in form.errors.get("name", []):
            messages.error(request, f"“{fleet.name}” keeps its name: {error}")
    return _answer(request)


@require_POST
def copy_fleet(request: HttpRequest, pk: int) -> HttpResponse:
    fleet = _get_owned(request, pk)
    copy = fleet.copy(owner=request.user, owner_token=session_owner_token(request.session) or "")
    messages.success(request, f"Saved a copy: “{copy.name}”.")
    if request.POST.get("open") == "copy":  # from the builder: carry on with the copy
        return redirect(copy)
    return _answer(request)


@require_POST
def trash_fleet(request: HttpRequest, pk: int) -> HttpResponse:
    fleet = _get_owned(request, pk)
    fleet.trash()
    request.session[UNDO_SESSION_KEY] = fleet.pk
    return _answer(request)


@require_POST
def restore_fleet(request: HttpRequest, pk: int) -> HttpResponse:
    fleet = _get_owned(request, pk, in_trash=True)
    fleet.restore()
    messages.success(request, f"“{fleet.name}” is back in your saved fleets.")
    return _answer(request)


@require_http_methods(["GET", "POST"])
def delete_fleet(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a fleet of the trash forever, after a confirmation page."""
    fleet = _get_owned(request, pk, in_trash=True)
    if request.method == "POST":
        name = fleet.name
        fleet.delete()
        messages.success(request, f"“{name}” is deleted forever.")
        return redirect("fleets:trash")
    ctx = _trash_ctx(request, request.GET, confirm_fleet=_label_factions([fleet])[0])
    return render(request, TRASH_PAGE, ctx)


@require_http_methods(["GET", "POST"])
def empty_trash(request: HttpRequest) -> HttpResponse:
    trashed = _owned(request).trashed()
    if request.method == "POST":
        _, deleted = trashed.delete()
        count = deleted.get(Fleet._meta.label, 0)
        if count:
            messages.success(request, f"Deleted {count} fleet{'s' if count != 1 else ''} forever.")
        return redirect("fleets:trash")
    ctx = _trash_ctx(request, request.GET, confirm_empty=trashed.count())
    return render(request, TRASH_PAGE, ctx)


# --- backup: every saved fleet in one zip, and reading such a zip back ----------------------

MAX_BUNDLE_FLEETS = 100
MAX_BUNDLE_MEMBER_BYTES = 256 * 1024  # each fleet file, unpacked (as an uploaded file)
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")  # a zip with files, an empty zip
ACCOUNT_MEMBER = "account.json"  # fleetbuilder/accounts/export.py: read by the player only


class BundleProblem(ValueError):
    """A zip of fleet files that cannot be imported; the message names the file and why."""


def bundle_members(data: bytes) -> list[tuple[str, str]]:
    """The (file name, text) of each fleet file in the zip ``data``, checked for size first.

    Folders, hidden files and macOS resource forks are skipped; anything else must be a UTF-8
    text of at most 256 KB unpacked, and there may be at most 100 (a zip bomb unpacks nothing).
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, EOFError, ValueError):
        raise BundleProblem("The .zip file is damaged.") from None
    members = [
        info
        for info in infos
        if not info.is_dir()
        and not info.filename.startswith("__MACOSX/")
        and info.filename != ACCOUNT_MEMBER  # a player's export: the record, not a fleet
        and not info.filename.rsplit("/", 1)[-1].startswith(".")
    ]
    if not members:
        raise BundleProblem("The .zip file holds no fleet files.")
    if len(members) > MAX_BUNDLE_FLEETS:
        raise BundleProblem(
            f"The .zip file holds {len(members)} files; import at most {MAX_BUNDLE_FLEETS} at once."
        )
    read = []
    for info in members:
        name = player_text.shown(info.filename)  # quoted in messages: no control characters
        too_big = BundleProblem(
            f"{name}: over {MAX_BUNDLE_MEMBER_BYTES // 1024} KB unpacked; a fleet file is a few KB."
        )
        if info.file_size > MAX_BUNDLE_MEMBER_BYTES:
            raise too_big
        try:
            with archive.open(info) as member:
                raw = member.read(MAX_BUNDLE_MEMBER_BYTES + 1)
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError, OSError):
            raise BundleProblem(
                f"{name}: cannot be unpacked (damaged, encrypted or "
                "compressed in a way this app does not read)."
            ) from None
        if len(raw) > MAX_BUNDLE_MEMBER_BYTES:
            raise too_big
        try:
            read.append((name, raw.decode("utf-8")))
        except UnicodeDecodeError:
            raise BundleProblem(f"{name}: not a fleet file (it is not UTF-8 text).") from None
    return read


@require_GET
def export_all(request: HttpRequest) -> HttpResponse:
    """Every saved fleet (not the trash) as one zip of fleet files (contract 1), to keep or to
    import again one by one; named after each fleet, numbered when two share a name."""
    fleets = list(_owned(request).alive().order_by("name", "pk").only("name", "document"))
    if not fleets:
        messages.info(request, "There are no saved fleets to download.")
        return redirect("fleets:list")
    buffer = io.BytesIO()
    used: set[str] = set()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for fleet in fleets:
            stem = slugify(fleet.name, allow_unicode=True)[:60] or "fleet"
            name, n = f"{stem}.json", 1
            while name in used:
                n += 1
                name = f"{stem}-{n}.json"
            used.add(name)
            archive.writestr(name, rf.dump_fleet_json(fleet.to_core()) + "\n")
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    day = timezone.now().date().isoformat()
    response["Content-Disposition"] = content_disposition_header(
        True, f"void-command-fleets-{day}.zip"
    )
    response["Cache-Control"] = "private, no-store"
    return response


# --- "Add to my fleet" from a ship's page ----------------------------------------

ADD_TO_LIMIT = 20


@require_GET
def add_to_fleet(request: HttpRequest) -> HttpResponse:
    """``?ship=<slug>``: the visitor's fleets of that ship's faction, each with an Add button (the
    builder's own add-ship edit), and a new fleet starting with it. The catalogue's pages link
    here with the same address for everyone (they are cached for everyone)."""
    catalog = loader.core_catalog()
    slug = request.GET.get("ship", "")
    found = catalogue_ship(catalog, slug) if slug else None
    if slug and found is None:
        raise Http404("No such ship.")
    ctx: dict[str, Any] = {"ship": None, "fleets": [], "more": False}
    if found is not None:
        ship, faction = found
        fleets = list(
            _owned(request)
            .alive()
            .filter(faction=faction.slug)
            .order_by("-updated", "-pk")
            .defer("document", "last_removed")[: ADD_TO_LIMIT + 1]
        )
        ctx = {
            "ship": ship,
            "faction": faction,
            "fleets": fleets[:ADD_TO_LIMIT],
            "more": len(fleets) > ADD_TO_LIMIT,
            "ship_url": reverse("catalog:ship", args=[faction.slug, ship.slug]),
        }
    return render(request, "fleets/add_to.html", ctx)
