"""Table and lobby websockets: group join, push after commit only, resync on connect."""

from __future__ import annotations

import asyncio
import gc
import json

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.core.cache import caches
from django.db import transaction

from config.asgi import application
from tables import live, selectors, services
from tables.game.audience import Audience
from tables.live import table_group
from tables.models import Table
from tests.html import find_all
from tests.rounds import SEED
from tests.sockets import ORIGIN, connected, record, table_with_shoe

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture(autouse=True)
async def fresh_layer() -> None:
    await get_channel_layer().flush()


@database_sync_to_async
def version(table: Table) -> str:
    """What a lobby card shows of the table's shoe."""
    return str(selectors.shoe_version(selectors.table_open_shoe(table=table)))


@database_sync_to_async
def page_version(table: Table) -> str:
    """What a table page shows: the shoe and the odds stored so far."""
    return str(selectors.table_version(selectors.table_open_shoe(table=table)))


async def test_a_table_page_receives_the_fragments_of_each_recorded_round() -> None:
    table = await table_with_shoe()
    page = await connected("/ws/tables/baccarat-1/")
    round_id = await record(table)
    html = await page.receive_from(timeout=5)
    assert round_id in html and find_all(html, "section", id="roads") and find_all(html, "section", id="history")
    await page.disconnect()


async def test_a_push_or_a_hello_costs_no_trip_to_the_database_thread_to_close_connections(monkeypatch) -> None:
    await table_with_shoe()
    page = await connected("/ws/tables/baccarat-1/")
    trips = []

    async def close_old_connections() -> None:
        trips.append(1)

    monkeypatch.setattr("channels.consumer.aclose_old_connections", close_old_connections)
    group = table_group("baccarat-1")
    await get_channel_layer().group_send(group, live.push_message(group, "<p>pushed</p>"))
    assert await page.receive_from(timeout=5) == "<p>pushed</p>"
    # A resync reads the database through database_sync_to_async, which closes stale
    # connections itself: no trip of Channels' before every message (a crowd's hellos).
    await page.send_to(text_data=json.dumps({"have": {}}))
    assert find_all(await page.receive_from(timeout=5), "section", id="roads")
    assert trips == []
    await page.disconnect()


async def test_the_lobby_receives_the_changed_table_card() -> None:
    table = await table_with_shoe()
    lobby = await connected("/ws/lobby/")
    await record(table)
    html = await lobby.receive_from(timeout=5)
    card = find_all(html, "*")[0]  # the push starts with the card
    assert (card.tag, card.attrs.get("class"), card.attrs.get("id")) == ("a", "table-card", "table-baccarat-1")
    await lobby.disconnect()


async def test_a_rolled_back_round_pushes_nothing() -> None:
    table = await table_with_shoe()
    page = await connected("/ws/tables/baccarat-1/")

    @database_sync_to_async
    def record_then_fail() -> None:
        with transaction.atomic():
            services.round_record(table=table, **SEED)
            raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        await record_then_fail()
    kept = await record(table)  # the first push the page gets is this round's: none came before
    assert kept in await page.receive_from(timeout=5)
    await page.disconnect()


async def test_a_reconnecting_page_that_missed_rounds_gets_the_full_fragments() -> None:
    table = await table_with_shoe()
    before = await page_version(table)
    await record(table)  # while the page was away
    page = await connected("/ws/tables/baccarat-1/")
    await page.send_to(text_data=json.dumps({"have": {"baccarat-1": before}}))
    html = await page.receive_from(timeout=5)
    assert find_all(html, "section", id="game-info", data_version=await page_version(table))
    await page.disconnect()


async def test_the_odds_of_a_round_follow_its_fragments_with_the_page_version() -> None:
    table = await table_with_shoe(Audience.EVERYTHING)  # a training room: its odds all public
    page = await connected("/ws/tables/baccarat-1/")
    await record(table)
    first, second = await page.receive_from(timeout=5), await page.receive_from(timeout=5)
    assert find_all(first, "section", id="history") and "computing round 1" in first
    # Only the numbers that changed since the odds the page shows, naming the state they bring.
    assert find_all(second, "span", id="odds-when", data_version=await page_version(table), data_odds="0")
    assert "after round 1" in second and not find_all(second, "section", id="odds")
    assert not find_all(second, "*", id="history")
    await page.disconnect()


