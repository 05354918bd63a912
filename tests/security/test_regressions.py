"""One compact case for each hole issue #11 found, kept here so the security suite guards them
all on both databases (the full tests live with each fix: tests/concurrency, tests/fleets/
test_edit_versions.py, tests/unicode, tests/limits, tests/commands).

§1 a stale edit is refused and never touches another unit; §3 a lone surrogate or a NUL is a
clear 400, never a 500 or a stored fleet that breaks pages; §4 the issue's tiny 100 × 32 share
code and over-bound fleets are refused fast, and the rate limits bite with Retry-After; §5 a cap
message says the real size.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from tests.support.timing import bound

from .conftest import CsrfClient, fleet_state, small_fleet

pytestmark = pytest.mark.django_db

hostile = pytest.importorskip(
    "fleetbuilder.fleets.hostile", reason="issue 11 §4 (fleet bounds, R-95) has not landed"
)


@contextmanager
def nothing_stored(seconds: float = 3.0) -> Iterator[None]:
    before = (Fleet.objects.count(), Matchup.objects.count())
    started = time.monotonic()
    yield
    assert time.monotonic() - started < bound(seconds)
    assert (Fleet.objects.count(), Matchup.objects.count()) == before


def _version(fleet: Fleet) -> str:
    return str(Fleet.objects.get(pk=fleet.pk).version)


# --- §1 simultaneous edits ------------------------------------------------------------------


def test_s1_a_stale_remove_is_409_and_touches_no_other_unit(
    owner: CsrfClient, make_fleet: Callable[..., Fleet], catalog: Any
) -> None:
    if not hasattr(Fleet, "version"):
        pytest.skip("issue 11 §1 (fleet versions) has not landed")
    fleet = make_fleet(owner, small_fleet(catalog))
    seen = _version(fleet)  # both tabs opened the builder at this version
    htmx = {"HX-Request": "true"}
    first = owner.send(
        "POST", f"/fleets/{fleet.pk}/units/0/remove/", {"version": seen}, headers=htmx
    )
    assert first.status_code == 200
    after_first = fleet_state(fleet)
    # The other tab still shows the old list: its "remove unit 0" meant another ship.
    stale = owner.send(
        "POST", f"/fleets/{fleet.pk}/units/0/remove/", {"version": seen}, headers=htmx
    )
    assert stale.status_code == 409
    assert "changed" in stale.content.decode()
    edits = (
        ("units/0/rename/", {"name": "Pwned"}),
        ("add-ship/", {"ship": "lunar-class-cruiser"}),
        (
            "settings/",
            {"name": "Pwned", "faction": "imperial-navy", "variant": "", "game_size": "armada"},
        ),
    )
    for path, data in edits:
        response = owner.send(
            "POST", f"/fleets/{fleet.pk}/{path}", {**data, "version": seen}, headers=htmx
        )
        assert response.status_code == 409, path
    assert fleet_state(fleet) == after_first


# --- §3 Unicode -----------------------------------------------------------------------------


def _file(**fields: str) -> str:
    head = (
        '{"format": "void-command-fleet", "version": 1, "faction": "imperial-navy", '
        '"game_size": "patrol", "units": [{"kind": "ship", "ship": "lunar-class-cruiser"}]'
    )
    return head + "".join(f', "{k}": {v}' for k, v in fields.items()) + "}"


@pytest.mark.parametrize(
    ("field", "raw", "path"),
    [
        ("name", '"\\ud800"', "name"),
        ("notes", '"a\\u0000b"', "notes"),
        ("name", '"Ship\\u001b[31m"', "name"),
    ],
)
def test_s3_forbidden_characters_are_a_400_naming_the_field(
    field: str, raw: str, path: str, anonymous: CsrfClient
) -> None:
    text = _file(**{field: raw})
    for data in (
        {"text": text},
        {"file": SimpleUploadedFile("f.json", text.encode())},
        {"save": text},
    ):
        with nothing_stored():
            response = anonymous.send("POST", "/fleets/import/", data)
        assert response.status_code in (302, 400), data.keys()
        if response.status_code == 400:
            assert path in response.content.decode()


def test_s3_forms_and_addresses_refuse_control_characters(
    owner: CsrfClient, make_fleet: Callable[..., Fleet]
) -> None:
    fleet = make_fleet(owner)
    before = fleet_state(fleet)
    for path in ("rename-fleet/", "units/0/rename/", "new-squadron/"):
        for name in ("Nul%00here", "Esc%1B%5B31m", "Del%7Fx", "C1%C2%85x"):
            body = f"name={name}&version={_version(fleet)}&csrfmiddlewaretoken={owner.csrf_token()}"
            response = owner.post(
                f"/fleets/{fleet.pk}/{path}", body, content_type="application/x-www-form-urlencoded"
            )
            assert response.status_code < 500, path
    assert fleet_state(fleet) == before
    for url in ("/fleets/?q=%00", "/s/%00/", "/fleets/code/v1.%ED%A0%80/"):
        response = owner.get(url)
        assert response.status_code in (400, 404), url


# --- §4 sizes -------------------------------------------------------------------------------


def test_s4_the_issues_tiny_code_is_refused_fast_everywhere(
    anonymous: CsrfClient, catalog: Any
) -> None:
    code = hostile.issue_code(catalog)
    assert len(code) < 600
    for url in (f"/fleets/code/{code}/", f"/fleets/code/{code}/cards.pdf"):
        with nothing_stored():
            assert anonymous.get(url).status_code == 404
    side = {
        "a_source": "shared",
        "a_share": code,
        "b_source": "sample",
        "b_faction": "orks",
        "b_size": "patrol",
        "b_variant": "",
        "battles": "10000",
        "max_rounds": "10",
        "table": "",
        "scoring": "core",
        "terrain": "none",
        "seed": "1",
    }
    with nothing_stored():
        assert anonymous.send("POST", "/simulator/", side).status_code == 400
    with nothing_stored():
        assert anonymous.send("POST", "/fleets/import/", {"text": code}).status_code == 400


def test_s4_a_fleet_past_the_bounds_is_refused_by_import_and_the_builder(
    owner: CsrfClient, make_fleet: Callable[..., Fleet], catalog: Any
) -> None:
    for fleet in (hostile.over_ships(catalog), hostile.over_points(catalog)):
        with nothing_stored():
            response = owner.send("POST", "/fleets/import/", {"text": hostile.file_text(fleet)})
        assert response.status_code == 400
    full = make_fleet(owner, hostile.max_ships(catalog))
    before = fleet_state(full)
    escort = hostile.bound_escort(catalog)[1].slug  # the full fleet's own escort
    response = owner.send(
        "POST",
        f"/fleets/{full.pk}/add-ship/",
        {"ship": escort, "version": _version(full)},
        headers={"HX-Request": "true"},
    )
    assert response.status_code < 500
    assert fleet_state(full) == before


def test_s4_rate_limits_bite_with_retry_after(settings, monkeypatch, anonymous: CsrfClient) -> None:
    from fleetbuilder import ratelimit

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "cards": 2, "import": 2}
    settings.RATE_LIMIT_WINDOW = 60
    if hasattr(ratelimit, "_now"):  # a stopped clock: no window ends mid-test
        monkeypatch.setattr(ratelimit, "_now", lambda: 60.0 * 16_667 + 20)
    for _ in range(2):
        assert anonymous.get("/cards/fleet/999999/").status_code == 404
    refused = anonymous.get("/cards/fleet/999999/")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    for _ in range(2):
        assert anonymous.send("POST", "/fleets/import/", {"text": "x"}).status_code == 400
    assert anonymous.send("POST", "/fleets/import/", {"text": "x"}).status_code == 429


# --- §5 clear errors ------------------------------------------------------------------------


def test_s5_the_cap_message_says_the_real_size(anonymous: CsrfClient) -> None:
    data = b"{" + b" " * (256 * 1024)  # 256 KB + 1 byte
    with nothing_stored():
        response = anonymous.send(
            "POST", "/fleets/import/", {"file": SimpleUploadedFile("f.json", data)}
        )
    assert response.status_code == 400
    page = response.content.decode()
    assert "262,145 bytes" in page and "the limit is 256 KB (262,144 bytes)" in page
