"""Template helpers for drawing cards and results."""

from __future__ import annotations

from django import template

from ..game.cards import Card

register = template.Library()

WINNER_NAMES = {"B": "Banker", "P": "Player", "T": "Tie"}


@register.inclusion_tag("tables/_hand.html")
def hand(cards: tuple[Card, ...], label: str, score: int) -> dict[str, object]:
    return {"cards": cards, "label": label, "score": score}


@register.filter
def winner_name(code: str) -> str:
    return WINNER_NAMES.get(code, code)
