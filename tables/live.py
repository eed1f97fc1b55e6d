"""Best-effort live push of changes to open pages.

Called only after a transaction commits. The fragments are rendered once here, by
the pages' own templates, and sent to the table's group and the lobby. A failed push
is logged and dropped: the database is the truth and a page that reconnects resyncs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
PUSH = "fragments.push"  # the consumers' handler: fragments_push
SEND_SECONDS = 10  # a send that takes longer is dropped (pages resync)
PUSHED_SECONDS = 3600  # the state a table's pages were last pushed, for the next push's delta


def table_group(slug: str) -> str:
    return f"table.{slug}"


_queued: set[int] = set()  # tables with a push waiting in this process
_last_look: dict[int, float] = {}  # table -> when this process last looked to push it
_slugs: dict[int, str] = {}  # table -> its slug, as of its last change: its group's name
_queued_lock = threading.Lock()


def table_changed(table_id: int, slug: str) -> None:
    """After a commit that changed what a table's pages show: render and push from this
    process once the request is answered, so recording a round never waits for it, and
    pushes keep flowing with no Celery worker at all.

    A table with a push still waiting gets no second one: that push renders the state
    as it is when it runs. A table pushes about once per ``PUSH_INTERVAL`` at most,
    across all processes: a change soon after a push waits out the interval, so a
    burst of rounds costs one render, not one each, and rendering never crowds out
    recording. A table no page shows (:mod:`tables.presence`) costs one cache read per
    interval: a change soon after that read waits out the interval too, and looks
    again then, so a page that opened meanwhile still gets it."""
    from . import jobs

    with _queued_lock:
        _slugs[table_id] = slug
        if table_id in _queued:
            return
        _queued.add(table_id)
        wait = _last_look.get(table_id, -settings.PUSH_INTERVAL) + settings.PUSH_INTERVAL - time.monotonic()
    if not jobs.run_later(wait, _publish_queued, table_id):
        with _queued_lock:
            _queued.discard(table_id)


def _publish_queued(table_id: int) -> None:
    from . import jobs, presence

    watched = presence.watched(table_group(_slugs[table_id]), LOBBY_GROUP)
    if not any(watched.values()):
        with _queued_lock:
            _queued.discard(table_id)  # no page to push to: a page that opens resyncs
            _last_look[table_id] = time.monotonic()
        return
    interval = settings.PUSH_INTERVAL
    if interval > 0:
        now = time.time()
        bucket = int(now // interval)
        if not _take_slot(table_id, bucket):
            # Another process pushed this table in this interval: push what it could
            # not have shown in the next one (the table stays queued here till then).
            if not jobs.run_later((bucket + 1) * interval - now, _publish_queued, table_id):
                with _queued_lock:
                    _queued.discard(table_id)
            return
    with _queued_lock:
        _queued.discard(table_id)  # changes from now on need a push of their own
        _last_look[table_id] = time.monotonic()
    publish_table(table_id, coalesce=True, watched=watched)


def _take_slot(table_id: int, bucket: int) -> bool:
    """The table's one push of this interval, for all processes sharing the cache. With
    the cache down, push anyway: the pages would rather have two pushes than none."""
    try:
        return bool(cache.add(f"push-slot:{table_id}:{bucket}", True, timeout=math.ceil(settings.PUSH_INTERVAL) + 1))
    except Exception:
        return True


def publish_table(table_id: int, coalesce: bool = False, watched: dict[str, bool] | None = None) -> None:
    """Push the table's live fragments and its lobby card, each only if some page shows
    it (:mod:`tables.presence`, or ``watched``, the caller's fresh look); never raises.
    With ``coalesce``, skip a state some process has already pushed (or is pushing): a
    worker that fell behind renders the latest state once, not every round it missed,
    and two processes that both saw a change render it once between them."""
    from . import fragments, presence, selectors
    from .models import Table

    claim = None
    try:
        table = Table.objects.get(pk=table_id)
        layer = get_channel_layer()
        if layer is None:
            return
        group = table_group(table.slug)
        if watched is None or group not in watched:  # not looked yet, or the slug changed since
            watched = presence.watched(group, LOBBY_GROUP)
        if not any(watched.values()):
            return  # no page shows this table: nothing to render
        shoe = selectors.shoe_find(table=table, which="current")
        version = selectors.table_version(shoe)
        if coalesce:
            claim = f"pushed:{table_id}:{version}"
            if not cache.add(claim, True, timeout=3600):
                return
        send = _sender(layer)
        if watched[group]:
            # The pages that show the state pushed last get only what changed since; with
            # the cache down, every push is the whole live part.
            pushed, since = f"pushed-version:{table_id}", None
            with contextlib.suppress(Exception):
                since = cache.get(pushed)
            send(group, {"type": PUSH, "html": fragments.table_push_html(table, shoe, version, since=since)})
            with contextlib.suppress(Exception):
                cache.set(pushed, version, timeout=PUSHED_SECONDS)
        if watched[LOBBY_GROUP]:
            send(LOBBY_GROUP, {"type": PUSH, "html": fragments.lobby_card_html(table)})
    except Exception:
        log.warning("live push for table %s failed", table_id, exc_info=True)
        if claim:
            with contextlib.suppress(Exception):
                cache.delete(claim)  # let a later push of this state try again


def publish_odds(table_id: int) -> None:
    """Push the table's odds panel (with the game info, which carries the page's
    version for resync) once the odds of a round are stored, if a page shows the table;
    never raises."""
    from . import fragments, presence
    from .models import Table

    try:
        table = Table.objects.get(pk=table_id)
        layer, group = get_channel_layer(), table_group(table.slug)
        if layer is not None and presence.watched(group)[group]:
            _sender(layer)(group, {"type": PUSH, "html": fragments.table_odds_html(table)})
    except Exception:
        log.warning("odds push for table %s failed", table_id, exc_info=True)


_loop: asyncio.AbstractEventLoop | None = None  # pushes from outside a server: workers, commands
_loop_pid = 0
_loop_lock = threading.Lock()


def _sender(layer: Any) -> Callable[[str, dict[str, Any]], None]:
    """``group_send`` for sync code. Inside an ASGI server (or with the in-memory layer,
    which lives on its server's or test's loop) through that loop, as async_to_sync
    finds it. Elsewhere, a Celery worker above all, through one loop kept for this
    process: async_to_sync would make a loop per push there, and the Redis layer a
    connection per loop."""
    from . import jobs

    if jobs.serving() or isinstance(layer, InMemoryChannelLayer):
        return async_to_sync(layer.group_send)

    def send(group: str, message: dict[str, Any]) -> None:
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _own_loop()).result(timeout=SEND_SECONDS)

    return send


def _own_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid():  # a forked worker starts its own
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="pushes", daemon=True).start()
        return _loop
