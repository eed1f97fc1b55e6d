"""The pages this process serves, per group, and the one channel that brings them pushes.

A push is sent once to a group on the channel layer. Each server process has one channel
of its own in every group that has a page open here, and hands what arrives on it to
each of those pages (:meth:`Fanout.deliver`). A page costs the process a place in a set,
not a channel of its own: with Redis, a channel is a subscription, a queue and a task
waiting on it, about 9 KiB for every open page.

One task sends the pushes down the pages' sockets, in the order they arrived, each to
one page after another, as a plain broadcast server would: the server's send returns at
once unless the socket's buffer is full, so a push costs a page one call, not a task
and a timer of its own (what it cost before: twice the CPU of the raw-ASGI baseline,
``benchmarks/fanout_vs_baseline.py``). A page whose send would wait is handed the push to
send on its own (:meth:`Page.push`), and gets its pushes that way for ``BEHIND_SECONDS``
from then on, so it never holds up the others, and a page that keeps falling behind (a
client that reads slower than pushes come) is not tried again and again on the way.

The groups with a page open here are also marked in the shared cache (the push ledger's presence, :mod:`.ledger`),
so a change that no page of any process shows renders nothing.

The channel layer (Redis) may be down: a page still opens, and is served from the
database (it resyncs on connect). A group the process could not join, or whose
membership a Redis outage may have lost, is joined again every ``RETRY_SECONDS`` until
it holds; its pages are then told to resync (:meth:`Page.rejoined`), for what was
pushed while the process was out of the group.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from channels.layers import BaseChannelLayer, get_channel_layer

from .ledger import PushLedger

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0  # after the channel layer failed to deliver, the listener tries again
BEHIND_SECONDS = 5.0  # a page whose send would wait gets its pushes from a task of its own this long


class Page(Protocol):
    async def send_now(self, html: str) -> None:
        """Send ``html`` down the page's socket now, or after what waits for it already;
        never raises."""

    def push(self, html: str) -> None:
        """Send ``html`` to the page, in the order pushed, without waiting for it."""

    def rejoined(self) -> None:
        """The process was out of the page's group for a while (the channel layer was
        unreachable): pushes may have been missed, the page should resync."""


class Fanout:
    """This process's open pages by group, and its channel in each of those groups.

    Bound to the event loop of the first page that joins (a server has one); the
    listener runs there until the process ends."""

    def __init__(
        self,
        ledger: PushLedger,
        layer: Callable[[], BaseChannelLayer] | None = None,
        unsure: Callable[[str], None] | None = None,
    ) -> None:
        self.ledger = ledger  # where the groups with a page here are marked watched
        self.layer = layer or default_layer
        # Told each group whose state this process may no longer know: a push for it
        # arrived, or its last page here left (its pushes stop arriving here).
        self.unsure = unsure or (lambda group: None)
        self._pages: dict[str, set[Page]] = {}
        self._joined: set[str] = set()  # groups this process's channel is in
        self._lost: set[str] = set()  # groups with pages here it could not join, or may have dropped out of
        self._retrying: asyncio.Task[None] | None = None
        self._channel = ""
        self._listener: asyncio.Task[None] | None = None
        self._lock: asyncio.Lock | None = None
        self._arrived: deque[tuple[str, str]] = deque()  # (group, html) not yet sent to its pages
        self._sending: asyncio.Task[None] | None = None
        self._behind: dict[Page, float] = {}  # pages whose send would wait, till when they send on their own

    async def join(self, group: str, page: Page) -> None:
        """Reach ``page`` with the pushes to ``group`` from now on. With the channel layer
        unreachable the page is kept all the same, and the group joined once it is back."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            self._pages.setdefault(group, set()).add(page)
            if group in self._joined or group in self._lost:
                return
            try:
                await self._group_add(group)
            except Exception:
                log.warning("joining %s failed: its pages are served from the database until it holds", group)
                self._lose([group])
                return
            self._joined.add(group)
        await self.ledger.amark([group])  # its first page here (later ones: :meth:`renew`)

    async def leave(self, group: str, page: Page) -> None:
        """``page`` closed: no more pushes to it; the process leaves a group it has no page of."""
        pages = self._pages.get(group)
        if pages is None or page not in pages:
            return
        pages.discard(page)
        self._behind.pop(page, None)
        if pages:
            return
        del self._pages[group]
        self.unsure(group)
        assert self._lock is not None  # a page joined
        async with self._lock:
            if group in self._pages or group not in self._joined:
                return  # a page joined again meanwhile, or another leave got here first
            self._joined.discard(group)
            try:
                await self.layer().group_discard(group, self._channel)
            except Exception:
                log.info("leaving %s failed; its pushes are ignored here", group, exc_info=True)

    def deliver(self, message: dict[str, Any]) -> None:
        """A push that arrived for a group: to each of its pages here, after the pushes
        that arrived before it."""
        group = message.get("group", "")
        self.unsure(group)
        self._arrived.append((group, message["html"]))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.create_task(self._send_arrived())

    async def _send_arrived(self) -> None:
        loop, behind = asyncio.get_running_loop(), self._behind
        while self._arrived:
            group, html = self._arrived.popleft()
            pages, now = tuple(self._pages.get(group, ())), loop.time()
            sent = 0
            while sent < len(pages):
                try:
                    # A deadline already past cancels this task at the first send that
                    # waits (the socket's buffer is full), and only then: the sends that
                    # return at once never let the loop run the timer.
                    async with asyncio.timeout(0):
                        for page in pages[sent:]:
                            if behind.get(page, 0.0) > now:
                                page.push(html)
                            else:
                                await page.send_now(html)
                            sent += 1
                except TimeoutError:
                    behind[pages[sent]] = now + BEHIND_SECONDS
                    pages[sent].push(html)  # that page sends it, and what follows, on its own
                    sent += 1

    @property
    def channel(self) -> str:
        """This process's channel in its pages' groups ("" before the first page joins)."""
        return self._channel

    def groups(self) -> list[str]:
        return list(self._pages)

    def pages(self, group: str) -> int:
        return len(self._pages.get(group, ()))

    def renew(self) -> None:
        """Mark again every group with a page open here (from a thread: it reads the cache)."""
        self.ledger.mark(self.groups())

    async def rejoin(self) -> None:
        """Join each group again: the in-memory channel layer ends a membership after a day."""
        if self._lock is None:
            return
        async with self._lock:
            for group in tuple(self._joined):
                try:
                    await self._group_add(group)
                except Exception:
                    log.warning("joining %s again failed: retrying every %s s", group, RETRY_SECONDS)
                    self._lose([group])

    def _lose(self, groups: list[str]) -> None:
        """Out of ``groups``, or maybe: join them again as soon as the layer answers."""
        self._joined.difference_update(groups)
        self._lost.update(groups)
        if self._retrying is None or self._retrying.done():
            self._retrying = asyncio.create_task(self._retry())

    async def _retry(self) -> None:
        while self._lost:
            await asyncio.sleep(RETRY_SECONDS)
            await self.join_lost()

    async def join_lost(self) -> list[str]:
        """Join the groups lost to an outage, once the layer answers; each one's pages are
        told to resync. Returns the groups joined."""
        assert self._lock is not None  # a page joined
        joined = []
        async with self._lock:
            for group in sorted(self._lost):
                if group not in self._pages:
                    self._lost.discard(group)  # its pages closed meanwhile
                    continue
                try:
                    await self.layer().group_add(group, self._channel)
                except Exception:
                    break  # still down: the next round tries them all again
                self._lost.discard(group)
                self._joined.add(group)
                joined.append(group)
        if joined:
            log.warning("joined %d groups again after the channel layer came back", len(joined))
            await self.ledger.amark(joined)
        for group in joined:
            for page in tuple(self._pages.get(group, ())):
                page.rejoined()
        return joined

    async def _group_add(self, group: str) -> None:
        """After a Redis outage the layer's first call may meet a pooled connection the
        server closed; the retry gets a fresh one."""
        channel_layer = self.layer()
        if not self._channel:
            self._channel = await channel_layer.new_channel()
            self._listener = asyncio.create_task(self._listen(channel_layer, self._channel))
        for attempt in range(3):
            try:
                await channel_layer.group_add(group, self._channel)
                return
            except Exception:
                if attempt == 2:
                    raise
                log.info("joining %s failed, retrying", group, exc_info=True)
                await asyncio.sleep(0.1 * (attempt + 1))

    async def _listen(self, channel_layer: BaseChannelLayer, channel: str) -> None:
        while True:
            try:
                message = await channel_layer.receive(channel)
            except Exception:
                log.warning("receiving pushes failed; trying again", exc_info=True)
                if self._joined:  # a restarted Redis has forgotten every membership
                    self._lose(sorted(self._joined))
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self.deliver(message)


def default_layer() -> BaseChannelLayer:
    found = get_channel_layer()
    if found is None:
        raise RuntimeError("CHANNEL_LAYERS has no default layer")
    return found
