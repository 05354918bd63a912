"""Printing a fleet's ship cards: the PDF (or a page's preview) of a contract-1 document, its
print options page, and the answers around them.

``pdf_response`` and ``pdf_for_query`` serve any fleet the visitor may see: a saved one, a shared
one, a share code's (the views in ``views.py`` find the fleet and say who may see it). A PDF is
answered from the shared cache when it was made before (``fleetbuilder.pdfcache``: keyed on the
fleet, the options, the catalogue version and the cards' build, with a strong ETag, so a
conditional request gets 304 without rendering). A print of up to ``SYNC_MAX_CARDS`` cards
renders in the request, inside the per-request bound; a bigger one is a ``PrintJob`` rendered on
the task queue, and the request is sent to its page.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotModified,
)
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from fleetbuilder import pdfcache
from fleetbuilder.catalog import editions
from fleetbuilder.ownership import session_owner_token
from fleetbuilder.renderjobs import RenderRefused
from rules_core.cards import LAYOUTS, render_cards
from rules_core.editions import UnknownEdition
from rules_core.fleet import FleetFormatError, parse_fleet
from rules_core.limits import MAX_CARDS_PER_PDF
from rules_core.validator import check_points_bound, validate

from .models import PrintJob
from .paper import default_paper
from .preview import PreviewError, page_picture

LAYOUT_CHOICES = (
    ("poker", "Poker cards", "One 63 × 88 mm card a page, for a card printer or a print shop."),
    ("a4", "A4 sheets", "Nine cards a sheet with cut marks."),
    ("letter", "US Letter sheets", "Nine cards a sheet with cut marks."),
)
# What a fleet is built for: advanced movement prints each ship's thrust and SOT.
MOVEMENT_CHOICES = (
    ("standard", "Standard movement", "The rules' own movement (§5)."),
    (
        "advanced",
        "Advanced movement",
        "Thrust and momentum: each ship's thrust rating and safe operating thrust "
        "(SOT) on its card.",
    ),
)
MOVEMENTS = tuple(value for value, _, _ in MOVEMENT_CHOICES)
TRUE_VALUES = ("1", "on", "true", "yes")
FALSE_VALUES = ("", "0", "off", "false", "no")
# A print of more cards than this renders on the task queue. Never more than R-95's
# bound on what one request may render; the workers take any fleet the fleet bounds allow.
SYNC_MAX_CARDS = min(30, MAX_CARDS_PER_PDF)
MAX_PREVIEW_PAGE = SYNC_MAX_CARDS + 2  # a previewed print's pages: its roster and its cards
CACHE_CONTROL = "private, no-cache"  # the browser may keep it, and asks again with its ETag


def big_print_note(count: int) -> str:
    return (
        f"This fleet has {count} cards (one per capital ship and per squadron): a print of "
        f"more than {SYNC_MAX_CARDS} is made by the print workers. Download PDF takes you "
        "to a page that follows it and gives the PDF when it is ready."
    )


def card_filename(name: str) -> str:
    return f"{slugify(name, allow_unicode=True)[:60] or 'fleet'}-cards.pdf"


def pdf_download(pdf: bytes, *, filename: str, key: str) -> HttpResponse:
    """``pdf`` as a download named ``filename``; the browser keeps it and asks again with its
    ETag (``key``'s)."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    response["Cache-Control"] = CACHE_CONTROL
    response["ETag"] = pdfcache.etag(key)
    return response


def if_none_match(request: HttpRequest | None, key: str) -> HttpResponse | None:
    """A 304 when the request's If-None-Match names ``key``'s ETag (the browser has that PDF
    already), else None."""
    if request is None:
        return None
    tags = [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]
    if pdfcache.etag(key) not in tags and "*" not in tags:
        return None
    response = HttpResponseNotModified()
    response["ETag"] = pdfcache.etag(key)
    response["Cache-Control"] = CACHE_CONTROL
    return response


def pdf_response(
    document: dict[str, Any],
    *,
    filename: str,
    layout: str,
    ink_saver: bool,
    share_url: str | None,
    request: HttpRequest | None = None,
    name: str = "",
    advanced_movement: bool = False,
    preview: bool = False,
    page: int = 1,
) -> HttpResponse:
    """The ship cards of a contract-1 fleet document as a PDF download, computed with the
    catalogue of the edition the document names (the loaded one if it names none: a saved
    list of a development state; callers resolve R-161 for lists from outside).

    From the shared cache when it was made before (304 to a matching If-None-Match, before
    anything is read or rendered); else rendered here, or, past ``SYNC_MAX_CARDS`` cards and
    with a ``request`` to own it, queued as a ``PrintJob`` (a redirect to its page). An unknown
    layout or a document that is not a fleet file is a 400 with the reason.
    ``advanced_movement`` prints each ship's thrust rating and SOT (R-141). ``preview``
    answers a PNG of page ``page`` instead (the print page's preview, a whole page to read),
    cached beside the PDF; a big print, or a page past the last, has none (404).
    """
    if layout not in LAYOUTS:
        return HttpResponseBadRequest(
            f"Unknown layout {layout!r}: choose {', '.join(LAYOUTS)}.", content_type="text/plain"
        )
    key = pdfcache.pdf_key(
        document, pdfcache.PrintOptions(layout, ink_saver, share_url, advanced_movement)
    )
    pdf_key = key
    if preview:  # its own key, so its own ETag
        key = pdfcache.PREFIX + hashlib.sha256(f"{pdf_key}:preview:{page}".encode()).hexdigest()
    if (not_modified := if_none_match(request, key)) is not None:
        return not_modified
    if (cached := pdfcache.get(key)) is not None:
        if preview:
            return _preview(cached, key)
        return pdf_download(cached, filename=filename, key=key)
    try:
        fleet = parse_fleet(document)
        catalog = editions.catalog_for(fleet.edition)  # the cards are its edition's
        report = validate(fleet, catalog)
        check_points_bound(report)
    except FleetFormatError as exc:
        return HttpResponseBadRequest(f"Not a usable fleet: {exc}", content_type="text/plain")
    except UnknownEdition as exc:  # only a document from outside can name one
        return HttpResponseBadRequest(exc.message, content_type="text/plain")
    if len(fleet.units) > SYNC_MAX_CARDS:  # too many for one request
        if preview:
            raise Http404("A print this big has no preview.")
        if request is None:
            return HttpResponseBadRequest(
                big_print_note(len(fleet.units)), content_type="text/plain"
            )
        try:
            job = PrintJob.start(
                document=document,
                name=name or fleet.name or "Fleet",
                filename=filename,
                layout=layout,
                ink_saver=ink_saver,
                share_url=share_url,
                cards=len(fleet.units),
                cache_key=key,
                owner=request.user,
                advanced_movement=advanced_movement,
                owner_token=session_owner_token(request.session, create=True) or "",
            )
        except RenderRefused as exc:
            return busy(request, exc)
        return redirect(job)
    if preview:
        pdf = pdfcache.get(pdf_key) or render_cards(
            catalog,
            fleet,
            layout=layout,
            ink_saver=ink_saver,
            share_url=share_url,
            report=report,
            advanced_movement=advanced_movement,
        )
        pdfcache.put(pdf_key, pdf)  # the Download that follows is answered from the cache
        try:
            png = page_picture(pdf, page)
        except PreviewError:
            raise Http404("No preview of that page can be drawn.") from None
        pdfcache.put(key, png)
        return _preview(png, key)
    pdf = render_cards(
        catalog,
        fleet,
        layout=layout,
        ink_saver=ink_saver,
        share_url=share_url,
        report=report,
        advanced_movement=advanced_movement,
    )
    pdfcache.put(key, pdf)
    return pdf_download(pdf, filename=filename, key=key)


def busy(request: HttpRequest, exc: RenderRefused, *, back: str = "") -> HttpResponse:
    """The answer to a big print or a battle pack the print queue's bounds refuse (R-155):
    why, and a way back."""
    response = render(
        request, "cards/busy.html", {"message": str(exc), "back": back}, status=exc.status
    )
    response["Cache-Control"] = "private, no-store"
    return response


def _preview(png: bytes, key: str) -> HttpResponse:
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = CACHE_CONTROL
    response["ETag"] = pdfcache.etag(key)
    return response


def pdf_for_query(
    request: HttpRequest, document: dict[str, Any], *, name: str, share_url: str | None
) -> HttpResponse:
    """The PDF for the options form's query (``layout``, ``ink``, ``movement``); a bad value
    is a 400."""
    ink = request.GET.get("ink", "").lower()
    if ink not in TRUE_VALUES + FALSE_VALUES:
        return HttpResponseBadRequest(
            f"ink must be 1 or 0, not {ink[:20]!r}.", content_type="text/plain"
        )
    movement = request.GET.get("movement", "") or "standard"
    if movement not in MOVEMENTS:
        return HttpResponseBadRequest(
            f"movement must be {' or '.join(MOVEMENTS)}, not {movement[:20]!r}.",
            content_type="text/plain",
        )
    preview = request.GET.get("preview", "").lower()
    if preview not in TRUE_VALUES + FALSE_VALUES:
        return HttpResponseBadRequest(
            f"preview must be 1 or 0, not {preview[:20]!r}.", content_type="text/plain"
        )
    page = request.GET.get("page", "") or "1"
    if not (page.isascii() and page.isdigit() and 1 <= int(page) <= MAX_PREVIEW_PAGE):
        return HttpResponseBadRequest(
            f"page must be 1 to {MAX_PREVIEW_PAGE}, not {page[:20]!r}.", content_type="text/plain"
        )
    return pdf_response(
        document,
        filename=card_filename(name),
        layout=request.GET.get("layout", "poker"),
        ink_saver=ink in TRUE_VALUES,
        share_url=share_url,
        request=request,
        name=name,
        advanced_movement=movement == "advanced",
        preview=preview in TRUE_VALUES,
        page=int(page),
    )


def options_page(
    request: HttpRequest,
    *,
    name: str,
    points: int,
    legal: bool,
    card_count: int,
    pdf_url: str,
    crumbs: list[tuple[str, str]],
    back_url: str,
    back_label: str,
    qr_note: str,
) -> HttpResponse:
    """The print options (layout, ink saver, movement) of any fleet the visitor may see, as a
    GET form.

    ``crumbs`` lead to the fleet's page ((label, url) pairs), ``back_url`` is that page, and
    ``qr_note`` says what the roster's QR code holds (or how to get one).
    """
    ctx = {
        "name": name,
        "points": points,
        "legal": legal,
        "card_count": card_count,
        "layouts": LAYOUT_CHOICES,
        # A4 or Letter sheets from the browser's languages
        "paper": default_paper(request.headers.get("Accept-Language", "")),
        "movements": MOVEMENT_CHOICES,
        "pdf_url": pdf_url,
        "crumbs": crumbs,
        "back_url": back_url,
        "back_label": back_label,
        "qr_note": qr_note,
        "big_print": big_print_note(card_count) if card_count > SYNC_MAX_CARDS else "",
        "preview": card_count <= SYNC_MAX_CARDS,  # a big print renders on the workers
        # the print's pages for each layout: the roster, then a card a page or nine a sheet
        # (a very long roster may take one more poker card: the preview's Next finds it)
        "page_counts": {
            "poker": 1 + card_count,
            "a4": 1 + -(-card_count // 9),
            "letter": 1 + -(-card_count // 9),
        },
    }
    response = render(request, "cards/options.html", ctx)
    patch_vary_headers(response, ("Accept-Language",))
    return response
