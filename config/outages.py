"""One line an outage: a dependency that is down (the database, Redis) fails every request
and every push at once. Logged as it comes, that is a traceback a request (an 18 s Redis
outage wrote 2,661 lines, 1,024 of them tracebacks); logged here, it is one line a
dependency every few seconds, saying how many more there were."""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


def dependency_down(error: BaseException | None) -> str | None:
    """Which dependency ``error`` (or what caused it) says is unreachable, if any."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, OperationalError | InterfaceError):
            return "database"
        if isinstance(error, RedisConnectionError | RedisTimeoutError):
            return "redis"
        error, seen = error.__cause__ or error.__context__, seen + 1
    return None


class OneLineAnOutage(logging.Filter):
    """Lets through a record whose exception says a dependency is down once every
    ``seconds`` a dependency, as one line without its traceback; drops the others in
    between and counts them. Every other record passes as it is."""

    def __init__(self, seconds: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.seconds, self.clock = seconds, clock
        self._last: dict[str, float] = {}
        self._dropped: Counter[str] = Counter()
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        dependency = dependency_down(error)
        if dependency is None:
            return True
        now = self.clock()
        with self._lock:
            last = self._last.get(dependency)
            if last is not None and now - last < self.seconds:
                self._dropped[dependency] += 1
                return False
            self._last[dependency] = now
            dropped = self._dropped.pop(dependency, 0)
        said = record.getMessage()
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        record.msg = "%s unavailable (%s): %s; %d more failures like it since the last line"
        record.args = (dependency, said, first_line, dropped)
        record.exc_info, record.exc_text = None, None
        return True
