"""The access matrix: every URL that names an object, for its owner, another signed-in account
and an anonymous browser, by GET and by POST (each with a valid CSRF token of its own).

The URLs come from Django's resolver; each one that takes an argument is either in MATRIX (what
it names and who may do what) or in EXCLUDED (with the reason), and a new one that is in neither
fails ``test_every_url_with_an_argument_is_classified``, so no future URL slips past.

The rules, as the app documents them:
- a fleet's own URLs (builder, regions, edits, share page, export, cards, library actions) are
  its owner's: anyone else gets 404, the same answer as for a fleet that does not exist;
- a shared link (/s/<id>/…), a share code and a simulator run's page are readable by anyone
  holding them; "Copy to my fleets" and "Run again" make the visitor's own copy;
- only the player who started a run may cancel it: anyone else gets 403;
- a method a view does not take is 405 for everyone.
After every refused POST the object is exactly as it was (document, name, version, last change,
trash and sharing state, owner) and nothing new was stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import reverse

from fleetbuilder.analysis.models import Analysis
from fleetbuilder.battlepack.models import BattlePack
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.ownership import new_owner_token
from fleetbuilder.simulator.models import Matchup
from rules_core import fleet as rf
from rules_core import sharecode

from .conftest import CsrfClient, Route, fleet_state, run_state, walk

pytestmark = pytest.mark.django_db

OWNER = "owner"  # its owner only; anyone else 404
ANYONE = "anyone"  # anyone holding the URL: 2xx
FORK = "fork"  # anyone: 3xx, and the new object is the visitor's own; the original untouched
OWNER_ELSE_403 = "owner, else 403"


@dataclass(frozen=True)
class Spec:
    obj: str  # what the URL names: fleet, trashed (a fleet in the trash), share, code, run,
    # print (a finished big print)
    get: str | None = None  # None: the view takes no GET (405 for everyone)
    post: str | None = None


BUILDER_GET = Spec("fleet", get=OWNER)
BUILDER_POST = Spec("fleet", post=OWNER)
MATRIX: dict[str, Spec] = {
    # Saved Fleets (fleetbuilder/fleets/library.py)
    "fleets:rename_fleet": BUILDER_POST,
    "fleets:copy_fleet": BUILDER_POST,
    "fleets:trash_fleet": BUILDER_POST,
    "fleets:restore_fleet": Spec("trashed", post=OWNER),
    "fleets:delete_fleet": Spec("trashed", get=OWNER, post=OWNER),
    # the builder (fleetbuilder/fleets/views.py)
    "fleets:detail": BUILDER_GET,
    "fleets:head": BUILDER_GET,
    "fleets:units": BUILDER_GET,
    "fleets:unit": BUILDER_GET,
    "fleets:meter": BUILDER_GET,
    "fleets:problems": BUILDER_GET,
    "fleets:settings": BUILDER_POST,
    "fleets:add_ship": BUILDER_POST,
    "fleets:new_squadron": BUILDER_POST,
    "fleets:undo": BUILDER_POST,
    "fleets:update_edition": BUILDER_POST,
    "fleets:undo_edition": BUILDER_POST,
    "fleets:keep_edition": BUILDER_POST,
    "fleets:compare": BUILDER_GET,
    "fleets:add_escort": BUILDER_POST,
    "fleets:move": BUILDER_POST,
    "fleets:flagship": BUILDER_POST,
    "fleets:admiral": BUILDER_POST,
    "fleets:add_upgrade": BUILDER_POST,
    "fleets:remove_upgrade": BUILDER_POST,
    "fleets:set_upgrades": BUILDER_POST,
    "fleets:reorder": BUILDER_POST,
    "fleets:rename": BUILDER_POST,
    "fleets:duplicate": BUILDER_POST,
    "fleets:remove": BUILDER_POST,
    # sharing (fleetbuilder/fleets/sharing.py)
    "fleets:share": BUILDER_GET,
    "fleets:share_link": BUILDER_POST,
    "fleets:export_file": BUILDER_GET,
    "fleets:export_text": BUILDER_GET,
    "fleets:code": Spec("code", get=ANYONE, post=FORK),
    "fleets:code_print": Spec("code", get=ANYONE),
    "fleets:code_cards": Spec("code", get=ANYONE),
    "shared:fleet": Spec("share", get=ANYONE),
    "shared:copy": Spec("share", post=FORK),
    "shared:file": Spec("share", get=ANYONE),
    "shared:text": Spec("share", get=ANYONE),
    "shared:print": Spec("share", get=ANYONE),
    "shared:cards": Spec("share", get=ANYONE),
    # cards (fleetbuilder/cards/views.py)
    "cards:fleet_pdf": BUILDER_GET,
    "cards:print": BUILDER_GET,
    # the simulator (fleetbuilder/simulator/views.py)
    "simulator:matchup": Spec("run", get=ANYONE),
    "simulator:cancel": Spec("run", post=OWNER_ELSE_403),
    "simulator:again": Spec("run", post=FORK),
    "simulator:fleet_file": Spec("run", get=ANYONE),
    "simulator:results_json": Spec("run", get=ANYONE),
    # watching one battle of a run: readable by anyone holding the run's link, as its results
    "simulator:replay": Spec("run", get=ANYONE),
    "simulator:replay_json": Spec("run", get=ANYONE),
    # big prints on the workers (fleetbuilder/cards/views.py): the requester's only
    "cards:print_job": Spec("print", get=OWNER),
    "cards:print_job_pdf": Spec("print", get=OWNER),
    # battle packs (fleetbuilder/battlepack/views.py): asked for from a run by anyone holding
    # its link (the pack is theirs); a pack is its requester's only, like a big print
    "battlepack:from_matchup": Spec("run", post=FORK),
    "battlepack:pack": Spec("pack", get=OWNER),
    "battlepack:pdf": Spec("pack", get=OWNER),
    # which ship matters? (fleetbuilder/analysis/views.py): read, repeat and open by link
    "analysis:analysis": Spec("analysis", get=ANYONE),
    "analysis:cancel": Spec("analysis", post=OWNER_ELSE_403),
    "analysis:again": Spec("analysis", post=FORK),
    "analysis:results_json": Spec("analysis", get=ANYONE),
    "analysis:open_variant": Spec("analysis", post=FORK),
}

EXCLUDED: dict[str, str] = {
    "accounts:password_reset_confirm": (
        "not an object's id: a signed, expiring token for one account, checked by Django's "
        "PasswordResetConfirmView (test_a_forged_reset_token_sets_no_password below)"
    ),
    "catalog:faction": "a public catalogue page named by a published slug; nobody owns it",
    "catalog:ship": "a public catalogue page named by a published slug; nobody owns it",
    "editions:edition": "a published edition's public changelog, named by its number (R-160)",
    **{
        f"events:{name}": "an event's page, named by its unguessable token: its own matrix of "
        "roles and phases, tests/security/test_events_access.py (R-173)"
        for name in (
            "event",
            "edit",
            "join",
            "submit",
            "entry",
            "ics",
            "preview",
            "dashboard",
            "review",
            "extend",
            "export_csv",
            "export_json",
            "pack_new",
            "pack",
            "pack_pdf",
            "rounds",
            "pair",
            "unpair",
            "result",
            "standings",
            "standings_csv",
        )
    },
}
# Django's admin: staff only, every URL (test_the_admin_refuses_players_and_visitors).
EXCLUDED_PREFIXES = {
    "admin/": "Django admin, staff only",
    "api/": "token-authenticated API: its own matrix, tests/api/test_access.py",
}


def routes_with_arguments() -> list[Route]:
    return [r for r in walk() if r.params]


def test_every_url_with_an_argument_is_classified() -> None:
    unclassified = [
        f"{r.name or '(unnamed)'} {r.route}"
        for r in routes_with_arguments()
        if r.name not in MATRIX
        and r.name not in EXCLUDED
        and not r.route.startswith(tuple(EXCLUDED_PREFIXES))
    ]
    assert unclassified == [], (
        "New URLs that take an id: add each to MATRIX in tests/security/test_access.py (who may "
        f"GET and POST it) or to EXCLUDED with the reason: {unclassified}"
    )
    gone = sorted(set(MATRIX) - {r.name for r in walk()})
    assert gone == [], f"MATRIX names URLs that no longer exist: {gone}"


# --- the matrix -----------------------------------------------------------------------------


def _matrix_fleet() -> rf.Fleet:
    """A small legal-shaped fleet: a flagship cruiser with an admiral and a squadron."""
    return rf.Fleet(
        faction="imperial-navy",
        game_size=rf.GameSize.PATROL,
        name="Matrix Patrol",
        units=(
            rf.ShipUnit("lunar-class-cruiser", flagship=True, admiral="commodore", name="Wrath"),
            rf.Squadron((rf.SquadronShip("sword-class-frigate"),) * 2, name="Swords"),
        ),
    )


@dataclass
class Target:
    kwargs: dict[str, Any]
    state: Callable[[], Any]  # what a refused request must leave unchanged
    fleet: Fleet | None = None
    run: Matchup | None = None


def _target(
    spec: Spec,
    route: Route,
    owner: CsrfClient,
    make_fleet: Callable[..., Fleet],
    make_run: Callable[..., Matchup],
) -> Target:
    doc = _matrix_fleet()
    if spec.obj in ("fleet", "trashed", "share"):
        fleet = make_fleet(owner, doc, shared=True, trashed=spec.obj == "trashed")
        kwargs: dict[str, Any] = (
            {"pk": fleet.pk} if spec.obj != "share" else {"share_id": fleet.share_id}
        )
        if "unit" in route.params:
            kwargs["unit"] = 1  # the squadron
        return Target(kwargs, lambda: fleet_state(fleet), fleet=fleet)
    if spec.obj == "code":
        return Target({"code": sharecode.encode(doc)}, lambda: None)
    if spec.obj == "run":
        run = make_run(owner, doc)
        kwargs = {"public_id": run.public_id}
        if "side" in route.params:
            kwargs["side"] = "a"
        if "battle" in route.params:
            kwargs["battle"] = 1
        return Target(kwargs, lambda: run_state(run), run=run)
    if spec.obj == "analysis":
        analysis = _queued_analysis(owner, doc)
        kwargs = {"public_id": analysis.public_id}
        if "variant" in route.params:
            kwargs["variant"] = 1
        return Target(kwargs, lambda: _analysis_state(analysis))
    if spec.obj == "print":
        job = _finished_print(owner, doc)
        return Target({"public_id": job.public_id}, lambda: _print_state(job))
    if spec.obj == "pack":
        pack = _finished_pack(owner, doc)
        return Target({"public_id": pack.public_id}, lambda: _pack_state(pack))
    raise AssertionError(f"unknown object kind {spec.obj}")


def _finished_print(owner: CsrfClient, doc: rf.Fleet) -> Any:
    """A finished big print of ``owner``'s, its PDF in the shared cache."""
    import secrets as _secrets

    from fleetbuilder import pdfcache
    from fleetbuilder.cards.models import PrintJob

    user = getattr(owner, "user", None)
    token = ""
    if user is None:
        session = owner.session
        token = session.get("fleet_owner_token") or new_owner_token()
        session["fleet_owner_token"] = token
        session.save()
    key = "matrix-print-" + _secrets.token_hex(8)
    job = PrintJob.objects.create(
        public_id=_secrets.token_urlsafe(16),
        owner=user,
        session_key="" if user else token,
        document=rf.fleet_to_dict(doc),
        name="Matrix",
        filename="matrix-cards.pdf",
        layout="a4",
        cards=2,
        cache_key=key,
        status=PrintJob.Status.DONE,
    )
    pdfcache.put(key, b"%PDF-1.7 matrix")
    return job


