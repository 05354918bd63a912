"""Sharing a fleet: the owner's share page, the public permalink, share codes and export.

- ``/fleets/<pk>/share/`` (owner only): the permalink with its QR code and on/off switch, the
  share code, the fleet file and the plain text.
- ``/s/<share_id>/`` (anyone, while the owner shares it): the list read-only, "Copy to my
  fleets". An unknown, rotated, turned-off or trashed link is the same 404 (R-92).
- ``/fleets/code/<code>/`` (anyone): a share code's fleet, read-only, from no database (R-90).

Who may see a shared fleet or a share code's is ``access``'s to say; their print pages are the
cards app's (``fleetbuilder/cards/views.py``). The import page, which reads all of them back,
is ``import_page``.

Every list is shown, priced, printed and saved under its edition (R-160): a saved one under its
own (``Fleet.catalog()``); a share code's under the edition it names, the first if it names
none, with R-161's note shown (``incoming.arrive``). A code naming an edition this server does
not know is a 404, naming the known ones, as any code that cannot be opened.
"""

from __future__ import annotations

import re
from typing import Any

import segno
from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from fleetbuilder.catalog import editions
from fleetbuilder.ownership import owner_token
from fleetbuilder.ratelimit import rate_limit
from rules_core import catalog as core
from rules_core import chatlist, sharecode, textlist
from rules_core import fleet as rf
from rules_core.validator import validate

from .access import fleet_for_code, fleet_for_link, fleet_for_link_page, fleet_for_request
from .incoming import UnknownEdition
from .models import Fleet
from .once import once_token, save_copy
from .roster import roster_context

_SAFE_SVG = re.compile(r"^<svg [^<>]*>(?:<g [^<>]*>)?(?:<path [^<>]*/>)+(?:</g>)?</svg>$")


# --- helpers --------------------------------------------------------------------------------


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG; segno writes only paths, and we check that."""
    svg = segno.make(url, error="m").svg_inline(
        scale=4,
        border=2,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr__code",
        lineclass=None,
    )
    if not _SAFE_SVG.match(svg):
        raise ValueError("unexpected QR code markup")
    return mark_safe(svg)


def _filename(name: str, ext: str) -> str:
    return f"{slugify(name, allow_unicode=True)[:60] or 'fleet'}.{ext}"


def _file_response(fleet: rf.Fleet) -> HttpResponse:
    response = HttpResponse(
        rf.dump_fleet_json(fleet) + "\n", content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(
        True, _filename(fleet.name or "fleet", "json")
    )
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
    text = textlist.to_text(
        catalog, fleet, validate(fleet, catalog), edition_label=edition_label(fleet.edition)
    )
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        True, _filename(fleet.name or "fleet", "txt")
    )
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
        "code_url": request.build_absolute_uri(reverse("fleets:code", args=[code])) if code else "",
        "text": textlist.to_text(
            catalog, core_fleet, report, edition_label=edition_label(core_fleet.edition)
        ),
        "markdown": chatlist.to_markdown(catalog, core_fleet, report),
        "summary": chatlist.one_line(catalog, core_fleet, report),
    }
    return render(request, "fleets/share.html", ctx)


def _link_ctx(request: HttpRequest, fleet: Fleet) -> dict[str, Any]:
    path = fleet.share_url_path()
    url = request.build_absolute_uri(path) if path else ""
    return {"fleet": fleet, "share_url": url, "qr": qr_svg(url) if url else ""}


class LinkForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("on", "Turn on"), ("off", "Turn off"), ("new", "New link")]
    )


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
        return render(
            request, "fleets/share.html#link", {**_link_ctx(request, fleet), "changed": action}
        )
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
    mine = (
        Fleet.objects.alive()
        .owned_by(request.user, owner_token(request))
        .filter(pk=fleet.pk)
        .exists()
    )
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
    return save_copy(
        request,
        fleet.to_core(),
        fleet.catalog(),
        done="A copy of the shared fleet is now in your fleets.",
        back=reverse("shared:fleet", args=[share_id]),
    )


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
        return save_copy(
            request,
            fleet,
            arrival.catalog,
            back=request.path,
            done="The fleet from the share code is now in your fleets.",
            note=arrival.note,
        )
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
