"""Websockets for table pages and the lobby: join a group, forward pushed fragments,
and resync a (re)connecting page from the database."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from .. import fragments, selectors
from ..models import Table
from .groups import LOBBY_GROUP, PUSH, table_group
from .scheduler import scheduler

log = logging.getLogger(__name__)


def _have(text: str | None) -> dict[str, str]:
    """The page's ``{"have": {slug: version}}``; anything else counts as nothing."""
    try:
        have = json.loads(text or "")["have"]
    except (ValueError, KeyError, TypeError):
        return {}
    return {str(k): str(v) for k, v in have.items()} if isinstance(have, dict) else {}


class FragmentConsumer(AsyncWebsocketConsumer):
    group = ""
    watching = False  # counted in this process's open pages (from a successful join on)

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
        self.watching = True
        await scheduler().pages.watch(self.group)

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.watching:
            scheduler().pages.unwatch(self.group)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler, in the one
        # thread all sync code of the process shares: a hop per push per page, which at
        # a few thousand pages was most of a server's time. A push only forwards text;
        # the handlers that read the database do it in database_sync_to_async, which
        # closes stale connections itself.
        if message["type"] == PUSH:
            await self.fragments_push(message)
        else:
            await super().dispatch(message)

    async def fragments_push(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])


class TableConsumer(FragmentConsumer):
    async def connect(self) -> None:
        self.slug = self.scope["url_route"]["kwargs"]["slug"]
        if not await database_sync_to_async(Table.objects.filter(slug=self.slug).exists)():
            await self.close(code=4404)
            return
        self.group = table_group(self.slug)
        await self.join()
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        html = await database_sync_to_async(_table_resync)(self.slug, _have(text_data).get(self.slug))
        if html:
            await self.send(text_data=html)


class LobbyConsumer(FragmentConsumer):
    group = LOBBY_GROUP

    async def connect(self) -> None:
        await self.join()
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        html = await database_sync_to_async(_lobby_resync)(_have(text_data))
        if html:
            await self.send(text_data=html)


def _table_resync(slug: str, version: str | None) -> str:
    table = Table.objects.get(slug=slug)
    shoe = selectors.shoe_find(table=table, which="current")
    current = selectors.table_version(shoe)
    return "" if version == current else fragments.table_live_html(table, shoe, current)


def _lobby_resync(have: dict[str, str]) -> str:
    return "".join(fragments.lobby_cards_html(have))
