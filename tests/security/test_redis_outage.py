"""Issue 34 §3–4: a sick Redis degrades instead of failing.

A real redis-server, stopped (killed, its port refusing) or frozen (SIGSTOP: the kernel still
accepts connections, nothing answers), under a real gunicorn. No request waits more than 2 s
on it; the pages that need it (log-in, sign-up, the one-use form tokens, starting a run) answer
a 503 in words, and save nothing; the pages that do not need it keep working.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator

import pytest

from fleetbuilder.catalog import loader
from rules_core import sharecode
from rules_core.sample_fleets import sample_fleet
from tests.production.conftest import (
    Browser,
    stack_database,  # noqa: F401  (a fixture, used by name)
)
from tests.support.processes import RedisServer, base_env, gunicorn, private_redis
from tests.support.timing import bound

pytestmark = [pytest.mark.production]

BUDGET = 2.0  # seconds a request may wait on Redis (REDIS_* timeouts, docs/operations.md)
SLACK = 0.6  # the page's own work on a 2-core machine, stretched by its load (bound)


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with private_redis(tmp_path_factory.mktemp("redis-outage")) as server:
        yield server


@pytest.fixture(scope="module")
def site(
    redis: RedisServer,
    stack_database: str,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
    """gunicorn on the private Redis (no worker: nothing here needs a battle played)."""
    env = base_env(DATABASE_URL=stack_database, REDIS_URL=redis.url, RATE_LIMIT_WINDOW="3600")
    with gunicorn(env, tmp_path_factory.mktemp("web-outage") / "gunicorn.log") as base:
        yield base


def timed(
    browser: Browser, method: str, path: str, data: dict[str, str] | None = None
) -> tuple[int, str, float]:
    if data is not None:  # the cookie's token: a refused log-in may have rotated it
        data = {**data, "csrfmiddlewaretoken": browser.csrf()}
    began = time.monotonic()
    headers = {"Referer": browser.base + path} if method == "POST" else None
    status, _, body = browser.request(method, path, data, headers=headers)
    return status, body.decode(errors="replace"), time.monotonic() - began


def form_token(page: str, name: str = "csrfmiddlewaretoken") -> str:
    found = re.search(rf'name="{name}" value="([^"]+)"', page)
    assert found, f"the form has a {name}"
    return found.group(1)


def share_code() -> str:
    return sharecode.encode(sample_fleet(loader.read_files(), "imperial-navy", "patrol"))


@pytest.fixture(params=["stopped", "frozen"])
def outage(request: pytest.FixtureRequest, redis: RedisServer, site: str) -> Iterator[str]:
    """Redis stopped or frozen for the test, answering again after it."""
    if request.param == "stopped":
        redis.kill()
    else:
        redis.freeze()
    yield request.param
    if request.param == "stopped":
        redis.start()
    else:
        redis.thaw()
    time.sleep(6)  # past REDIS_RETRY_SECONDS: the web process asks Redis again


@pytest.fixture
def visitor(site: str) -> tuple[Browser, dict[str, str]]:
    return prepared(site)


def prepared(site: str) -> tuple[Browser, dict[str, str]]:
    """A visitor with an account and the forms it will send, all fetched while Redis is up."""
    browser = Browser(site)
    name = f"pilot{secrets.token_hex(3)}"
    status, _, _ = browser.post_form(
        "/accounts/signup/",
        {"username": name, "password1": "a long password 93", "password2": "a long password 93"},
    )
    assert status == 302
    browser.request(
        "POST",
        "/accounts/logout/",
        {"csrfmiddlewaretoken": browser.csrf()},
        headers={"Referer": site + "/"},
    )
    code = share_code()
    status, _, page = browser.get(f"/fleets/code/{code}/")
    assert status == 200
    forms = {
        "name": name,
        "code": code,
        "once": form_token(page.decode(), "once"),
        "csrf": browser.csrf(),
    }
    return browser, forms


def test_a_sick_redis_costs_no_request_more_than_two_seconds(
    visitor: tuple[Browser, dict[str, str]], outage: str
) -> None:
    browser, forms = visitor
    newcomer = f"newbie{secrets.token_hex(3)}"
    answers = {
        # pages that do not need Redis keep working
        "home": timed(browser, "GET", "/"),
        "ships": timed(browser, "GET", "/ships/"),
        "builder": timed(browser, "GET", "/fleets/new/"),
        "code page": timed(browser, "GET", f"/fleets/code/{forms['code']}/"),
        "login page": timed(browser, "GET", "/accounts/login/"),
        # pages that need it say so, with a 503
        "login": timed(
            browser,
            "POST",
            "/accounts/login/",
            {"username": forms["name"], "password": "a long password 93"},
        ),
        "signup": timed(
            browser,
            "POST",
            "/accounts/signup/",
            {
                "username": newcomer,
                "password1": "a long password 93",
                "password2": "a long password 93",
            },
        ),
        "copy code": timed(
            browser, "POST", f"/fleets/code/{forms['code']}/", {"once": forms["once"]}
        ),
        "again": timed(browser, "GET", "/"),
    }
    slow = {
        what: round(seconds, 2)
        for what, (_, _, seconds) in answers.items()
        if seconds > BUDGET + bound(SLACK)
    }
    assert not slow, f"Redis {outage}: requests that waited: {slow}"
    for what in ("home", "ships", "builder", "code page", "login page", "again"):
        assert answers[what][0] == 200, (outage, what, answers[what][0])
    for what in ("login", "signup"):
        status, page, _ = answers[what]
        assert status == 503, (outage, what, status, page[:300])
        assert "is not answering right now" in page and "Nothing was changed" in page
    status, _, _ = answers["copy code"]
    assert status == 302  # back to the code's page, with the message
    status, _, page = browser.get(f"/fleets/code/{forms['code']}/")
    assert "Nothing was saved" in page.decode(), outage


def test_after_the_outage_nothing_was_half_saved(site: str, redis: RedisServer) -> None:
    """Sign-up refused during an outage left no account: the same name signs up afterwards;
    a copy refused saved no fleet."""
    browser, forms = prepared(site)
    newcomer = f"later{secrets.token_hex(3)}"
    redis.kill()
    try:
        status, _, _ = browser.request(
            "POST",
            "/accounts/signup/",
            {
                "username": newcomer,
                "password1": "a long password 93",
                "password2": "a long password 93",
                "csrfmiddlewaretoken": browser.csrf(),
            },
            headers={"Referer": site + "/accounts/signup/"},
        )
        assert status == 503
        status, _, _ = browser.request(
            "POST",
            f"/fleets/code/{forms['code']}/",
            {"once": forms["once"], "csrfmiddlewaretoken": browser.csrf()},
            headers={"Referer": site + "/"},
        )
        assert status == 302
    finally:
        redis.start()
        time.sleep(6)
    other = Browser(site)
    status, headers, body = other.post_form(
        "/accounts/signup/",
        {
            "username": newcomer,
            "password1": "a long password 93",
            "password2": "a long password 93",
        },
    )
    assert status == 302, body.decode()[:500]
