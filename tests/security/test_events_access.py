"""The events' access matrix (R-173): nothing of a hidden list leaks, through any route.

One event, per phase (open; locked: the deadline passed, the reveal later; revealed) and with
``show_factions`` off and on: an organiser, two participants who submitted lists (the player's
is "Zzyzx Hidden Armada", a Drukhari list nobody else fields, illegal on purpose so that it has
problem codes), a signed-in outsider who is not in the event, and an anonymous visitor. Each of
them walks every event URL (every name in ``fleetbuilder/events/urls.py``, by GET and by POST
with plausible data, each POST in a savepoint that is rolled back, its redirect followed) and
every ``/api/v1/`` GET route that takes no id or the caller's own (from the API's OpenAPI).

Every response's body and headers are searched for each list's secrets: its name, its points as
a number standing alone, the names of ships only it has, its problem codes and (where factions
are hidden) its faction. R-173, restated here on its own rather than asked of ``Viewer``:
the organiser sees everything; a player sees their own; another participant sees a list from the
reveal, and its faction before it only if the event shows factions; an outsider or a visitor
sees none, ever. Every status is asserted; a hidden list's page is the same 404, byte for byte
(CSRF tokens aside), as a list that does not exist; an organiser's page is the same 404 as an
event that does not exist. No event page may be stored by a shared cache."""

from __future__ import annotations

import functools
import html
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import unquote

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from fleetbuilder.api.models import ApiToken
from fleetbuilder.catalog import editions
from fleetbuilder.events.models import Entry, Event, Game, Phase
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core import sharecode
from rules_core.validator import catalog_index
from tests.events.test_events import legal_fleet

from .conftest import CsrfClient, walk

pytestmark = pytest.mark.django_db

ORGANISER, PLAYER, RIVAL, OUTSIDER, VISITOR = (
    "organiser",
    "player",
    "rival",
    "outsider",
    "visitor",
)
ROLES = (ORGANISER, PLAYER, RIVAL, OUTSIDER, VISITOR)
PARTICIPANTS = (PLAYER, RIVAL)
NEWCOMER = "outsider, joined"  # the outsider, on the page their join leads to: a participant
HIDDEN_NAME = "Zzyzx Hidden Armada"
LOGIN = "/accounts/login/"
MISSING_PK = 987_654
MISSING = "no-such-event-0000000000"  # a token no event has

# What each role saves as its own fleet: factions and points that differ, so one player's
# points or faction never stands for another's.
OWN_FLEETS = {
    ORGANISER: ("orks", "Organiser's Spare Orks"),
    PLAYER: ("drukhari", HIDDEN_NAME),
    RIVAL: ("imperial-navy", "Aurelian Picket Line"),
    OUTSIDER: ("tyranids", "Outsider Hive Swarm"),
}

# Pages that show the whole catalogue to everyone (every faction, ship and its points): a
# faction's or a ship's name there says nothing of anyone's list. The list's own name and its
# problem codes are still searched for.
CATALOGUE_KINDS = frozenset({"faction", "ships", "points"})


# --- the cast ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    """What a submitted list gives away, if it is shown."""

    owner: str
    fleet_name: str
    points: int
    ships: tuple[str, ...]  # display names of ships no other list has
    faction: str
    problems: tuple[str, ...]

    def found(self, text: str, ignore: frozenset[str] = frozenset()) -> dict[str, list[str]]:
        """Each kind of this secret that ``text`` shows: list (name, points, ships, problem
        codes) and faction."""
        shown: dict[str, list[str]] = {"list": [], "faction": []}
        if self.fleet_name in text:
            shown["list"].append(self.fleet_name)
        if "points" not in ignore and re.search(rf"(?<![\w.:/#=-]){self.points}(?![\w-])", text):
            shown["list"].append(f"{self.points} (its points)")
        if "ships" not in ignore:
            shown["list"] += [s for s in self.ships if s in text]
        shown["list"] += [c for c in self.problems if c in text]
        if "faction" not in ignore and self.faction in text:
            shown["faction"].append(self.faction)
        return shown


def may_see(role: str, secret: Secret, phase: Phase, show_factions: bool) -> tuple[bool, bool]:
    """R-173: whether ``role`` may see ``secret``'s list, and its faction."""
    if role in (ORGANISER, secret.owner):
        return True, True
    participant = role in (*PARTICIPANTS, NEWCOMER)
    sees_list = participant and phase is Phase.REVEALED
    return sees_list, sees_list or (participant and show_factions)


