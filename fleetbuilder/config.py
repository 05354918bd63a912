"""Reading settings from the environment, and failing in one line when a value is wrong.

The helpers raise :class:`ConfigError`, an ``ImproperlyConfigured`` whose message names the
variable. ``manage.py`` and ``fleetbuilder/wsgi.py`` load the settings through
:func:`load_settings_or_exit`, which turns any error raised while the settings module runs into
one line on stderr and an exit status, instead of a traceback an operator has to read.
"""

from __future__ import annotations

import os
import sys

from django.core.exceptions import ImproperlyConfigured

# manage.py's status for "the environment is wrong" (the usual status for a usage error).
EXIT_CONFIG = 2

SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE = 5
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ImproperlyConfigured):
    """An environment variable is missing or has a value the settings cannot use."""


def envbool(name: str, default: str) -> bool:
    value = os.environ.get(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ConfigError(f"{name} must be a boolean (true/false), not {value!r}")


def envint(name: str, default: str) -> int:
    value = os.environ.get(name, default)
    try:
        return int(value)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, not {value!r}") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def envchoice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default).strip()
    if value.upper() not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value.upper()


def secret_key_problem(key: str) -> str:
    """Why ``key`` is too weak to sign sessions and reset links in production ("" if it is not)."""
    if not key:
        return "is not set"
    if key.startswith("django-insecure"):
        return "is Django's generated development key (it starts with 'django-insecure')"
    if len(key) < SECRET_KEY_MIN_LENGTH:
        return f"is shorter than {SECRET_KEY_MIN_LENGTH} characters"
    if len(set(key)) < SECRET_KEY_MIN_UNIQUE:
        return f"has fewer than {SECRET_KEY_MIN_UNIQUE} different characters"
    return ""


def one_line(exc: BaseException) -> str:
    message = " ".join(str(exc).split()) or type(exc).__name__
    return f"Configuration error: {message}"


def load_settings_or_exit(status: int = EXIT_CONFIG) -> None:
    """Run the settings module now; on a bad value print one line to stderr and exit.

    Every ImproperlyConfigured raised while ``settings.py`` runs is a configuration error (the
    helpers above, and the explicit checks further down the file). Errors raised later, once
    the settings are loaded, are left to Django.
    """
    from django.conf import settings

    try:
        settings.INSTALLED_APPS  # noqa: B018 - touching a setting imports the module
    except ImproperlyConfigured as exc:
        sys.stderr.write(one_line(exc) + "\n")
        sys.stderr.flush()
        sys.exit(status)
