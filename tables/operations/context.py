"""What a log line is about: the request (its id), the table, the shoe and the round,
where known. Context variables, so each request, task and job has its own; set by the
request middleware (:mod:`.requests`), the API and the jobs, read by the log formatter
(:mod:`.logs`). No Django: logging reads it before the apps are ready."""

from __future__ import annotations

from contextvars import ContextVar

FIELDS = ("request_id", "table", "shoe", "round")
_fields: dict[str, ContextVar[str | int | None]] = {name: ContextVar(name, default=None) for name in FIELDS}


def bind(**known: str | int | None) -> None:
    """What this request, task or job is about from now on (``table="baccarat-1"``)."""
    for name, value in known.items():
        _fields[name].set(value)


def current() -> dict[str, str | int]:
    """The fields known here, by name."""
    return {name: value for name, var in _fields.items() if (value := var.get()) is not None}


def begin(request_id: str) -> None:
    """A request or task starts: its id, and nothing else known yet (a thread serves one
    request after another: what the last one bound is forgotten)."""
    for name, var in _fields.items():
        var.set(request_id if name == "request_id" else None)
