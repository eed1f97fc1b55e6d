"""Readiness checks: run at once, answered within the deadline, a hung one not piled up."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from tables.operations.checks import Checks
from tables.operations.logs import ProbesQuiet

pytestmark = pytest.mark.backend_free  # plain Python: no database, cache or channel layer


def refused() -> None:
    raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def test_every_check_is_run_and_a_failing_one_says_why() -> None:
    outcomes = {o.name: o for o in Checks({"database": lambda: None, "cache": refused}).run(timeout=1)}
    assert outcomes["database"].ok and outcomes["database"].error == ""
    assert not outcomes["cache"].ok and outcomes["cache"].error == (
        "ConnectionError: Error 111 connecting to 127.0.0.1:6379. Connection refused."
    )


def test_a_dependency_that_hangs_fails_at_the_deadline_and_is_not_asked_again_while_it_hangs() -> None:
    released, calls = threading.Event(), []

    def hangs() -> None:
        calls.append(1)
        released.wait(timeout=10)

    checks = Checks({"database": hangs, "cache": lambda: None})
    began = time.monotonic()
    outcomes = {o.name: o for o in checks.run(timeout=0.2)}
    assert time.monotonic() - began < 1  # the probe answers; the check is still waiting
    assert not outcomes["database"].ok and outcomes["database"].error == "no answer in time"
    assert outcomes["cache"].ok
    assert not {o.name: o for o in checks.run(timeout=0.05)}["database"].ok
    assert calls == [1], "a hung check holds one thread, not one a probe"
    released.set()  # the database answers again
    assert {o.name: o for o in checks.run(timeout=1)}["database"].ok


def record(name: str, args: tuple[object, ...] = (), **extra: object) -> logging.LogRecord:
    made = logging.LogRecord(name, logging.INFO, __file__, 1, "%s", args, None)
    made.__dict__.update(extra)
    return made


class Request:
    def __init__(self, path: str) -> None:
        self.path = path


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_the_probes_leave_no_access_line_and_no_503_warning(path: str) -> None:
    quiet = ProbesQuiet()
    assert not quiet.filter(record("uvicorn.access", ("10.0.0.2:5000", "GET", path, "1.1", 200)))
    assert not quiet.filter(record("uvicorn.access", ("10.0.0.2:5000", "GET", path + "?x=1", "1.1", 200)))
    assert not quiet.filter(record("django.request", request=Request(path), status_code=503))
    assert quiet.filter(record("uvicorn.access", ("10.0.0.2:5000", "GET", "/ws/lobby/", "1.1", 101)))
    assert quiet.filter(record("django.request", request=Request("/api/tables"), status_code=503))


def test_a_websocket_accepted_leaves_no_line_but_its_errors_do() -> None:
    quiet = ProbesQuiet()
    accepted = record("uvicorn.error", ("10.0.0.2:0", "/ws/tables/t1/"), msg='%s - "WebSocket %s" [accepted]')
    assert not quiet.filter(accepted)
    assert not quiet.filter(record("uvicorn.error", (), msg="connection open"))
    assert quiet.filter(record("uvicorn.error", (), msg="Started server process [%d]"))
    failed = record("uvicorn.error", (), msg="Exception in ASGI application\n", levelno=logging.ERROR)
    assert quiet.filter(failed)


def test_no_round_being_dealt_is_an_answer_not_a_warning() -> None:
    quiet = ProbesQuiet()
    polled = "/api/tables/baccarat-1/rounds/current"
    assert not quiet.filter(record("django.request", request=Request(polled), status_code=404))
    assert quiet.filter(record("django.request", request=Request(polled), status_code=500))
    assert quiet.filter(record("django.request", request=Request("/api/tables/nope/rounds"), status_code=404))
    assert quiet.filter(record("uvicorn.access", ("10.0.0.2:5000", "GET", polled, "1.1", 404)))


def test_a_check_that_fails_once_then_answers_passes() -> None:
    calls = []

    def stale_then_fresh() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise ConnectionError("Connection closed by server.")  # a pooled connection from before a restart

    assert Checks({"cache": stale_then_fresh}).run(timeout=1)[0].ok and len(calls) == 2
