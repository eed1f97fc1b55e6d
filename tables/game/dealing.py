"""Dealing a round from a card source by the drawing rules."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .cards import Card, hand_score
from .outcome import RoundOutcome
from .rules import banker_draws, player_draws


def deal_round(draw: Callable[[], Card]) -> RoundOutcome:
    """Deal one round, taking cards from ``draw`` in order P, B, P, B, [P3], [B3]."""
    p1, b1, p2, b2 = draw(), draw(), draw(), draw()
    player, banker = [p1, p2], [b1, b2]
    player_score, banker_score = hand_score(player), hand_score(banker)
    player_third: int | None = None
    if player_draws(player_score, banker_score):
        card = draw()
        player.append(card)
        player_third = card.value
    if banker_draws(player_score, banker_score, player_third):
        banker.append(draw())
    return RoundOutcome.of(tuple(player), tuple(banker))


def deal_from_sequence(cards: Iterable[Card]) -> RoundOutcome:
    """Deal one round from the front of a card sequence (extra cards are unused)."""
    source = iter(cards)

    def draw() -> Card:
        try:
            return next(source)
        except StopIteration:
            raise ValueError("the sequence ran out of cards before the round was complete") from None

    return deal_round(draw)