async def test_a_page_that_missed_only_the_odds_gets_them_on_reconnect() -> None:
    table = await table_with_shoe(Audience.EVERYTHING)  # a training room: its odds all public
    await record(table)
    shown = ":".join([*(await page_version(table)).split(":")[:3], "0", "0"])  # the round, not yet its odds
    page = await connected("/ws/tables/baccarat-1/")
    await page.send_to(text_data=json.dumps({"have": {"baccarat-1": shown}}))
    assert "after round 1" in await page.receive_from(timeout=5)
    await page.disconnect()


async def test_a_page_that_is_up_to_date_gets_nothing_on_reconnect() -> None:
    table = await table_with_shoe()
    await record(table)
    page = await connected("/ws/tables/baccarat-1/")
    await page.send_to(text_data=json.dumps({"have": {"baccarat-1": await page_version(table)}}))
    await page.disconnect()  # handled after the resync request, which it answered (or not) first
    assert await page.receive_nothing(timeout=0)


@pytest.mark.parametrize(
    "message",
    [
        {"text_data": "not json"},
        {"bytes_data": b'{"have": {}}'},
        {"text_data": '{"have": []}'},
        {"text_data": '{"have": {}, "and": "more"}'},
        {"text_data": '{"have": {"baccarat-1": "latest"}}'},
        {"text_data": '{"have": {"<b>": "1:1:0:1"}}'},
        {"text_data": json.dumps({"have": {f"t{n}": "1:1:0:1" for n in range(501)}})},
        {"text_data": json.dumps({"have": {}, "pad": "x" * 20_000})},
    ],
)
async def test_a_message_that_is_not_a_resync_request_closes_the_socket_and_gets_nothing(message) -> None:
    await table_with_shoe()
    page = await connected("/ws/tables/baccarat-1/")
    await page.send_to(**message)
    assert await page.receive_output(timeout=5) == {"type": "websocket.close", "code": 4400}
    await page.disconnect()
    assert await page.receive_nothing(timeout=0)


async def test_a_page_that_asks_again_and_again_gets_one_resync_per_interval(settings) -> None:
    settings.RESYNC_INTERVAL = 0.3
    await table_with_shoe()
    page = await connected("/ws/tables/baccarat-1/")
    for _ in range(50):
        await page.send_to(text_data=json.dumps({"have": {}}))
    assert find_all(await page.receive_from(timeout=5), "section", id="game-info")  # the first ask, at once
    assert find_all(await page.receive_from(timeout=5), "section", id="game-info")  # the other 49, in one answer
    assert await page.receive_nothing(timeout=0.6)
    await page.disconnect()


async def test_asks_merged_into_one_are_answered_with_what_the_page_said_last(settings) -> None:
    settings.RESYNC_INTERVAL = 0.3
    table = await table_with_shoe()
    await record(table)
    page = await connected("/ws/tables/baccarat-1/")
    await page.send_to(text_data=json.dumps({"have": {}}))
    assert find_all(await page.receive_from(timeout=5), "section", id="game-info")
    await page.send_to(text_data=json.dumps({"have": {}}))
    await page.send_to(text_data=json.dumps({"have": {"baccarat-1": await page_version(table)}}))
    assert await page.receive_nothing(timeout=0.6)  # up to date by then: nothing to send
    await page.disconnect()


def stalled_after_accept(app):
    """The ASGI application behind a client that stops reading once connected: the
    server's send then waits for ever (as uvicorn's does while the socket's buffer is full)."""

    async def stalled(scope, receive, send):
        async def send_or_stall(message):
            if message["type"] == "websocket.send":
                await asyncio.Event().wait()
            await send(message)

        await app(scope, receive, send_or_stall)

    return stalled


async def test_a_page_that_takes_no_push_is_dropped_and_leaves_its_group(settings) -> None:
    settings.PUSH_SEND_TIMEOUT = 0.2
    table = await table_with_shoe()
    page = WebsocketCommunicator(stalled_after_accept(application), "/ws/tables/baccarat-1/", headers=ORIGIN)
    assert (await page.connect())[0]
    assert table_group("baccarat-1") in live.scheduler().pages.groups()
    await record(table)
    await page.wait(timeout=5)  # the consumer gave up on the page and stopped
    assert table_group("baccarat-1") not in live.scheduler().pages.groups()


