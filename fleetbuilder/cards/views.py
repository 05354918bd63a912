"""Printable ship cards for a fleet: an options page and the PDF (rendered by rules_core.cards).

``pdf_response`` is public: the shared-fleet pages call it for a fleet anyone may see.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from fleetbuilder.catalog import loader
from fleetbuilder.fleets.views import _get_fleet_for_request
from fleetbuilder.ratelimit import rate_limit
from rules_core.cards import LAYOUTS, render_cards
from rules_core.fleet import FleetFormatError, parse_fleet
from rules_core.limits import MAX_CARDS_PER_PDF
from rules_core.validator import check_points_bound, validate

LAYOUT_CHOICES = (
    ("poker", "Poker cards", "One 63 × 88 mm card a page, for a card printer or a print shop."),
    ("a4", "A4 sheets", "Nine cards a sheet with cut marks."),
    ("letter", "US Letter sheets", "Nine cards a sheet with cut marks."),
)
TRUE_VALUES = ("1", "on", "true", "yes")
FALSE_VALUES = ("", "0", "off", "false", "no")


def too_many_cards(count: int) -> str:
    return (f"This fleet has {count} cards (one per capital ship and per squadron); one PDF "
            f"holds at most {MAX_CARDS_PER_PDF}, so that it is ready in a few seconds (R-95). "
            "Print a smaller fleet, or split this one into two fleets.")


def card_filename(name: str) -> str:
    return f"{slugify(name, allow_unicode=True)[:60] or 'fleet'}-cards.pdf"


def pdf_response(document: dict[str, Any], *, filename: str, layout: str, ink_saver: bool,
                 share_url: str | None) -> HttpResponse:
    """The ship cards of a contract-1 fleet document as a PDF download.

    An unknown layout or a document that is not a fleet file is a 400 with the reason.
    """
    if layout not in LAYOUTS:
        return HttpResponseBadRequest(
            f"Unknown layout {layout!r}: choose {', '.join(LAYOUTS)}.", content_type="text/plain")
    catalog = loader.core_catalog()
    try:
        fleet = parse_fleet(document)
        report = validate(fleet, catalog)
        check_points_bound(report)
    except FleetFormatError as exc:
        return HttpResponseBadRequest(f"Not a usable fleet: {exc}", content_type="text/plain")
    if len(fleet.units) > MAX_CARDS_PER_PDF:  # what one request may render
        return HttpResponseBadRequest(too_many_cards(len(fleet.units)),
                                      content_type="text/plain")
    pdf = render_cards(catalog, fleet, layout=layout, ink_saver=ink_saver,
                       share_url=share_url, report=report)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    response["Cache-Control"] = "private, no-store"
    return response


def _share_url(request: HttpRequest, fleet: Any) -> str | None:
    path = getattr(fleet, "share_url_path", lambda: None)()
    return request.build_absolute_uri(path) if path else None


def pdf_for_query(request: HttpRequest, document: dict[str, Any], *, name: str,
                  share_url: str | None) -> HttpResponse:
    """The PDF for the options form's query (``layout``, ``ink``); a bad value is a 400."""
    ink = request.GET.get("ink", "").lower()
    if ink not in TRUE_VALUES + FALSE_VALUES:
        return HttpResponseBadRequest(f"ink must be 1 or 0, not {ink[:20]!r}.",
                                      content_type="text/plain")
    return pdf_response(document, filename=card_filename(name),
                        layout=request.GET.get("layout", "poker"),
                        ink_saver=ink in TRUE_VALUES, share_url=share_url)


@require_GET
@rate_limit("cards")
def fleet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """``/cards/fleet/<pk>/?layout=poker|a4|letter&ink=1``: the cards of a fleet you own."""
    fleet = _get_fleet_for_request(request, pk)
    return pdf_for_query(request, fleet.document, name=fleet.name,
                         share_url=_share_url(request, fleet))


def options_page(request: HttpRequest, *, name: str, points: int, legal: bool,
                 card_count: int, pdf_url: str, crumbs: list[tuple[str, str]], back_url: str,
                 back_label: str, qr_note: str) -> HttpResponse:
    """The print options (layout, ink saver) of any fleet the visitor may see, as a GET form.

    ``crumbs`` lead to the fleet's page ((label, url) pairs), ``back_url`` is that page, and
    ``qr_note`` says what the roster's QR code holds (or how to get one).
    """
    ctx = {
        "name": name,
        "points": points,
        "legal": legal,
        "card_count": card_count,
        "layouts": LAYOUT_CHOICES,
        "pdf_url": pdf_url,
        "crumbs": crumbs,
        "back_url": back_url,
        "back_label": back_label,
        "qr_note": qr_note,
        "too_many": too_many_cards(card_count) if card_count > MAX_CARDS_PER_PDF else "",
    }
    return render(request, "cards/options.html", ctx)


@require_GET
def print_options(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose a layout and ink saving, then download the PDF (a plain GET form)."""
    fleet = _get_fleet_for_request(request, pk)
    shared = bool(_share_url(request, fleet))
    return options_page(
        request, name=fleet.name, points=fleet.points, legal=fleet.legal,
        card_count=fleet.unit_count, pdf_url=reverse("cards:fleet_pdf", args=[fleet.pk]),
        crumbs=[("Saved Fleets", reverse("fleets:list")),
                (fleet.name, fleet.get_absolute_url())],
        back_url=fleet.get_absolute_url(), back_label="Back to the builder",
        qr_note="The roster carries a QR code of the fleet's share link." if shared else
        "Share the fleet to get a QR code of its link on the roster.",
    )
