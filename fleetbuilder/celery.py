"""The Celery application: the simulator's chunks run on workers (``scripts/serve worker``).

Settings come from Django's (``CELERY_*``); tasks are found in each app's ``tasks`` module.
"""

from __future__ import annotations

import os
import sys

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fleetbuilder.settings")
if os.path.basename(sys.argv[0]) == "celery":  # a worker: a bad setting is one line, no traceback
    from .config import load_settings_or_exit

    load_settings_or_exit()

app = Celery("fleetbuilder")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
