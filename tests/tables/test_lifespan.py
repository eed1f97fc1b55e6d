"""The server's lifespan hands its event loop to the task runner, and takes it back."""

from __future__ import annotations

import asyncio

import pytest

from tables import jobs
from tables.lifespan import ServerLifespan


@pytest.mark.asyncio
async def test_tasks_run_on_the_server_loop_while_the_server_lives() -> None:
    messages: asyncio.Queue[dict] = asyncio.Queue()
    sent: list[str] = []

    async def send(message: dict) -> None:
        sent.append(message["type"])

    async def app(scope, receive, send) -> None:  # the wrapped app never sees lifespan
        raise AssertionError(scope)

    lifespan = asyncio.create_task(ServerLifespan(app)({"type": "lifespan"}, messages.get, send))
    await messages.put({"type": "lifespan.startup"})
    while not sent:
        await asyncio.sleep(0)
    assert sent == ["lifespan.startup.complete"] and jobs._server_loop is asyncio.get_running_loop()
    await messages.put({"type": "lifespan.shutdown"})
    await lifespan
    assert sent[-1] == "lifespan.shutdown.complete" and jobs._server_loop is None
