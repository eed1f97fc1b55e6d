"""A clock the test moves, and a job runner that runs each job when the clock reaches it."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import Any

from tables.background.runner import run

EPOCH = 1_800_000_000.0  # what time() reads when the test starts: an interval boundary


class FakeTime:
    """:class:`tables.live.clock.Clock` and :class:`tables.background.runner.Runner` in one: a job
    due now runs at once, in the test's thread; a later one when :meth:`advance` passes it."""

    def __init__(self) -> None:
        self.now = 0.0
        self._due: list[tuple[float, int, Callable[..., object], tuple[Any, ...]]] = []
        self._order = itertools.count()

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return EPOCH + self.now

    def run_later(self, delay: float, job: Callable[..., object], *args: Any) -> None:
        if delay <= 0:
            run(job, args)
        else:
            heapq.heappush(self._due, (self.now + delay, next(self._order), job, args))

    def drain(self, timeout: float = 30) -> None:
        """Nothing waits on a thread: jobs run when the clock reaches them."""

    def advance(self, seconds: float) -> None:
        """Move the clock on, running each job as its time comes (jobs they queue too)."""
        until = self.now + seconds
        while self._due and self._due[0][0] <= until:
            when, _, job, args = heapq.heappop(self._due)
            self.now = max(self.now, when)
            run(job, args)
        self.now = until

    @property
    def waiting(self) -> int:
        return len(self._due)
