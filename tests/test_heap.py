"""The startup heap is frozen when a server starts (gunicorn's worker, uvicorn's lifespan),
never on importing an entry point: a test or a command keeps its heap as it is."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

from config import gunicorn, heap

ROOT = Path(__file__).resolve().parents[1]


def test_importing_the_entry_points_freezes_nothing() -> None:
    code = "import gc, config.wsgi, config.asgi, config.gunicorn; print(gc.get_freeze_count())"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "0"


def test_a_gunicorn_worker_freezes_once_it_has_loaded_the_application() -> None:
    with mock.patch.object(heap.gc, "freeze") as freeze:
        gunicorn.post_worker_init(worker=None)
    freeze.assert_called_once_with()


def test_the_asgi_lifespan_startup_freezes_before_the_application_hears_of_it() -> None:
    heard: list[tuple[str, int]] = []
    freezes: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        while (message := await receive())["type"] != "lifespan.shutdown":
            heard.append((message["type"], len(freezes)))

    async def lifespan() -> None:
        messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

        async def receive() -> dict[str, Any]:
            return next(messages)

        await heap.FreezeHeapAtStartup(app)({"type": "lifespan"}, receive, None)

    with mock.patch.object(heap.gc, "freeze", side_effect=lambda: freezes.append("frozen")):
        asyncio.run(lifespan())
    assert heard == [("lifespan.startup", 1)]


def test_http_and_websockets_pass_through_without_a_freeze() -> None:
    seen = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    with mock.patch.object(heap.gc, "freeze") as freeze:
        for kind in ("http", "websocket"):
            asyncio.run(heap.FreezeHeapAtStartup(app)({"type": kind}, None, None))
    assert seen == ["http", "websocket"]
    freeze.assert_not_called()


def test_the_asgi_application_is_wrapped_to_freeze_at_startup() -> None:
    from config.asgi import application

    assert isinstance(application, heap.FreezeHeapAtStartup)
