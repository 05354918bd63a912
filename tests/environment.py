"""The environment the suite runs in, set before pytest-django imports the settings.

Loaded as a plugin (``-p tests.environment`` in pyproject's addopts) because pytest-django
imports ``fleetbuilder.settings`` before any conftest.py runs, so a variable set in
tests/conftest.py comes too late for the settings. DEBUG stays unset (off), as in production,
so the suite needs a strong SECRET_KEY: a random one per run, unless one is already set.
Subprocesses started by tests inherit it.
"""

import os
import secrets

os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))

# Rate limits count per client, and every test client is the same address: the suite runs
# with limits no test reaches, and tests/limits/ sets small ones to see them bite.
for _scope in ("CARDS", "SIMULATOR", "IMPORT", "SHARECODE"):
    os.environ.setdefault(f"RATE_LIMIT_{_scope}", "1000000")
