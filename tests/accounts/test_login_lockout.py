"""The brake on password guessing: django-axes, per (username, client address), in the cache."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from axes.handlers.proxy import AxesProxyHandler
from django.core import mail
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings

from fleetbuilder.http import client_address

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "Ironclad-Lunar-1138"
REFUSED = "Please enter a correct username and password."
LOCKED = (
    "Too many failed attempts to log in as this user. Wait a few minutes, or reset your password."
)
LIMIT = 10


def log_in(client: Client, username: str = "rhaine", password: str = PASSWORD, **extra: str):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def fail(client: Client, times: int, username: str = "rhaine", **extra: str) -> None:
    for _ in range(times):
        response = log_in(client, username, "guess", **extra)
        assert response.status_code in (200, 429)


def assert_locked_out(response) -> None:
    html = response.content.decode()
    assert response.status_code == 429
    assert LOCKED in html
    # Our page, with its form, not axes' bare text.
    assert '<form method="post" action="/accounts/login/"' in html
    assert 'name="password"' in html
    assert "Forgotten your password?" in html


def test_ten_failures_lock_the_username_from_that_address(player) -> None:
    client = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(LIMIT - 1):
        response = log_in(client, password="guess")
        assert response.status_code == 200
        assert REFUSED in response.content.decode()
    assert_locked_out(log_in(client, password="guess"))  # the tenth
    eleventh = log_in(client)  # the right password
    assert_locked_out(eleventh)
    assert 'value="rhaine"' in eleventh.content.decode()  # what was typed is kept
    assert "_auth_user_id" not in client.session


def test_usernames_are_counted_without_regard_to_case(player) -> None:
    client = Client(REMOTE_ADDR="198.51.100.7")
    fail(client, LIMIT // 2, "RHAINE")
    fail(client, LIMIT - LIMIT // 2, "Rhaine")
    assert_locked_out(log_in(client))


def test_the_same_username_from_another_address_still_logs_in(player) -> None:
    fail(Client(REMOTE_ADDR="198.51.100.7"), LIMIT)
    other = Client(REMOTE_ADDR="203.0.113.9")
    assert log_in(other).status_code == 302
    assert "_auth_user_id" in other.session


def test_another_username_from_the_same_address_still_logs_in(player, django_user_model) -> None:
    django_user_model.objects.create_user("voss", password=PASSWORD)
    client = Client(REMOTE_ADDR="198.51.100.7")
    fail(client, LIMIT)
    assert log_in(client, "voss").status_code == 302


def test_a_success_clears_earlier_failures(client: Client, player) -> None:
    fail(client, LIMIT - 1)
    assert log_in(client).status_code == 302
    client.post("/accounts/logout/")
    fail(client, LIMIT - 1)
    assert log_in(client).status_code == 302


def test_a_password_reset_by_email_logs_in_and_lifts_the_lockout(client: Client, player) -> None:
    fail(client, LIMIT)
    assert_locked_out(log_in(client))
    client.post("/accounts/password/reset/", {"email": "rhaine@example.com"})
    link = re.search(r"http://testserver(\S+)", mail.outbox[0].body).group(1)
    url = client.get(link, follow=True).redirect_chain[-1][0]
    response = client.post(
        url, {"new_password1": "Retribution-Gothic-42", "new_password2": "Retribution-Gothic-42"}
    )
    assert response.headers["Location"] == "/accounts/password/reset/done/"
    assert "_auth_user_id" in client.session  # logged in at once
    client.post("/accounts/logout/")
    assert log_in(client, password="Retribution-Gothic-42").status_code == 302


def test_the_admin_login_is_braked_too_without_crashing(player) -> None:
    client = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(LIMIT - 1):
        response = client.post(
            "/admin/login/?next=/admin/",
            {"username": "rhaine", "password": "guess", "next": "/admin/"},
        )
        assert response.status_code == 200
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "rhaine", "password": "guess", "next": "/admin/"}
    )
    assert_locked_out(response)
    assert 'name="next" value="/admin/"' in response.content.decode()
    # The same pair is locked on our login page as well.
    assert_locked_out(log_in(client))


def test_the_password_change_and_account_deletion_rechecks_still_work(
    client: Client, player
) -> None:
    client.force_login(player)
    response = client.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "Retribution-Gothic-42",
            "new_password2": "Retribution-Gothic-42",
        },
    )
    assert response.status_code == 302
    assert client.post("/accounts/delete/", {"password": "wrong"}).status_code == 400
    response = client.post("/accounts/delete/", {"password": "Retribution-Gothic-42"})
    assert response.status_code == 302
    assert not type(player).objects.filter(pk=player.pk).exists()


# --- the client address: REMOTE_ADDR unless proxies are trusted ----------------------------


def test_without_trusted_proxies_a_forged_forwarded_for_cannot_escape_a_lockout(player) -> None:
    client = Client(REMOTE_ADDR="198.51.100.7")
    for n in range(LIMIT):
        log_in(client, password="guess", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert_locked_out(log_in(client, HTTP_X_FORWARDED_FOR="192.0.2.200"))
    assert_locked_out(log_in(client))


def test_without_trusted_proxies_a_forged_forwarded_for_cannot_shift_a_lockout(player) -> None:
    attacker = Client(REMOTE_ADDR="198.51.100.66")
    fail(attacker, LIMIT, HTTP_X_FORWARDED_FOR="203.0.113.9")  # pretends to be the player
    player_browser = Client(REMOTE_ADDR="203.0.113.9")
    assert log_in(player_browser).status_code == 302


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_one_trusted_proxy_the_forwarded_address_counts(player) -> None:
    proxy = Client(REMOTE_ADDR="10.0.0.1")
    # Entries left of the one our proxy wrote are the client's own, rotated here in vain.
    for n in range(LIMIT):
        log_in(proxy, password="guess", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.9")
    assert_locked_out(log_in(proxy, HTTP_X_FORWARDED_FOR="203.0.113.9"))
    # Another client through the same proxy is not locked out.
    assert log_in(proxy, HTTP_X_FORWARDED_FOR="203.0.113.10").status_code == 302


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (0, "192.0.2.1", "10.0.0.1"),
        (1, "192.0.2.1", "192.0.2.1"),
        (1, "6.6.6.6, 192.0.2.1", "192.0.2.1"),
        (1, " 2001:db8::1 ", "2001:db8::1"),
        (2, "6.6.6.6, 192.0.2.1, 10.0.0.9", "192.0.2.1"),
        (2, "192.0.2.1", "10.0.0.1"),  # fewer entries than trusted proxies: not our proxies' header
        (1, "", "10.0.0.1"),
        (1, "not-an-address", "10.0.0.1"),
    ],
)
def test_client_address(count: int, forwarded: str, expected: str) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    with override_settings(TRUSTED_PROXY_COUNT=count):
        assert client_address(request) == expected


def settings_with(**env: str) -> subprocess.CompletedProcess[str]:
    code = "import fleetbuilder.settings as s; print(s.TRUSTED_PROXY_COUNT)"
    clean = {k: v for k, v in os.environ.items() if k != "TRUSTED_PROXY_COUNT"}
    clean.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_trusted_proxy_count_is_zero_by_default_and_checked() -> None:
    assert settings_with().stdout.split() == ["0"]
    assert settings_with(TRUSTED_PROXY_COUNT="2").stdout.split() == ["2"]
    for bad, message in [
        ("-1", "TRUSTED_PROXY_COUNT must be 0 or more"),
        ("one", "TRUSTED_PROXY_COUNT must be an integer"),
    ]:
        result = settings_with(TRUSTED_PROXY_COUNT=bad)
        assert result.returncode != 0
        assert message in result.stderr


# --- shared by every process: the counts live in Redis --------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = _free_port()
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import redis

        probe = redis.Redis(host="127.0.0.1", port=port)
        for _ in range(100):
            try:
                probe.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        else:
            pytest.fail("redis-server did not start")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def redis_cache(redis_url: str) -> Iterator[str]:
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "vc",
        }
    }
    with override_settings(CACHES=caches):
        AxesProxyHandler.get_implementation(force=True)  # it holds the cache it was made with
        cache.clear()
        try:
            yield redis_url
        finally:
            cache.clear()
    AxesProxyHandler.get_implementation(force=True)


LOCKED_IN_ANOTHER_PROCESS = """
import django
django.setup()
from axes.handlers.proxy import AxesProxyHandler
from django.test import RequestFactory
for address in ("198.51.100.7", "203.0.113.9"):
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=address)
    print(address, AxesProxyHandler.is_locked(request, {"username": "RHAINE"}))
