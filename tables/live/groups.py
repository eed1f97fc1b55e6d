"""Names of the push groups: one per table, and the lobby."""

from __future__ import annotations

LOBBY_GROUP = "lobby"
PUSH = "fragments.push"  # the consumers' handler: fragments_push


def table_group(slug: str) -> str:
    return f"table.{slug}"
