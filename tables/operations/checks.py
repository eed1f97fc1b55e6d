"""Dependency checks run at once, each in a thread, the whole answered within a deadline.

A readiness probe must answer fast even when a dependency hangs (a database behind a
dropped route answers nothing for minutes): each check runs on a thread of its own and
the probe waits ``timeout`` seconds for them all; one that has not answered by then
fails. A check still running from an earlier probe is not started again, so a hung
dependency holds one thread, not one a probe.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

Check = Callable[[], None]  # returns when the dependency answered; raises when it did not


@dataclass(frozen=True)
class Outcome:
    """One check's outcome: whether it passed, in how long, and why not."""

    name: str
    ok: bool
    seconds: float
    error: str = ""


class Checks:
    """Named checks, run together by :meth:`run`."""

    def __init__(self, checks: Mapping[str, Check]) -> None:
        self.checks = dict(checks)
        self._pool = ThreadPoolExecutor(max_workers=2 * max(1, len(self.checks)), thread_name_prefix="readiness")
        self._running: dict[str, tuple[Future[tuple[float, str]], float]] = {}  # a check's future and when it started
        self._lock = threading.Lock()

    def run(self, timeout: float) -> list[Outcome]:
        """Every check's outcome, within ``timeout`` seconds (and a little)."""
        began = time.monotonic()
        with self._lock:
            for name, check in self.checks.items():
                if name not in self._running or self._running[name][0].done():
                    self._running[name] = (self._pool.submit(_timed, check), began)
            running = dict(self._running)
        wait([future for future, _ in running.values()], timeout=timeout)
        return [_outcome(name, future, started, began + timeout) for name, (future, started) in running.items()]


def _timed(check: Check) -> tuple[float, str]:
    """How long ``check`` took, and what failed ("" when it passed). A failure is tried
    once more: after a restart of Redis or the database, the first call may meet a pooled
    connection the server closed, and the second gets a fresh one; a dependency that is
    down fails both at once."""
    began = time.monotonic()
    for attempt in (1, 2):
        try:
            check()
            break
        except Exception as error:  # a dependency that fails says why
            if attempt == 2:
                return time.monotonic() - began, f"{type(error).__name__}: {error}"[:200]
    return time.monotonic() - began, ""


def _outcome(name: str, future: Future[tuple[float, str]], started: float, deadline: float) -> Outcome:
    if not future.done():
        return Outcome(name, False, max(0.0, deadline - started), "no answer in time")
    seconds, error = future.result()
    return Outcome(name, not error, seconds, error)
