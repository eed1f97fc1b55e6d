"""Running background tasks wherever this deployment runs them.

With a broker (``REDIS_URL``) a task goes to the Celery workers. The embedded default
has none: tasks run on one worker thread of this process, after the request that
queued them has returned. Queueing never raises: the round is already stored, and
a task that did not run is caught up later (tasks are idempotent).
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from celery import Task
from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

_executor: ThreadPoolExecutor | None = None
_pending: list[Future[None]] = []


def enqueue(task: Task, *args: Any) -> None:
    """Queue ``task(*args)``; call it from ``transaction.on_commit``."""
    try:
        if settings.TASKS_INLINE:
            task(*args)
        elif settings.CELERY_BROKER_URL:
            task.delay(*args)
        else:
            _pending.append(_thread_pool().submit(_run, task, args))
            _pending[:] = [f for f in _pending if not f.done()]
    except Exception:
        log.warning("could not queue %s%r", task.name, args, exc_info=True)


def drain(timeout: float = 30) -> None:
    """Wait for the tasks queued on this process's worker thread (tests, shutdown)."""
    for future in list(_pending):
        future.result(timeout=timeout)


def _thread_pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tasks")
    return _executor


def _run(task: Task, args: tuple[Any, ...]) -> None:
    try:
        task(*args)
    except Exception:
        log.exception("task %s%r failed", task.name, args)
    finally:
        close_old_connections()
