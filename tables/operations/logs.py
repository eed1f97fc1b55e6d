"""How the service logs: one JSON object a line in production, readable text in the
demo, each line with what it is about (:mod:`.context`); and the probes kept out.

A load balancer asks ``/healthz`` or ``/readyz`` every few seconds, on every server: an
access line each would bury the lines worth reading, and a warning for each 503 while
a dependency is down would repeat what the outage filter (``config/outages.py``) says
once. Nothing here imports Django: logging is configured before the apps are ready.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from datetime import UTC, datetime

from .context import FIELDS, current

FORMATS = ("json", "text")


def log_format(environ: Mapping[str, str]) -> str:
    """``LOG_FORMAT`` when set, else JSON in production (``HTTPS=true``) and text in the
    demo; ``ValueError`` for a format there is not."""
    https = environ.get("HTTPS", "").strip().lower() in ("1", "true", "yes", "on")
    chosen = environ.get("LOG_FORMAT") or ("json" if https else "text")
    if chosen not in FORMATS:
        raise ValueError(f"LOG_FORMAT is json or text, not {chosen!r}")
    return chosen


LIVENESS, READINESS, METRICS = "/healthz", "/readyz", "/metrics"
PROBES = frozenset((LIVENESS, READINESS, METRICS))  # asked every few seconds, by machines


# What a dealer system asks again and again after a lost connection: "none" is an answer.
ROUND_IN_PROGRESS = re.compile(r"/api/tables/[^/]+/rounds/current")


class ProbesQuiet(logging.Filter):
    """Drops the records about a probe: Django's request warnings (a 503 from
    ``/readyz``) and uvicorn's access lines; Django's warning for a 404 from the round
    in progress (no round is being dealt), which a dealer system polls; and uvicorn's two
    lines for every websocket it accepts ("[accepted]", "connection open"): a floor's
    screens reconnecting after a restart wrote 20,000 of them, the pages-connected gauge
    says as much (docs/operations.md)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether the record is kept: not when it is about a probe, no round dealt, or a
        socket accepted."""
        if record.name == "uvicorn.error" and record.levelno == logging.INFO and _socket_line(record):
            return False
        path = _path(record)
        if path in PROBES:
            return False
        quiet_404 = record.name == "django.request" and getattr(record, "status_code", None) == 404
        return not (quiet_404 and path is not None and ROUND_IN_PROGRESS.fullmatch(path))


def _socket_line(record: logging.LogRecord) -> bool:
    return record.msg == "connection open" or (isinstance(record.msg, str) and record.msg.endswith('" [accepted]'))


def _path(record: logging.LogRecord) -> str | None:
    request = getattr(record, "request", None)  # django.request's records carry it
    if request is not None:
        return getattr(request, "path", None)
    if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) >= 3:
        return str(record.args[2]).split("?", 1)[0]  # (client, method, path, HTTP version, status)
    return None


class About(logging.Filter):
    """Adds what the line is about (request id, table, shoe, round, where known) to each
    record, on the handler: every formatter can use them."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Always kept; its fields added."""
        known = current()
        for name in FIELDS:
            if not hasattr(record, name):
                setattr(record, name, known.get(name))
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, what it is about, and
    the exception's traceback as one string. Nothing else of the record: a request's
    headers, cookies or body never reach the log."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class Text(logging.Formatter):
    """The demo's lines: level, logger, message, then what it is about in brackets."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as readable text."""
        about = " ".join(f"{name}={value}" for name in FIELDS if (value := getattr(record, name, None)) is not None)
        text = f"{record.levelname} {record.name}: {record.getMessage()}" + (f" [{about}]" if about else "")
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text
