"""Background jobs of this process: pushes, and tasks when there is no Celery broker.

A job runs once the request that caused it has been answered, so recording a round
never waits for a render or a push. Jobs never raise into their caller: the round is
already stored, and every job is idempotent, so one that is lost can run later.

- :class:`InlineRunner` runs a job at once, in the caller's thread (``TASKS_INLINE``:
  the tests, where a job runs right after its transaction commits).
- :class:`ThreadRunner` runs jobs one at a time, in the order they fall due, on one
  thread of this process: the servers, workers and commands.

:func:`runner` is this process's runner of a queue (the live pushes' scheduler runs on
the default queue's); :func:`enqueue` sends a Celery task to the workers, by name, when
there is a broker (``REDIS_URL``), and otherwise hands its job to the runner of its queue.
"""

from __future__ import annotations

import contextvars
import heapq
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from celery import current_app
from django.conf import settings
from django.db import close_old_connections

from ..operations import context

log = logging.getLogger(__name__)

Job = Callable[..., object]
_starting = threading.Lock()  # one thread per runner, however many callers queue its first job


class Runner(Protocol):
    def run_later(self, delay: float, job: Job, *args: Any) -> None:
        """Run ``job(*args)`` ``delay`` seconds from now (as soon as it can if not positive)."""
        ...

    def drain(self, timeout: float = 30) -> None:
        """Wait until every job queued so far, delayed ones included, has run."""
        ...


def run(job: Job, args: tuple[Any, ...]) -> None:
    """One job, its failure logged. Run in its caller's thread (inline, or a test's clock),
    it leaves that thread's database connection to its caller."""
    try:
        job(*args)
    except Exception:
        log.exception("%s%r failed", name_of(job), args)


def name_of(job: Job) -> str:
    return str(getattr(job, "name", None) or getattr(job, "__qualname__", job))


class InlineRunner:
    """Runs every job at once, whatever its delay."""

    def run_later(self, delay: float, job: Job, *args: Any) -> None:
        run(job, args)

    def drain(self, timeout: float = 30) -> None:
        pass


class ThreadRunner:
    """One thread running jobs as they fall due. The thread starts with the first job,
    and again in a forked child (a Celery or gunicorn worker), where it does not exist."""

    def __init__(self, name: str = "jobs") -> None:
        self.name = name
        self._due: list[tuple[float, int, contextvars.Context, Job, tuple[Any, ...]]] = []  # a heap, by when
        self._order = itertools.count()
        self._busy = False
        self._changed = threading.Condition()
        self._pid = 0

    def run_later(self, delay: float, job: Job, *args: Any) -> None:
        if self._pid != os.getpid():
            with _starting:
                if self._pid != os.getpid():
                    self._start()
        with self._changed:
            # The job runs in a copy of the caller's context: its log lines name the request.
            queued = (time.monotonic() + max(0.0, delay), next(self._order), contextvars.copy_context(), job, args)
            heapq.heappush(self._due, queued)
            self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """Jobs queued and not yet started."""
        with self._changed:
            return len(self._due)

    def _start(self) -> None:
        """The thread, in a new process: a forked parent's jobs, and its lock (which a
        thread of the parent may have held at the fork), are the parent's."""
        self._pid, self._due, self._busy = os.getpid(), [], False
        self._changed = threading.Condition()
        threading.Thread(target=self._work, name=self.name, daemon=True).start()

    def drain(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._due or self._busy:
                if not self._changed.wait(timeout=deadline - time.monotonic()) and time.monotonic() >= deadline:
                    raise TimeoutError(f"{len(self._due)} jobs still queued after {timeout} s")

    def _work(self) -> None:
        while True:
            with self._changed:
                while not self._due or self._due[0][0] > time.monotonic():
                    self._changed.wait(timeout=self._due[0][0] - time.monotonic() if self._due else None)
                _, _, job_context, job, args = heapq.heappop(self._due)
                self._busy = True
            try:
                job_context.run(run, job, args)
                close_old_connections()  # the jobs thread's own connection: given back when stale
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()


DEFAULT_QUEUE = "celery"  # Celery's own default: the odds, the sweeps, the lobby cards


def enqueue(task: str, job: Job, *args: Any, queue: str = DEFAULT_QUEUE, countdown: float = 0) -> None:
    """Queue the Celery task named ``task``: on the workers when there is a broker (the
    settings' routes pick its queue), else ``job(*args)`` on this process's runner of
    ``queue``; ``countdown`` seconds from now (a retry's backoff), at once by default.
    Call it from ``transaction.on_commit``.

    By name, so the code that queues a task never imports the tasks (which import
    everything they run): the task seam has no import circle."""
    if settings.CELERY_BROKER_URL and not settings.TASKS_INLINE:
        try:
            request_id = context.current().get("request_id")
            delayed = {"countdown": countdown} if countdown > 0 else {}
            current_app.send_task(
                task, args=args, headers={"request_id": request_id} if request_id else None, **delayed
            )
        except Exception:
            log.warning("could not queue %s%r", task, args, exc_info=True)
    else:
        runner(queue).run_later(countdown, job, *args)


_runners: dict[str, Runner] = {}
_choosing = threading.Lock()


def runner(queue: str = DEFAULT_QUEUE) -> Runner:
    """This process's runner of ``queue``: inline with ``TASKS_INLINE``, else a thread of
    its own, so slow work on one queue never holds back another's."""
    found = _runners.get(queue)
    if found is None:
        with _choosing:
            found = _runners.get(queue)
            if found is None:
                found = _runners[queue] = InlineRunner() if settings.TASKS_INLINE else ThreadRunner(name=queue)
    return found


def install(new: Runner | None, queue: str = DEFAULT_QUEUE) -> None:
    """Use ``new`` as this process's runner of ``queue`` (``None``: one made from the
    settings, when next asked for). Tests install one they drive."""
    if new is None:
        _runners.pop(queue, None)
    else:
        _runners[queue] = new
