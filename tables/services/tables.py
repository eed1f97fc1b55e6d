"""Tables: made, given a new ingest token, and their public screens' audience chosen."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from .. import live
from ..game.audience import Audience
from ..models import AudienceChange, Table, token_digest


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


def table_audience_set(*, table: Table, audience: Audience, user: User | AnonymousUser | None) -> bool:
    """Set what the table's public screens show, keeping who chose it and when
    (:class:`~tables.models.AudienceChange`); its pages are pushed whole at once, so a
    number that is no longer public leaves every open screen. False when it was so
    already (nothing changes, nothing is kept)."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        previous = locked.audience
        if previous == audience.value:
            table.audience = previous
            return False
        Table.objects.filter(pk=table.pk).update(audience=audience.value)
        by = user if isinstance(user, User) else None
        AudienceChange.objects.create(
            table=locked, previous=previous, audience=audience.value, user=by, username=by.get_username() if by else ""
        )
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
    table.audience = audience.value
    return True
