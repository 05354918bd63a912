"""An operator with a wrong environment gets one line naming the variable, and status 2.

Each case runs ``manage.py check`` in a fresh process, as an operator would, with DEBUG off
unless the case says otherwise.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

# ``manage.py check`` and gunicorn run without the suite's DATABASE_URL: they stop at settings.
pytestmark = pytest.mark.own_database

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = secrets.token_urlsafe(50)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DEBUG",
            "SECRET_KEY",
            "HTTPS",
            "ALLOWED_HOSTS",
            "LOG_LEVEL",
            "DATABASE_URL",
            "REDIS_URL",
            "DJANGO_SETTINGS_MODULE",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, "SECRET_KEY_FILE": str(ROOT / "no-such-key-file"), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("env", "variable", "says"),
    [
        ({}, "SECRET_KEY", "is not set"),
        ({"SECRET_KEY": "too-short-" * 4}, "SECRET_KEY", "shorter than 50"),
        ({"SECRET_KEY": "ab" * 40}, "SECRET_KEY", "fewer than 5 different"),
        ({"SECRET_KEY": "django-insecure-" + STRONG_KEY}, "SECRET_KEY", "django-insecure"),
        ({"SECRET_KEY": STRONG_KEY, "DEBUG": "maybe"}, "DEBUG", "'maybe'"),
        ({"SECRET_KEY": STRONG_KEY, "DATABASE_URL": "bogus://x"}, "DATABASE_URL", "bogus"),
        ({"SECRET_KEY": STRONG_KEY, "REDIS_URL": "ftp://x"}, "REDIS_URL", "'ftp://x'"),
        ({"SECRET_KEY": STRONG_KEY, "EMAIL_PORT": "twenty-five"}, "EMAIL_PORT", "integer"),
        ({"SECRET_KEY": STRONG_KEY, "SIM_CHUNK_BATTLES": "lots"}, "SIM_CHUNK_BATTLES", "integer"),
        ({"SECRET_KEY": STRONG_KEY, "LOG_LEVEL": "loud"}, "LOG_LEVEL", "'loud'"),
        ({"SECRET_KEY": STRONG_KEY, "HTTPS": "sometimes"}, "HTTPS", "'sometimes'"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_variable_and_status_2(
    env: dict[str, str], variable: str, says: str
) -> None:
    result = manage("check", **env)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"Configuration error: {variable} ")
    assert says in lines[0]
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_a_weak_key_is_refused_even_with_debug_off_explicitly() -> None:
    result = manage("check", DEBUG="false", SECRET_KEY="x" * 60)
    assert result.returncode == 2
    assert result.stderr.startswith("Configuration error: SECRET_KEY has fewer than 5")


def test_the_development_server_may_run_without_a_key() -> None:
    result = manage("check", DEBUG="true")
    assert result.returncode == 0, result.stderr
    assert "Configuration error" not in result.stderr


def test_a_strong_key_passes() -> None:
    result = manage("check", SECRET_KEY=STRONG_KEY)
    assert result.returncode == 0, result.stderr


def test_an_unrelated_command_error_is_not_a_configuration_error() -> None:
    # Errors after the settings load keep Django's usual behaviour.
    result = manage("no_such_command", SECRET_KEY=STRONG_KEY)
    assert result.returncode == 1
    assert "Unknown command: 'no_such_command'" in result.stderr
    assert "Configuration error" not in result.stderr


def test_the_wsgi_entry_point_prints_the_line_and_stops() -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import fleetbuilder.wsgi"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}},
            "SECRET_KEY_FILE": str(ROOT / "no-such-key-file"),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 4  # gunicorn's "App failed to load": it halts, not respawns
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("Configuration error: SECRET_KEY is not set")


def test_gunicorn_halts_with_the_one_line_and_no_traceback(tmp_path: Path) -> None:
    gunicorn = Path(sys.executable).with_name("gunicorn")
    if not gunicorn.exists():
        pytest.skip("gunicorn is not installed")
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    env["SECRET_KEY_FILE"] = str(ROOT / "no-such-key-file")
    result = subprocess.run(
        [str(gunicorn), "--bind", "127.0.0.1:0", "--workers", "1", "fleetbuilder.wsgi"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    ours = [line for line in result.stderr.splitlines() if "Configuration error" in line]
    assert ours == [
        "Configuration error: SECRET_KEY is not set: set it to 50 or more random "
        "characters (python -c 'import secrets; print(secrets.token_urlsafe(50))')"
    ]


# --- HTTPS ---------------------------------------------------------------------------------

DEPLOY_WARNINGS = ("security.W004", "security.W008", "security.W012", "security.W016")


# Production shares its cache through Redis (the check reads the address, it connects to nothing).
PRODUCTION = {
    "SECRET_KEY": STRONG_KEY,
    "ALLOWED_HOSTS": "example.org",
    "DEBUG": "false",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}


def test_https_passes_the_deploy_check() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", HTTPS="true", **PRODUCTION)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues" in result.stdout


def test_without_https_the_deploy_check_names_what_is_missing() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 1
    for warning in DEPLOY_WARNINGS:
        assert warning in result.stderr, warning


def test_without_secret_key_the_machines_key_file_is_read_and_checked(tmp_path: Path) -> None:
    """scripts/setup.sh keeps a random key in var/secret_key, so commands run as written."""
    good, weak = tmp_path / "good", tmp_path / "weak"
    good.write_text(STRONG_KEY + "\n")
    weak.write_text("short\n")
    assert manage("check", DEBUG="false", SECRET_KEY_FILE=str(good)).returncode == 0
    refused = manage("check", DEBUG="false", SECRET_KEY_FILE=str(weak))
    assert refused.returncode == 2
    assert refused.stderr.startswith("Configuration error: SECRET_KEY is shorter than 50")
