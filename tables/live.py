"""Best-effort live push of changes to open pages.

Called only after a transaction commits. A failed push is logged and dropped: the
database is the truth and a page that reconnects resyncs from it.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(slug: str) -> str:
    return f"table.{slug}"


def publish(slug: str, event: dict[str, Any]) -> None:
    """Send ``event`` to the table's group and the lobby; never raises."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        for group in (table_group(slug), LOBBY_GROUP):
            async_to_sync(layer.group_send)(group, event)
    except Exception:
        log.warning("live push of %s for table %s failed", event.get("type"), slug, exc_info=True)
