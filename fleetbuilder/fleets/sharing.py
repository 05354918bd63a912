"""Sharing a fleet: the owner's share page, the public permalink, share codes, export and import.

- ``/fleets/<pk>/share/`` (owner only): the permalink with its QR code and on/off switch, the
  share code, the fleet file and the plain text.
- ``/s/<share_id>/`` (anyone, while the owner shares it): the list read-only, "Copy to my
  fleets". An unknown, rotated, turned-off or trashed link is the same 404 (R-92).
- ``/fleets/code/<code>/`` (anyone): a share code's fleet, read-only, from no database (R-90).
- ``/fleets/import/``: a fleet file, a share code (or its URL), a permalink or the plain text;
  checked and shown first, saved in one transaction only when asked (R-93).

Who may see a shared fleet or a share code's is ``access``'s to say; their print pages are the
cards app's (``fleetbuilder/cards/views.py``).

Every list is shown, priced, printed and saved under its edition (R-160): a saved one under its
own (``Fleet.catalog()``); one arriving as a file, a zip, a text or a code under the edition it
names, the first if it names none, with R-161's note shown (``incoming.arrive``). One naming an
edition this server does not know is refused, naming the known ones, and nothing is saved: a
400 on the import page, a 404 on a code's pages (as any code that cannot be opened).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import segno
from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from redis.exceptions import RedisError

from fleetbuilder.catalog import editions
from fleetbuilder.ownership import owner_token
from fleetbuilder.ratelimit import rate_limit
from rules_core import catalog as core
from rules_core import chatlist, sharecode, textlist
from rules_core import fleet as rf
from rules_core.validator import check_points_bound, validate

from . import library, rosters
from .access import fleet_for_code, fleet_for_link, fleet_for_link_page, fleet_for_request
from .importing import ImportProblem, read_fleet
from .incoming import Arrival, UnknownEdition, arrive
from .models import DEFAULT_NAME, Fleet
from .once import (
    ONCE_SECONDS,
    ONCE_UNCHECKED,
    forget_once,
    once_key,
    once_token,
    owner_kwargs,
    save_copy,
)
from .roster import roster_context

log = logging.getLogger("fleetbuilder.fleets")

MAX_IMPORT_BYTES = 256 * 1024  # an uploaded file; a 100-unit fleet file is far below it
MAX_PASTE_CHARS = 256 * 1024
_SAFE_SVG = re.compile(r'^<svg [^<>]*>(?:<g [^<>]*>)?(?:<path [^<>]*/>)+(?:</g>)?</svg>$')


# --- helpers --------------------------------------------------------------------------------


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG; segno writes only paths, and we check that."""
    svg = segno.make(url, error="m").svg_inline(
        scale=4, border=2, dark="#000", light="#fff", omitsize=True, svgclass="qr__code",
        lineclass=None,
    )
    if not _SAFE_SVG.match(svg):
        raise ValueError("unexpected QR code markup")
    return mark_safe(svg)


def _filename(name: str, ext: str) -> str:
    return f"{slugify(name, allow_unicode=True)[:60] or 'fleet'}.{ext}"


def _file_response(fleet: rf.Fleet) -> HttpResponse:
    response = HttpResponse(rf.dump_fleet_json(fleet) + "\n",
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        True, _filename(fleet.name or "fleet", "json"))
    return response


def edition_label(number: int | None) -> str:
    """The label of edition ``number``, for the text list's ``Edition:`` line ("" if none)."""
    if number is None:
        return ""
    try:
        return editions.get(number).label
    except UnknownEdition:
        return ""


def _text_response(fleet: rf.Fleet, catalog: core.Catalog) -> HttpResponse:
    """The list as plain text, with its edition (R-160); ``catalog`` is that edition's."""
    text = textlist.to_text(catalog, fleet, validate(fleet, catalog),
                            edition_label=edition_label(fleet.edition))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        True, _filename(fleet.name or "fleet", "txt"))
    return response


