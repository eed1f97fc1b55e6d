"""Django's Redis cache, with one client (and its connection pool) per process.

Django keeps a cache backend per request context, each backend its own client with
its own pool, and that client makes a fresh ``redis.Redis`` for every call. Under ASGI
that meant a Redis connection opened and set up per request (a TCP handshake, a few
commands, a package metadata read), then a client object built per cache call: the
presence reads, push slots and odds marks of every round. Here all of a process's
backends of one configuration share one client, and each pool one ``redis.Redis``,
as they would under a threaded server. redis-py's clients are safe to share between
threads, and its pools reset themselves when they cross a fork, so Celery's forked
workers get their own connections.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends import redis as django_redis
from django.utils.functional import cached_property

_clients: dict[str, SharedClient] = {}
_lock = threading.Lock()


class SharedClient(django_redis.RedisCacheClient):
    """Keeps the ``redis.Redis`` of each pool instead of making one per call."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._redis: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._redis.get(index)
        if client is None:
            with _lock:
                if index not in self._redis:
                    pool = self._pool_class.from_url(self._servers[index], **self._pool_options)
                    self._redis[index] = self._client(connection_pool=pool)
                client = self._redis[index]
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache``, sharing :class:`SharedClient`."""

    @cached_property
    def _cache(self) -> SharedClient:
        key = repr((self._servers, sorted(self._options.items(), key=lambda item: item[0])))
        with _lock:
            if key not in _clients:
                _clients[key] = SharedClient(self._servers, **self._options)
            return _clients[key]
