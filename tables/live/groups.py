"""Names of the push groups (one per table, and the lobby) and the message a push sends."""

from __future__ import annotations

LOBBY_GROUP = "lobby"
PUSH = "fragments.push"  # a push's message type on the channel layer


def push_message(group: str, html: str) -> dict[str, str]:
    """What the channel layer carries to each process serving pages of ``group``."""
    return {"type": PUSH, "group": group, "html": html}


def table_group(slug: str) -> str:
    return f"table.{slug}"
