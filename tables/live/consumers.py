"""Websockets for table pages and the lobby: join a group, forward pushed fragments,
and resync a (re)connecting page from the database.

What one page can cost the server is bounded: it may send only resync requests, and gets
at most one answer a ``RESYNC_INTERVAL`` (:mod:`.resyncs`); a page that takes no push
for ``PUSH_SEND_TIMEOUT`` seconds is dropped, so no more than that many seconds of pushes
ever wait for it (it resyncs when it reconnects)."""

from __future__ import annotations

import abc
import asyncio
import contextvars
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from .. import fragments, selectors
from ..models import Table
from .groups import LOBBY_GROUP, PUSH, table_group
from .resyncs import Malformed, Pacer, resync_request
from .scheduler import scheduler

log = logging.getLogger(__name__)
_T = TypeVar("_T")

CLOSE_MALFORMED = 4400  # the page sent something other than a resync request
CLOSE_TOO_SLOW = 4408  # the page took no push for PUSH_SEND_TIMEOUT seconds
RESYNC_DUE = "resync.due"  # a consumer's message to itself: its waiting resync may run


class FragmentConsumer(AsyncWebsocketConsumer, abc.ABC):
    """A page's socket; each kind of page says what it missed (:meth:`missed`)."""

    group = ""
    watching = False  # counted in this process's open pages (from a successful join on)
    joined = False  # in its group (from a successful join on)
    pacer: Pacer | None = None  # made on the first resync request
    asked: dict[str, str]  # what the page said it shows, last
    waiting: asyncio.Task[None] | None = None  # the resync that waits out the interval

    async def join(self) -> None:
        """Join the group; after a Redis outage the layer's first call may meet a pooled
        connection the server closed, and the retry gets a fresh one."""
        for attempt in range(3):
            try:
                await self.channel_layer.group_add(self.group, self.channel_name)
                break
            except Exception:
                if attempt == 2:
                    raise
                log.info("joining %s failed, retrying", self.group, exc_info=True)
                await asyncio.sleep(0.1 * (attempt + 1))
        self.joined = self.watching = True
        await scheduler().pages.watch(self.group)

    async def disconnect(self, code: int) -> None:
        if self.waiting:
            self.waiting.cancel()
        if self.joined:
            self.joined = False
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.watching:
            self.watching = False
            scheduler().pages.unwatch(self.group)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler, in the one
        # thread all sync code of the process shares: a hop per push per page, which at
        # a few thousand pages was most of a server's time. A push only forwards text;
        # the handlers that read the database do it in database_sync_to_async, which
        # closes stale connections itself.
        if message["type"] == PUSH:
            await self.fragments_push(message)
        elif message["type"] == RESYNC_DUE:
            await self.resync()
        else:
            await super().dispatch(message)

    async def fragments_push(self, event: dict[str, Any]) -> None:
        await self.send_or_drop(event["html"])

    async def send_or_drop(self, html: str) -> None:
        """Send, unless the page has read nothing for ``PUSH_SEND_TIMEOUT`` seconds (the
        server's send waits while the socket's buffer is full): then drop the page, as
        everything pushed meanwhile would wait in this process for it."""
        try:
            async with asyncio.timeout(settings.PUSH_SEND_TIMEOUT):
                await self.send(text_data=html)
        except TimeoutError:
            log.info("dropped a page that took no push for %ss", settings.PUSH_SEND_TIMEOUT)
            await self.disconnect(CLOSE_TOO_SLOW)
            raise StopConsumer() from None  # the server closes the connection

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A resync request: answered now, or merged into the one that waits out the
        interval. Anything else closes the socket."""
        try:
            self.asked = resync_request(text_data, bytes_data)
        except Malformed as refused:
            log.info("closing a socket: %s", refused)
            await self.close(code=CLOSE_MALFORMED)
            return
        if self.waiting:
            return  # it will answer what the page said last
        if self.pacer is None:
            self.pacer = Pacer(settings.RESYNC_INTERVAL, scheduler().clock)
        wait = self.pacer.book()
        if wait > 0:
            self.waiting = asyncio.create_task(self.resync_after(wait))
        else:
            await self.resync()

    async def resync_after(self, wait: float) -> None:
        """Wait out the interval, then have the consumer's own loop answer (where a page
        too slow to take the answer can be dropped)."""
        await asyncio.sleep(wait)
        self.waiting = None
        await self.channel_layer.send(self.channel_name, {"type": RESYNC_DUE})

    async def resync(self) -> None:
        html = await database_sync_to_async(in_own_context)(self.missed, self.asked)
        if html:
            await self.send_or_drop(html)

    @abc.abstractmethod
    def missed(self, have: dict[str, str]) -> str:
        """The fragments a page that shows ``have`` missed ("": none)."""


class TableConsumer(FragmentConsumer):
    async def connect(self) -> None:
        self.slug = self.scope["url_route"]["kwargs"]["slug"]
        if not await database_sync_to_async(Table.objects.filter(slug=self.slug).exists)():
            await self.close(code=4404)
            return
        self.group = table_group(self.slug)
        await self.join()
        await self.accept()

    def missed(self, have: dict[str, str]) -> str:
        return table_missed(self.slug, have.get(self.slug))


class LobbyConsumer(FragmentConsumer):
    group = LOBBY_GROUP

    async def connect(self) -> None:
        await self.join()
        await self.accept()

    def missed(self, have: dict[str, str]) -> str:
        return lobby_missed(have)


def in_own_context(work: Callable[[_T], str], argument: _T) -> str:
    """``work(argument)`` in a context of its own, as an HTTP request has: what Django keeps
    per context (a client of the cache) is made for this call and dropped after it,
    instead of staying with the page's socket for as long as the page is open (about
    13 KiB a page with Redis)."""
    return contextvars.copy_context().run(work, argument)


def table_missed(slug: str, version: str | None) -> str:
    """The whole live part of a table page that shows ``version`` ("": it is current)."""
    table = Table.objects.get(slug=slug)
    shoe = selectors.shoe_find(table=table, which="current")
    current = selectors.table_version(shoe)
    return "" if version == current else fragments.table_live_html(table, shoe, current)


def lobby_missed(have: dict[str, str]) -> str:
    """The lobby cards a page that shows ``have`` missed."""
    return "".join(fragments.lobby_cards_html(have))
