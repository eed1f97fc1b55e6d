"""Open websockets per client address: capped in each server process (the probe held
18,000 idle ones from one address)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.origins import SameOriginValidator
from tables.live.limits import OpenSockets, SocketsPerAddress
from tables.live.routing import page_sockets
from tests.sockets import ORIGIN, table_with_shoe


def test_an_address_opens_at_most_its_share_and_a_closed_socket_frees_a_place() -> None:
    sockets = OpenSockets(most=2)
    assert sockets.opened("203.0.113.9") and sockets.opened("203.0.113.9")
    assert not sockets.opened("203.0.113.9")
    assert sockets.opened("198.51.100.7"), "another address has places of its own"
    sockets.closed("203.0.113.9")
    assert sockets.opened("203.0.113.9")
    for _ in range(2):
        sockets.closed("203.0.113.9")
    sockets.closed("198.51.100.7")
    assert sockets.addresses() == 0, "addresses with nothing open are forgotten"


def page(app: SocketsPerAddress, address: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, "/ws/lobby/", headers=ORIGIN)
    communicator.scope["client"] = (address, 50000)
    return communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_handshake_beyond_an_addresses_cap_is_refused() -> None:
    await table_with_shoe()
    app = SocketsPerAddress(SameOriginValidator(page_sockets), OpenSockets(most=3))
    pages = [page(app, "203.0.113.9") for _ in range(3)]
    for p in pages:
        assert (await p.connect())[0]
    refused = page(app, "203.0.113.9")
    connected, code = await refused.connect()
    assert not connected and code == 1008
    elsewhere = page(app, "198.51.100.7")
    assert (await elsewhere.connect())[0]
    await pages[0].disconnect()
    again = page(app, "203.0.113.9")
    assert (await again.connect())[0]
    for p in [*pages[1:], elsewhere, again]:
        await p.disconnect()