def _finished_pack(owner: CsrfClient, doc: rf.Fleet) -> Any:
    """A finished battle pack of ``owner``'s, its PDF in the shared cache."""
    import secrets as _secrets

    from fleetbuilder import pdfcache
    from fleetbuilder.battlepack.models import BattlePack

    user = getattr(owner, "user", None)
    token = ""
    if user is None:
        session = owner.session
        token = session.get("fleet_owner_token") or new_owner_token()
        session["fleet_owner_token"] = token
        session.save()
    key = "matrix-pack-" + _secrets.token_hex(8)
    pack = BattlePack.objects.create(
        public_id=_secrets.token_urlsafe(16),
        owner=user,
        session_key="" if user else token,
        fleet_a=rf.fleet_to_dict(doc),
        fleet_b=rf.fleet_to_dict(doc),
        label_a="A",
        label_b="B",
        cache_key=key,
        status=BattlePack.Status.DONE,
    )
    pdfcache.put(key, b"%PDF-1.7 matrix")
    return pack


def _pack_state(pack: Any) -> tuple[Any, ...]:
    pack.refresh_from_db()
    return (pack.status, pack.owner_id, pack.session_key, pack.fleet_a, pack.cache_key)


def _queued_analysis(owner: CsrfClient, doc: rf.Fleet) -> Analysis:
    """A queued (never played) 2-battle analysis of ``owner``'s."""
    from fleetbuilder.analysis.models import variant_records
    from fleetbuilder.catalog import loader
    from rules_core.sample_fleets import sample_fleet
    from rules_core.sim import SimOptions
    from rules_core.whatif import what_if_variants

    user = getattr(owner, "user", None)
    token = ""
    if user is None:
        session = owner.session
        token = session.get("fleet_owner_token") or new_owner_token()
        session["fleet_owner_token"] = token
        session.save()
    catalog = loader.core_catalog()
    variants, _ = what_if_variants(catalog, doc)
    return Analysis.start(
        fleet=doc,
        opponent=sample_fleet(catalog, "orks", "patrol"),
        variants=variant_records(variants),
        skipped=[],
        sources={},
        options=SimOptions(),
        seed=7,
        battles=2,
        owner=user,
        owner_token=token,
        send=False,
    )


