"""The matchup preview: a form that starts a run, and the run's results page.

Starting a run creates it and queues its chunks for the simulator's workers; no request plays
battles. While it is unfinished its page polls the progress read from the database (htmx every
second; without JavaScript the page refreshes itself). Anyone holding a run's unguessable link
may read its results; only its owner (the same rule as saved fleets) may cancel it. Unknown
links are 404.
"""

from __future__ import annotations

from typing import Any

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from fleetbuilder import ratelimit
from fleetbuilder.catalog import editions, loader
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.http import HtmxHttpRequest
from fleetbuilder.ownership import owner_token
from fleetbuilder.ratelimit import rate_limit
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.editions import UnknownEdition
from rules_core.fleet import FleetFormatError
from rules_core.sample_fleets import MIN_NEAR_POINTS
from rules_core.sim import SimError, SimOptions
from rules_core.sim.batch import fleet_specs
from rules_core.validator import check_points_bound, validate

from .forms import MatchupForm
from .models import Matchup, RunRefused, random_seed
from .replay import replay_context
from .results import battle_context, battle_number, results_context


def check_playable(fleet_a: rf.Fleet, fleet_b: rf.Fleet) -> None:
    """Raise SimError now if the engine cannot play these fleets, rather than on a worker.

    Each fleet is judged under its own edition's catalogue (R-163) and held to R-95's points
    bound here (their size was bounded when they were read), so no run, not even one repeated
    from a run stored before R-95, is bigger than that. An edition this server does not know
    is a SimError too, naming the known ones (R-161).
    """
    catalogs = []
    for side, fleet in (("A", fleet_a), ("B", fleet_b)):
        try:
            catalog = editions.catalog_for(fleet.edition)
            check_points_bound(validate(fleet, catalog))
        except UnknownEdition as exc:
            raise SimError(f"Fleet {side} cannot be played: {exc}") from None
        except FleetFormatError as exc:
            raise SimError(f"Fleet {side} is too big to play: {exc.path} {exc.message}.") from None
        catalogs.append(catalog)
    fleet_specs(catalogs[0], fleet_a, fleet_b, catalog_b=catalogs[1])


NEW = "simulator/new.html"
PAGE = "simulator/matchup.html"
REPLAY = "simulator/replay.html"
RECENT_RUNS = 10
# A fresh form pits the Imperial Navy against the Archenemy: the game's classic war.
DEFAULT_SAMPLES = {"a_faction": "imperial-navy", "b_faction": "archenemy"}


# --- access ---------------------------------------------------------------------------------


def _get_matchup(public_id: str) -> Matchup:
    return get_object_or_404(Matchup, public_id=public_id)


def _is_owner(request: HttpRequest, matchup: Matchup) -> bool:
    return (
        Matchup.objects.owned_by(request.user, owner_token(request)).filter(pk=matchup.pk).exists()
    )


def _start(request: HttpRequest, **inputs: Any) -> Matchup:
    """Create a run owned by this browser (or player) and queue its battles.

    The fleets are checked first: a SimError (a fleet the engine cannot play) propagates and
    nothing is kept; so does RunRefused (over a limit, or the queue away).
    """
    check_playable(inputs["fleet_a"], inputs["fleet_b"])
    return Matchup.start(
        owner=request.user,
        owner_token=owner_token(request, create=True) or "",
        client=ratelimit.client_key(request),
        **inputs,
    )


