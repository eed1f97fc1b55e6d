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

from . import jobs

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


class ServerLifespan:
    """ASGI middleware for the life of the server: hands its event loop to
    :mod:`tables.jobs` (so background tasks push through this process's channel layer)
    and, when ``interval`` is set, runs :func:`run_simulation`."""

    def __init__(self, app: Callable[..., Awaitable[None]], *, interval: float = 0) -> None:
        self.app = app
        self.interval = interval

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        task: asyncio.Task[None] | None = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                jobs.serve_on(asyncio.get_running_loop())
                if self.interval > 0:
                    task = asyncio.create_task(run_simulation(self.interval))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if task:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                jobs.serve_on(None)
                await send({"type": "lifespan.shutdown.complete"})
                return
