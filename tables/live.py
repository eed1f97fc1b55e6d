"""Best-effort live push of changes to open pages.

Called only after a transaction commits. The fragments are rendered once here, by
the pages' own templates, and sent to the table's group and the lobby. A failed push
is logged and dropped: the database is the truth and a page that reconnects resyncs.
"""

from __future__ import annotations

import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
PUSH = "fragments.push"  # the consumers' handler: fragments_push


def table_group(slug: str) -> str:
    return f"table.{slug}"


_queued: set[int] = set()  # tables with a push waiting in this process
_queued_lock = threading.Lock()


def table_changed(table_id: int) -> None:
    """After a commit that changed what a table's pages show: render and push from this
    process once the request is answered, so recording a round never waits for it, and
    pushes keep flowing with no Celery worker at all. A table with a push still waiting
    gets no second one: that push renders the state as it is when it runs."""
    from . import jobs

    with _queued_lock:
        if table_id in _queued:
            return
        _queued.add(table_id)
    if not jobs.run_here(_publish_queued, table_id):
        with _queued_lock:
            _queued.discard(table_id)


def _publish_queued(table_id: int) -> None:
    with _queued_lock:
        _queued.discard(table_id)  # changes from now on need a push of their own
    publish_table(table_id, coalesce=True)


def publish_table(table_id: int, coalesce: bool = False) -> None:
    """Push the table's live fragments and its lobby card; never raises. With
    ``coalesce``, skip when the pages already have this state: a worker that fell
    behind renders the latest state once, not every round it missed."""
    from . import fragments, selectors
    from .models import Table

    try:
        table = Table.objects.get(pk=table_id)
        layer = get_channel_layer()
        if layer is None:
            return
        if coalesce:
            version = selectors.table_version(selectors.shoe_find(table=table, which="current"))
            if cache.get(f"published:{table_id}") == version:
                return
        send = async_to_sync(layer.group_send)
        send(table_group(table.slug), {"type": PUSH, "html": fragments.table_live_html(table)})
        send(LOBBY_GROUP, {"type": PUSH, "html": fragments.lobby_card_html(table)})
        if coalesce:
            cache.set(f"published:{table_id}", version, timeout=3600)
    except Exception:
        log.warning("live push for table %s failed", table_id, exc_info=True)


def publish_odds(table_id: int) -> None:
    """Push the table's odds panel (with the game info, which carries the page's
    version for resync) once the odds of a round are stored; never raises."""
    from . import fragments
    from .models import Table

    try:
        table = Table.objects.get(pk=table_id)
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(
                table_group(table.slug), {"type": PUSH, "html": fragments.table_odds_html(table)}
            )
    except Exception:
        log.warning("odds push for table %s failed", table_id, exc_info=True)
