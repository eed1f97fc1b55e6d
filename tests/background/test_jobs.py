"""Background jobs of a process: one thread, in the order they fall due, never raising."""

from __future__ import annotations

import threading

from django.db import connections

from tables.background.runner import InlineRunner, ThreadRunner


def test_jobs_run_on_one_thread_in_the_order_they_fall_due() -> None:
    runner, ran, threads = ThreadRunner(), [], set()

    def job(name: str) -> None:
        ran.append(name)
        threads.add(threading.current_thread().name)

    runner.run_later(0.6, job, "late")
    runner.run_later(0, job, "first")
    runner.run_later(0.3, job, "soon")
    runner.run_later(0, job, "second")
    runner.drain(timeout=5)
    assert ran == ["first", "second", "soon", "late"]
    assert threads == {"jobs"} and threading.current_thread().name not in threads


def test_a_failing_job_is_logged_and_the_next_one_still_runs(caplog) -> None:
    runner, ran = ThreadRunner(), []
    runner.run_later(0, lambda: 1 / 0)
    runner.run_later(0, ran.append, "next")
    runner.drain(timeout=5)
    assert ran == ["next"]
    assert "failed" in caplog.text and "ZeroDivisionError" in caplog.text


def test_delayed_jobs_leave_nothing_behind_once_they_ran() -> None:
    runner, ran = ThreadRunner(), []
    for k in range(200):
        runner.run_later(0.001 * (k % 5), ran.append, k)
    runner.drain(timeout=5)
    assert sorted(ran) == list(range(200))
    assert runner.waiting == 0, "a worker or a simulate command that runs for days keeps no trace of its jobs"


def test_inline_jobs_run_at_once_in_the_callers_thread_whatever_their_delay() -> None:
    ran = []
    InlineRunner().run_later(60, lambda: ran.append(threading.current_thread().name))
    assert ran == [threading.current_thread().name]


def test_the_jobs_thread_gives_back_its_database_connection_after_each_job(transactional_db: None) -> None:
    runner, wrappers = ThreadRunner(), []

    def query() -> None:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
        wrappers.append(connections["default"])  # this thread's own wrapper, not the proxy

    runner.run_later(0, query)
    runner.drain(timeout=5)
    assert wrappers and wrappers[0].connection is None, "closed once the job was done (CONN_MAX_AGE 0)"
