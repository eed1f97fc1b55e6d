"""The live pages' websockets by address: ``/ws/tables/<slug>/``, ``/ws/lobby/``,
``/ws/alerts/``, and the reviewer's desk's ``/ws/desk/`` and ``/ws/desk/shoes/<id>/``.

A router of its own rather than Channels' ``URLRouter``, which hands each socket a copy
of its scope with the route's arguments added, kept for as long as the page is open
(about 1 KiB a page, with the frames around it): a table's page is given its slug when
its consumer is made."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from .consumers import AlertsConsumer, DeskConsumer, FragmentConsumer, LobbyConsumer, TableConsumer

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

TABLE = re.compile(r"/ws/tables/(?P<slug>[-a-zA-Z0-9_]+)/")  # Django's <slug:slug>
DESK_SHOE = re.compile(r"/ws/desk/shoes/(?P<id>[0-9]{1,18})/")


def page_consumer(path: str) -> FragmentConsumer:
    """The consumer of a socket opened at ``path``; ValueError for no page's address."""
    if path == "/ws/lobby/":
        return LobbyConsumer()
    if path == "/ws/alerts/":
        return AlertsConsumer()
    if path == "/ws/desk/":
        return DeskConsumer()
    if (shoe := DESK_SHOE.fullmatch(path)) is not None:
        return DeskConsumer(shoe_id=int(shoe["id"]))
    found = TABLE.fullmatch(path)
    if found is None:
        raise ValueError(f"No route found for path {path!r}.")
    return TableConsumer(slug=found["slug"])


def page_sockets(scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
    """The ASGI application of the pages' websockets (below the server's root path): the
    consumer's coroutine, which the middleware above awaits (an open page keeps no frame
    of this function, a few hundred bytes a page)."""
    path, root = scope["path"], scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    return page_consumer(path)(scope, receive, send)
