"""``pytest --backend=scaled``: the whole suite again on PostgreSQL and Redis.

A plugin (loaded with ``-p tests.scaled``) rather than a fixture, because the settings
read ``DATABASE_URL`` and ``REDIS_URL`` once, when pytest-django imports them, before
any conftest runs: the servers must be up and the variables set by then. Both servers
are throwaway (random ports, temp dirs) and stopped when the run ends.

A test marked ``backend_free`` checks something the run's backend never touches: the pure
core, the project's files, a browser against a server on its own SQLite database, servers
it starts itself. The embedded pass runs it; the scaled pass leaves it out rather than run
the very same thing a second time.
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


# A backend-free test may not ask for the run's database: that would make it depend on the backend.
_BACKEND_FIXTURES = frozenset({"db", "transactional_db", "django_db_setup", "live_server", "client", "admin_client"})


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "backend_free: checks nothing the run's backend touches; only the embedded pass runs it"
    )


@pytest.hookimpl(trylast=True)  # after conftests have marked their tests
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    free = [item for item in items if item.get_closest_marker("backend_free")]
    for item in free:
        asked = _BACKEND_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        if asked:
            raise pytest.UsageError(f"{item.nodeid} is marked backend_free but uses {sorted(asked)}")
    if config.getoption("backend") == "scaled" and free:
        config.hook.pytest_deselected(items=free)
        items[:] = [item for item in items if not item.get_closest_marker("backend_free")]


def pytest_report_header(config: pytest.Config) -> str:
    backend = config.getoption("backend")
    left_out = " (backend_free tests are left to the embedded pass)" if backend == "scaled" else ""
    return f"backend: {backend}{left_out}"


def pytest_unconfigure(config: pytest.Config) -> None:
    while _started:
        _started.pop().destroy()
