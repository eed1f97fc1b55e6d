"""The Celery app: background work on a Redis broker when ``REDIS_URL`` is set.

With no broker (the embedded default) :mod:`tables.background.runner` runs the same
work on a worker thread inside the server process instead.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, Task
from celery.signals import task_prerun

from tables.operations import context

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("baccarat")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["tables.background"])  # its tasks.py: the one home of background work


@task_prerun.connect
def _task_about(task: Task, **kwargs: Any) -> None:
    """A task starts: its log lines name the request that queued it (its id came in the
    message's headers, tables/background/runner.py), else the task's own id."""
    context.begin(str(task.request.get("request_id") or task.request.id))