def _analysis_state(analysis: Analysis) -> tuple[Any, ...]:
    analysis = Analysis.objects.get(pk=analysis.pk)
    return (
        analysis.status,
        analysis.fleet,
        analysis.variants,
        analysis.owner_id,
        analysis.session_key,
        analysis.done,
        analysis.finished,
    )


def _print_state(job: Any) -> tuple[Any, ...]:
    job.refresh_from_db()
    return (job.status, job.owner_id, job.session_key, job.document, job.cache_key)


def _payload(target: Target) -> dict[str, Any]:
    """A POST body that would change the object if it were accepted: every field any edit reads,
    with the fleet's current version, so only access can stop it."""
    data = {
        "name": "Pwned",
        "ship": "0",
        "to": "new",
        "upgrade": "veteran-crew",
        "admiral": "",
        "action": "new",
        "game_size": "armada",
        "variant": "",
        "faction": "imperial-navy",
        "next": "/fleets/",
        "open": "copy",
    }
    if target.fleet is not None and hasattr(target.fleet, "version"):
        data["version"] = str(Fleet.objects.get(pk=target.fleet.pk).version)
    return data


def _counts() -> tuple[int, int, int, int]:
    return (
        Fleet.objects.count(),
        Matchup.objects.count(),
        Analysis.objects.count(),
        BattlePack.objects.count(),
    )


