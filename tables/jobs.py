"""Running background tasks wherever this deployment runs them.

With a broker (``REDIS_URL``) a task goes to the Celery workers. The embedded default
has none: tasks run in this process, after the request that queued them has returned.
Inside the ASGI server they run in the server loop's executor, so a push they make goes
through that loop (the in-memory channel layer only works from its own loop); outside
one (commands, tests) they run on a worker thread. Queueing never raises: the round is
already stored, and tasks are idempotent, so one that did not run can run later.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from celery import Task
from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

_executor: ThreadPoolExecutor | None = None
_pending: list[Future[None]] = []
_server_loop: asyncio.AbstractEventLoop | None = None


def serve_on(loop: asyncio.AbstractEventLoop | None) -> None:
    """Run embedded tasks on this (the ASGI server's) event loop; ``None`` stops that."""
    global _server_loop
    _server_loop = loop


def enqueue(task: Task, *args: Any) -> None:
    """Queue ``task(*args)``; call it from ``transaction.on_commit``."""
    try:
        if settings.TASKS_INLINE:
            task(*args)
        elif settings.CELERY_BROKER_URL:
            task.delay(*args)
        elif _server_loop is not None and _server_loop.is_running():
            run = sync_to_async(_run, thread_sensitive=False)(task, args)
            _track(asyncio.run_coroutine_threadsafe(run, _server_loop))
        else:
            _track(_thread_pool().submit(_run, task, args))
    except Exception:
        log.warning("could not queue %s%r", task.name, args, exc_info=True)


def _track(future: Future[None]) -> None:
    _pending[:] = [f for f in _pending if not f.done()]
    _pending.append(future)


def drain(timeout: float = 30) -> None:
    """Wait for the tasks queued in this process (tests)."""
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
