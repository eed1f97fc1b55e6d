"""What a page may send on its socket: one kind of message, a resync request, and not
too often.

A page tells the server which version of each table it shows (``{"have": {slug:
version}}``) when it (re)connects and when a push does not fit what it shows; the server
answers with whatever it missed. Each answer reads the database and sends up to the
whole live part of a table page, so anything else a client sends is refused, and a page
gets at most one answer per interval: asks in between are merged into one, answered
when the interval is up with what the page said last.
"""

from __future__ import annotations

import json
import math
import re

from ..page_version import PageVersion
from .clock import Clock

MAX_BYTES = 16 * 1024  # a lobby of a few hundred tables says what it shows in less
MAX_TABLES = 500
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,50}")


class Malformed(ValueError):
    """Not a resync request: the socket is closed."""


def resync_request(text: str | None, data: bytes | None = None) -> dict[str, PageVersion]:
    """The versions a page says it shows, by table slug (empty: it shows nothing yet)."""
    if text is None or data is not None:
        raise Malformed("a resync request is a text message")
    if len(text) > MAX_BYTES:
        raise Malformed(f"a resync request is at most {MAX_BYTES} characters")
    try:
        message = json.loads(text)
    except ValueError:
        raise Malformed("a resync request is JSON") from None
    if not isinstance(message, dict) or set(message) != {"have"} or not isinstance(message["have"], dict):
        raise Malformed('a resync request is {"have": {table: version}}')
    have = message["have"]
    if len(have) > MAX_TABLES:
        raise Malformed(f"a resync request names at most {MAX_TABLES} tables")
    try:
        if not all(SLUG.fullmatch(slug) for slug in have):
            raise ValueError("not a table slug")
        return {slug: PageVersion.parse(version) for slug, version in have.items()}
    except ValueError:
        raise Malformed("a resync request maps table slugs to versions") from None


class Pacer:
    """At most one resync per ``interval`` seconds for one page."""

    def __init__(self, interval: float, clock: Clock) -> None:
        self.interval, self.clock = interval, clock
        self._next = -math.inf  # when the next resync may run

    def book(self) -> float:
        """Book the next resync: the seconds it must wait (0: it runs now)."""
        now = self.clock.monotonic()
        at = max(now, self._next)
        self._next = at + self.interval
        return at - now