def _owns(browser: CsrfClient, obj: Fleet | Matchup | Analysis | BattlePack) -> bool:
    user = getattr(browser, "user", None)
    if user is not None:
        return obj.owner_id == user.pk
    return obj.owner_id is None and obj.session_key == browser.session.get("fleet_owner_token")


def _newest(model: type[Fleet] | type[Matchup] | type[Analysis] | type[BattlePack]) -> Any:
    return model.objects.order_by("-pk").first()


def _check(
    role: str, who: CsrfClient, method: str, url: str, rule: str | None, target: Target
) -> None:
    before_state, before_counts = target.state(), _counts()
    data = _payload(target) if method == "POST" else None
    response = who.send(method, url, data)
    status = response.status_code
    where = f"{method} {url} as {role}"
    assert status != 500, where
    if rule is None:
        assert status == 405, f"{where}: {status}, expected 405 (the view takes no {method})"
    elif rule == ANYONE or (rule in (OWNER, OWNER_ELSE_403) and role == "owner"):
        assert 200 <= status < 400, f"{where}: {status}"
    elif rule == OWNER:
        assert status == 404, f"{where}: {status}, expected 404"
    elif rule == OWNER_ELSE_403:
        assert status == 403, f"{where}: {status}, expected 403"
    elif rule == FORK:
        assert 300 <= status < 400, f"{where}: {status}"
        counts = _counts()
        assert sum(counts) - sum(before_counts) == 1, where
        created = _newest(
            next(
                model
                for model, now, was in zip(
                    (Fleet, Matchup, Analysis, BattlePack), counts, before_counts, strict=True
                )
                if now > was
            )
        )
        assert _owns(who, created), f"{where}: the copy is not the visitor's own"
        assert target.state() == before_state, f"{where} changed the original"
        return
    if role != "owner" and (status >= 400 or method == "GET"):
        assert target.state() == before_state, f"{where} changed the object"
        assert _counts() == before_counts, f"{where} stored something"


