"""A dependency that is down is logged as one line every few seconds, not a traceback a
request."""

from __future__ import annotations

import logging
import sys

import pytest
from django.conf import settings
from django.db import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

from config.outages import OneLineAnOutage, dependency_down
from tests.fake_time import FakeTime

pytestmark = pytest.mark.backend_free  # a logging filter: no database, no server


def failed(error: BaseException, message: str = "Internal Server Error: /") -> logging.LogRecord:
    try:
        raise error
    except BaseException:
        return logging.LogRecord("django.request", logging.ERROR, __file__, 1, message, (), sys.exc_info())


def test_an_outage_is_one_line_a_dependency_every_few_seconds_saying_how_many_more() -> None:
    clock = FakeTime()
    outages = OneLineAnOutage(seconds=5, clock=clock.monotonic)
    first = failed(OperationalError("connection to server at 10.0.0.5 failed: Connection refused\nIs it running?"))
    assert outages.filter(first)
    assert first.exc_info is None and first.getMessage() == (
        "database unavailable (Internal Server Error: /): connection to server at 10.0.0.5 failed: "
        "Connection refused; 0 more failures like it since the last line"
    )
    assert [outages.filter(failed(OperationalError("refused"))) for _ in range(40)] == [False] * 40
    assert outages.filter(failed(RedisConnectionError("Error 111 connecting to 127.0.0.1:6379")))  # another dependency
    clock.advance(5)
    later = failed(OperationalError("refused"))
    assert outages.filter(later) and "40 more failures like it" in later.getMessage()


def test_a_bug_keeps_its_traceback_and_plain_lines_pass() -> None:
    outages = OneLineAnOutage()
    bug = failed(ValueError("a bug"))
    assert outages.filter(bug) and bug.exc_info is not None
    plain = logging.LogRecord("tables", logging.INFO, __file__, 1, "a line", (), None)
    assert outages.filter(plain) and plain.getMessage() == "a line"


def test_what_caused_an_error_names_the_dependency() -> None:
    try:
        try:
            raise RedisConnectionError("down")
        except RedisConnectionError as cause:
            raise RuntimeError("push failed") from cause
    except RuntimeError as error:
        assert dependency_down(error) == "redis"


def test_the_console_logs_through_the_filter() -> None:
    assert settings.LOGGING["handlers"]["console"]["filters"][0] == "outages"
    assert settings.LOGGING["filters"]["outages"]["()"] == "config.outages.OneLineAnOutage"