def _share_code(fleet: rf.Fleet) -> tuple[str, str]:
    """(code, "") or ("", why there is none)."""
    try:
        return sharecode.encode(fleet), ""
    except sharecode.ShareCodeError as exc:
        return "", exc.message


# --- the owner's share page -----------------------------------------------------------------


@require_GET
def share_page(request: HttpRequest, pk: int) -> HttpResponse:
    fleet = fleet_for_request(request, pk)
    catalog = fleet.catalog()  # its edition's
    core_fleet = fleet.to_core()
    code, no_code = _share_code(core_fleet)
    report = fleet.report(catalog)
    ctx = {
        **_link_ctx(request, fleet),
        "code": code,
        "no_code": no_code,
        "code_url": request.build_absolute_uri(reverse("fleets:code", args=[code]))
        if code else "",
        "text": textlist.to_text(catalog, core_fleet, report,
                                 edition_label=edition_label(core_fleet.edition)),
        "markdown": chatlist.to_markdown(catalog, core_fleet, report),  # issue 13 §7
        "summary": chatlist.one_line(catalog, core_fleet, report),
    }
    return render(request, "fleets/share.html", ctx)


def _link_ctx(request: HttpRequest, fleet: Fleet) -> dict[str, Any]:
    path = fleet.share_url_path()
    url = request.build_absolute_uri(path) if path else ""
    return {"fleet": fleet, "share_url": url, "qr": qr_svg(url) if url else ""}


class LinkForm(forms.Form):
    action = forms.ChoiceField(choices=[("on", "Turn on"), ("off", "Turn off"),
                                        ("new", "New link")])


@require_POST
def share_link(request: HttpRequest, pk: int) -> HttpResponse:
    """Turn the permalink on or off, or replace it with a new one (R-92)."""
    fleet = fleet_for_request(request, pk)
    form = LinkForm(request.POST)
    if not form.is_valid():
        return HttpResponse("Unknown action.", status=400, content_type="text/plain")
    action = form.cleaned_data["action"]
    if action == "on":
        fleet.share()
    elif action == "off":
        fleet.unshare()
    else:
        fleet.new_share_link()
    if getattr(request, "htmx", False):
        return render(request, "fleets/share.html#link", {**_link_ctx(request, fleet),
                                                           "changed": action})
    return redirect("fleets:share", pk=fleet.pk)


@require_GET
def export_file(request: HttpRequest, pk: int) -> HttpResponse:
    return _file_response(fleet_for_request(request, pk).to_core())


@require_GET
def export_text(request: HttpRequest, pk: int) -> HttpResponse:
    fleet = fleet_for_request(request, pk)
    return _text_response(fleet.to_core(), fleet.catalog())


# --- the public permalink --------------------------------------------------------------------


@never_cache
@require_GET
def shared_fleet(request: HttpRequest, share_id: str) -> HttpResponse:
    fleet = fleet_for_link_page(request, share_id)
    if isinstance(fleet, HttpResponse):
        return fleet
    catalog = fleet.catalog()
    mine = Fleet.objects.alive().owned_by(request.user, owner_token(request)) \
        .filter(pk=fleet.pk).exists()
    ctx = {
        **roster_context(fleet.to_core(), catalog),
        "title": fleet.name,
        "copy_url": reverse("shared:copy", args=[share_id]),
        "file_url": reverse("shared:file", args=[share_id]),
        "text_url": reverse("shared:text", args=[share_id]),
        "print_url": reverse("shared:print", args=[share_id]),
        "owned": fleet if mine else None,
        "source": "link",
        "once": once_token(),
    }
    return render(request, "fleets/shared.html", ctx)


@require_POST
def copy_shared(request: HttpRequest, share_id: str) -> HttpResponse:
    """Fork the shared fleet into a new fleet the visitor owns."""
    fleet = fleet_for_link(share_id)  # the copy keeps its edition
    return save_copy(request, fleet.to_core(), fleet.catalog(),
                     done="A copy of the shared fleet is now in your fleets.",
                     back=reverse("shared:fleet", args=[share_id]))


