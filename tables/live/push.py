"""Render a table's fragments and send them to the pages that show it.

Called only after a transaction commits, from a background job. The fragments are
rendered once for each language some page shows them in, by the pages' own templates,
and sent to the table's group and the lobby's of that language. A failed push is logged
and dropped: the database is the truth and a page that reconnects resyncs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Protocol

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from django.utils import translation

from .. import selectors
from ..models import RoundInProgress, Shoe, Table
from ..operations.metrics import PUSHES_DROPPED
from ..page_version import PageVersion
from ..pages import alerts, fragments
from ..surveillance import panel
from .groups import alerts_group, desk_group, desk_shoe_group, languages, lobby_group, push_message, table_group
from .ledger import PushLedger

log = logging.getLogger(__name__)

SEND_SECONDS = 10  # a send that takes longer is dropped (pages resync)
SWAP_TRIES = 3  # renders of a push while other processes record newer states
READINESS_GROUP = "readiness"  # no page joins it: what the readiness probe publishes to


def watched_groups(slug: str, ledger: PushLedger) -> dict[str, bool]:
    """Whether some page shows each of the table's groups and the lobby's, in every
    language (one look at the cache)."""
    groups = [g for language in languages() for g in (table_group(slug, language), lobby_group(language))]
    return ledger.watched(*groups)


class Sends(Protocol):
    """What a push is handed to: the channel layer (:class:`Sender`), or a test's record."""

    def send(self, group: str, message: dict[str, Any]) -> None: ...


class Sender:
    """``group_send`` for sync code (background jobs). In an ASGI server, on the server's
    event loop: the in-memory channel layer only reaches that loop's pages, and the Redis
    layer keeps its connections per loop. Elsewhere (a WSGI server, a Celery worker, a
    command) on one loop of its own per process, kept for every push: async_to_sync would
    make a loop per push, and the Redis layer a connection per loop."""

    def __init__(self) -> None:
        self.server_loop: asyncio.AbstractEventLoop | None = None
        self._own: tuple[int, asyncio.AbstractEventLoop] | None = None
        self._lock = threading.Lock()

    def send(self, group: str, message: dict[str, Any]) -> None:
        self._run(lambda layer: layer.group_send(group, message))

    def check(self) -> None:
        """Reach the channel layer (the readiness probe): publish to a group nobody is in,
        which touches Redis and reaches no page."""
        self._run(lambda layer: layer.group_send(READINESS_GROUP, {"type": "readiness.check"}))

    def _run(self, call: Callable[[BaseChannelLayer], Awaitable[None]]) -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        loop = self.server_loop if self.server_loop is not None and self.server_loop.is_running() else None
        if loop is None and isinstance(layer, InMemoryChannelLayer):
            async_to_sync(_awaited)(call, layer)  # a test's or a command's own pages
            return
        future = asyncio.run_coroutine_threadsafe(_awaited(call, layer), loop or self._own_loop())
        future.result(timeout=SEND_SECONDS)

    def _own_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._own is None or self._own[0] != os.getpid():  # a forked worker starts its own
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="pushes", daemon=True).start()
                self._own = (os.getpid(), loop)
            return self._own[1]


async def _awaited(call: Callable[[BaseChannelLayer], Awaitable[None]], layer: BaseChannelLayer) -> None:
    await call(layer)


def publish_table(
    table_id: int,
    *,
    sender: Sends,
    ledger: PushLedger,
    coalesce: bool = False,
    watched: dict[str, bool] | None = None,
) -> None:
    """Push the table's live fragments and its lobby card, each only if some page shows
    it (the ``ledger``'s presence, or ``watched``, the caller's fresh look); never raises.
    With ``coalesce``, skip a state some process has already pushed (or is pushing): a
    worker that fell behind renders the latest state once, not every round it missed,
    and two processes that both saw a change render it once between them."""
    claim = None
    try:
        table = Table.objects.get(pk=table_id)
        if watched is None or table_group(table.slug) not in watched:  # not looked yet, or the slug changed since
            watched = watched_groups(table.slug, ledger)
        if not any(watched.values()):
            return  # no page shows this table: nothing to render
        # Read once for every page and language: the shoe, the round it deals card by card,
        # its rounds (and from them the version, the table's pages and the lobby's).
        shoe, progress = selectors.current_shoe_dealing(table=table)
        open_shoe = shoe if shoe is not None and shoe.state == Shoe.State.OPEN else None  # the lobby's
        rounds = fragments.pushed_rounds(shoe)
        version = selectors.table_version_of(shoe, rounds)
        if coalesce:
            claim = ledger.claim(table_id, version)
            if claim is None:
                return
        for language in languages():
            group, lobby = table_group(table.slug, language), lobby_group(language)
            if watched[group] or watched[lobby]:
                with translation.override(language):
                    if watched[group]:
                        html = _table_push(table, shoe, version, ledger, progress, rounds)
                        sender.send(group, push_message(group, html))
                    if watched[lobby]:
                        card = fragments.lobby_card_html(
                            table,
                            open_shoe,
                            odds_pending=version.odds_pending,
                            progress=progress if open_shoe is not None else None,
                            rounds=selectors.lobby_rounds_from(rounds) if open_shoe is not None else [],
                        )
                        sender.send(lobby, push_message(lobby, card))
        # One call to the cache for every language no table page shows.
        ledger.forget(
            table_id, [language for language in languages() if not watched[table_group(table.slug, language)]]
        )
    except Exception:
        PUSHES_DROPPED.labels("send_failed").inc()
        log.warning("live push for table %s failed", table_id, exc_info=True)
        if claim:
            ledger.release(claim)


