"""Websockets for table pages and the lobby: join a group, forward pushed fragments,
and resync a (re)connecting page from the database.

What one page can cost the server is bounded: it may send only resync requests, and gets
at most one answer a ``RESYNC_INTERVAL`` (:mod:`.resyncs`); a page that takes no push
for ``PUSH_SEND_TIMEOUT`` seconds is dropped, so no more than that many seconds of pushes
ever wait for it (it resyncs when it reconnects). Pushes reach a page through its
process's one channel in the group (:mod:`.fanout`), not a channel a page.

An open page is what the server holds longest, thousands at once: what it keeps for
each is counted (``benchmarks/fanout_vs_baseline.py`` measures it against a raw-ASGI
broadcast server's)."""

from __future__ import annotations

import abc
import asyncio
import contextvars
import logging
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation

from .. import selectors
from ..access.desk_sockets import desk_ticket_allows
from ..models import Table
from ..operations.metrics import HELLO_READS, PAGES_CONNECTED, PUSHES_DROPPED, RESYNCS
from ..page_version import PageVersion
from ..pages import fragments
from ..surveillance import panel
from .groups import alerts_group, desk_group, desk_shoe_group, lobby_group, table_group
from .ledger import NOTHING_PUSHED
from .resyncs import LATER, Malformed, Pacer, resync_request
from .scheduler import scheduler

log = logging.getLogger(__name__)
_T = TypeVar("_T")
_R = TypeVar("_R")

CLOSE_MALFORMED = 4400  # the page sent something other than a resync request
CLOSE_FORBIDDEN = 4403  # a desk's socket without a ticket that lets it see alarms
NO_CHANNEL = "pages-have-no-channel"  # not in CHANNEL_LAYERS: Channels gives a page no channel of its own


