"""Which ship matters? The form that starts an analysis, and its page.

Starting one computes the variants (rules_core.whatif, R-97), stores them with the fleets, the
options and the seed, and queues one task per (variant, chunk); no request plays battles. The
page polls the progress (htmx every second; without JavaScript it refreshes itself) and shows
the table from the battles played so far. Anyone holding the unguessable link may read it, run
it again (their own copy, the same numbers) and open a variant as a new fleet of their own;
only its owner may cancel it. Unknown links are 404.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from fleetbuilder.catalog import editions, loader
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.http import HtmxHttpRequest
from fleetbuilder.ownership import owner_token
from fleetbuilder.ratelimit import rate_limit
from fleetbuilder.simulator import editions as side_editions
from fleetbuilder.simulator.models import Matchup, RunRefused, random_seed
from fleetbuilder.simulator.views import check_playable
from rules_core import fleet as rf
from rules_core.fleet import FleetFormatError
from rules_core.sample_fleets import MIN_NEAR_POINTS
from rules_core.sim import SimError, SimOptions
from rules_core.whatif import what_if_variants

from .forms import AnalysisForm
from .models import Analysis, bound_variants, variant_records

NEW = "analysis/new.html"
PAGE = "analysis/analysis.html"
RECENT = 10


def _get_analysis(public_id: str) -> Analysis:
    return get_object_or_404(Analysis, public_id=public_id)


def _is_owner(request: HttpRequest, analysis: Analysis) -> bool:
    return (
        Analysis.objects.owned_by(request.user, owner_token(request))
        .filter(pk=analysis.pk)
        .exists()
    )


def _start(request: HttpRequest, **inputs: Any) -> Analysis:
    """Check every fleet the analysis will play (R-95's bounds, the engine), then start it."""
    Analysis.check_size(len(inputs["variants"]))
    for record in inputs["variants"]:
        check_playable(rf.parse_fleet(record["fleet"]), inputs["opponent"])
    return Analysis.start(
        owner=request.user, owner_token=owner_token(request, create=True) or "", **inputs
    )


@require_http_methods(["GET", "POST"])
@rate_limit("simulator", methods=("POST",))
def new(request: HtmxHttpRequest) -> HttpResponse:
    catalog = loader.core_catalog()
    status = 200
    fleets = list(
        Fleet.objects.alive().owned_by(request.user, owner_token(request)).defer("last_removed")
    )
    form = AnalysisForm(
        request.POST or None, catalog=catalog, fleets=fleets, initial=_initial(request, fleets)
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            fleet = data["a"].fleet
            # The variants (their swaps' alternatives, their prices) are the fleet's
            # edition's; the opponent keeps its own.
            variants, skipped = bound_variants(
                *what_if_variants(editions.catalog_for(fleet.edition), fleet)
            )
            analysis = _start(
                request,
                fleet=fleet,
                opponent=data["b"].fleet,
                variants=variant_records(variants),
                skipped=[{"label": s.label, "reason": s.reason} for s in skipped],
                sources={"a": data["a"].source, "b": data["b"].source},
                options=SimOptions.from_dict(form.options_dict()),
                seed=random_seed() if data["seed"] is None else data["seed"],
                battles=data["battles"],
            )
        except (SimError, ValueError) as exc:
            form.add_error(None, str(exc))
        except RunRefused as exc:
            form.add_error(None, str(exc))
            status = exc.status
        else:
            return redirect(analysis)
    recent = Analysis.objects.owned_by(request.user, owner_token(request)).defer(
        "fleet", "opponent", "variants"
    )[:RECENT]
    ctx = {
        "form": form,
        "sides": [(s, form.side_fields(s)) for s in ("a", "b")],
        "has_fleets": bool(fleets),
        "recent": recent,
    }
    if form.errors and status == 200:
        status = 400
    return render(request, NEW, ctx, status=status)


def _initial(request: HttpRequest, fleets: list[Fleet]) -> dict[str, Any]:
    """``?fleet=<id>`` (from the builder): that fleet against a sample of its size and list,
    built to its points as the preview's is;
    ``?from=<matchup id>`` (from a matchup's page): that matchup's opponent and options."""
    initial: dict[str, Any] = {
        "a_source": "fleet",
        "b_faction": "archenemy",
        "b_source": "sample",
        "b_size": "skirmish",
    }
    if fleets:
        initial["a_fleet"] = fleets[0].pk
    chosen = next((f for f in fleets if str(f.pk) == request.GET.get("fleet", "")), None)
    if chosen is not None:
        size = chosen.game_size if chosen.game_size != "custom" else "skirmish"
        initial.update(a_fleet=chosen.pk, b_size=size)
        if chosen.points >= MIN_NEAR_POINTS:  # a sample built to its points, as the preview's
            initial["b_points"] = chosen.points
    matchup = Matchup.objects.filter(public_id=request.GET.get("from", "")).first()
    if matchup is not None:
        earlier = matchup.form_initial({f.pk for f in fleets})
        initial.update(
            {
                k: v
                for k, v in earlier.items()
                if not k.startswith("a_") or k in ("a_fleet", "a_policy")
            }
        )
        initial["battles"] = min(matchup.battles, 500)
        initial["a_source"] = "fleet"
    return initial


@require_GET
def analysis(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    run = _get_analysis(public_id)
    run.resume_if_stalled()
    ctx = _ctx(request, run)
    if (
        request.htmx
        and request.htmx.target == "analysis-run"
        and not request.htmx.history_restore_request
    ):
        response = render(request, f"{PAGE}#run", ctx)
    else:  # the sides' points head the page only: the polled table needs no validation
        ctx.update(points_a=run.points("a"), points_b=run.points("b"))
        response = render(request, PAGE, ctx)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def _ctx(request: HttpRequest, run: Analysis) -> dict[str, Any]:
    results = run.results()
    for row in results["rows"]:
        hw = row["half_width"]
        row["line"] = f"{row['label']}: {row['delta'] * 100:+.1f} %" + (
            f" (±{hw * 100:.1f})" if hw is not None else ""
        )
        row["delta_pct"] = f"{row['delta'] * 100:+.1f} %"
        row["half_pct"] = f"{hw * 100:.1f}" if hw is not None else ""
        row["score_pct"] = f"{row['score'] * 100:.1f} %"
        vhw = row["vp_half_width"]
        row["vp_text"] = f"{row['vp_delta']:+.0f}" + (f" ±{vhw:.0f}" if vhw is not None else "")
    editions = {side: side_editions.side_edition(run.edition(side)) for side in ("a", "b")}
    return {
        "run": run,
        "is_owner": _is_owner(request, run),
        "results": results,
        "link": request.build_absolute_uri(run.get_absolute_url()),
        "label_a": run.label("a"),
        "label_b": run.label("b"),
        "edition_a": editions["a"],
        "edition_b": editions["b"],
        "editions_note": side_editions.differ_sentence(
            (run.label("a"), editions["a"]), (run.label("b"), editions["b"])
        ),
    }


@require_POST
def cancel(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    run = _get_analysis(public_id)
    if not _is_owner(request, run):
        return HttpResponseForbidden("Only the player who started this analysis can cancel it.")
    run.cancel()
    if request.htmx:
        return render(request, f"{PAGE}#run", _ctx(request, run))
    return redirect(run)


@require_POST
@rate_limit("simulator")
def again(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A new analysis with the same fleets, variants, options, seed and battles: the same
    numbers. Anyone holding the link may; the copy is theirs."""
    run = _get_analysis(public_id)
    try:
        new_run = _start(request, **run.inputs())
    except (SimError, FleetFormatError, ValueError) as exc:
        return HttpResponseBadRequest(str(exc))
    except RunRefused as exc:
        return HttpResponse(str(exc), status=exc.status, content_type="text/plain")
    return redirect(new_run)


@require_POST
@rate_limit("import")
def open_variant(request: HtmxHttpRequest, public_id: str, variant: int) -> HttpResponse:
    """Save one variant as a new fleet of the visitor's, and open it in the builder."""
    run = _get_analysis(public_id)
    if not 0 <= variant < run.variant_count:
        return HttpResponseBadRequest("This analysis has no such variant.")
    fleet = run.variant_fleet(variant)
    meta = run.variants[variant]
    base = fleet.name or run.label("a")
    name = base if meta["kind"] == "base" else f"{base} ({meta['label']})"
    fleet = replace(fleet, name=name[: rf.MAX_NAME_LENGTH])
    try:
        catalog = run.catalog("a")  # the variant keeps the fleet's edition
    except SimError as exc:
        return HttpResponseBadRequest(str(exc))
    saved = Fleet.from_core(
        fleet, catalog, owner=request.user, owner_token=owner_token(request, create=True) or ""
    )
    return redirect(saved)


@require_GET
def results_json(request: HttpRequest, public_id: str) -> HttpResponse:
    run = _get_analysis(public_id)
    results = run.results()
    body = {
        "seed": run.seed,
        "battles_per_variant": run.battles,
        "variants": run.variant_count,
        "battles_done": run.done,
        "battles_total": run.total_battles,
        "status": run.status,
        "finished": run.status == Analysis.Status.DONE,
        "error": run.error or None,
        "options": run.options,
        "skipped": run.skipped,
        "editions": {"a": run.edition("a"), "b": run.edition("b")},  # R-163; null: loaded
        "baseline": {
            "battles": results["base_battles"],
            "score": results["base_score"],
            "vp_margin": results["base_vp_margin"],
        },
        "rows": [
            {
                k: r[k]
                for k in (
                    "key",
                    "label",
                    "note",
                    "battles",
                    "score",
                    "delta",
                    "half_width",
                    "vp_delta",
                    "vp_half_width",
                )
            }
            for r in results["rows"]
        ],
        "url": request.build_absolute_uri(run.get_absolute_url()),
    }
    return JsonResponse(body, json_dumps_params={"indent": 2})
