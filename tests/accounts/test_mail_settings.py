"""Mail goes to the console by default, to files or SMTP by setting; a bad value stops start-up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def settings_with(**env: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import fleetbuilder.settings as s; print(s.EMAIL_BACKEND.rsplit('.', 2)[-2], "
        "s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS)"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMAIL_")}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_console_by_default() -> None:
    assert settings_with().stdout.split() == ["console", "localhost", "25", "False"]


def test_file_and_smtp_by_setting() -> None:
    assert settings_with(EMAIL_DELIVERY="file").stdout.split()[0] == "filebased"
    smtp = settings_with(
        EMAIL_DELIVERY="SMTP", EMAIL_HOST="mail.example.com", EMAIL_PORT="587", EMAIL_USE_TLS="true"
    )
    assert smtp.stdout.split() == ["smtp", "mail.example.com", "587", "True"]


def test_bad_values_stop_start_up_with_a_message() -> None:
    for env, message in [
        ({"EMAIL_DELIVERY": "pigeon"}, "EMAIL_DELIVERY must be console, file or smtp"),
        ({"EMAIL_PORT": "twenty-five"}, "EMAIL_PORT must be an integer"),
        ({"EMAIL_USE_TLS": "true", "EMAIL_USE_SSL": "true"}, "not both"),
    ]:
        result = settings_with(**env)
        assert result.returncode != 0
        assert message in result.stderr
