"""The Celery app: background work on a Redis broker when ``REDIS_URL`` is set.

With no broker (the embedded default) :mod:`tables.background.runner` runs the same
work on a worker thread inside the server process instead.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("baccarat")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["tables.background"])  # its tasks.py: the one home of background work
