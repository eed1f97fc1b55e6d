"""gunicorn's settings for the production HTTP process (the Procfile's ``web``):

    gunicorn config.wsgi -c python:config.gunicorn --bind 127.0.0.1:8000

Threads (``gthread``): a request waiting on the database or Redis leaves the CPU to
another. A few threads a process are enough; more only contend for Python's
interpreter lock, and each request waits longer. Workers: ``WEB_CONCURRENCY``, as
gunicorn reads it. The command line overrides all of these.
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import multiprocess

from config.heap import freeze_startup_heap
from tables.operations.logs import log_format

worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "4"))
# gunicorn's runtime control socket sits in one place per user ($HOME/.gunicorn): two
# gunicorns on one machine (tests, benchmarks) would take each other's. Unused here.
control_socket_disable = True
# gunicorn's own lines (starting, a worker booting or timing out) in the app's format.
_FORMATTER = "JsonLines" if log_format(os.environ) == "json" else "Text"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"app": {"()": f"tables.operations.logs.{_FORMATTER}"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "app", "stream": "ext://sys.stderr"}},
    "root": {"level": "INFO", "handlers": []},
    "loggers": {
        name: {"level": "INFO", "handlers": ["console"], "propagate": False}
        for name in ("gunicorn.error", "gunicorn.access")
    },
}


def post_worker_init(worker: Any) -> None:
    """A worker has loaded the application: freeze what it loaded (config/heap.py)."""
    freeze_startup_heap()


def child_exit(server: Any, worker: Any) -> None:
    """A worker ended: its live gauges (pages connected, odds jobs running) stop counting
    in /metrics (prometheus-client's multiprocess mode)."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        multiprocess.mark_process_dead(worker.pid, directory)
