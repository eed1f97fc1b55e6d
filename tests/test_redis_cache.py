"""The Redis cache backend shares one client, and its pool, per process and configuration."""

from __future__ import annotations

import threading

from config.redis_cache import RedisCache

URL = "redis://127.0.0.1:6390/0"  # never connected to: making clients opens nothing


def backend(location: str = URL, **options: object) -> RedisCache:
    return RedisCache(location, {"OPTIONS": options})


def test_every_backend_of_one_configuration_uses_one_client_and_one_pool() -> None:
    first, second = backend(), backend()
    assert first._cache is second._cache
    client = first._cache.get_client(write=True)
    assert client is second._cache.get_client() is first._cache.get_client("key")
    assert client.connection_pool is second._cache.get_client().connection_pool


def test_backends_made_in_other_threads_use_the_same_client() -> None:
    clients = []

    def use() -> None:
        clients.append(backend()._cache.get_client(write=True))

    threads = [threading.Thread(target=use) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(client) for client in clients}) == 1


def test_another_configuration_gets_a_client_of_its_own() -> None:
    assert backend()._cache is not backend("redis://127.0.0.1:6390/1")._cache
    assert backend()._cache is not backend(socket_timeout=2)._cache
    assert backend()._cache.get_client() is not backend(socket_timeout=2)._cache.get_client()