@never_cache
@require_GET
def shared_file(request: HttpRequest, share_id: str) -> HttpResponse:
    return _file_response(fleet_for_link(share_id).to_core())


@never_cache
@require_GET
def shared_text(request: HttpRequest, share_id: str) -> HttpResponse:
    fleet = fleet_for_link(share_id)
    return _text_response(fleet.to_core(), fleet.catalog())


# --- share codes -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@rate_limit("sharecode")
def code_view(request: HttpRequest, code: str) -> HttpResponse:
    """A share code's fleet, read-only, under its edition (R-161: a ``v1.`` code's is the
    first, with a note); POST saves a copy to the visitor's fleets, on that edition."""
    arrival = fleet_for_code(request, code)
    if isinstance(arrival, HttpResponse):
        return arrival
    fleet = arrival.fleet
    if request.method == "POST":
        return save_copy(request, fleet, arrival.catalog, back=request.path,
                         done="The fleet from the share code is now in your fleets.",
                         note=arrival.note)
    ctx = {
        **roster_context(fleet, arrival.catalog, edition_note=arrival.note),
        "title": fleet.name or "Shared fleet",
        "copy_url": request.path,
        "print_url": reverse("fleets:code_print", args=[code]),
        "once": once_token(),
        "code": code,
        "source": "code",
    }
    return render(request, "fleets/shared.html", ctx)


# --- import ----------------------------------------------------------------------------------


class ImportForm(forms.Form):
    file = forms.FileField(required=False,
                           label="Fleet file (.json, .txt or .zip) or roster (.ros, .rosz)")
    text = forms.CharField(
        required=False, strip=False,
        label="…or paste a fleet file, a share code or link, or a plain-text list",
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data.get("file")
        if upload and upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                f"The file is {_size(upload.size)}; the limit is {_size(MAX_IMPORT_BYTES)}. "
                "A fleet file is a few KB.")
        return upload

    def clean_text(self) -> str:
        text = self.cleaned_data.get("text", "")
        if len(text) > MAX_PASTE_CHARS:
            raise forms.ValidationError(
                f"The pasted text is {len(text):,} characters long; the limit is "
                f"{MAX_PASTE_CHARS:,}.")
        return text

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.errors and not data.get("file") and not data.get("text", "").strip():
            raise forms.ValidationError("Choose a fleet file or paste something to import.")
        if data.get("file") and data.get("text", "").strip():
            raise forms.ValidationError("Import a file or pasted text, not both at once.")
        return data

    def upload(self) -> bytes | None:
        """The uploaded file's bytes, if a file was uploaded."""
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        upload.seek(0)
        return upload.read()

    def source(self) -> str:
        """The text given, uploaded or pasted; ImportProblem when a file is not UTF-8 text."""
        data = self.upload()
        if data is not None:
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                raise ImportProblem("The file is not a fleet file (it is not UTF-8 text).") \
                    from None
        return self.cleaned_data["text"]


def _size(n: int) -> str:
    """A size both readable and exact, so a cap message never shows two equal numbers:
    "256 KB (262,144 bytes)", and one byte more "256.0 KB (262,145 bytes)"."""
    unit, scale = ("MB", 1024 * 1024) if n >= 1024 * 1024 else ("KB", 1024)
    amount = f"{n // scale}" if n % scale == 0 else f"{n / scale:.1f}"
    return f"{amount} {unit} ({n:,} bytes)"


