"""The Celery application: the simulator's chunks run on workers (``scripts/serve worker``).

Settings come from Django's (``CELERY_*``); tasks are found in each app's ``tasks`` module.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fleetbuilder.settings")

app = Celery("fleetbuilder")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
