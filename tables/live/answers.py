"""What a table page or the lobby that says hello is answered, read once for a crowd.

After a deploy, a restart or a network blip every screen of a floor reconnects at once
and says which version of its table it shows. Reading the table's state for each page
(three queries, and for a page behind its whole live part, tens of milliseconds of
rendering) one after the other on the database thread took 10,000 pages minutes, held
each waiting page's memory, and starved the server's event loop of the interpreter
until its supervisor killed it (issue 50). So each process reads a table's state once
per language and shares it with every page that asks within ``ANSWER_SECONDS``, unless
a push to that table's pages arrived here meanwhile or its last page here left (then
pushes stop arriving here): one read at a time, the pages that ask meanwhile wait for
it; the whole part rendered once, for the first page behind. The lobby's tables alike:
each lobby page that hello'd read them (every table, its shoe, rounds and odds), one
page in twenty-one of a floor's (issue 50: most of what connecting cost beyond the
baseline); now one read a second, and only a page behind on a card renders (or takes
from the cache) those cards.

An answer a little stale is safe: a page drops a whole part older than what it shows,
and a push that does not fit what it shows makes it ask again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..page_version import PageVersion
from .clock import Clock

ANSWER_SECONDS = 1.0
PRUNE_AFTER = 512  # groups kept before the expired ones are forgotten
_T = TypeVar("_T")
_S = TypeVar("_S")


@dataclass
class State(Generic[_S]):
    """A group's state as its pages should show it now: what was read (a table's version,
    the lobby's tables), and a table's whole live part once a page behind asked for it."""

    read: _S
    read_at: float
    whole: str | None = None


Render = Callable[[], Awaitable[str]]


class Answers:
    """This process's table states for hellos, by push group (a table in a language)."""

    def __init__(self, clock: Clock, seconds: float = ANSWER_SECONDS) -> None:
        self.clock, self.seconds = clock, seconds
        self._states: dict[str, State[Any]] = {}
        self._reading: dict[str, asyncio.Future[State[Any]]] = {}
        self._rendering: dict[str, asyncio.Future[str]] = {}
        self._pushes: dict[str, int] = {}  # group -> pushes that arrived for it (a read spanning one is not kept)

    async def answer(
        self, group: str, have: PageVersion | None, read: Callable[[], Awaitable[PageVersion]], render: Render
    ) -> str:
        """What a table page of ``group`` that shows ``have`` is sent: nothing when it is
        current, the whole live part otherwise. ``read`` reads the version from the
        database, ``render`` the whole part; each runs once for every page that asks
        meanwhile."""
        state = await self._state(group, read)
        if have == state.read:
            return ""
        if state.whole is None:
            state.whole = await _once(self._rendering, group, render)
        return state.whole

    async def shared(self, group: str, read: Callable[[], Awaitable[_S]]) -> _S:
        """What ``read`` gives (the lobby's tables), once for every page of ``group`` that
        asks meanwhile: each page makes its own answer of it."""
        return (await self._state(group, read)).read

    def stale(self, group: str) -> None:
        """A push to ``group`` arrived, or its last page here left: its pages' next hello
        reads the state again (and a read or render under way, which may have missed the
        push, is not kept)."""
        if group in self._states or group in self._reading or group in self._rendering:
            self._states.pop(group, None)
            self._reading.pop(group, None)
            self._rendering.pop(group, None)
            self._pushes[group] = self._pushes.get(group, 0) + 1

    def groups(self) -> int:
        """Groups remembered (for the tests: what this keeps stays bounded)."""
        return len(self._states)

    async def _state(self, group: str, read: Callable[[], Awaitable[_S]]) -> State[_S]:
        state = self._states.get(group)
        if state is not None and self.clock.monotonic() - state.read_at < self.seconds:
            return state

        async def fresh() -> State[_S]:
            read_at, pushes = self.clock.monotonic(), self._pushes.get(group, 0)
            state = State(await read(), read_at)
            if self._pushes.get(group, 0) == pushes:
                self._keep(group, state)
            return state

        return await _once(self._reading, group, fresh)

    def _keep(self, group: str, state: State[Any]) -> None:
        self._states[group] = state
        if len(self._states) > PRUNE_AFTER:
            now = self.clock.monotonic()
            self._states = {g: s for g, s in self._states.items() if now - s.read_at < self.seconds}
            self._pushes = {g: n for g, n in self._pushes.items() if g in self._states or g in self._reading}


async def _once(running: dict[str, asyncio.Future[_T]], key: str, work: Callable[[], Awaitable[_T]]) -> _T:
    """``work()``, or the result of the same work already running for ``key``."""
    future = running.get(key)
    if future is None:
        future = running[key] = asyncio.ensure_future(work())
        future.add_done_callback(lambda done: running.pop(key, None) if running.get(key) is done else None)
    return await asyncio.shield(future)