@pytest.fixture(autouse=True)
def _no_rate_limits(settings) -> None:
    """The matrix sends many requests from one address; R-96's limits are tested elsewhere."""
    if hasattr(settings, "RATE_LIMITS"):
        settings.RATE_LIMITS = {scope: 0 for scope in settings.RATE_LIMITS}


def _cases() -> list[tuple[str, str]]:
    """Every URL with a signed-in owner; those only an owner may use, with an anonymous owner
    (a browser's session token) too."""
    cases = [(name, "account") for name in sorted(MATRIX)]
    cases += [
        (name, "browser")
        for name, spec in sorted(MATRIX.items())
        if {spec.get, spec.post} & {OWNER, OWNER_ELSE_403}
    ]
    return cases


@pytest.mark.parametrize(("name", "owner_kind"), _cases())
def test_access_matrix(
    name: str,
    owner_kind: str,
    make_account: Callable[[str], CsrfClient],
    make_fleet: Callable[..., Fleet],
    make_run: Callable[..., Matchup],
) -> None:
    route = next(r for r in walk() if r.name == name)
    spec = MATRIX[name]
    owner = make_account("owner") if owner_kind == "account" else CsrfClient()
    other = make_account("rival")
    anonymous = CsrfClient()
    make_fleet(other, _matrix_fleet())  # the others are players with fleets of their own
    make_fleet(anonymous, _matrix_fleet())
    target = _target(spec, route, owner, make_fleet, make_run)
    url = reverse(name, kwargs=target.kwargs)
    for role, who in (("another account", other), ("anonymous", anonymous), ("owner", owner)):
        for method in ("GET", "POST"):
            rule = spec.get if method == "GET" else spec.post
            _check(role, who, method, url, rule, target)


# --- around the matrix ----------------------------------------------------------------------


def _without_tokens(html: str) -> str:
    html = re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]*"', r"\1", html)
    return re.sub(r"/fleets/\d+/", "/fleets/N/", html)


@pytest.mark.parametrize(
    "path",
    [
        "/fleets/{pk}/",
        "/fleets/{pk}/share/",
        "/fleets/{pk}/export.json",
        "/cards/fleet/{pk}/print/",
    ],
)
def test_a_private_fleet_looks_exactly_like_a_missing_one(
    path: str, owner: CsrfClient, other: CsrfClient, make_fleet: Callable[..., Fleet]
) -> None:
    fleet = make_fleet(owner, _matrix_fleet())
    private = other.get(path.format(pk=fleet.pk))
    missing = other.get(path.format(pk=fleet.pk + 1000))
    assert private.status_code == missing.status_code == 404
    assert _without_tokens(private.content.decode()) == _without_tokens(missing.content.decode())


def test_a_trashed_or_turned_off_share_is_404_for_everyone(
    owner: CsrfClient, other: CsrfClient, anonymous: CsrfClient, make_fleet: Callable[..., Fleet]
) -> None:
    off = make_fleet(owner, _matrix_fleet(), shared=True)
    off.unshare()
    trashed = make_fleet(owner, _matrix_fleet(), shared=True, trashed=True)
    for fleet in (off, trashed):
        for suffix in ("", "fleet.json", "fleet.txt", "cards/", "cards.pdf"):
            for who in (owner, other, anonymous):
                assert who.get(f"/s/{fleet.share_id}/{suffix}").status_code == 404
        before = _counts()
        assert other.send("POST", f"/s/{fleet.share_id}/copy/").status_code == 404
        assert _counts() == before