class FragmentConsumer(AsyncWebsocketConsumer, abc.ABC):
    """A page's socket; each kind of page says what it missed (:meth:`missed`).

    A page has no channel of its own (:mod:`.fanout` sends it its group's pushes), and
    what is sent to it goes out one message at a time, in order: from the fan-out's
    task, or from one of its own while anything waits for it (:meth:`send_queued`), so
    a page that reads slowly delays no other."""

    channel_layer_alias = NO_CHANNEL
    channel_layer = None
    groups = ()  # Channels' groups: none (.fanout joins them), and no list of its own a page
    kind = "page"  # what the pages-connected metric counts it as
    group = ""
    language = settings.LANGUAGE_CODE  # the page's (its ?lang=): its pushes and resyncs come in it
    joined = False  # reached by its group's pushes (from a successful join on)
    serving: asyncio.Task[None] | None = None  # the task that serves the page
    dropped = False  # too slow: its serving task was cancelled
    outbox: list[str] | None = None  # what waits to be sent, while a sender runs (or until accepted)
    sending: asyncio.Task[None] | None = None
    pacer: Pacer | None = None  # made on the first resync request
    asked: dict[str, PageVersion]  # what the page said it shows, last
    waiting: asyncio.Task[None] | None = None  # the resync that waits out the interval

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Dispatch the socket's messages, as Channels' consumer does. Its own loop waits
        on the socket and the page's channel at once, with a task and a wait for every
        open page (about 3 KiB a page); a page has no channel, so this loop reads only
        the socket."""
        self.scope, self.base_send = scope, send
        serving = self.serving = asyncio.current_task()
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        except asyncio.CancelledError:
            if not self.dropped or serving is None:
                raise
            serving.uncancel()  # our own cancel, not the server's: return, and the server closes the connection
        finally:
            await self.leave()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its trip to the database thread before every message
        (to close stale connections): a page's messages reach the database only through
        ``database_sync_to_async``, which closes them itself, and most reach it not at
        all (a hello is answered from the process's shared read, :mod:`.answers`). A
        crowd reconnecting made 10,000 trips for nothing."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """The socket closed: end the page (:meth:`leave` runs as its loop ends). Channels'
        own went to the database thread for it too, twice a page."""
        raise StopConsumer()

    async def open(self) -> None:
        """Join the group, then accept: pushes in between wait for the accept, so a page
        misses nothing from the moment it is joined."""
        self.outbox = []
        await scheduler().pages.join(self.group, self)
        self.joined = True
        PAGES_CONNECTED.labels(self.kind).inc()
        await self.accept()
        self.start_sending()

    async def leave(self) -> None:
        for task in (self.waiting, self.sending):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if self.joined:
            self.joined = False
            PAGES_CONNECTED.labels(self.kind).dec()
            await scheduler().pages.leave(self.group, self)

    async def send_now(self, html: str) -> None:
        """Send ``html`` now, or after what waits already (:class:`~.fanout.Page`)."""
        if self.outbox is not None:
            self.outbox.append(html)
            return
        try:
            await self.base_send({"type": "websocket.send", "text": html})
        except Exception:
            log.debug("a push found its page closed", exc_info=True)  # its disconnect leaves the group

    def push(self, html: str) -> None:
        """Send ``html`` after what waits already, from a task of the page's own
        (:class:`~.fanout.Page`)."""
        if self.outbox is not None:
            self.outbox.append(html)
        else:
            self.outbox = [html]
            self.start_sending()

    def start_sending(self) -> None:
        if self.outbox:
            self.sending = asyncio.create_task(self.send_queued())
        else:
            self.outbox = None

    async def send_queued(self) -> None:
        """Send what waits, oldest first; drop the page when it takes nothing for
        ``PUSH_SEND_TIMEOUT`` seconds (the server's send waits while the socket's buffer
        is full), as everything pushed meanwhile would wait in this process for it."""
        try:
            while self.outbox:
                html = self.outbox.pop(0)
                async with asyncio.timeout(settings.PUSH_SEND_TIMEOUT):
                    await self.send(text_data=html)
        except TimeoutError:
            log.info("dropped a page that took no push for %ss", settings.PUSH_SEND_TIMEOUT)
            PUSHES_DROPPED.labels("slow_page").inc()
            self.drop()
        except Exception:
            log.debug("a push found its page closed", exc_info=True)  # its disconnect leaves the group
        finally:
            self.outbox = self.sending = None

    def drop(self) -> None:
        """End the page's connection (it resyncs when it reconnects)."""
        self.dropped = True
        if self.serving is not None:
            self.serving.cancel()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A resync request: answered now, or merged into the one that waits out the
        interval. Anything else closes the socket."""
        try:
            self.asked = resync_request(text_data, bytes_data)
        except Malformed as refused:
            log.info("closing a socket: %s", refused)
            await self.close(code=CLOSE_MALFORMED)
            return
        if self.waiting:
            return  # it will answer what the page said last
        if self.pacer is None:
            self.pacer = Pacer(settings.RESYNC_INTERVAL, scheduler().clock)
        wait = self.pacer.book()
        if wait > 0:
            self.waiting = asyncio.create_task(self.resync_after(wait))
        else:
            await self.resync()

    def rejoined(self) -> None:
        """Its process is back in the page's group after a channel-layer outage: answer
        again what the page said it shows, from the database, paced as its own asks."""
        if not hasattr(self, "asked") or self.waiting:
            return  # it has not said what it shows yet (it will), or an answer waits already
        wait = self.pacer.book() if self.pacer is not None else 0.0
        self.waiting = asyncio.create_task(self.resync_after(wait))

    async def resync_after(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.waiting = None
        await self.resync()

    def client_address(self) -> str:
        """The client's address (behind the proxy, the one it names: uvicorn's
        ``--proxy-headers``)."""
        client = self.scope.get("client") or ("", 0)
        return str(client[0])

    def asked_language(self) -> str | None:
        """The language the page is in (``?lang=`` on its socket's address, the default
        without one); None for one this site has not."""
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        asked = query.get("lang", [settings.LANGUAGE_CODE])[-1]
        try:
            return translation.get_supported_language_variant(asked)
        except LookupError:
            return None

    async def open_in_language(self, group: Callable[[str], str]) -> None:
        """Join the page's group of its language (``group(language)``) and accept; a
        page in a language this site has not is closed as malformed."""
        language = self.asked_language()
        if language is None:
            log.info("closing a socket: unknown language in %r", self.scope.get("query_string"))
            await self.close(code=CLOSE_MALFORMED)
            return
        self.language, self.group = language, group(language)
        await self.open()

    async def resync(self) -> None:
        """Answer what the page said it shows, within its client address's budget: beyond
        it, the page is told when to ask again (a few dozen bytes, no database read)."""
        wait = scheduler().resyncs.take(self.client_address())
        if wait > 0:
            RESYNCS.labels("later").inc()
            self.push(LATER.format(seconds=wait))
            return
        html = await self.answer(self.asked)
        RESYNCS.labels("whole" if html else "none").inc()
        if html:
            self.push(html)

    async def answer(self, have: dict[str, PageVersion]) -> str:
        """What a page that shows ``have`` missed, read on the database's thread."""
        return await database_sync_to_async(in_own_context)(self.missed, have, self.language)

    @abc.abstractmethod
    def missed(self, have: dict[str, PageVersion]) -> str:
        """The fragments a page that shows ``have`` missed ("": none)."""


class TableConsumer(FragmentConsumer):
    kind = "table"

    def __init__(self, *, slug: str) -> None:
        super().__init__()
        self.slug = slug

    async def connect(self) -> None:
        tables = scheduler().tables
        if not tables.known(self.slug):
            if not await database_sync_to_async(Table.objects.filter(slug=self.slug).exists)():
                await self.close(code=4404)
                return
            tables.found(self.slug)
        await self.open_in_language(lambda language: table_group(self.slug, language))

    async def answer(self, have: dict[str, PageVersion]) -> str:
        """Read once for every page of the table in this language that asks meanwhile
        (:mod:`.answers`: a crowd reconnecting after a restart costs a read, not one each)."""
        read = database_sync_to_async(in_own_context)
        return await scheduler().answers.answer(
            self.group,
            have.get(self.slug),
            read=lambda: read(table_state, self.slug, self.language),
            render=lambda: read(table_whole, self.slug, self.language),
        )

    def missed(self, have: dict[str, PageVersion]) -> str:
        return table_missed(self.slug, have.get(self.slug))


