"""The import page, ``/fleets/import/``: a fleet file, a share code (or its URL), a permalink,
a plain-text list (``importing.read_fleet``), a BattleScribe or New Recruit roster (R-190) or a
zip of fleet files (Saved Fleets' "Download all"); checked and shown first, saved in one
transaction only when asked (R-93), and once however often the form is sent (``once``).

Every list is read under its edition (R-160): under the one it names, the first if it names
none, with R-161's note shown (``incoming.arrive``). One naming an edition this server does not
know is refused, naming the known ones, and nothing is saved (a 400).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods
from redis.exceptions import RedisError

from fleetbuilder.catalog import editions
from fleetbuilder.ratelimit import rate_limit
from rules_core import fleet as rf
from rules_core.validator import check_points_bound, validate

from . import library, rosters
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

MAX_IMPORT_BYTES = 256 * 1024  # an uploaded file; a 100-unit fleet file is far below it
MAX_PASTE_CHARS = 256 * 1024


# --- import ----------------------------------------------------------------------------------


class ImportForm(forms.Form):
    file = forms.FileField(
        required=False, label="Fleet file (.json, .txt or .zip) or roster (.ros, .rosz)"
    )
    text = forms.CharField(
        required=False,
        strip=False,
        label="…or paste a fleet file, a share code or link, or a plain-text list",
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data.get("file")
        if upload and upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                f"The file is {_size(upload.size)}; the limit is {_size(MAX_IMPORT_BYTES)}. "
                "A fleet file is a few KB."
            )
        return upload

    def clean_text(self) -> str:
        text = self.cleaned_data.get("text", "")
        if len(text) > MAX_PASTE_CHARS:
            raise forms.ValidationError(
                f"The pasted text is {len(text):,} characters long; the limit is "
                f"{MAX_PASTE_CHARS:,}."
            )
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
                raise ImportProblem(
                    "The file is not a fleet file (it is not UTF-8 text)."
                ) from None
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
        ctx = {
            "form": ImportForm(),
            "too_big": _size(int(request.META["CONTENT_LENGTH"])),
            "file_limit": _size(MAX_IMPORT_BYTES),
        }
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
        return save_copy(
            request,
            arrival.fleet,
            arrival.catalog,
            back=reverse("fleets:import"),
            done=f"Imported “{arrival.fleet.name or 'the fleet'}”.",
            note=note,
        )
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
                    ctx.update(
                        {
                            "kind": kind,
                            "preview": True,
                            "title": fleet.name or "",
                            "once": once_token(),
                            "unnamed_edition": arrival.named_none,
                            "normalised": rf.dump_fleet_json(fleet, indent=None),
                        }
                    )
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
    ctx.update(
        {
            "kind": f"{ROSTER_KINDS[made.report.form]}",
            "preview": True,
            "title": fleet.name or "",
            "once": once_token(),
            "unnamed_edition": False,
            "normalised": rf.dump_fleet_json(fleet, indent=None),
            "roster_report": made.report,
        }
    )
    return ctx


ROSTER_KINDS = {
    "ros": "BattleScribe roster (.ros)",
    "rosz": "BattleScribe roster (.rosz)",
    "json": "New Recruit roster (JSON)",
}


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
        size += (
            len(
                json.dumps(
                    rf.fleet_to_dict(fleets[-1]), ensure_ascii=False, separators=(",", ":")
                ).encode()
            )
            + 1
        )
        if size > MAX_BUNDLE_SAVE_BYTES:
            raise ImportProblem(
                f"These fleets are too much to save at once (the first "
                f"{len(fleets)} already are); import them in smaller .zip "
                "files."
            )
    rows = []
    for arrival in arrivals:
        fleet, catalog = arrival.fleet, arrival.catalog
        report = validate(fleet, catalog)
        faction = catalog.faction(fleet.faction)
        rows.append(
            {
                "name": fleet.name or DEFAULT_NAME,
                "known": faction is not None,
                "faction": faction.name if faction else fleet.faction,
                "size": fleet.game_size.label,
                "points": report.points,
                "legal": report.legal,
                "edition": fleet.edition,
                "unnamed_edition": arrival.named_none,
            }
        )
    everything = json.dumps(
        [rf.fleet_to_dict(f) for f in fleets], ensure_ascii=False, separators=(",", ":")
    )
    if len(everything.encode()) > MAX_BUNDLE_SAVE_BYTES:
        raise ImportProblem(
            f"These {len(fleets)} fleets are too much to save at once; import "
            "them in smaller .zip files."
        )
    unnamed = [a for a in arrivals if a.named_none]
    note = unnamed[0].note if len(arrivals) == 1 and unnamed else ""
    if len(arrivals) > 1 and unnamed and unnamed[0].edition is not None:
        note = (
            f"{len(unnamed)} of these {len(arrivals)} fleets name no edition, so they are "
            f"read under the first, {unnamed[0].edition.title} (R-160); each can be "
            "updated to a newer edition in the builder."
        )
    return {
        "bundle": rows,
        "bundle_all": everything,
        "once": once_token(),
        "all_known": all(row["known"] for row in rows),
        "edition_note": note,
    }


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
        messages.error(
            request,
            "Nothing was saved: what came back is not a list of fleet "
            "files. Import the .zip again.",
        )
        return redirect("fleets:import")
    unknown = sorted(
        {a.fleet.faction for a in arrivals if a.catalog.faction(a.fleet.faction) is None}
    )
    if unknown:
        messages.error(
            request,
            f"Nothing was saved: this catalogue has no faction {', '.join(map(repr, unknown))}.",
        )
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
