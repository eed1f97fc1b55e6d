"""Demo tables dealing inside the ASGI server process.

With the in-memory channel layer a push only reaches pages served by the process
that sends it, so the embedded default deals from a task on the server's own event
loop, started and stopped by the ASGI lifespan protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async

from . import jobs, presence

log = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def _simulation() -> Any:
    from .models import Table
    from .simulator import Simulation

    return Simulation.for_tables(list(Table.objects.filter(simulated=True)))


async def run_simulation(interval: float) -> None:
    """Deal one round on one simulated table every ``interval / tables`` seconds, so
    each table deals about every ``interval`` seconds."""
    simulation = await sync_to_async(_simulation)()
    if not simulation.dealers:
        log.info("no simulated tables to deal")
        return
    log.info("dealing %d simulated tables every %.1f s", len(simulation.dealers), interval)
    pause = interval / len(simulation.dealers)
    while True:
        try:
            await sync_to_async(simulation.step)()
        except Exception:
            log.exception("simulated round failed")  # keep dealing the other tables
        await asyncio.sleep(pause)


async def renew_presence() -> None:
    """Keep this server's open pages marked as watched (:mod:`tables.presence`)."""
    while True:
        await asyncio.sleep(presence.RENEW_SECONDS)
        await sync_to_async(presence.renew, thread_sensitive=False)()


class ServerLifespan:
    """ASGI middleware for the life of the server: hands its event loop to
    :mod:`tables.jobs` (so background tasks push through this process's channel layer),
    renews its pages' presence and, when ``interval`` is set, runs :func:`run_simulation`."""

    def __init__(self, app: Callable[..., Awaitable[None]], *, interval: float = 0) -> None:
        self.app = app
        self.interval = interval

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        tasks: list[asyncio.Task[None]] = []
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                jobs.serve_on(asyncio.get_running_loop())
                tasks.append(asyncio.create_task(renew_presence()))
                if self.interval > 0:
                    tasks.append(asyncio.create_task(run_simulation(self.interval)))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                for task in tasks:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                jobs.serve_on(None)
                await send({"type": "lifespan.shutdown.complete"})
                return
