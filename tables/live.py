"""Best-effort live push of changes to open pages.

Called only after a transaction commits. The fragments are rendered once here, by
the pages' own templates, and sent to the table's group and the lobby. A failed push
is logged and dropped: the database is the truth and a page that reconnects resyncs.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
PUSH = "fragments.push"  # the consumers' handler: fragments_push


def table_group(slug: str) -> str:
    return f"table.{slug}"


def publish_table(table_id: int) -> None:
    """Push the table's live fragments and its lobby card; never raises."""
    from . import fragments
    from .models import Table

    try:
        table = Table.objects.get(pk=table_id)
        layer = get_channel_layer()
        if layer is None:
            return
        send = async_to_sync(layer.group_send)
        send(table_group(table.slug), {"type": PUSH, "html": fragments.table_live_html(table)})
        send(LOBBY_GROUP, {"type": PUSH, "html": fragments.lobby_card_html(table)})
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