class LobbyConsumer(FragmentConsumer):
    kind = "lobby"

    async def connect(self) -> None:
        await self.open_in_language(lobby_group)

    async def answer(self, have: dict[str, PageVersion]) -> str:
        """The cards of the tables the lobby shows in another state: the tables read once
        for every lobby page in this language that asks meanwhile (:mod:`.answers`)."""
        read = database_sync_to_async(in_own_context)
        tables = await scheduler().answers.shared(self.group, lambda: read(lobby_state, None, self.language))
        behind = fragments.lobby_behind(tables, have)
        return await read(lobby_cards, behind, self.language) if behind else ""

    def missed(self, have: dict[str, PageVersion]) -> str:
        return lobby_missed(have)


class AlertsConsumer(FragmentConsumer):
    """A player's page with good-road alerts on (static/js/alerts.js): it gets the alerts
    of every table and nothing else, so what it costs stays flat as tables are added. An
    alert that went out while it was away is past: a resync sends nothing."""

    kind = "alerts"

    async def connect(self) -> None:
        await self.open_in_language(alerts_group)

    def missed(self, have: dict[str, PageVersion]) -> str:
        return ""


class DeskConsumer(FragmentConsumer):
    """The reviewer's desk (admin's index, or a shoe's page): its alarms panel, pushed
    whole when an alarm is raised or noted, and sent whole on every (re)connect. Opened
    only with a ticket (``?ticket=``) that lets its reviewer see alarms."""

    kind = "desk"

    def __init__(self, *, shoe_id: int | None = None) -> None:
        super().__init__()
        self.shoe_id = shoe_id

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        ticket = query.get("ticket", [""])[-1]
        if not ticket or not await database_sync_to_async(desk_ticket_allows)(ticket):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        shoe_id = self.shoe_id
        await self.open_in_language(
            (lambda language: desk_shoe_group(shoe_id, language)) if shoe_id is not None else desk_group
        )

    def missed(self, have: dict[str, PageVersion]) -> str:
        return panel.panel_html(self.shoe_id)


def in_own_context(work: Callable[[_T], _R], argument: _T, language: str) -> _R:
    """``work(argument)`` in ``language``, in a context of its own, as an HTTP request
    has: what Django keeps per context (a client of the cache) is made for this call and
    dropped after it, instead of staying with the page's socket for as long as the page
    is open (about 13 KiB a page with Redis)."""
    return contextvars.copy_context().run(_in_language, work, argument, language)


def _in_language(work: Callable[[_T], _R], argument: _T, language: str) -> _R:
    with translation.override(language):
        return work(argument)


def table_missed(slug: str, version: PageVersion | None) -> str:
    """The whole live part of a table page that shows ``version`` ("": it is current)."""
    table = Table.objects.get(slug=slug)
    shoe = selectors.shoe_find(table=table, which="current")
    current = selectors.table_version(shoe)
    return "" if version == current else fragments.table_live_html(table, shoe, current)


def table_state(slug: str) -> PageVersion:
    """The version a table page in the current language should show. When no push of the
    table is recorded for its pages in this language (the cache restarted, or no page
    showed it for an hour), the pages saying hello are about to show it (those behind are
    sent the whole part): it is recorded as pushed, so that the next push is a delta to
    them, not the whole part, unless a push recorded a state meanwhile."""
    HELLO_READS.labels("state").inc()
    table = Table.objects.get(slug=slug)
    version = selectors.table_version(selectors.shoe_find(table=table, which="current"))
    ledger, language, look = scheduler().ledger, translation.get_language(), fragments.table_look(table)
    if ledger.last_pushed(table.pk, language, look) == NOTHING_PUSHED:
        ledger.pushed(table.pk, language, version, look, was=NOTHING_PUSHED)
    return version


def table_whole(slug: str) -> str:
    """The whole live part of a table page, as it is now."""
    HELLO_READS.labels("whole").inc()
    return table_missed(slug, None)


def lobby_missed(have: dict[str, PageVersion]) -> str:
    """The lobby cards a page that shows ``have`` missed."""
    return "".join(fragments.lobby_cards_html(have))


def lobby_state(_: None) -> list[fragments.LobbySource]:
    """Every table as the lobby's cards show it now (a lobby page's hello is answered from it)."""
    HELLO_READS.labels("lobby").inc()
    return fragments.lobby_sources()


def lobby_cards(tables: list[fragments.LobbySource]) -> str:
    """These tables' lobby cards, in the current language."""
    return "".join(fragments.lobby_cards_of(tables))
