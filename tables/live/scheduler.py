"""When a table's change is pushed: at most once per ``PUSH_INTERVAL``, and only when
some page shows it. One :class:`Scheduler` per process holds everything this takes:
the clock, the job runner, the pages this process serves, the sender, the push
ledger (the protocol's shared state) and which tables wait for a push. Tests make their
own with a clock they move, a runner they drive and a sender that records.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings

from ..background import runner as background
from ..background.runner import Runner
from ..operations.metrics import PUSH_SECONDS
from . import push
from .answers import Answers
from .clock import Clock, SystemClock
from .fanout import Fanout
from .groups import languages
from .known import KnownTables
from .ledger import PushLedger
from .push import Sends
from .resyncs import Budget


class Scheduler:
    """A table pushes about once per ``interval`` at most, across all processes: a change
    soon after a push waits out the interval, so a burst of rounds costs one render, not
    one each, and rendering never crowds out recording. A table with a push still
    waiting gets no second one: that push renders the state as it is when it runs. A
    table no page shows costs one cache read per interval: a change soon after that read
    waits out the interval too, and looks again then, so a page that opened meanwhile
    still gets it."""

    def __init__(
        self,
        *,
        runner: Runner,
        clock: Clock | None = None,
        interval: float = 0,
        sender: Sends | None = None,
        ledger: PushLedger | None = None,
        resyncs: Budget | None = None,
    ) -> None:
        self.runner, self.clock, self.interval = runner, clock or SystemClock(), interval
        self.ledger = ledger or PushLedger()
        # What pages that say hello are answered: read once for a crowd (.answers), and
        # read again once a push to their table arrives here, or its last page here left.
        self.answers = Answers(self.clock)
        self.pages = Fanout(self.ledger, unsure=self.answers.stale)
        self.sender: Sends = sender or push.Sender()
        # Whole resync answers per client address (what a page may pull: .resyncs).
        self.resyncs = resyncs or Budget(settings.RESYNC_BURST, settings.RESYNC_PER_SECOND, self.clock)
        self.tables = KnownTables(self.clock)  # the tables a page may open without asking the database
        self._queued: set[int] = set()  # tables with a push waiting in this process
        self._last_look: dict[int, float] = {}  # table -> when this process last looked to push it
        self._changed_at: dict[int, float] = {}  # table -> when its waiting push's first change committed
        self._slugs: dict[int, str] = {}  # table -> its slug as of its last change: its group's name
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls) -> Scheduler:
        return cls(runner=background.runner(), interval=settings.PUSH_INTERVAL)

    def serve_on(self, loop: asyncio.AbstractEventLoop | None) -> None:
        """Send pushes through this ASGI server's event loop (``None``: it stopped)."""
        if isinstance(self.sender, push.Sender):  # a test's recording sender has no loop
            self.sender.server_loop = loop

    def table_changed(self, table_id: int, slug: str) -> None:
        """After a commit that changed what a table's pages show: push it from this
        process once the request is answered, so recording never waits for it."""
        with self._lock:
            self._slugs[table_id] = slug
            if table_id in self._queued:
                return
            self._queued.add(table_id)
            self._changed_at[table_id] = self.clock.monotonic()
            wait = self._last_look.get(table_id, -math.inf) + self.interval - self.clock.monotonic()
        self._later(wait, self._publish_queued, table_id)

    def round_dealt(self, table_id: int, slug: str) -> None:
        """A card of a round in progress is dealt (or the round cancelled): push the round
        as it is now, at once. Not held to the interval: a card is a small push, a round
        has six at most, and players watch each one arrive."""
        with contextlib.suppress(Exception):  # the next card, or the round's own push, brings them up to date
            self.runner.run_later(0, push.publish_dealing, table_id, self.sender, self.ledger)

    def alarms_changed(self, shoe_id: int | None) -> None:
        """An alarm was raised or noted: push the desk's alarms at once (they are few)."""
        with contextlib.suppress(Exception):  # a desk that reconnects gets them anyway
            self.runner.run_later(0, push.publish_alarms, shoe_id, self.sender, self.ledger)

    def odds_changed(self, table_id: int) -> None:
        """A round's odds are stored (in a background job already): push them now."""
        push.publish_odds(table_id, sender=self.sender, ledger=self.ledger)

    def publish_table(self, table_id: int, *, coalesce: bool = False, watched: dict[str, bool] | None = None) -> None:
        push.publish_table(table_id, sender=self.sender, ledger=self.ledger, coalesce=coalesce, watched=watched)

    def _publish_queued(self, table_id: int) -> None:
        watched = push.watched_groups(self._slugs[table_id], self.ledger)
        if not any(watched.values()):
            self._done(table_id)  # no page to push to: a page that opens resyncs
            self.ledger.forget(table_id, languages())
            return
        if self.interval > 0:
            now = self.clock.time()
            bucket = int(now // self.interval)
            if not self.ledger.take_slot(table_id, bucket, self.interval):
                # Another process pushed this table in this interval: push what it could
                # not have shown in the next one (the table stays queued here till then).
                self._later((bucket + 1) * self.interval - now, self._publish_queued, table_id)
                return
        changed_at = self._changed_at.pop(table_id, None)
        self._done(table_id)  # changes from now on need a push of their own
        self.publish_table(table_id, coalesce=True, watched=watched)
        if changed_at is not None:
            PUSH_SECONDS.observe(self.clock.monotonic() - changed_at)

    def _done(self, table_id: int) -> None:
        with self._lock:
            self._queued.discard(table_id)
            self._last_look[table_id] = self.clock.monotonic()

    def _later(self, delay: float, job: Callable[..., object], *args: Any) -> None:
        try:
            self.runner.run_later(delay, job, *args)
        except Exception:
            with self._lock:
                self._queued.discard(args[0])  # not queued after all: the next change tries again


_current: Scheduler | None = None
_pid = 0
_lock = threading.Lock()


def scheduler() -> Scheduler:
    """This process's scheduler, made from the settings on first use (and again in a
    forked child, whose parent's threads did not come along)."""
    global _current, _pid
    with _lock:
        if _current is None or _pid != os.getpid():
            _current, _pid = Scheduler.from_settings(), os.getpid()
        return _current


def install(replacement: Scheduler | None) -> Scheduler | None:
    """Use ``replacement`` as this process's scheduler (``None``: make one from the
    settings on next use); returns the one it replaces. For tests."""
    global _current, _pid
    with _lock:
        previous, _current, _pid = _current, replacement, os.getpid()
    return previous
