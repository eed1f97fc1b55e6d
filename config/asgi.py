"""ASGI entry point: Channels for websockets, Django's stock handler for HTTP.

In production uvicorn serves only the websockets from here (the proxy sends ``/ws/``
here, everything else to gunicorn and ``config.wsgi``); ``manage.py demo`` serves both,
with its demo tables dealing inside the process (started by the ASGI lifespan), so
pushes on the in-memory channel layer reach this server's pages.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # sets Django up before anything below touches models

from collections.abc import Awaitable, Callable, Mapping  # noqa: E402
from typing import Any  # noqa: E402

from django.conf import settings  # noqa: E402

from config.heap import FreezeHeapAtStartup  # noqa: E402
from config.origins import SameOriginValidator  # noqa: E402
from tables.background.loops import embedded_loops  # noqa: E402
from tables.live.lifespan import ServerLifespan  # noqa: E402
from tables.live.limits import OpenSockets, SocketsPerAddress  # noqa: E402
from tables.live.routing import page_sockets  # noqa: E402

App = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


class ByProtocol:
    """What Channels' ``ProtocolTypeRouter`` does (the application of the scope's type),
    handing back that application's coroutine for the server's own to await: an open
    page's socket keeps no frame here (a few hundred bytes a page, thousands of pages)."""

    def __init__(self, applications: Mapping[str, App]) -> None:
        self.applications = applications

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        application = self.applications.get(scope["type"])
        if application is None:
            raise ValueError(f"No application configured for scope type {scope['type']!r}")
        return application(scope, receive, send)


def build_application(*, simulate_interval: float, card_interval: float | None = None) -> FreezeHeapAtStartup:
    """The server's application; demo tables deal card by card in this process when
    ``simulate_interval`` is positive (``card_interval`` seconds between cards, a second
    by default, and ``simulate_interval`` between rounds), and rounds whose odds job was
    lost get their odds at start-up and every ``ODDS_SWEEP_SECONDS`` (with a broker,
    Celery beat does both)."""
    routes = ByProtocol(
        {
            "http": django_asgi_app,
            # No session or user: the live pages are public, and a page's socket costs
            # the server a few KiB less for every open page without them.
            "websocket": SocketsPerAddress(SameOriginValidator(page_sockets), OpenSockets(settings.WS_MAX_PER_ADDRESS)),
        }
    )
    background = embedded_loops(simulate_interval=simulate_interval, card_interval=card_interval)
    return FreezeHeapAtStartup(ServerLifespan(routes, background=background))


application = build_application(simulate_interval=settings.SIMULATE_INTERVAL)