@dataclass
class Cast:
    event: Event
    browsers: dict[str, CsrfClient]
    tokens: dict[str, str]  # each signed-in role's API token
    fleets: dict[str, Fleet]  # each signed-in role's own saved fleet
    entries: dict[str, Entry]  # the participants'
    secrets: dict[str, Secret]  # the participants'
    game: Game | None  # round 1's table, once revealed (R-175)


def _minute(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


def _times(phase: Phase) -> dict[str, datetime]:
    """The event's clock for ``phase``, on whole minutes (as the settings form sends them)."""
    now = _minute(timezone.now())
    if phase is Phase.OPEN:
        return {
            "deadline": now + timedelta(days=2),
            "reveal_at": now + timedelta(days=2, hours=1),
            "starts_at": now + timedelta(days=3),
        }
    if phase is Phase.LOCKED:
        return {
            "deadline": now - timedelta(minutes=1),
            "reveal_at": now + timedelta(days=1),
            "starts_at": now + timedelta(days=2),
        }
    return {
        "deadline": now - timedelta(hours=2),
        "reveal_at": now - timedelta(hours=1),
        "starts_at": now + timedelta(hours=1),
    }


def _cast(phase: Phase, show_factions: bool, make_account: Callable[[str], CsrfClient]) -> Cast:
    catalog = editions.catalog_for(7)
    names = catalog_index(catalog)
    browsers = {role: make_account(role) for role in ROLES if role != VISITOR}
    browsers[VISITOR] = CsrfClient()
    users = {role: b.user for role, b in browsers.items() if role != VISITOR}  # type: ignore[attr-defined]
    fleets = {
        role: legal_fleet(users[role], faction=faction, name=name)
        for role, (faction, name) in OWN_FLEETS.items()
    }
    hidden = fleets[PLAYER]
    hidden.remove(hidden.catalog(), 0)  # illegal now: a list with problem codes
    open_times = _times(Phase.OPEN)
    event = Event.objects.create(
        organiser=users[ORGANISER],
        name="Friday Skirmish",
        place="The club",
        description="Bring dice.",
        edition=7,
        game_size="skirmish",
        player_cap=8,
        allow_illegal=True,
        show_factions=show_factions,
        **open_times,
    )
    entries, secrets = {}, {}
    for role in PARTICIPANTS:
        event.join(users[role])
        entries[role] = event.submit(users[role], fleets[role])
    ships = {role: _ships(entries[role], names) for role in PARTICIPANTS}
    for role, other in ((PLAYER, RIVAL), (RIVAL, PLAYER)):
        entry = entries[role]
        assert entry.points is not None
        secrets[role] = Secret(
            role,
            entry.document["name"],
            entry.points,
            tuple(sorted(ships[role] - ships[other])),
            catalog.faction(entry.faction).name,
            tuple(entry.problems),
        )
    Event.objects.filter(pk=event.pk).update(**_times(phase))
    event.refresh_from_db()
    assert event.phase() is phase
    # The secrets are only worth searching for if each is its list's alone.
    assert secrets[PLAYER].problems and not secrets[RIVAL].problems
    assert secrets[PLAYER].ships and secrets[RIVAL].ships
    points = [f.points for f in fleets.values() if f.owner_id != users[PLAYER].pk]
    assert secrets[PLAYER].points not in points + [event.band.min, event.band.max]
    # From the reveal the organiser has paired round 1: the two players at table 1.
    game = event.pair_next_round(users[ORGANISER])[0] if phase is Phase.REVEALED else None
    tokens = {role: ApiToken.issue(user, f"{role}'s script")[1] for role, user in users.items()}
    for browser in browsers.values():
        browser.csrf_token()  # before any savepoint: the cookie outlives every rollback
    return Cast(event, browsers, tokens, fleets, entries, secrets, game)


def _ships(entry: Entry, names: Any) -> set[str]:
    out = set()
    for unit in entry.to_core().units:
        for ship in [unit] if unit.kind == "ship" else unit.ships:
            out.add(names.ship_name(ship.ship))
        if unit.name:
            out.add(unit.name)
    return out


# --- the calls ----------------------------------------------------------------------------------


@dataclass
class Call:
    name: str  # the URL's name
    method: str
    url: str
    expect: tuple[int, ...]  # the statuses this role may get
    data: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    ignore: frozenset[str] = frozenset()  # secret kinds the page shows everyone (the catalogue)
    twin: str | None = None  # a URL of nothing that must answer exactly the same
    shows: tuple[str, ...] = ()  # what this role must see here (the control)
    then: str | None = None  # the role the page a redirect leads to is read as, if it changed


def _settings(event: Event) -> dict[str, str]:
    """The event's settings form as the organiser's browser would send it, one word changed."""

    def local(moment: datetime) -> str:
        return moment.astimezone(event.zone).strftime("%Y-%m-%dT%H:%M")

    data = {
        "name": event.name,
        "starts_at": local(event.starts_at),
        "time_zone": event.time_zone,
        "place": event.place,
        "description": event.description + " Tea.",
        "game_size": event.game_size,
        "player_cap": str(event.player_cap),
        "deadline": local(event.deadline),
        "reveal_at": local(event.reveal_at),
    }
    for flag in ("allow_illegal", "show_factions", "public"):
        if getattr(event, flag):
            data[flag] = "on"
    return data


def _new_event() -> dict[str, str]:
    now = timezone.now()
    return {
        "name": "Another Night",
        "starts_at": (now + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
        "time_zone": "UTC",
        "edition": "7",
        "game_size": "skirmish",
        "player_cap": "8",
        "deadline": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
        "reveal_at": "",
        "public": "on",
    }


def _calls(cast: Cast, role: str, phase: Phase, routed: set[str]) -> list[Call]:
    """Every event URL, by each method, with what ``role`` must get (R-171–R-174)."""
    event, token = cast.event, cast.event.token
    signed_in = role != VISITOR
    organiser = role == ORGANISER
    participant = role in PARTICIPANTS

    def url(name: str, *args: Any, tok: str = token) -> str:
        return reverse(f"events:{name}", args=[tok, *args])

    def gate(ok: tuple[int, ...]) -> tuple[int, ...]:
        """An organiser's view: theirs; another account 404; a visitor to the log-in."""
        return ok if organiser else (404,) if signed_in else (302,)

    def post_only() -> tuple[int, ...]:
        return (405,) if signed_in else (302,)

    player_entry, rival_entry = cast.entries[PLAYER], cast.entries[RIVAL]
    own_fleet = cast.fleets.get(role, cast.fleets[PLAYER]).pk
    calls: list[Call] = [
        Call("list", "GET", reverse("events:list"), (200,)),
        Call("list", "POST", reverse("events:list"), (405,)),
        Call(
            "new",
            "GET",
            reverse("events:new"),
            (200,) if signed_in else (302,),
            ignore=frozenset({"faction"}),
        ),  # its form lists every faction of the catalogue
        Call("new", "POST", reverse("events:new"), (302,), data=_new_event()),
        Call("event", "GET", url("event"), (200,)),
        Call("event", "GET", reverse("events:event", args=[MISSING]), (404,)),
        Call("event", "POST", url("event"), (405,)),
        Call(
            "edit",
            "GET",
            url("edit"),
            gate((200,)),
            twin=None if organiser or not signed_in else url("edit", tok=MISSING),
        ),
        Call(
            "edit",
            "POST",
            url("edit"),
            gate((302,)),
            data=_settings(event),
            twin=None if organiser or not signed_in else url("edit", tok=MISSING),
        ),
        Call("join", "GET", url("join"), post_only()),
        # The outsider joins while the event is open; later the event refuses (303).
        Call(
            "join",
            "POST",
            url("join"),
            (302, 303) if signed_in else (302,),
            then=NEWCOMER if role == OUTSIDER and phase is Phase.OPEN else None,
        ),
        Call("submit", "GET", url("submit"), post_only()),
        Call(
            "submit",
            "POST",
            url("submit"),
            (302,) if not signed_in or (participant and phase is Phase.OPEN) else (400,),
            data={"fleet": own_fleet},
        ),
        Call("ics", "GET", url("ics"), (200,)),
        Call("ics", "POST", url("ics"), (405,)),
    ]
    if role != PLAYER:  # someone else's fleet, by its id: refused, and it names nothing
        calls.append(
            Call(
                "submit",
                "POST",
                url("submit"),
                (400,) if signed_in else (302,),
                data={"fleet": cast.fleets[PLAYER].pk},
            )
        )
    for owner, entry in ((PLAYER, player_entry), (RIVAL, rival_entry)):
        sees, _ = may_see(role, cast.secrets[owner], phase, event.show_factions)
        secret = cast.secrets[owner]
        calls.append(
            Call(
                "entry",
                "GET",
                url("entry", entry.pk),
                (200,) if sees else (404,),
                twin=None if sees else url("entry", MISSING_PK),
                shows=(secret.fleet_name, *secret.ships) if sees else (),
            )
        )
        calls.append(Call("entry", "POST", url("entry", entry.pk), (405,)))
    calls.append(Call("entry", "GET", url("entry", MISSING_PK), (404,)))
    # Two lists in the matchup preview (share codes of the snapshots, in the redirect).
    nothing = url("preview") + f"?a={MISSING_PK}&b={MISSING_PK}"
    for a, b in ((PLAYER, RIVAL), (RIVAL, PLAYER), (PLAYER, PLAYER)):
        sees = all(
            may_see(role, cast.secrets[side], phase, event.show_factions)[0] for side in (a, b)
        )
        target = url("preview") + f"?a={cast.entries[a].pk}&b={cast.entries[b].pk}"
        calls.append(
            Call(
                "preview", "GET", target, (302,) if sees else (404,), twin=None if sees else nothing
            )
        )
    calls.append(Call("preview", "GET", nothing, (404,)))
    calls.append(Call("preview", "POST", url("preview"), (405,)))
    for name in ("dashboard", "export_csv", "export_json"):
        twin = None if organiser or not signed_in else url(name, tok=MISSING)
        shows: tuple[str, ...] = ()
        if organiser and name != "export_csv":  # the dashboard shows no list's name
            shows = (
                str(player_entry.points),
                cast.secrets[PLAYER].faction,
                *cast.secrets[PLAYER].problems,
            )
        if organiser and name == "export_json":
            shows += (HIDDEN_NAME,)
        calls.append(Call(name, "GET", url(name), gate((200,)), twin=twin, shows=shows))
        calls.append(Call(name, "POST", url(name), (405,) if signed_in else (302,)))
    calls.append(
        Call(
            "dashboard",
            "GET",
            url("dashboard"),
            gate((200,)),
            headers={"HTTP_HX_REQUEST": "true"},  # the rows' partial
            twin=None if organiser or not signed_in else url("dashboard", tok=MISSING),
        )
    )
    for action in ("approve", "return", "remove"):
        data = {"action": action, "comment": "Two flagships? See R-22."}
        calls.append(
            Call(
                "review",
                "POST",
                url("review", player_entry.pk),
                gate((302,)),
                data=data,
                twin=None if organiser or not signed_in else url("review", MISSING_PK),
            )
        )
    calls.append(
        Call("review", "POST", url("review", MISSING_PK), gate((404,)), data={"action": "approve"})
    )
    calls.append(Call("review", "GET", url("review", player_entry.pk), post_only()))
    later = (timezone.now() + timedelta(days=3)).astimezone(event.zone)
    calls.append(
        Call(
            "extend",
            "POST",
            url("extend"),
            gate((302,)),
            data={"deadline": later.strftime("%Y-%m-%dT%H:%M")},
            twin=None if organiser or not signed_in else url("extend", tok=MISSING),
        )
    )
    calls.append(Call("extend", "GET", url("extend"), post_only()))
    # Rounds: the organiser's controls, and the standings for anyone with the link
    # from the reveal (a player's faction only where R-173 shows it).
    calls.append(
        Call(
            "rounds",
            "GET",
            url("rounds"),
            gate((200,)),
            twin=None if organiser or not signed_in else url("rounds", tok=MISSING),
        )
    )
    calls.append(Call("rounds", "POST", url("rounds"), (405,) if signed_in else (302,)))
    for name in ("pair", "unpair"):
        calls.append(
            Call(
                name,
                "POST",
                url(name),
                gate((302,)),
                twin=None if organiser or not signed_in else url(name, tok=MISSING),
            )
        )
        calls.append(Call(name, "GET", url(name), post_only()))
    result = {"result": "a", "vp_a": "12", "vp_b": "3"}
    if cast.game is not None:
        calls.append(
            Call(
                "result",
                "POST",
                url("result", cast.game.pk),
                gate((302,)),
                data=result,
                twin=None if organiser or not signed_in else url("result", MISSING_PK),
            )
        )
        calls.append(
            Call(
                "result",
                "POST",
                url("result", cast.game.pk),
                gate((200,)),
                data=result,
                headers={"HTTP_HX_REQUEST": "true"},
            )
        )
    calls.append(Call("result", "POST", url("result", MISSING_PK), gate((404,)), data=result))
    calls.append(Call("result", "GET", url("result", MISSING_PK), post_only()))
    calls.append(Call("standings", "GET", url("standings"), (200,)))
    calls.append(Call("standings", "POST", url("standings"), (405,)))
    calls.append(
        Call(
            "standings_csv",
            "GET",
            url("standings_csv"),
            (200,) if cast.game is not None else (404,),
        )
    )
    calls.append(
        Call("standings_csv", "GET", reverse("events:standings_csv", args=[MISSING]), (404,))
    )
    if not PACK_NAMES <= routed:  # the print of every list is not there yet
        return calls
    # The organiser's print of every list (fleetbuilder/events/pack_views.py): theirs only.
    calls.append(Call("pack_new", "GET", url("pack_new"), post_only()))
    calls.append(Call("pack", "GET", url("pack", "no-such-pack"), gate((404,))))
    calls.append(Call("pack_pdf", "GET", url("pack_pdf", "no-such-pack"), gate((404,))))
    if not organiser:  # the organiser's asks for a real print: _walk_pack
        calls.append(
            Call(
                "pack_new",
                "POST",
                url("pack_new"),
                gate((302,)),
                twin=url("pack_new", tok=MISSING) if signed_in else None,
            )
        )
    return calls


PACK_NAMES = {"pack_new", "pack", "pack_pdf"}
SAME_FOR_EVERYONE = {"ics"}  # the start and the deadline, for anyone holding the link


@functools.cache
def _openapi() -> dict[str, Any]:
    return json.loads(Client().get("/api/v1/openapi.json").content)


def _api_calls(cast: Cast, role: str) -> list[Call]:
    """Every /api/v1/ GET route that takes no id, or the caller's own fleet (the visitor: the
    player's, to be refused), as the OpenAPI document lists them."""
    schema = _openapi()
    own = cast.fleets.get(role, cast.fleets[PLAYER]).pk
    values = {"fleet_id": own, "number": 7}
    skipped = {
        "code": "a share code: anyone holding it reads it (tests/api/test_access.py)",
        "public_id": "a simulator run: anyone holding it reads it (tests/api)",
    }
    calls = [Call("openapi", "GET", "/api/v1/openapi.json", (200,), ignore=CATALOGUE_KINDS)]
    for path, methods in sorted(schema["paths"].items()):
        if "get" not in methods:
            continue
        params = re.findall(r"\{(\w+)\}", path)
        unknown = [p for p in params if p not in values and p not in skipped]
        assert not unknown, f"classify the API route {path}: walk it here or say why not"
        if any(p in skipped for p in params):
            continue
        needs_token = methods["get"].get("security") and not any(
            "OptionalTokenAuth" in str(s) for s in methods["get"]["security"]
        )
        target = path.format(**values)
        public = not params and not needs_token or "number" in params
        calls.append(
            Call(
                "api",
                "GET",
                target,
                (200,) if role != VISITOR or not needs_token else (401,),
                ignore=CATALOGUE_KINDS if public else frozenset(),
            )
        )
    return calls


# --- the walk ---------------------------------------------------------------------------------


def _decoded_codes(text: str) -> list[str]:
    """Every fleet a share code in ``text`` carries (a link, a redirect's address), as JSON:
    a list handed over as a code is as shown as a list printed."""
    out = []
    for candidate in set(re.findall(r"v\d+\.[A-Za-z0-9_-]{16,}", unquote(text))):
        try:
            fleet = sharecode.decode(candidate)
        except (sharecode.ShareCodeError, ValueError):
            continue
        out.append(json.dumps(rf.fleet_to_dict(fleet), ensure_ascii=False))
    return out


def _without_tokens(text: str) -> str:
    return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]*"', r"\1", text)


@dataclass
class Walk:
    cast: Cast
    phase: Phase
    requests: Counter[str] = field(default_factory=Counter)  # per role
    leaks: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)  # a status, header or control amiss

    def read(self, role: str, call: Call, response: Any, *, judge: str | None = None) -> None:
        """Search one response for every secret ``role`` (or ``judge``) may not see."""
        self.requests[role] += 1
        where = f"{call.method} {call.url} as {role}"
        if response.status_code >= 500:
            self.wrong.append(f"{where}: {response.status_code}")
        body = (
            response.content.decode("utf-8", "replace")
            if not getattr(response, "streaming", False)
            else b"".join(response.streaming_content).decode()
        )
        text = html.unescape(body)
        text += "\n" + "\n".join(f"{k}: {v}" for k, v in response.items())
        if response.get("Content-Type", "").startswith("application/json"):
            text += "\n" + json.dumps(json.loads(body or "null"), ensure_ascii=False)
        text += "\n" + "\n".join(_decoded_codes(text))
        for secret in self.cast.secrets.values():
            sees_list, sees_faction = may_see(
                judge or role, secret, self.phase, self.cast.event.show_factions
            )
            shown = secret.found(text, call.ignore)
            if shown["list"] and not sees_list:
                self.leaks.append(f"{where}: {secret.owner}'s {shown['list']}")
            if shown["faction"] and not sees_faction:
                self.leaks.append(f"{where}: {secret.owner}'s faction {shown['faction']}")
        if call.url.startswith("/events/"):
            cache = response.get("Cache-Control", "").lower()
            if "public" in cache or "s-maxage" in cache:
                self.wrong.append(f"{where}: shared-cache header {cache!r}")
            if (
                response.status_code == 200
                and call.name not in SAME_FOR_EVERYONE
                and not (
                    "private" in cache
                    or "no-store" in cache
                    or "cookie" in response.get("Vary", "").lower()
                )
            ):
                self.wrong.append(
                    f"{where}: a page that depends on its viewer, with neither "
                    "Vary: Cookie nor Cache-Control: private"
                )

    def send(self, role: str, call: Call) -> None:
        who = self.cast.browsers[role]
        where = f"{call.method} {call.url} as {role}"
        if call.method == "POST":
            with transaction.atomic():  # what the POST stores goes with the savepoint
                response = who.send("POST", call.url, call.data, **call.headers)
                self._answer(role, call, response, where)
                transaction.set_rollback(True)
        else:
            self._answer(role, call, who.send("GET", call.url, None, **call.headers), where)

    def _answer(self, role: str, call: Call, response: Any, where: str) -> None:
        self.read(role, call, response)
        status = response.status_code
        if status not in call.expect:
            self.wrong.append(f"{where}: {status}, expected {call.expect}")
        who = self.cast.browsers[role]
        if status in (301, 302, 303):
            location = response["Location"]
            if location.startswith(LOGIN):
                if role != VISITOR:
                    self.wrong.append(f"{where}: sent a signed-in player to log in")
            elif role == VISITOR and call.method == "POST":
                self.wrong.append(f"{where}: a visitor's POST led to {location}, not to log in")
            elif location.startswith("/"):  # where it leads (and its message) is read too
                ignore = call.ignore if location.startswith("/events/") else CATALOGUE_KINDS
                self.read(
                    role,
                    Call(call.name, "GET", location, (200,), ignore=ignore),
                    who.get(location),
                    judge=call.then,
                )
            else:
                self.wrong.append(f"{where}: redirected off the site, to {location}")
        elif role == VISITOR and call.method == "POST" and status not in (400, 404, 405):
            self.wrong.append(f"{where}: a visitor's POST answered {status}")
        if call.shows:
            text = html.unescape(response.content.decode())
            missing = [s for s in call.shows if s not in text]
            if missing:
                self.wrong.append(f"{where}: does not show {missing} (the control)")
        if call.twin is not None:
            twin = who.send(call.method, call.twin, call.data, **call.headers)
            self.read(role, Call(call.name, call.method, call.twin, call.expect), twin)
            # The page links to itself (log in, then come back): its own address aside.
            same = twin.status_code == status and _without_tokens(twin.content.decode()).replace(
                call.twin, "URL"
            ) == _without_tokens(response.content.decode()).replace(call.url, "URL")
            if not same:
                self.wrong.append(
                    f"{where}: {status}, not the same answer as {call.twin} "
                    f"({twin.status_code}): it tells a hidden thing from nothing"
                )


