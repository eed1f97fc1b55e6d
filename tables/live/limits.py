"""Open websockets per client address, capped in each server process.

One address held 18,000 idle websockets of a server in the outside probe (about 24 KiB
each, near the process's file limit): every page a client opens costs the server
whether it reads or not. Beyond ``most`` open sockets from one address the handshake is
refused (403; the page's socket retries with htmx's growing back-off). The proxy caps
the same in front (``deploy/nginx/``); a casino's wifi puts many phones behind one
address, so the cap is set well above what one such network opens at once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class OpenSockets:
    """How many sockets each address has open, and whether one more may open."""

    def __init__(self, most: int) -> None:
        if most < 1:
            raise ValueError("an address may open at least one socket")
        self.most = most
        self._open = Counter[str]()

    def opened(self, address: str) -> bool:
        """Count one more socket of ``address`` if it may open (True), else False."""
        if self._open[address] >= self.most:
            return False
        self._open[address] += 1
        return True

    def closed(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]

    def addresses(self) -> int:
        return len(self._open)


class SocketsPerAddress:
    """ASGI middleware around the websocket routes: refuses the handshake of an address
    that has ``sockets.most`` open here already."""

    def __init__(self, app: App, sockets: OpenSockets) -> None:
        self.app, self.sockets = app, sockets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = str((scope.get("client") or ("", 0))[0])
        if not self.sockets.opened(address):
            await receive()  # the handshake's websocket.connect
            await send({"type": "websocket.close", "code": 1008})  # before accepting: HTTP 403
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets.closed(address)
