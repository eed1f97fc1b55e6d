"""Background work, after the request that caused it has been answered.

:func:`enqueue` sends a Celery task to the workers when there is a broker
(``REDIS_URL``); the embedded default has none, and runs it here instead.
:func:`run_here` runs a job in this process, one at a time in order: pushes always
leave from the process that recorded the round, so they need no worker. Inside the ASGI
server jobs run through the server's event loop (the in-memory channel layer only
works from its own loop); outside one (commands, tests) on a plain thread. Neither
raises: the round is already stored, and jobs are idempotent, so one lost can run later.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
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
_timers: list[threading.Timer] = []  # delayed jobs outside a server (tests drain them)


def serve_on(loop: asyncio.AbstractEventLoop | None) -> None:
    """Run embedded tasks on this (the ASGI server's) event loop; ``None`` stops that."""
    global _server_loop
    _server_loop = loop


def serving() -> bool:
    """Whether this process is an ASGI server whose event loop is running."""
    return _server_loop is not None and _server_loop.is_running()


def enqueue(task: Task, *args: Any) -> None:
    """Queue a Celery task: on the workers when there is a broker, else :func:`run_here`.
    Call it from ``transaction.on_commit``."""
    if settings.CELERY_BROKER_URL and not settings.TASKS_INLINE:
        try:
            task.delay(*args)
        except Exception:
            log.warning("could not queue %s%r", task.name, args, exc_info=True)
    else:
        run_here(task, *args)


def run_here(job: Callable[..., object], *args: Any) -> bool:
    """Run ``job(*args)`` in this process once the current request is answered, one job
    at a time in the order queued (so pushes leave in order). False if it could not be
    queued."""
    try:
        if settings.TASKS_INLINE:
            job(*args)
        elif serving():
            run = sync_to_async(_run, thread_sensitive=False, executor=_thread_pool())(job, args)
            _track(asyncio.run_coroutine_threadsafe(run, _server_loop))
        else:
            _track(_thread_pool().submit(_run, job, args))
    except Exception:
        log.warning("could not run %s%r", _name(job), args, exc_info=True)
        return False
    return True


def run_later(delay: float, job: Callable[..., object], *args: Any) -> bool:
    """:func:`run_here`, ``delay`` seconds from now (at once when ``delay`` is not
    positive, or when tasks run inline)."""
    if delay <= 0 or settings.TASKS_INLINE:
        return run_here(job, *args)
    try:
        if serving():
            loop = _server_loop
            loop.call_soon_threadsafe(lambda: loop.call_later(delay, run_here, job, *args))
        else:
            timer = threading.Timer(delay, run_here, (job, *args))
            timer.daemon = True
            timer.start()
            _timers.append(timer)
    except Exception:
        log.warning("could not run %s%r later", _name(job), args, exc_info=True)
        return False
    return True


def _name(job: Callable[..., object]) -> str:
    return str(getattr(job, "name", None) or getattr(job, "__qualname__", job))


def _track(future: Future[None]) -> None:
    _pending[:] = [f for f in _pending if not f.done()]
    _pending.append(future)


def drain(timeout: float = 30) -> None:
    """Wait for the tasks queued in this process, delayed ones included (tests)."""
    while _timers:
        _timers.pop(0).join(timeout=timeout)
    for future in list(_pending):
        future.result(timeout=timeout)


def _thread_pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tasks")
    return _executor


def _run(job: Callable[..., object], args: tuple[Any, ...]) -> None:
    try:
        job(*args)
    except Exception:
        log.exception("%s%r failed", _name(job), args)
    finally:
        close_old_connections()
