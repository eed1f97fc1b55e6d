"""The server's lifespan hands its event loop to the push scheduler, runs its background
work while the server lives, and takes both back at shutdown."""

from __future__ import annotations

import asyncio

import pytest

from tables import live
from tables.live.lifespan import ServerLifespan

pytestmark = pytest.mark.asyncio


async def test_pushes_go_through_the_server_loop_and_background_work_runs_while_the_server_lives() -> None:
    messages: asyncio.Queue[dict] = asyncio.Queue()
    sent: asyncio.Queue[str] = asyncio.Queue()
    working, cancelled = asyncio.Event(), asyncio.Event()

    async def send(message: dict) -> None:
        await sent.put(message["type"])

    async def app(scope, receive, send) -> None:  # the wrapped app never sees lifespan
        raise AssertionError(scope)

    async def dealing() -> None:
        working.set()
        try:
            await asyncio.Event().wait()  # until cancelled
        except asyncio.CancelledError:
            cancelled.set()
            raise

    lifespan = ServerLifespan(app, background=[dealing])
    running = asyncio.create_task(lifespan({"type": "lifespan"}, messages.get, send))
    await messages.put({"type": "lifespan.startup"})
    assert await asyncio.wait_for(sent.get(), timeout=5) == "lifespan.startup.complete"
    await asyncio.wait_for(working.wait(), timeout=5)
    assert live.scheduler().sender.server_loop is asyncio.get_running_loop()
    await messages.put({"type": "lifespan.shutdown"})
    assert await asyncio.wait_for(sent.get(), timeout=5) == "lifespan.shutdown.complete"
    await asyncio.wait_for(running, timeout=5)
    assert cancelled.is_set() and live.scheduler().sender.server_loop is None


async def test_other_connections_pass_through_to_the_application() -> None:
    seen = []

    async def app(scope, receive, send) -> None:
        seen.append(scope["type"])

    await asyncio.wait_for(ServerLifespan(app)({"type": "http"}, None, None), timeout=5)
    assert seen == ["http"]
