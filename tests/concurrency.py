"""Work done by several threads at the same moment, as concurrent requests are."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from django.db import connection

T = TypeVar("T")


def at_once(count: int, work: Callable[[], T]) -> list[T]:
    """``work()`` in ``count`` threads released together; what each returned. Each
    thread gives back its own database connection when it is done."""
    start, results = threading.Barrier(count), []

    def run() -> None:
        try:
            start.wait()
            results.append(work())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
