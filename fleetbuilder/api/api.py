"""The HTTP API, version 1 (architecture.md, contract 4): ``/api/v1/``.

Every endpoint calls what the pages and the command line call: ``export_catalog`` for the
catalogue, the fleet-file reader and ``validate`` for a posted file (so the same errors, and
R-94's text rules and R-95's bounds), ``rules_core.sharecode`` for share codes, ``Fleet``'s
methods for saved fleets (``owned_by`` for access, the row lock and ``check_version`` for an
update, ``trash`` for a delete), and ``check_playable`` and ``Matchup.start`` for a run (its
per-player and queue limits). The expensive calls count against the same rate limits as the
pages (``fleetbuilder.ratelimit``, R-96), for the same player.

Who may do what:
- public (no token needed; a token sent must be valid): the catalogue, validating a file,
  share codes, reading a run by its unguessable id (as its results page);
- a personal token (``Authorization: Bearer vc_…``): your own fleets, starting runs, listing
  your runs, cancelling your run. Another player's fleet is 404, exactly as a missing one.

Errors are JSON: ``{"detail": "…"}``; a body that is not a usable fleet file is a 400 whose body
is contract 2's report with one ``format.invalid`` problem and the JSON path at fault; other
bad input is a 400 with ``errors: [{"path", "message"}]``.

Editions (R-160, R-161): a fleet file or share code is computed under the edition it names, and
the report says which (``"edition": n``); one naming none is computed under the first edition,
and the report carries R-161's note as ``"edition_note"`` (null otherwise); a saved fleet is
stored on that edition. One naming an edition this server does not know is a 422,
``{"detail", "edition", "known_editions": [1, 2, …]}``, and nothing is stored.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.http import parse_etags
from ninja import NinjaAPI, Status
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError

from fleetbuilder import ratelimit
from fleetbuilder.catalog import editions, loader, pagecache
from fleetbuilder.catalog.export import export_catalog
from fleetbuilder.fleets.incoming import Arrival, arrive
from fleetbuilder.fleets.models import Fleet, FleetChanged
from fleetbuilder.simulator.models import Matchup, RunRefused, random_seed
from fleetbuilder.simulator.views import check_playable
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core import sharecode
from rules_core import text as rt
from rules_core.editions import UnknownEdition
from rules_core.sim import SimError, SimOptions
from rules_core.validator import ValidationReport, check_points_bound, validate

from . import docs as api_docs
from . import schemas as s
from .auth import optional_token, token_auth
from .runs import ApiMatchupForm, form_data, form_paths, side_file

log = logging.getLogger("fleetbuilder.api")

MAX_BODY_BYTES = 256 * 1024  # as an imported fleet file (fleets/import_page.py MAX_IMPORT_BYTES)
CATALOG_TTL = 7 * 24 * 60 * 60

api = NinjaAPI(
    title="Void Command Fleet Builder API",
    version="1",
    description=(
        "Versioned JSON with the shapes of the architecture's contracts: the catalogue "
        "(contract 3), fleet files (contract 1), validation reports (contract 2) and simulator "
        "results (contract 3). Public endpoints need nothing; your fleets and runs need a "
        "personal API token from your account page, sent as `Authorization: Bearer vc_…`. "
        "The session cookie is never read, so no CSRF token is needed or accepted."
    ),
    urls_namespace="api",
    auth=token_auth,
    docs_url=None,  # the docs page is /api/docs (fleetbuilder/api/urls.py)
)

FILE_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/FleetFile"}}},
    }
}


# --- errors ----------------------------------------------------------------------------------


class FleetFileProblem(Exception):
    """A body that is not a usable fleet file (or past R-95's bounds): a 400 with contract 2."""

    def __init__(self, error: rf.FleetFormatError, *, prefix: str = "") -> None:
        super().__init__(error.message)
        self.error = error
        self.prefix = prefix


class InputProblem(Exception):
    """Bad input other than a fleet file: 400 with the JSON path of each value at fault."""

    def __init__(self, errors: list[tuple[str, str]], status: int = 400) -> None:
        super().__init__(errors[0][1] if errors else "Bad input.")
        self.errors = errors
        self.status = status


class UnknownFaction(Exception):
    def __init__(self, report: ValidationReport) -> None:
        super().__init__("This catalogue has no such faction; the fleet cannot be stored.")
        self.report = report


class RateLimited(Exception):
    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _json(body: Any, status: int = 200) -> JsonResponse:
    response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "private, no-store"
    return response


@api.exception_handler(FleetFileProblem)
def _file_problem(request: HttpRequest, exc: FleetFileProblem) -> HttpResponse:
    error = exc.error
    path = _join(exc.prefix, error.path)
    report = ValidationReport.for_format_error(
        rf.FleetFormatError(path, error.message, line=error.line, column=error.column)
    )
    return _json(
        {
            **report_dict(report, None),
            "detail": report.problems[0].message,
            "error": {"path": path, "line": error.line, "column": error.column},
        },
        400,
    )


@api.exception_handler(InputProblem)
def _input_problem(request: HttpRequest, exc: InputProblem) -> HttpResponse:
    """A message may quote the value at fault (a form's "Select a valid choice. … is not one
    of the available choices"): a character R-94 forbids, such as a lone surrogate sent as
    ``"\\ud800"``, is written as ``\\uXXXX`` (``rules_core.text.shown``), so the answer can
    be encoded and read."""
    errors = [{"path": rt.shown(p), "message": rt.shown(m)} for p, m in exc.errors]
    return _json({"detail": rt.shown(str(exc)), "errors": errors}, exc.status)


@api.exception_handler(RequestDataTooBig)
def _too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    """A body over the site's request limit (``DATA_UPLOAD_MAX_MEMORY_SIZE``, R-93), which
    ninja reads before the endpoint runs: a 413 saying the limit, as for a fleet file."""
    length = request.META.get("CONTENT_LENGTH") or "?"
    size = (
        f"{int(length):,} bytes" if str(length).isascii() and str(length).isdigit() else "too big"
    )
    return _json(
        {
            "detail": f"The body is {size}; the limit is "
            f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes. A run or a fleet "
            "file is a few KB."
        },
        413,
    )


@api.exception_handler(NinjaValidationError)
def _validation_error(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    """ninja's 422 becomes our 400, with a JSON path per error (``a.sample.faction``)."""
    errors = []
    for e in exc.errors:
        loc = list(e.get("loc", ()))
        if loc and loc[0] in ("body", "query", "path"):
            loc = loc[2:] if loc[0] == "body" else loc[1:]
        message = str(e.get("msg", "is not valid"))
        if e.get("type") == "extra_forbidden":  # the fleet-file reader's words (schemas.Strict)
            message = "is not a key of this object"
        errors.append((_path(loc), message))
    return _input_problem(request, InputProblem(errors or [("", "Bad input.")]))


@api.exception_handler(UnknownFaction)
def _unknown_faction(request: HttpRequest, exc: UnknownFaction) -> HttpResponse:
    return _json({**exc.report.to_dict(), "detail": str(exc)}, 422)


@api.exception_handler(UnknownEdition)
def _unknown_edition(request: HttpRequest, exc: UnknownEdition) -> HttpResponse:
    """A file or code naming an edition this server does not know (R-161): nothing computed,
    nothing stored."""
    number = exc.number if isinstance(exc.number, int) else None
    return _json({"detail": exc.message, "edition": number, "known_editions": list(exc.known)}, 422)


@api.exception_handler(RateLimited)
def _rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
    response = _json({"detail": str(exc)}, 429)
    response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    message = (
        exc.message
        if exc.message != "Unauthorized"
        else "Send 'Authorization: Bearer vc_…' with a personal API token from your account page."
    )
    response = _json({"detail": message}, 401)
    response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return _json({"detail": exc.message}, exc.status_code)


def _path(loc: list[Any]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    return f"{prefix}{path if path.startswith('[') else '.' + path}" if path else prefix


def limit(request: HttpRequest, scope: str) -> None:
    """Count this request against the pages' limit ``scope`` (R-96), for the same player."""
    wait = ratelimit.hit(request, scope)
    if wait:
        most, window = ratelimit.limit_of(scope)
        raise RateLimited(
            f"Too many {ratelimit.WHAT.get(scope, 'requests')} from you: at most {most} every "
            f"{ratelimit.in_words(window)}. Please wait {ratelimit.in_words(wait)} and try "
            "again.",
            wait,
        )


def not_found(what: str = "fleet") -> HttpError:
    return HttpError(404, f"No such {what}.")


# --- reading fleet files ---------------------------------------------------------------------


def _body_text(request: HttpRequest) -> str:
    length = int(request.META.get("CONTENT_LENGTH") or 0)
    if length > MAX_BODY_BYTES:
        raise HttpError(
            413,
            f"The body is {length:,} bytes; the limit is {MAX_BODY_BYTES:,}. "
            "A fleet file is a few KB.",
        )
    try:
        return request.body.decode("utf-8")
    except UnicodeDecodeError:
        raise FleetFileProblem(rf.FleetFormatError("", "not UTF-8 text")) from None


def read_file(request: HttpRequest) -> tuple[Arrival, ValidationReport]:
    """The posted fleet file, read as an imported file is (R-20, R-94), under its edition
    (R-161: the first if it names none; UnknownEdition, a 422, for one this server lacks),
    and its report, held to R-95's points bound; FleetFileProblem (400) names the JSON path at
    fault."""
    try:
        arrival = arrive(rf.load_fleet_json(_body_text(request)))
        report = validate(arrival.fleet, arrival.catalog)
        check_points_bound(report)
    except rf.FleetFormatError as exc:
        raise FleetFileProblem(exc) from None
    return arrival, report


def report_dict(report: ValidationReport, edition: int | None, note: str = "") -> dict[str, Any]:
    """Contract 2's report, with the edition it was computed under and R-161's note."""
    return {**report.to_dict(), "edition": edition, "edition_note": note or None}


def _known_faction(fleet: rf.Fleet, report: ValidationReport, catalog: core.Catalog) -> None:
    """A fleet is only stored for a faction the catalogue has (as an import: fleets/once.py);
    otherwise 422 with the report, whose ``catalog.unknown_faction`` says why."""
    if catalog.faction(fleet.faction) is None:
        raise UnknownFaction(report)


# --- the catalogue ---------------------------------------------------------------------------


@functools.cache
def openapi_document() -> dict[str, Any]:
    """The OpenAPI document, built once a process (0.1 s each time): it changes only with the
    code. The docs page and the index read it."""
    return dict(api.get_openapi_schema())


@api.get(
    "/",
    auth=optional_token,
    response={200: dict[str, Any]},
    summary="What this API offers",
    tags=["index"],
)
def index(request: HttpRequest) -> HttpResponse:
    """This index: the API's name and version, its docs page and OpenAPI document, and every
    operation with its method, path and whether it needs a token."""
    body = api_docs.index(openapi_document(), reverse("api_docs"), reverse("api:openapi-json"))
    return JsonResponse(
        body,
        json_dumps_params={"ensure_ascii": False, "indent": 2},
        headers={"Cache-Control": "public, max-age=300"},
    )


def _catalog_etag(request: HttpRequest) -> str:
    raw = f"{pagecache.catalogue_version(request)}\n{pagecache.build_id()}"
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'


@api.get(
    "/catalog",
    auth=optional_token,
    response={200: s.Catalog, 304: None},
    summary="The whole catalogue (contract 3)",
    tags=["catalogue"],
)
def catalog(request: HttpRequest) -> HttpResponse:
    """``manage.py export_catalog``'s document. Strong ETag on the catalogue version: send it
    back as ``If-None-Match`` and get a 304 until the catalogue changes."""
    etag = _catalog_etag(request)
    headers = {"ETag": etag, "Cache-Control": "public, no-cache"}
    wanted = parse_etags(request.headers.get("If-None-Match", ""))
    if "*" in wanted or etag in wanted or f"W/{etag}" in wanted:
        response = HttpResponse(status=304, headers=headers)
        response._csp_exempt = True  # type: ignore[attr-defined]
        return response
    key = "api:catalog:" + etag.strip('"')
    try:
        body = cache.get(key)
    except Exception:
        body = None
    if not isinstance(body, bytes):
        body = json.dumps(
            export_catalog(loader.core_catalog(), edition=editions.current_number()),
            ensure_ascii=False,
        ).encode()
        try:
            cache.set(key, body, CATALOG_TTL)
        except Exception:
            log.warning("cache unavailable for the API catalogue")
    return HttpResponse(body, content_type="application/json", headers=headers)


# --- validating a fleet file -----------------------------------------------------------------


@api.post(
    "/fleet-files/validate",
    auth=optional_token,
    response={200: s.Report, 400: s.FileError, 413: s.Error, 429: s.Error},
    openapi_extra=FILE_BODY,
    summary="Validate a fleet file (contract 2)",
    tags=["fleet files"],
)
def validate_file(request: HttpRequest) -> dict[str, Any]:
    """The body is a fleet file (contract 1); the answer is its validation report (contract 2),
    legal or not. Unknown slugs are problems (``catalog.unknown_ship``, …), not errors. A body
    that is not a fleet file is a 400 with one ``format.invalid`` problem naming the JSON path.
    Counts against the import limit (R-96)."""
    limit(request, "import")
    arrival, report = read_file(request)
    return report_dict(report, arrival.fleet.edition, arrival.note)


# --- share codes -----------------------------------------------------------------------------


@api.post(
    "/share-codes",
    auth=optional_token,
    response={200: s.ShareCode, 400: s.FileError, 422: s.Error, 429: s.Error},
    openapi_extra=FILE_BODY,
    summary="Encode a fleet file as a share code",
    tags=["share codes"],
)
def encode_code(request: HttpRequest) -> dict[str, Any]:
    """The share code (R-90) of the posted fleet file, and its page's address. A fleet too big
    for a code (3000 characters) is a 422 saying so."""
    limit(request, "sharecode")
    arrival, _ = read_file(request)
    try:
        code = sharecode.encode(arrival.fleet)  # naming its edition
    except sharecode.ShareCodeError as exc:
        raise HttpError(422, exc.message) from None
    return {"code": code, "url": request.build_absolute_uri(reverse("fleets:code", args=[code]))}


@api.get(
    "/share-codes/{code}",
    auth=optional_token,
    response={200: s.SharedFleet, 400: s.FileError, 429: s.Error},
    summary="Decode a share code",
    tags=["share codes"],
)
def decode_code(request: HttpRequest, code: str) -> dict[str, Any]:
    """The fleet file a share code holds, and its report. A damaged code, or one holding an
    unusable fleet, is a 400 (``format.invalid``, with the JSON path when there is one)."""
    limit(request, "sharecode")
    try:
        arrival = arrive(sharecode.decode(code))  # a v1. code: the first edition
        fleet = arrival.fleet
        report = validate(fleet, arrival.catalog)
        check_points_bound(report)
    except sharecode.ShareCodeError as exc:
        raise FleetFileProblem(rf.FleetFormatError(exc.path, exc.message)) from None
    except rf.FleetFormatError as exc:
        raise FleetFileProblem(exc) from None
    return {
        "code": code.strip(),
        "fleet": rf.fleet_to_dict(fleet),
        "report": report_dict(report, fleet.edition, arrival.note),
    }


# --- your fleets -----------------------------------------------------------------------------


def _mine(request: HttpRequest) -> Any:
    """The token's player's fleets, by the pages' rule (``owned_by``); trashed ones are not."""
    return Fleet.objects.alive().owned_by(request.user, None)


def _get_fleet(request: HttpRequest, fleet_id: int, *, lock: bool = False) -> Fleet:
    fleets = _mine(request).filter(pk=fleet_id)
    fleet = (fleets.select_for_update() if lock else fleets).first()
    if fleet is None:
        raise not_found()
    return fleet


def _summary(request: HttpRequest, fleet: Fleet) -> dict[str, Any]:
    return {
        "id": fleet.pk,
        "name": fleet.name,
        "faction": fleet.faction,
        "variant": fleet.variant or None,
        "game_size": fleet.game_size,
        "points": fleet.points,
        "legal": fleet.legal,
        "version": fleet.version,
        "created": fleet.created,
        "updated": fleet.updated,
        "url": request.build_absolute_uri(fleet.get_absolute_url()),
    }


def _detail(
    request: HttpRequest, fleet: Fleet, catalog: core.Catalog, note: str = ""
) -> dict[str, Any]:
    """``catalog`` is the fleet's edition's (R-160); ``note`` R-161's, when the body named
    none."""
    try:
        report = fleet.report(catalog)
    except rf.FleetFormatError as exc:  # stored before R-95's bounds (fleets/limits.py)
        raise HttpError(
            422,
            f"This fleet cannot be opened: it breaks a rule made since it was "
            f"saved ({exc.path}: {exc.message}).",
        ) from None
    return {
        **_summary(request, fleet),
        "document": fleet.document,
        "report": report_dict(report, fleet.edition, note),
    }


@api.get(
    "/fleets", response=list[s.FleetSummary], summary="Your saved fleets", tags=["your fleets"]
)
def list_fleets(request: HttpRequest) -> list[dict[str, Any]]:
    """Your fleets (not those in the trash), most recently changed first."""
    fleets = _mine(request).defer("document", "last_removed")
    return [_summary(request, f) for f in fleets]


@api.post(
    "/fleets",
    response={201: s.FleetDetail, 400: s.FileError, 422: s.Report, 429: s.Error},
    openapi_extra=FILE_BODY,
    summary="Save a fleet file as a new fleet",
    tags=["your fleets"],
)
def create_fleet(request: HttpRequest) -> Status:
    """The body is a fleet file; it is stored as a new fleet of yours (an illegal list may be
    saved, as in the builder). A faction the catalogue lacks is a 422 whose detail is the
    report. Counts against the import limit (R-96)."""
    limit(request, "import")
    arrival, report = read_file(request)
    _known_faction(arrival.fleet, report, arrival.catalog)
    with transaction.atomic():
        new = Fleet.from_core(arrival.fleet, arrival.catalog, owner=request.user)
    return Status(201, _detail(request, new, arrival.catalog, arrival.note))


@api.get(
    "/fleets/{int:fleet_id}",
    response={200: s.FleetDetail, 404: s.Error},
    summary="One of your fleets",
    tags=["your fleets"],
)
def read_fleet(request: HttpRequest, fleet_id: int) -> dict[str, Any]:
    """The fleet file, its report and its ``version`` (send it back with an update)."""
    fleet = _get_fleet(request, fleet_id)
    return _detail(request, fleet, fleet.catalog())


@api.put(
    "/fleets/{int:fleet_id}",
    response={
        200: s.FleetDetail,
        400: s.FileError,
        404: s.Error,
        409: s.Error,
        422: s.Report,
        429: s.Error,
    },
    openapi_extra=FILE_BODY,
    summary="Replace one of your fleets",
    tags=["your fleets"],
)
def update_fleet(request: HttpRequest, fleet_id: int, version: int) -> dict[str, Any]:
    """Replace the fleet's list with the posted fleet file. ``version`` is the version you
    read; if the fleet changed since (in the builder, or another client), nothing is applied
    and the answer is 409: read it again and redo the change. The edit runs as the builder's
    do, under the fleet's row lock. Counts against the import limit (R-96)."""
    limit(request, "import")
    _get_fleet(request, fleet_id)  # 404 before reading the body
    arrival, report = read_file(request)
    fleet, catalog = arrival.fleet, arrival.catalog
    _known_faction(fleet, report, catalog)
    try:
        with transaction.atomic():
            stored = _get_fleet(request, fleet_id, lock=True)
            stored.check_version(version)
            stored.apply(
                catalog,
                list(fleet.units),
                name=fleet.name,
                faction=fleet.faction,
                variant=fleet.variant,
                game_size=fleet.game_size,
                points_limit=fleet.points_limit,
                notes=fleet.notes,
                edition=fleet.edition,
            )
    except FleetChanged:
        current = _get_fleet(request, fleet_id)
        raise HttpError(
            409,
            f"This fleet changed since version {version}: it is at version "
            f"{current.version} now. Nothing was applied; read it again and "
            "make your change again.",
        ) from None
    return _detail(request, stored, catalog, arrival.note)


@api.delete(
    "/fleets/{int:fleet_id}",
    response={204: None, 404: s.Error},
    summary="Move one of your fleets to the trash",
    tags=["your fleets"],
)
def trash_fleet(request: HttpRequest, fleet_id: int) -> Status:
    """As "Delete" on Saved Fleets: the fleet goes to your trash, from which the site can
    restore it."""
    _get_fleet(request, fleet_id).trash()
    return Status(204, None)


# --- simulator runs --------------------------------------------------------------------------


def _progress(request: HttpRequest, run: Matchup) -> dict[str, Any]:
    return {
        "id": run.public_id,
        "status": run.status,
        "battles_requested": run.battles,
        "battles_done": run.done,
        "percent": run.percent,
        "finished": run.is_done,
        "error": run.error or None,
        "seed": run.seed,
        "options": run.options,
        "sides": run.sources,
        "created": run.created,
        "url": request.build_absolute_uri(run.get_absolute_url()),
    }


def _run_body(request: HttpRequest, run: Matchup) -> dict[str, Any]:
    """``simulate --json`` for the battles played so far (as results.json), plus progress."""
    return {**(run.summary() or {"battles": 0, "seed": run.seed}), "run": _progress(request, run)}


@api.post(
    "/runs",
    response={201: s.Run, 400: s.InputError, 429: s.Error, 503: s.Error},
    summary="Start a simulator run",
    tags=["simulator"],
)
def start_run(request: HttpRequest, payload: s.RunIn) -> Status:
    """Two sides (each one of your fleets, a share code or link, a sample, or a fleet file),
    the battles and the scenario, as on the matchup page; the run is yours and is played on
    the workers. Over your runs-at-once limit: 429; the queue full or away: 503. Counts
    against the simulator limit (R-96). Poll ``GET /runs/{id}`` for progress."""
    limit(request, "simulator")
    catalog = loader.core_catalog()
    files = {}
    for side in ("a", "b"):
        raw = getattr(payload, side).file
        if raw is not None:
            try:
                files[side] = side_file(raw)  # its own edition and R-95
            except rf.FleetFormatError as exc:
                raise FleetFileProblem(exc, prefix=f"{side}.file") from None
    fleets = list(Fleet.objects.alive().owned_by(request.user, None).defer("last_removed"))
    form = ApiMatchupForm(form_data(payload), catalog=catalog, fleets=fleets, fleet_files=files)
    if not form.is_valid():
        raise InputProblem(form_paths(form))
    data = form.cleaned_data
    try:
        check_playable(data["a"].fleet, data["b"].fleet)
        run = Matchup.start(
            fleet_a=data["a"].fleet,
            fleet_b=data["b"].fleet,
            sources={"a": data["a"].source, "b": data["b"].source},
            options=SimOptions.from_dict(form.options_dict()),
            seed=random_seed() if data["seed"] is None else data["seed"],
            battles=data["battles"],
            owner=request.user,
            client=ratelimit.client_key(request),
        )
    except (SimError, ValueError) as exc:
        raise InputProblem([("", str(exc))]) from None
    except RunRefused as exc:
        raise HttpError(exc.status, str(exc)) from None
    return Status(201, _run_body(request, run))


@api.get("/runs", response=list[s.RunListItem], summary="Your simulator runs", tags=["simulator"])
def list_runs(request: HttpRequest) -> list[dict[str, Any]]:
    """Your 50 most recent runs, newest first."""
    runs = Matchup.objects.owned_by(request.user, None).defer("tally")[:50]
    return [
        {
            "id": r.public_id,
            "status": r.status,
            "battles_requested": r.battles,
            "battles_done": r.done,
            "label_a": r.label_a,
            "label_b": r.label_b,
            "created": r.created,
            "url": request.build_absolute_uri(r.get_absolute_url()),
        }
        for r in runs
    ]


@api.get(
    "/runs/{public_id}",
    auth=optional_token,
    response={200: s.Run, 404: s.Error},
    summary="A run's results so far",
    tags=["simulator"],
)
def read_run(request: HttpRequest, public_id: str) -> dict[str, Any]:
    """Anyone holding a run's id may read it, as its results page. The body is ``simulate
    --json`` (contract 3) for the battles played so far, with ``run`` giving the progress."""
    run = Matchup.objects.filter(public_id=public_id).first()
    if run is None:
        raise not_found("run")
    run.resume_if_stalled()
    return _run_body(request, run)


@api.post(
    "/runs/{public_id}/cancel",
    response={200: s.Run, 403: s.Error, 404: s.Error},
    summary="Cancel your unfinished run",
    tags=["simulator"],
)
def cancel_run(request: HttpRequest, public_id: str) -> dict[str, Any]:
    """Only the player who started a run may cancel it (anyone else: 403, as on its page);
    the battles played so far stay."""
    run = Matchup.objects.filter(public_id=public_id).first()
    if run is None:
        raise not_found("run")
    if not Matchup.objects.owned_by(request.user, None).filter(pk=run.pk).exists():
        raise HttpError(403, "Only the player who started this run can cancel it.")
    run.cancel()
    return _run_body(request, run)


# --- editions: fleetbuilder/api/editions.py ----------------------------------------

api.add_router("/editions", "fleetbuilder.api.editions.router")
api.add_router("/imports", "fleetbuilder.api.imports.router")