"""


def test_the_lockout_is_in_redis_and_seen_by_another_process(player, redis_cache: str) -> None:
    import redis

    server = redis.Redis.from_url(redis_cache)
    guesser = Client(REMOTE_ADDR="198.51.100.7")
    fail(guesser, LIMIT)
    keys = server.keys("vc:*axes-*")
    assert len(keys) == 1  # one count, for the (username, address) pair
    assert int(server.get(keys[0])) == LIMIT
    assert 0 < server.ttl(keys[0]) <= 15 * 60

    # A second browser from the same address, through the same Redis, is refused...
    assert_locked_out(log_in(Client(REMOTE_ADDR="198.51.100.7")))
    # ...and so is the same pair in a separate Python process (another gunicorn worker or host):
    # it shares nothing with this one but Redis.
    env = {
        **os.environ,
        "REDIS_URL": redis_cache,
        "CACHE_KEY_PREFIX": "vc",
        "DJANGO_SETTINGS_MODULE": "fleetbuilder.settings",
    }
    env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    other = subprocess.run(
        [sys.executable, "-c", LOCKED_IN_ANOTHER_PROCESS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert other.returncode == 0, other.stderr
    assert other.stdout.split() == ["198.51.100.7", "True", "203.0.113.9", "False"]

    # A success from another address leaves this pair's count alone.
    assert log_in(Client(REMOTE_ADDR="203.0.113.9")).status_code == 302
    assert len(server.keys("vc:*axes-*")) == 1
