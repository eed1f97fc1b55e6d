"""Logging filters of operations: the probes stay out of the logs.

A load balancer asks ``/healthz`` or ``/readyz`` every few seconds, on every server: an
access line each would bury the lines worth reading, and a warning for each 503 while
a dependency is down would repeat what the outage filter (``config/outages.py``) says
once. Nothing here imports Django: logging is configured before the apps are ready.
"""

from __future__ import annotations

import logging

LIVENESS, READINESS, METRICS = "/healthz", "/readyz", "/metrics"
PROBES = frozenset((LIVENESS, READINESS, METRICS))  # asked every few seconds, by machines


class ProbesQuiet(logging.Filter):
    """Drops the records about a probe: Django's request warnings (a 503 from
    ``/readyz``) and uvicorn's access lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether the record is kept: not when it is about a probe."""
        return _path(record) not in PROBES


def _path(record: logging.LogRecord) -> str | None:
    request = getattr(record, "request", None)  # django.request's records carry it
    if request is not None:
        return getattr(request, "path", None)
    if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) >= 3:
        return str(record.args[2]).split("?", 1)[0]  # (client, method, path, HTTP version, status)
    return None