# --- pages ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@rate_limit("simulator", methods=("POST",))
def new(request: HtmxHttpRequest) -> HttpResponse:
    catalog = loader.core_catalog()
    status = 200
    fleets = list(
        Fleet.objects.alive().owned_by(request.user, owner_token(request)).defer("last_removed")
    )
    form = MatchupForm(
        request.POST or None, catalog=catalog, fleets=fleets, initial=_initial(request, fleets)
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            options = SimOptions.from_dict(form.options_dict())
            matchup = _start(
                request,
                fleet_a=data["a"].fleet,
                fleet_b=data["b"].fleet,
                sources={"a": data["a"].source, "b": data["b"].source},
                options=options,
                seed=random_seed() if data["seed"] is None else data["seed"],
                battles=data["battles"],
            )
        except (SimError, ValueError) as exc:
            form.add_error(None, str(exc))
        except RunRefused as exc:
            form.add_error(None, str(exc))
            status = exc.status
        else:
            return redirect(matchup)
    recent = Matchup.objects.owned_by(request.user, owner_token(request)).defer(
        "fleet_a", "fleet_b", "tally"
    )[:RECENT_RUNS]
    ctx = {
        "form": form,
        "sides": [(s, form.side_fields(s)) for s in ("a", "b")],
        "has_fleets": bool(fleets),
        "recent": recent,
    }
    if form.errors and status == 200:
        status = 400
    return render(request, NEW, ctx, status=status)


# The opponent "Preview matchup" proposes: the other side of the Long War.
RIVALS = {"imperium": "archenemy", "chaos": "imperial-navy", "xenos": "imperial-navy"}


def _rival(catalog: core.Catalog, faction_slug: str) -> str:
    faction = catalog.faction(faction_slug)
    rival = RIVALS.get(faction.allegiance, "imperial-navy") if faction else "imperial-navy"
    return rival if catalog.faction(rival) is not None else faction_slug


def _initial(request: HttpRequest, fleets: list[Fleet]) -> dict[str, Any]:
    """Start from one of your fleets (``?a=<fleet id>``): B is a rival's sample built to its
    points (within 5 %), of its size when it has too few points for one;
    or from an earlier run (``?from=<run id>``): its sides, options and seed."""
    initial: dict[str, Any] = dict(DEFAULT_SAMPLES)
    if fleets:
        initial.update(a_fleet=fleets[0].pk, b_fleet=fleets[min(1, len(fleets) - 1)].pk)
    wanted = request.GET.get("a", "")
    chosen = next((f for f in fleets if str(f.pk) == wanted), None)
    if chosen is not None:
        size = chosen.game_size if chosen.game_size != "custom" else "skirmish"
        initial.update(
            a_source="fleet",
            a_fleet=chosen.pk,
            b_source="sample",
            b_faction=_rival(loader.core_catalog(), chosen.faction),
            b_size=size,
            a_faction=chosen.faction,
            a_size=size,
        )
        if chosen.points >= MIN_NEAR_POINTS:
            initial["b_points"] = chosen.points
    for side in ("a", "b"):  # a shared list's code (an event's two revealed lists)
        code = request.GET.get(f"{side}_code", "")
        if code:
            initial.update({f"{side}_source": "shared", f"{side}_share": code[:4000]})
    earlier = Matchup.objects.filter(public_id=request.GET.get("from", "")).first()
    if earlier is not None:  # "Edit and run again": anyone holding the run's link may
        initial.update(earlier.form_initial({f.pk for f in fleets}))
    return initial


@require_GET
def matchup(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The results page; with htmx, only the region asked for (the log, or the progress).

    A battle number outside the run is a 400 for the page; htmx gets the message with a 200,
    since it swaps in only successful answers.
    """
    run = _get_matchup(public_id)
    run.resume_if_stalled()
    target = (
        request.htmx.target if request.htmx and not request.htmx.history_restore_request else None
    )
    if target == "sim-run":
        response = render(request, f"{PAGE}#run", _run_ctx(request, run, _is_owner(request, run)))
    else:
        if wait := _battle_log_wait(request, run):
            return ratelimit.refused(request, "replay", wait)
        log = {"run": run, **battle_context(run, request.GET.get("battle"))}
        if target == "battle-log":
            response = render(request, f"{PAGE}#log", log)
        else:
            ctx = {**_run_ctx(request, run, _is_owner(request, run)), **log}
            response = render(request, PAGE, ctx, status=400 if log["log_error"] else 200)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def _battle_log_wait(request: HttpRequest, run: Matchup) -> int:
    """0, or the seconds to wait: a battle's log not in the cache is played in this request,
    so, as a replay, it counts against the client's replay limit (R-154). The first battle,
    which every view of the page shows, counts once; then the cache answers."""
    number = battle_number(request.GET.get("battle"))
    if not 1 <= number <= run.battles or run.has_battle(number - 1):
        return 0
    return ratelimit.hit(request, "replay", run.replay_cost)


def _run_ctx(request: HttpRequest, run: Matchup, is_owner: bool) -> dict[str, Any]:
    link = request.build_absolute_uri(run.get_absolute_url())
    return {
        "run": run,
        "is_owner": is_owner,
        "link": link,
        "queue_ahead": run.queue_ahead() if run.status == Matchup.Status.QUEUED else 0,
        **results_context(run),
    }


@require_POST
def cancel(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Stop an unfinished run (its owner only); the battles played so far stay."""
    run = _get_matchup(public_id)
    if not _is_owner(request, run):
        return HttpResponseForbidden("Only the player who started this run can cancel it.")
    run.cancel()
    if request.htmx:
        return render(request, f"{PAGE}#run", _run_ctx(request, run, True))
    return redirect(run)


@require_POST
@rate_limit("simulator")
def again(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A new run with this run's fleets, options, seed and battles: the same results.

    Anyone holding the link may do it; the new run is theirs (the original is unchanged).
    """
    run = _get_matchup(public_id)
    try:
        new_run = _start(request, **run.inputs())
    except (SimError, FleetFormatError) as exc:  # the catalogue or the bounds changed
        return HttpResponseBadRequest(str(exc))
    except RunRefused as exc:
        return HttpResponse(str(exc), status=exc.status, content_type="text/plain")
    return redirect(new_run)


# --- files to reproduce a run elsewhere ----------------------------------------------------


@require_GET
def fleet_file(request: HttpRequest, public_id: str, side: str) -> HttpResponse:
    """The fleet file (contract 1) of one side, as it fought in this run."""
    run = _get_matchup(public_id)
    if side not in ("a", "b"):
        raise Http404("No such side.")
    doc = run.fleet_a if side == "a" else run.fleet_b
    response = JsonResponse(doc, json_dumps_params={"indent": 2, "ensure_ascii": False})
    name = slugify(doc.get("name") or "") or "fleet"
    response["Content-Disposition"] = f'attachment; filename="{side}-{name}.json"'
    return response


@require_GET
def results_json(request: HttpRequest, public_id: str) -> HttpResponse:
    """The results so far in the shape of ``simulate --json`` (contract 3), with the run's
    inputs and progress."""
    run = _get_matchup(public_id)
    body = {
        **(run.summary() or {"battles": 0, "seed": run.seed}),
        "run": {
            "battles_requested": run.battles,
            "battles_done": run.done,
            "finished": run.done >= run.battles,
            "error": run.error or None,
            "options": run.options,
            "url": request.build_absolute_uri(run.get_absolute_url()),
        },
    }
    return JsonResponse(body, json_dumps_params={"indent": 2})


# --- watching one battle -------------------------------------------------------------------


def _replay_data(run: Matchup, battle: int) -> dict[str, Any]:
    """Battle ``battle`` (1-based, as the results page numbers them) replayed; 404 outside the
    run. Raises SimError when the engine can no longer play the fleets."""
    if not 1 <= battle <= run.battles:
        raise Http404(f"This run has battles 1 to {run.battles}.")
    return run.replay(battle - 1)


def _replay_wait(request: HttpRequest, run: Matchup, battle: int) -> int:
    """0, or the seconds to wait: a replay not in the cache is played in this request (up to
    seconds of CPU for the biggest fleets), so each one counts against the client's replay
    limit (R-154); one from the cache costs nothing and is not counted."""
    if not 1 <= battle <= run.battles or run.has_replay(battle - 1):
        return 0
    return ratelimit.hit(request, "replay", run.replay_cost)


@require_GET
def replay(request: HttpRequest, public_id: str, battle: int) -> HttpResponse:
    """Battle ``battle`` of a run on a map, step by step (static/js/replay.js), and round by
    round as still maps without JavaScript. Readable by anyone holding the run's link."""
    run = _get_matchup(public_id)
    if wait := _replay_wait(request, run, battle):
        return ratelimit.refused(request, "replay", wait)
    ctx: dict[str, Any] = {"run": run, "number": battle, "error": ""}
    try:
        with ratelimit.in_flight(request, "replay") as may:  # one at a time an address
            if not may:
                return ratelimit.busy(request, "replay")
            data = _replay_data(run, battle)
    except SimError as exc:
        ctx["error"] = f"This battle cannot be replayed: {exc}"
        return render(request, REPLAY, ctx, status=409)
    try:
        first_round = int(request.GET.get("rounds", "0"))
    except ValueError:
        first_round = 0
    ctx.update(result=data["result"], **replay_context(data, first_round))
    return render(request, REPLAY, ctx)


@require_GET
def replay_json(request: HttpRequest, public_id: str, battle: int) -> HttpResponse:
    """The replay's steps (``rules_core.sim.replay``): what the page's player draws."""
    run = _get_matchup(public_id)
    if wait := _replay_wait(request, run, battle):
        most, window = ratelimit.limit_of("replay")
        response = JsonResponse(
            {
                "error": f"Too many battle replays from you: at most {most} "
                f"every {ratelimit.in_words(window)}. Please wait "
                f"{ratelimit.in_words(wait)} and try again."
            },
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response
    try:
        with ratelimit.in_flight(request, "replay") as may:  # one at a time an address
            if not may:
                return JsonResponse(
                    {
                        "error": "Your battle replays are made one at a time "
                        "from one network address; please wait for "
                        "the one being made."
                    },
                    status=429,
                )
            data = _replay_data(run, battle)
    except SimError as exc:
        return JsonResponse({"error": f"This battle cannot be replayed: {exc}"}, status=409)
    return JsonResponse(data)
