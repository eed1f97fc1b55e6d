"""Heavy reports capped per reviewer and in total: an export streams for seconds and a
report over a year of history reads for a few hundred milliseconds, so eight of them at
once from one session took every thread of the web process (issue 49, item 2).

A report takes a slot of its reviewer's and one of everyone's before it starts, and
gives both back when it ends (a streamed export: when its response is closed, whether
the download finished or the client went away). Over either cap the answer is 429 with
``Retry-After``, naming what is under way. Slots live in the cache (Redis when scaled
out, so every process counts them; this process's memory otherwise), each with a
lifetime, so a process killed mid-export frees its slots when they expire. With the
cache down nothing is counted or refused.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from dataclasses import dataclass

from django.core.cache import cache

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Caps:
    """``per_user`` reports of one kind a reviewer may run at once, ``total`` for
    everyone; a slot expires ``lifetime`` seconds after it was taken."""

    name: str
    per_user: int
    total: int
    lifetime: int


class Held:
    """The slots one report holds; :meth:`release` gives them back (once)."""

    def __init__(self, keys: list[str], token: str) -> None:
        self._keys, self._token = keys, token

    def release(self) -> None:
        keys, self._keys = self._keys, []
        for key in keys:
            try:
                if cache.get(key) == self._token:  # expired and taken by another meanwhile: theirs
                    cache.delete(key)
            except Exception:
                log.warning("could not give back the report slot %s", key, exc_info=True)


def _take_one(prefix: str, count: int, token: str, lifetime: int) -> str | None:
    for n in range(count):
        key = f"{prefix}:{n}"
        if cache.add(key, token, timeout=lifetime):
            return key
    return None


def slots_take(caps: Caps, *, user: object) -> Held | None:
    """A slot of the user's and one of everyone's, or ``None`` when either cap is reached
    (nothing is held then)."""
    token = secrets.token_hex(8)
    try:
        mine = _take_one(f"report-slots:{caps.name}:user:{user}", caps.per_user, token, caps.lifetime)
        if mine is None:
            return None
        everyone = _take_one(f"report-slots:{caps.name}:all", caps.total, token, caps.lifetime)
        if everyone is None:
            Held([mine], token).release()
            return None
    except Exception:
        log.warning("could not count the %s under way: not capped", caps.name, exc_info=True)
        return Held([], token)
    return Held([mine, everyone], token)


class Releasing:
    """A streamed response's content that gives its slots back when the server closes it
    (the download finished, failed or was abandoned); a response never read is closed
    too, so the slots never wait for their lifetime."""

    def __init__(self, chunks: Iterator[str | bytes], held: Held) -> None:
        self._chunks, self._held = chunks, held

    def __iter__(self) -> Releasing:
        return self

    def __next__(self) -> str | bytes:
        return next(self._chunks)

    def close(self) -> None:
        try:
            close = getattr(self._chunks, "close", None)
            if close is not None:
                close()
        finally:
            self._held.release()
