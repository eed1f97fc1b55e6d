"""A minimal broadcast server in raw ASGI: what the fan-out of the live pages is measured
against (``python -m benchmarks.fanout_vs_baseline``).

It accepts websockets on the live pages' addresses (``/ws/tables/<slug>/``,
``/ws/lobby/``), keeps each one's ASGI ``send`` in a set per group, and relays every
push to them. Its notifications are ours: it subscribes to the Redis pub/sub channels
that the channel layer (``channels_redis.pubsub``) publishes the groups' pushes on, so
it is told of each round when and as our servers are, and sends each of its clients
the very text ours do (the same messages: the live part, then the odds panel; the same
bytes). What it leaves out is everything a real page needs: no Django, no Channels, no
per-page task, queue or timeout (a client that reads slowly holds up the relay for the
others), no resync from the database (a page's request is answered with a few bytes
that say nothing), no presence marks, no origin check, no limits.

    uvicorn benchmarks.fanout_baseline:app --ws websockets-sansio ...   (REDIS_URL set)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
from redis import asyncio as aioredis

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

# channels_redis.pubsub publishes a group's messages on "<prefix>__group__<group>", the
# prefix being "asgi" unless configured (config/settings.py does not), msgpack-encoded.
GROUPS = "asgi__group__*"
LANGUAGE = "en"  # the benchmark's pages ask for no other
TABLE = re.compile(r"/ws/tables/([-a-zA-Z0-9_]+)/")
ACK = "<template></template>"  # the answer to a page's resync request: it shows nothing new


def group_of(path: str) -> str | None:
    """The push group a socket's address joins, as the live pages' routes do (None: none)."""
    if path == "/ws/lobby/":
        return f"lobby.{LANGUAGE}"
    found = TABLE.fullmatch(path)
    return f"table.{found.group(1)}.{LANGUAGE}" if found else None


class Broadcast:
    """The open sockets by group, and the one Redis subscription that feeds them."""

    def __init__(self) -> None:
        self.members: dict[str, set[Send]] = {}
        self.listener: asyncio.Task[None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        elif scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"baseline\n"})
        elif scope["type"] == "websocket":
            await self.socket(scope, receive, send)

    async def lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                subscribed = asyncio.Event()
                self.listener = asyncio.create_task(self.listen(subscribed))
                await subscribed.wait()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self.listener is not None:
                    self.listener.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await self.listener
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        group = group_of(scope["path"])
        await receive()  # websocket.connect
        if group is None:
            await send({"type": "websocket.close", "code": 4404})
            return
        await send({"type": "websocket.accept"})
        members = self.members.setdefault(group, set())
        members.add(send)
        try:
            while (await receive())["type"] != "websocket.disconnect":
                await send({"type": "websocket.send", "text": ACK})
        finally:
            members.discard(send)

    async def listen(self, subscribed: asyncio.Event) -> None:
        redis = aioredis.from_url(os.environ["REDIS_URL"])
        pubsub = redis.pubsub()
        await pubsub.psubscribe(GROUPS)
        subscribed.set()
        async for message in pubsub.listen():
            if message["type"] != "pmessage":
                continue
            push = msgpack.unpackb(message["data"])
            text = push.get("html")
            for send in tuple(self.members.get(push.get("group", ""), ())):
                with contextlib.suppress(Exception):  # closed meanwhile: its disconnect removes it
                    await send({"type": "websocket.send", "text": text})


app = Broadcast()