def _walk_pack(walk: Walk) -> None:
    """The organiser asks for a print of every list; only they may follow it or download it."""
    cast = walk.cast
    event = cast.event
    organiser = cast.browsers[ORGANISER]
    ask = reverse("events:pack_new", args=[event.token])
    response = organiser.send("POST", ask)
    walk.read(ORGANISER, Call("pack_new", "POST", ask, (302,)), response)
    if response.status_code != 302:
        walk.wrong.append(f"POST pack_new as organiser: {response.status_code}")
        return
    page = response["Location"]
    pdf = page.rstrip("/") + "/pdf"
    public_id = page.rstrip("/").rsplit("/", 1)[1]
    for role in ROLES:
        for target in (page, pdf):
            twin = None
            if role not in (ORGANISER, VISITOR):
                twin = target.replace(public_id, "no-such-pack")
            expect = (200, 302) if role == ORGANISER else (404,) if role != VISITOR else (302,)
            walk.send(role, Call("pack", "GET", target, expect, twin=twin))


def _summary(phase: Phase, show_factions: bool, walk: Walk) -> str:
    roles = ", ".join(f"{role} {walk.requests[role]}" for role in ROLES)
    return (
        f"events access, {phase.value}, show_factions={'on' if show_factions else 'off'}: "
        f"{sum(walk.requests.values())} requests walked ({roles}); leaks: "
        f"{len(walk.leaks)}"
    )


