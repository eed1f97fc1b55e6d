"""``pytest --backend=scaled``: the whole suite again on PostgreSQL and Redis.

A plugin (loaded with ``-p tests.scaled``) rather than a fixture, because the settings
read ``DATABASE_URL`` and ``REDIS_URL`` once, when pytest-django imports them, before
any conftest runs: the servers must be up and the variables set by then. Both servers
are throwaway (random ports, temp dirs) and stopped when the run ends.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

from . import servers

_started: list[servers.PostgresCluster | servers.RedisServer] = []


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        choices=["embedded", "scaled"],
        default="embedded",
        help="embedded: SQLite and the in-memory channel layer; scaled: PostgreSQL and Redis started for the run",
    )


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: list[str]
) -> Generator[None, Any, Any]:
    if early_config.known_args_namespace.backend == "scaled":
        problem = servers.missing()
        if problem and os.environ.get("CI") != "true":
            pytest.exit(f"--backend=scaled skipped: {problem}", returncode=0)
        if problem:
            raise pytest.UsageError(f"--backend=scaled under CI: {problem}")
        postgres, redis = servers.PostgresCluster().start(), servers.RedisServer().start()
        _started.extend([redis, postgres])
        os.environ["DATABASE_URL"] = postgres.create_database("baccarat")  # tests run in test_baccarat
        os.environ["REDIS_URL"] = redis.url
        # No connection may outlive a test (the test database is dropped at the end): no pool.
        os.environ["DB_POOL_MAX_SIZE"] = "0"
    return (yield)


def pytest_report_header(config: pytest.Config) -> str:
    return f"backend: {config.getoption('backend')}"


def pytest_unconfigure(config: pytest.Config) -> None:
    while _started:
        _started.pop().destroy()
