"""The PostgreSQL pool checks a connection taken after a pause in its use, and not one
taken again a moment after it was working (config/postgresql/)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from unittest import mock

import dj_database_url
import pytest
from django.db.utils import ConnectionHandler
from psycopg_pool import ConnectionPool

from config.postgresql import base

from . import servers


class Connection:
    """Stands in for a psycopg connection: the check only needs its identity."""


@pytest.fixture
def checks() -> Iterator[mock.MagicMock]:
    """Counts the checks; with a real connection each still runs."""
    with mock.patch.object(ConnectionPool, "check_connection", wraps=ConnectionPool.check_connection) as check:
        yield check


@pytest.fixture
def clock() -> Iterator[mock.MagicMock]:
    with mock.patch.object(base.time, "monotonic", return_value=100.0) as now:
        yield now


def test_a_connection_taken_for_the_first_time_is_checked(checks, clock) -> None:
    checks.return_value = None  # a stand-in has nothing to check
    connection = Connection()
    base.check_after_pause(connection)
    checks.assert_called_once_with(connection)


def test_a_connection_taken_again_at_once_is_not_checked_but_one_taken_after_a_pause_is(checks, clock) -> None:
    checks.return_value = None
    connection = Connection()
    base.check_after_pause(connection)
    clock.return_value += base.BUSY_SECONDS / 2
    base.check_after_pause(connection)
    assert checks.call_count == 1
    clock.return_value += base.BUSY_SECONDS
    base.check_after_pause(connection)
    assert checks.call_count == 2


@pytest.fixture
def postgres() -> Iterator[servers.PostgresCluster]:
    problem = servers.missing()
    if problem:
        servers.unavailable(problem)
    cluster = servers.PostgresCluster().start()
    yield cluster
    cluster.destroy()


def select_1(connection) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (one,) = cursor.fetchone()
    connection.close()  # back to the pool
    return one


def test_after_a_database_restart_the_pool_hands_out_a_working_connection(postgres, checks, django_db_blocker) -> None:
    settings = dj_database_url.parse(postgres.create_database("pooled"), conn_max_age=0, conn_health_checks=True)
    settings |= {"ENGINE": "config.postgresql", "OPTIONS": {"pool": {"min_size": 1, "max_size": 1, "timeout": 3}}}
    connection = ConnectionHandler({"default": settings})["default"]
    with django_db_blocker.unblock():
        check_the_pool_through_a_restart(postgres, connection, checks)


def check_the_pool_through_a_restart(postgres, connection, checks) -> None:
    try:
        assert select_1(connection) == 1
        checks.reset_mock()
        assert select_1(connection) == 1
        assert not checks.called, "taken again at once: not checked"
        postgres.stop()
        postgres.resume()
        time.sleep(base.BUSY_SECONDS)
        assert select_1(connection) == 1  # the dead connection failed its check and was replaced
        assert checks.called
    finally:
        connection.close_pool()