@pytest.fixture(autouse=True)
def _no_rate_limits(settings) -> None:
    """The walk sends many requests from one address; R-96's limits are tested elsewhere."""
    if hasattr(settings, "RATE_LIMITS"):
        settings.RATE_LIMITS = {scope: 0 for scope in settings.RATE_LIMITS}


@pytest.mark.parametrize("show_factions", [False, True], ids=["factions-hidden", "factions-shown"])
@pytest.mark.parametrize("phase", list(Phase), ids=[p.value for p in Phase])
def test_nothing_of_a_hidden_list_leaks(
    phase: Phase, show_factions: bool, catalog: Any, make_account: Callable[[str], CsrfClient]
) -> None:
    cast = _cast(phase, show_factions, make_account)
    routed = {r.name.removeprefix("events:") for r in walk() if r.name.startswith("events:")}
    run = Walk(cast, phase)
    walked = set()
    for role in ROLES:
        for call in _calls(cast, role, phase, routed):
            run.send(role, call)
            walked.add(call.name)
        api = Client()
        for call in _api_calls(cast, role):
            headers = (
                {"HTTP_AUTHORIZATION": f"Bearer {cast.tokens[role]}"} if role in cast.tokens else {}
            )
            response = api.get(call.url, **headers)
            run.read(role, call, response)
            if response.status_code not in call.expect:
                run.wrong.append(
                    f"GET {call.url} as {role}: {response.status_code}, expected {call.expect}"
                )
    if PACK_NAMES <= routed and phase is Phase.LOCKED and not show_factions:
        _walk_pack(run)  # once: a print takes seconds, and it is the organiser's in any phase
    # Each player sees their own list on the event's page, in every phase.
    for role in PARTICIPANTS:
        page = html.unescape(
            cast.browsers[role].get(cast.event.get_absolute_url()).content.decode()
        )
        run.requests[role] += 1
        secret = cast.secrets[role]
        if secret.fleet_name not in page or f"{secret.points} points" not in page:
            run.wrong.append(f"{role} does not see their own list on the event's page")
    assert routed <= walked, f"event URLs the walk does not visit: {sorted(routed - walked)}"
    summary = _summary(phase, show_factions, run)
    # On stderr: pytest -s shows it, from xdist's workers too (their stdout is not relayed).
    print(summary, file=sys.stderr)
    assert run.leaks == [], summary + "\n" + "\n".join(run.leaks)
    assert run.wrong == [], summary + "\n" + "\n".join(run.wrong)
    assert sum(run.requests.values()) > 300, summary
