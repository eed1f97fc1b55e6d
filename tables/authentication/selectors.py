"""Card authentication's reads: a shoe's committed cards, and the plaintexts refused."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from ..models import PlaintextRefusal, Shoe, ShoeCard


def shoe_cards(*, shoe: Shoe, rounds_from: int | None = None, rounds_to: int | None = None) -> list[dict[str, Any]]:
    """An authenticated shoe's cards, in card-number order, in one query: number, public
    hash, plaintext (None until revealed: only revealed plaintexts are ever stored),
    state and the number of the round it went to. With ``rounds_from`` / ``rounds_to``,
    only the cards dealt to those rounds (a push of new rounds, a round's receipt)."""
    fields = ("number", "hash", "plaintext", "state", "round__number")
    cards = ShoeCard.objects.filter(shoe=shoe)
    if rounds_from is not None:
        cards = cards.filter(round__number__gte=rounds_from)
    if rounds_to is not None:
        cards = cards.filter(round__number__lte=rounds_to)
    rows = cards.order_by("number").values_list(*fields)
    return [
        {"number": number, "hash": hash_, "plaintext": plaintext or None, "state": state, "round": round_number}
        for number, hash_, plaintext, state, round_number in rows
    ]


def shoe_plaintext_refusals(*, shoe: Shoe) -> QuerySet[PlaintextRefusal]:
    """The plaintexts refused for a shoe, newest first (for reviewers; never the text)."""
    return PlaintextRefusal.objects.filter(shoe=shoe)