def test_the_simulator_form_offers_only_your_own_fleets(
    owner: CsrfClient, other: CsrfClient, make_fleet: Callable[..., Fleet], held_chunks: list[Any]
) -> None:
    """A fleet id in the form (a side, or ?a=) never reaches someone else's private fleet."""
    from rules_core.sample_fleets import sample_fleet

    secret = make_fleet(owner, _matrix_fleet())
    Fleet.objects.filter(pk=secret.pk).update(name="Secret Armada")
    page = other.get(f"/simulator/?a={secret.pk}").content.decode()
    assert "Secret Armada" not in page
    fields = {
        "a_source": "fleet",
        "a_fleet": str(secret.pk),
        "b_source": "sample",
        "b_faction": "orks",
        "b_size": "patrol",
        "b_variant": "",
        "battles": "4",
        "max_rounds": "10",
        "table": "",
        "scoring": "core",
        "terrain": "none",
        "seed": "1",
    }
    before = _counts()
    response = other.send("POST", "/simulator/", fields)
    assert response.status_code == 400
    assert _counts() == before
    assert sample_fleet  # the B side is a sample: only A's id is at stake


def test_the_admin_refuses_players_and_visitors(
    owner: CsrfClient,
    anonymous: CsrfClient,
    make_fleet: Callable[..., Fleet],
    make_run: Callable[..., Matchup],
) -> None:
    fleet = make_fleet(owner, _matrix_fleet())
    run = make_run(owner)
    for url in (
        f"/admin/fleets/fleet/{fleet.pk}/change/",
        f"/admin/fleets/fleet/{fleet.pk}/",
        f"/admin/fleets/fleet/{fleet.pk}/delete/",
        f"/admin/simulator/matchup/{run.pk}/change/",
        "/admin/auth/user/1/change/",
    ):
        for who in (owner, anonymous):
            for method in ("GET", "POST"):
                before = fleet_state(fleet)
                response = who.send(method, url, {"name": "Pwned", "post": "yes"})
                assert response.status_code == 302, f"{method} {url}"
                assert response.headers["Location"].startswith("/admin/login/")
                assert fleet_state(fleet) == before


def test_a_forged_reset_token_sets_no_password(owner: CsrfClient, anonymous: CsrfClient) -> None:
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    user = owner.user  # type: ignore[attr-defined]
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    url = f"/accounts/password/reset/{uid}/forged-token/"
    response = anonymous.get(url, follow=True)
    assert response.status_code == 200
    assert 'name="new_password1"' not in response.content.decode()
    anonymous.send(
        "POST", url, {"new_password1": "Pwned pwned 123", "new_password2": "Pwned pwned 123"}
    )
    user.refresh_from_db()
    assert user.check_password("a long password for tests 9")


def test_lists_and_bulk_actions_hold_only_your_own(
    owner: CsrfClient,
    other: CsrfClient,
    anonymous: CsrfClient,
    make_fleet: Callable[..., Fleet],
    make_run: Callable[..., Matchup],
) -> None:
    """The URLs without an id act on "your" fleets: never on anyone else's."""
    import io
    import zipfile

    alive = make_fleet(owner, _matrix_fleet())
    trashed = make_fleet(owner, _matrix_fleet(), trashed=True)
    Fleet.objects.filter(pk__in=[alive.pk, trashed.pk]).update(name="Owner's Secret")
    make_run(owner)
    before = (fleet_state(alive), fleet_state(trashed), _counts())
    for who in (other, anonymous):
        make_fleet(who, _matrix_fleet())
        for url in (
            "/fleets/",
            "/fleets/trash/",
            "/simulator/",
            "/fleets/trash/empty/",
            "/fleets/?q=Secret",
        ):
            assert "Owner&#x27;s Secret" not in who.get(url).content.decode(), url
        backup = who.get("/fleets/export.zip")
        assert backup.status_code == 200
        names = zipfile.ZipFile(io.BytesIO(backup.content)).namelist()
        assert len(names) == 1 and "secret" not in names[0]
        assert who.send("POST", "/fleets/trash/empty/").status_code == 302
    assert (fleet_state(alive), fleet_state(trashed)) == before[:2]
    assert Matchup.objects.count() == before[2][1]
    assert "Owner&#x27;s Secret" in owner.get("/fleets/").content.decode()  # the control