async def test_the_lobby_resyncs_only_the_cards_a_page_missed() -> None:
    table = await table_with_shoe()
    await database_sync_to_async(services.table_create)(slug="baccarat-2", name="Baccarat 2")
    stale = await version(table)
    await record(table)
    lobby = await connected("/ws/lobby/")
    await lobby.send_to(text_data=json.dumps({"have": {"baccarat-1": stale, "baccarat-2": "0:0:0"}}))
    html = await lobby.receive_from(timeout=5)
    assert find_all(html, "a", id="table-baccarat-1") and not find_all(html, "*", id="table-baccarat-2")
    await lobby.disconnect()


async def test_an_unknown_table_is_refused() -> None:
    communicator = WebsocketCommunicator(application, "/ws/tables/nowhere/", headers=ORIGIN)
    connected, code = await communicator.connect()
    assert not connected and code == 4404


async def test_a_foreign_origin_is_refused() -> None:
    await table_with_shoe()
    communicator = WebsocketCommunicator(
        application, "/ws/tables/baccarat-1/", headers=[(b"origin", b"http://evil.example"), (b"host", b"127.0.0.1")]
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_open_pages_hold_no_cache_client_each() -> None:
    """Django keeps a cache client per context, and a page's socket is a context that
    lives as long as the page: what a page's resync or join reads from the cache must not
    leave a client behind for every open page."""
    await table_with_shoe()
    backend = type(caches["default"])

    def clients() -> int:
        gc.collect()
        return sum(isinstance(thing, backend) for thing in gc.get_objects())

    before = clients()
    pages = [await connected("/ws/tables/baccarat-1/") for _ in range(6)]
    for page in pages:
        await page.send_to(text_data=json.dumps({"have": {}}))
        assert find_all(await page.receive_from(timeout=5), "section", id="roads")
    assert clients() - before <= 1, "at most the group's one mark"
    for page in pages:
        await page.disconnect()


async def test_a_page_opens_while_the_channel_layer_is_down_is_resynced_from_the_database_and_pushed_after() -> None:
    table = await table_with_shoe()
    round_id = await record(table)
    pages = live.scheduler().pages
    real, down = pages.layer, True

    class Unreachable:
        """Joining fails while ``down``, as with Redis stopped."""

        def __getattr__(self, name: str) -> object:
            return getattr(real(), name)

        async def group_add(self, group: str, channel: str) -> None:
            if down:
                raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
            await real().group_add(group, channel)

    pages.layer = Unreachable
    try:
        page = await connected("/ws/tables/baccarat-1/")  # refused before: the join raised
        await page.send_to(text_data=json.dumps({"have": {}}))
        assert round_id in await page.receive_from(timeout=5)  # from the database
        down = False
        assert await pages.join_lost() == [table_group("baccarat-1")]
        assert round_id in await page.receive_from(timeout=5)  # told to resync: what it may have missed
        second = await record(table, player=["2S", "3S"], banker=["9S", "KS"])
        assert second in await page.receive_from(timeout=5)  # pushed again
        await page.disconnect()
    finally:
        pages.layer = real


async def test_many_sockets_from_one_address_get_its_budget_of_whole_answers_and_small_refusals(settings) -> None:
    """The probe's flood: sockets from one client each asking for the whole live part
    with a version no page shows ("0:0:0")."""
    settings.RESYNC_BURST, settings.RESYNC_PER_SECOND = 3, 0.01
    live.install(None)  # a scheduler made with these settings
    table = await table_with_shoe()
    await record(table)
    pages = [await connected("/ws/tables/baccarat-1/") for _ in range(12)]
    for page in pages:
        await page.send_to(text_data=json.dumps({"have": {"baccarat-1": "0:0:0"}}))
    answers = [await page.receive_from(timeout=5) for page in pages]
    whole = [a for a in answers if find_all(a, "section", id="roads")]
    later = [a for a in answers if a.startswith('<template id="resync-later" data-after="')]
    assert len(whole) == 3 and len(later) == 9
    assert max(len(a) for a in later) < 64  # instead of the whole live part
    assert all(float(find_all(a, "template")[0].attrs["data-after"]) > 0 for a in later)
    other = WebsocketCommunicator(application, "/ws/tables/baccarat-1/", headers=ORIGIN)
    other.scope["client"] = ("198.51.100.7", 50000)  # another client: a budget of its own
    assert (await other.connect())[0]
    await other.send_to(text_data=json.dumps({"have": {"baccarat-1": "0:0:0"}}))
    assert find_all(await other.receive_from(timeout=5), "section", id="roads")
    for page in [*pages, other]:
        await page.disconnect()
