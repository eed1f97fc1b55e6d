"""The Redis cache, as the settings configure it with REDIS_URL, works against a real Redis:
the scaled backend's own (``--backend=scaled``), or one started here."""

from __future__ import annotations

import runpy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import CacheHandler, caches
from django_redis.cache import RedisCache

from tests.concurrency import at_once

from . import servers

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def redis_url() -> Iterator[str]:
    if settings.REDIS_URL:  # the scaled backend's
        yield settings.REDIS_URL
        return
    problem = servers.missing()
    if problem:
        servers.unavailable(problem)
    redis = servers.RedisServer().start()
    yield redis.url
    redis.destroy()


@pytest.fixture
def redis_cache(redis_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Any]:
    """The default cache as the settings make it for REDIS_URL (on the scaled backend, the
    cache every other test uses)."""
    if settings.REDIS_URL:
        yield caches["default"]
        return
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    configured = CacheHandler(runpy.run_path(str(ROOT / "config" / "settings.py"))["CACHES"])
    yield configured["default"]
    configured.close_all()


def test_the_cache_is_django_redis_and_keeps_adds_and_forgets(redis_cache) -> None:
    assert isinstance(redis_cache, RedisCache)
    redis_cache.set("shoe", {"number": 3, "cards": ["AH", "TS"]}, timeout=60)
    assert redis_cache.get("shoe") == {"number": 3, "cards": ["AH", "TS"]}
    assert redis_cache.add("push-slot:1:7", True, timeout=5) is True
    assert redis_cache.add("push-slot:1:7", True, timeout=5) is False  # one push per interval
    redis_cache.set_many({"watched:table.a": True, "watched:lobby": True}, timeout=60)
    assert redis_cache.get_many(["watched:table.a", "watched:lobby", "watched:table.b"]) == {
        "watched:table.a": True,
        "watched:lobby": True,
    }
    redis_cache.delete("shoe")
    assert redis_cache.get("shoe") is None


def test_threads_share_one_connection_pool(redis_url: str) -> None:
    """Django gives each thread a cache backend of its own; their connections come from
    one pool per process."""

    def use() -> object:
        backend = RedisCache(redis_url, {})
        backend.get("anything")
        return backend.client.get_client().connection_pool

    first = use()  # the process's first use makes its pool (two first uses at once may race to)
    pools = at_once(4, use)
    assert {id(pool) for pool in pools} == {id(first)}