def publish_dealing(table_id: int, sender: Sends, ledger: PushLedger) -> None:
    """Push the round the table is dealing card by card, as it is now, to its pages (the
    last-round panel) and the lobby's (the card's line), each only if some page shows
    it; never raises. A small push, sent at once: the rounds' pushes are unchanged (the
    roads change when the round is complete)."""
    try:
        table = Table.objects.get(pk=table_id)
        watched = watched_groups(table.slug, ledger)
        if not any(watched.values()):
            return
        shoe, progress = selectors.current_shoe_dealing(table=table)
        if shoe is None:
            return
        version = selectors.table_version(shoe)
        card_version = PageVersion(version.shoe, version.round, version.voided, cards=version.cards)  # a lobby card's
        for language in languages():
            group, lobby = table_group(table.slug, language), lobby_group(language)
            with translation.override(language):
                if watched[group]:
                    html = fragments.table_dealing_html(table, shoe, version, progress)
                    sender.send(group, push_message(group, html))
                if watched[lobby] and shoe.state == Shoe.State.OPEN:
                    sender.send(lobby, push_message(lobby, fragments.lobby_dealing_html(table, card_version, progress)))
    except Exception:
        PUSHES_DROPPED.labels("send_failed").inc()
        log.warning("dealing push for table %s failed", table_id, exc_info=True)


def _table_push(
    table: Table,
    shoe: Shoe | None,
    version: PageVersion,
    ledger: PushLedger,
    progress: RoundInProgress | None,
    rounds: list[selectors.PushedRow],
) -> str:
    """What the table's pages get: only what changed since the state pushed last, which
    they show (or the whole live part; with the cache down, always the whole part).
    Another process may push the table meanwhile (its odds, a worker's): then render
    again from the state it recorded, and after a few tries send the whole part."""
    language = translation.get_language()
    look = fragments.table_look(table)
    for _ in range(SWAP_TRIES):
        was = ledger.last_pushed(table.pk, language, look)
        html = fragments.table_push_html(table, shoe, version, since=was.version, progress=progress, rounds=rounds)
        if ledger.pushed(table.pk, language, version, look, was=was):
            return html
    ledger.pushed(table.pk, language, version, look)
    return fragments.table_push_html(table, shoe, version, since=None, progress=progress, rounds=rounds)


def _odds_push(table: Table, sender: Sends, ledger: PushLedger, group: str) -> None:
    """The round's odds to the table's pages: the numbers that changed since the odds the
    state pushed last shows, and nothing when that push carried them already. The state
    recorded then keeps its rounds and takes these odds, if no round's push recorded a
    newer state meanwhile (a server's, while this worker rendered): then render again
    from that one, and after a few tries send the whole panel, which fits any page."""
    language = translation.get_language()
    look = fragments.table_look(table)
    for _ in range(SWAP_TRIES):
        was = ledger.last_pushed(table.pk, language, look)
        since = was.version
        html, version = fragments.table_odds_push_html(table, since=since)
        if not html:
            return
        if since is None or (since.shoe, since.voided) != (version.shoe, version.voided):
            break  # the whole panel: it changes no state a delta starts from
        if ledger.pushed(table.pk, language, replace(since, odds=version.odds), look, was=was):
            break  # their rounds, these odds
    else:
        html, _ = fragments.table_odds_push_html(table, since=None)
    sender.send(group, push_message(group, html))


def publish_odds(table_id: int, *, sender: Sends, ledger: PushLedger) -> None:
    """Push the table's odds (only what changed since the state pushed last, or the whole
    panel) once the odds of a round are stored, if a page shows the table;
    its lobby card, which shows the next round's returns; and the good-road alerts the
    round raised. Never raises."""
    try:
        table = Table.objects.get(pk=table_id)
        groups = {
            language: (table_group(table.slug, language), lobby_group(language), alerts_group(language))
            for language in languages()
        }
        watched = ledger.watched(*(group for three in groups.values() for group in three))
        alert = alerts.alert_context(table) if any(watched[a] for _, _, a in groups.values()) else None
        for language, (group, lobby, alerted) in groups.items():
            with translation.override(language):
                if watched[group]:
                    _odds_push(table, sender, ledger, group)
                if watched[lobby]:
                    sender.send(lobby, push_message(lobby, fragments.lobby_card_html(table)))
                if alert is not None and watched[alerted]:
                    sender.send(alerted, push_message(alerted, alerts.alert_html(alert)))
    except Exception:
        log.warning("odds push for table %s failed", table_id, exc_info=True)


def publish_alarms(shoe_id: int | None, sender: Sends, ledger: PushLedger) -> None:
    """Push the desk's alarms panel (admin's index) and, for an alarm of a shoe, that
    shoe's page's, each in every language a reviewer's page shows it in; never raises."""
    try:
        for language in languages():
            groups: list[tuple[str, int | None]] = [(desk_group(language), None)]
            if shoe_id is not None:
                groups.append((desk_shoe_group(shoe_id, language), shoe_id))
            watched = ledger.watched(*(group for group, _ in groups))
            for group, scope in groups:
                if watched[group]:
                    with translation.override(language):
                        sender.send(group, push_message(group, panel.panel_html(scope)))
    except Exception:
        PUSHES_DROPPED.labels("send_failed").inc()
        log.warning("alarms push for shoe %s failed", shoe_id, exc_info=True)
