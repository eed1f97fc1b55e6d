"""Django's ASGI handler, serving a request as WSGI would: in one trip to a kept thread.

Stock Django under ASGI runs the middleware chain async, with a thread trip for each
``process_request`` and ``process_response`` of the stock (sync) middleware. It also
makes a thread for each request, and joins it when the request ends. It takes that
thread three trips: the ``request_started`` signal, the view, and closing the response.
Every view here is sync, so a request runs the signal, the middleware, the view and
the close in one trip. The thread is kept for the next request, one request at a time,
so Django's per-thread database connection still belongs to one request. A streaming
response (static files, CSV exports) is read a part at a time on that same thread.

At most ``HTTP_THREADS`` requests run Django code at once in a process; the others
wait on the event loop. Python runs one thread at a time, and with a thread for each
of twenty requests in flight they spent most of their time waiting for each other to
hand over the interpreter, each database reply included: recording a round took ten
times its CPU time. A request waits for its turn before each step on its thread (the
view, each part of a streamed body, the close), so a slow download holds no turn
while its client reads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

Send = Any  # the ASGI send callable
Receive = Any

IDLE_THREADS_KEPT = 64  # more idle than this after a burst, and the extra threads end
T = TypeVar("T")


class ThreadedASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []
        self._turns: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self._lease()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self._release(executor)

    async def handle(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await self._on_thread(self._respond, scope, body_file)
            await send({"type": "http.response.start", "status": response.status_code, "headers": _headers(response)})
            if response.streaming:
                await self._stream(response, send)
            else:
                await send({"type": "http.response.body", "body": response.content})
        finally:
            body_file.close()

    async def _stream(self, response: Any, send: Send) -> None:
        """A streamed body, a part at a time, then the close. A sync iterator (a static
        file, a CSV export) is advanced on the request's thread, which holds its database
        connection; Django would read it all into memory first."""
        try:
            parts = response.streaming_content
            if response.is_async:
                async for part in parts:
                    await send({"type": "http.response.body", "body": part, "more_body": True})
            else:
                while (part := await self._on_thread(next, parts, None)) is not None:
                    await send({"type": "http.response.body", "body": part, "more_body": True})
            await send({"type": "http.response.body"})
        finally:
            await self._on_thread(response.close)

    async def _on_thread(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` on the request's thread, once it is this request's turn."""
        async with self._turn():
            return await sync_to_async(function, thread_sensitive=True)(*args)

    def _turn(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._turns is None or self._turns[0] is not loop:  # a server has one loop; tests make several
            self._turns = (loop, asyncio.Semaphore(settings.HTTP_THREADS))
        return self._turns[1]

    def _respond(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """Everything Django does for a request, on the request's thread. A response
        that is not streamed is closed here (``request_finished`` returns the database
        connection) before it is sent: its body is already bytes."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size  # the ASGI server chunks for the socket
        if not response.streaming:
            response.close()
        return response

    def _lease(self) -> ThreadPoolExecutor:
        try:
            return self._idle.pop()  # the most recently used thread: its stack is warm
        except IndexError:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="http")

    def _release(self, executor: ThreadPoolExecutor) -> None:
        if len(self._idle) < IDLE_THREADS_KEPT:
            self._idle.append(executor)
        else:
            executor.shutdown(wait=False)


def _headers(response: HttpResponseBase) -> list[tuple[bytes, bytes]]:
    """ASGI headers of a response, its cookies included (header case kept: some
    clients need it)."""
    headers = [(name.encode("ascii"), value.encode("latin1")) for name, value in response.items()]
    headers += [
        (b"Set-Cookie", cookie.output(header="").encode("ascii").strip()) for cookie in response.cookies.values()
    ]
    return headers