def _too_big(request: HttpRequest) -> bool:
    """A POST body over the site's form-data limit, told from its length without reading it."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return limit is not None and length > limit


@csrf_exempt  # the size comes first, so it gets a clear page; CSRF is then checked as usual
@require_http_methods(["GET", "POST"])
@rate_limit("import", methods=("POST",))
def import_fleet(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and _too_big(request):
        ctx = {"form": ImportForm(), "too_big": _size(int(request.META["CONTENT_LENGTH"])),
               "file_limit": _size(MAX_IMPORT_BYTES)}
        return render(request, "fleets/import.html", ctx, status=413)
    return _import(request)


@csrf_protect
def _import(request: HttpRequest) -> HttpResponse:
    """Check what was given and show it; ``save`` (the normalised file) stores it, atomically.

    The preview names the edition the list is read under (R-160), and R-161's note when it
    named none; the normalised file it sends back names that edition, so it is saved on it."""
    post = request.POST if request.method == "POST" else None
    files = request.FILES if request.method == "POST" else None
    if post is not None and "save_all" in post:
        return _save_bundle(request)
    if post is not None and "save" in post:
        try:
            arrival = arrive(rf.load_fleet_json(post.get("save", "")))
        except rf.FleetFormatError as exc:
            messages.error(request, f"Nothing was saved: {exc}")
            return redirect("fleets:import")
        except UnknownEdition as exc:
            messages.error(request, f"Nothing was saved: {exc.message}")
            return redirect("fleets:import")
        note = editions.resolve(None)[1] if post.get("unnamed_edition") == "1" else ""
        return save_copy(request, arrival.fleet, arrival.catalog, back=reverse("fleets:import"),
                         done=f"Imported “{arrival.fleet.name or 'the fleet'}”.", note=note)
    form = ImportForm(post, files)
    ctx: dict[str, Any] = {"form": form}
    status = 200
    if post is not None:
        if form.is_valid():
            upload = form.upload()
            raw = upload if upload is not None else form.cleaned_data["text"].encode()
            try:
                if rosters.looks_like_roster(raw):
                    ctx.update(_roster_ctx(raw))
                elif upload is not None and upload.startswith(library.ZIP_MAGIC):
                    ctx.update(_bundle_ctx(upload))
                else:
                    arrival, kind = read_fleet(form.source())
                    fleet = arrival.fleet
                    ctx.update(roster_context(fleet, arrival.catalog, edition_note=arrival.note))
                    ctx.update({"kind": kind, "preview": True, "title": fleet.name or "",
                                "once": once_token(), "unnamed_edition": arrival.named_none,
                                "normalised": rf.dump_fleet_json(fleet, indent=None)})
            except (ImportProblem, library.BundleProblem) as exc:
                ctx["error"] = str(exc)
                ctx["error_line"] = getattr(exc, "line", None) if upload is None else None
                status = 400
        else:
            status = 400
    return render(request, "fleets/import.html", ctx, status=status)


def _roster_ctx(data: bytes) -> dict[str, Any]:
    """A BattleScribe or New Recruit roster, shown as the fleet it makes beside the import
    report (R-190); saved, like any import, only when the player says so (R-93)."""
    try:
        made = rosters.roster_fleet(data)
        check_points_bound(made.validation)
    except rosters.RosterError as exc:
        raise ImportProblem(str(exc)) from None
    except rf.FleetFormatError as exc:
        raise ImportProblem(f"The roster makes a fleet this app cannot take: {exc}") from None
    fleet = made.fleet
    ctx = roster_context(fleet, editions.catalog_for(fleet.edition))
    ctx.update({"kind": f"{ROSTER_KINDS[made.report.form]}", "preview": True,
                "title": fleet.name or "", "once": once_token(), "unnamed_edition": False,
                "normalised": rf.dump_fleet_json(fleet, indent=None),
                "roster_report": made.report})
    return ctx


ROSTER_KINDS = {"ros": "BattleScribe roster (.ros)", "rosz": "BattleScribe roster (.rosz)",
                "json": "New Recruit roster (JSON)"}


# --- a zip of fleet files (Saved Fleets' "Download all") ------------------------------------

MAX_BUNDLE_SAVE_BYTES = 400 * 1024  # the checked fleets travel back in the form to be saved


def _bundle_ctx(data: bytes) -> dict[str, Any]:
    """Every fleet of a zip, read and checked, each under its edition (R-161 for one naming
    none); ImportProblem names the first file at fault (an unknown edition too)."""
    arrivals: list[Arrival] = []
    fleets = []
    size = 0
    for filename, text in library.bundle_members(data):
        try:
            arrivals.append(read_fleet(text)[0])
        except ImportProblem as exc:
            raise ImportProblem(f"{filename}: {exc}") from None
        fleets.append(arrivals[-1].fleet)
        # Stop at the first fleet past what can be saved at once, not after reading them all.
        size += len(json.dumps(rf.fleet_to_dict(fleets[-1]), ensure_ascii=False,
                               separators=(",", ":")).encode()) + 1
        if size > MAX_BUNDLE_SAVE_BYTES:
            raise ImportProblem(f"These fleets are too much to save at once (the first "
                                f"{len(fleets)} already are); import them in smaller .zip "
                                "files.")
    rows = []
    for arrival in arrivals:
        fleet, catalog = arrival.fleet, arrival.catalog
        report = validate(fleet, catalog)
        faction = catalog.faction(fleet.faction)
        rows.append({"name": fleet.name or DEFAULT_NAME, "known": faction is not None,
                     "faction": faction.name if faction else fleet.faction,
                     "size": fleet.game_size.label, "points": report.points,
                     "legal": report.legal, "edition": fleet.edition,
                     "unnamed_edition": arrival.named_none})
    everything = json.dumps([rf.fleet_to_dict(f) for f in fleets], ensure_ascii=False,
                            separators=(",", ":"))
    if len(everything.encode()) > MAX_BUNDLE_SAVE_BYTES:
        raise ImportProblem(f"These {len(fleets)} fleets are too much to save at once; import "
                            "them in smaller .zip files.")
    unnamed = [a for a in arrivals if a.named_none]
    note = unnamed[0].note if len(arrivals) == 1 and unnamed else ""
    if len(arrivals) > 1 and unnamed and unnamed[0].edition is not None:
        note = (f"{len(unnamed)} of these {len(arrivals)} fleets name no edition, so they are "
                f"read under the first, {unnamed[0].edition.title} (R-160); each can be "
                "updated to a newer edition in the builder.")
    return {"bundle": rows, "bundle_all": everything, "once": once_token(),
            "all_known": all(row["known"] for row in rows), "edition_note": note}


def _save_bundle(request: HttpRequest) -> HttpResponse:
    """Save every fleet of a checked zip in one transaction: all of them, or none. Each names
    the edition it was read under (the checked files name it), and is saved on it."""
    try:
        docs = json.loads(request.POST.get("save_all", ""))
        if not isinstance(docs, list) or not 0 < len(docs) <= library.MAX_BUNDLE_FLEETS:
            raise ValueError("not a list of fleets")
        arrivals = [arrive(rf.parse_fleet(doc)) for doc in docs]
        for arrival in arrivals:
            check_points_bound(validate(arrival.fleet, arrival.catalog))
    except UnknownEdition as exc:
        messages.error(request, f"Nothing was saved: {exc.message}")
        return redirect("fleets:import")
    except (ValueError, TypeError, RecursionError):  # FleetFormatError is a ValueError
        messages.error(request, "Nothing was saved: what came back is not a list of fleet "
                                "files. Import the .zip again.")
        return redirect("fleets:import")
    unknown = sorted({a.fleet.faction for a in arrivals
                      if a.catalog.faction(a.fleet.faction) is None})
    if unknown:
        messages.error(request, "Nothing was saved: this catalogue has no faction "
                                f"{', '.join(map(repr, unknown))}.")
        return redirect("fleets:import")
    key = once_key(request)
    try:
        first = not key or cache.add(key, 0, ONCE_SECONDS)
    except RedisError:  # the token cannot be checked: save nothing rather than twice
        messages.error(request, ONCE_UNCHECKED)
        return redirect("fleets:import")
    if not first:
        messages.info(request, "That was sent twice; the fleets are saved once.")
        return redirect("fleets:list")
    owner = owner_kwargs(request)
    try:
        with transaction.atomic():
            for arrival in arrivals:
                Fleet.from_core(arrival.fleet, arrival.catalog, **owner)
    except BaseException:
        forget_once(key)
        raise
    count = len(arrivals)
    messages.success(request, f"Imported {count} fleet{'s' if count != 1 else ''}.")
    return redirect("fleets:list")
