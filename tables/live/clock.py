"""The time the push scheduler reads, so tests can replace it with a clock they move."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float:
        """Seconds for intervals (never goes back)."""
        ...

    def time(self) -> float:
        """Seconds since the epoch, shared by every process (push slots)."""
        ...


class SystemClock:
    def monotonic(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return time.time()
