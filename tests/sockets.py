"""Websocket pages for tests: a page of this site connected to the ASGI application, and
a table with a shoe to push from."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tables import services
from tables.game.audience import Audience
from tables.models import Table
from tests.rounds import SEED

ORIGIN = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]  # a page of this site


async def connected(path: str, address: str | None = None) -> WebsocketCommunicator:
    """A page of this site's socket at ``path``, from ``address`` (behind the proxy, the
    one it names) if given."""
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    if address is not None:
        communicator.scope["client"] = (address, 50000)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@database_sync_to_async
def table_with_shoe(audience: Audience = Audience.FULL_SHOE) -> Table:
    table, _ = services.table_create(slug="baccarat-1", name="Baccarat 1")
    services.table_audience_set(table=table, audience=audience, user=None)
    services.shoe_start(table=table)
    return table


@database_sync_to_async
def record(table: Table, **cards: list[str]) -> str:
    return services.round_record(table=table, **(cards or SEED)).round.round_id
