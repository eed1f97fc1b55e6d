"""The ASGI server's start and stop (the lifespan protocol).

At start-up the server hands its event loop to this process's push scheduler (pushes
on the in-memory channel layer only reach pages served by that loop), renews its pages'
presence while it runs, and runs the background work it was given: the embedded
default's demo tables deal from here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from asgiref.sync import sync_to_async

from .ledger import RENEW_SECONDS
from .scheduler import scheduler

log = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
Background = Callable[[], Coroutine[Any, Any, None]]


async def renew_presence() -> None:
    """Keep this server's open pages marked as watched (:mod:`.ledger`), and its
    channel in their groups."""
    while True:
        await asyncio.sleep(RENEW_SECONDS)
        pages = scheduler().pages
        await sync_to_async(pages.renew, thread_sensitive=False)()
        await pages.rejoin()


class ServerLifespan:
    """ASGI middleware for the life of the server: hands its event loop to the push
    scheduler, renews its pages' presence and runs each of ``background`` (coroutine
    functions, cancelled at shutdown).

    Other connections get the application's coroutine itself, not one of this
    middleware's awaiting it: an open page's socket keeps no frame here (a few hundred
    bytes a page). What calls it awaits either."""

    def __init__(self, app: Callable[..., Awaitable[None]], *, background: Sequence[Background] = ()) -> None:
        self.app, self.background = app, background

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "lifespan":
            return self.app(scope, receive, send)
        return self.lifespan(receive, send)

    async def lifespan(self, receive: Receive, send: Send) -> None:
        tasks: list[asyncio.Task[None]] = []
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                scheduler().serve_on(asyncio.get_running_loop())
                tasks = [asyncio.create_task(work()) for work in (renew_presence, *self.background)]
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                for task in tasks:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                scheduler().serve_on(None)
                await send({"type": "lifespan.shutdown.complete"})
                return
