"""Tables: made, and given a new ingest token."""

from __future__ import annotations

import secrets

from ..models import Table, token_digest


def table_create(
    *,
    slug: str,
    name: str,
    variant: str = "standard",
    decks: int = 8,
    cut_card_rule: str = "play_one_more",
    dealer_name: str = "",
    simulated: bool = False,
) -> tuple[Table, str]:
    """Create a table; returns it with its ingest token (shown once, stored hashed)."""
    table = Table(
        slug=slug,
        name=name,
        variant=variant,
        decks=decks,
        cut_card_rule=cut_card_rule,
        dealer_name=dealer_name,
        simulated=simulated,
    )
    table.full_clean()
    token = secrets.token_urlsafe(32)
    table.token_hash = token_digest(token)
    table.save()
    return table, token


def table_token_rotate(*, table: Table) -> str:
    """Give the table a new ingest token; the old one stops working at once."""
    token = secrets.token_urlsafe(32)
    Table.objects.filter(pk=table.pk).update(token_hash=token_digest(token))
    table.token_hash = token_digest(token)
    return token
