"""One Redis connection pool per process for Django's cache.

Django keeps a cache backend per request context, and its Redis backend a pool per
backend, so under ASGI every request opened (and set up) a Redis connection of its
own: a TCP handshake, a few commands and a package metadata read, about a tenth of a
recording server's time. Here all of a process's backends share one pool per
configuration, as they would under a threaded server. redis-py resets a pool that
crosses a fork, so Celery's forked workers get their own.
"""

from __future__ import annotations

import threading
from typing import Any

import redis

_pools: dict[tuple[str, str], redis.ConnectionPool] = {}
_lock = threading.Lock()


class SharedConnectionPool:
    """A ``pool_class`` for Django's RedisCache (only ``from_url`` is called)."""

    @staticmethod
    def from_url(url: str, **options: Any) -> redis.ConnectionPool:
        key = (url, repr(sorted(options.items(), key=lambda item: item[0])))
        with _lock:
            if key not in _pools:
                _pools[key] = redis.ConnectionPool.from_url(url, **options)
            return _pools[key]
