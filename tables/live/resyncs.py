"""What a page may send on its socket: one kind of message, a resync request, and not
too often.

A page tells the server which version of each table it shows (``{"have": {slug:
version}}``) when it (re)connects and when a push does not fit what it shows; the server
answers with whatever it missed. Each answer reads the database and sends up to the
whole live part of a table page (about 8 KB for 30 bytes asked), so anything else a
client sends is refused, a page gets at most one answer per interval (asks in between
are merged into one, answered when the interval is up with what the page said last),
and one client address gets at most ``RESYNC_BURST`` answers at once, then
``RESYNC_PER_SECOND`` a second (:class:`Budget`), however many sockets it opens: an ask
beyond that is answered :data:`LATER`, a few dozen bytes telling the page when to ask
again (the outside probe pulled 212 MB in 30 s with 200 sockets asking once a second).
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable

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


LATER = '<template id="resync-later" data-after="{seconds:.1f}"></template>'  # static/js/live.js reads it
FORGET_AFTER = 4096  # addresses kept before the ones whose budget is whole again are forgotten


class Budget:
    """Whole answers to one client address: ``burst`` at once, then ``rate`` a second
    (a token bucket, kept as when the address's next answer is due). :meth:`take` says how
    long an ask must wait; one told to wait is told a time spread over the next burst, so
    a crowd behind one address (a casino's wifi after a blip) comes back in turn."""

    def __init__(self, burst: int, rate: float, clock: Clock, spread: Callable[[], float] = random.random) -> None:
        if burst < 1 or rate <= 0:
            raise ValueError("a budget answers at least one at once and more than none a second")
        self.burst, self.interval, self.clock, self.spread = burst, 1 / rate, clock, spread
        self._due: dict[str, float] = {}  # address -> when its next answer is due (past: tokens to spare)

    def take(self, address: str) -> float:
        """0 when an answer may go now (and it is counted), else the seconds to wait."""
        now = self.clock.monotonic()
        due = max(self._due.get(address, now), now)
        wait = due - now - (self.burst - 1) * self.interval
        if wait > 0:
            return wait + self.spread() * self.burst * self.interval
        self._due[address] = due + self.interval
        if len(self._due) > FORGET_AFTER:
            self._due = {a: d for a, d in self._due.items() if d > now}
        return 0.0

    def addresses(self) -> int:
        """Addresses remembered (for the tests: the memory this takes stays bounded)."""
        return len(self._due)
