"""Shoes for the surveillance tests: card orders (shuffled, new-deck order, short) dealt
round by round by the project's dealing core, as the shell would hand them over."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from tables.game.cards import ALL_CARDS, RANKS, Card, Suit
from tables.game.outcome import Winner
from tables.game.seen import RoundSeen, ShoeSeen, StretchMatch
from tables.game.shoe import CutCardRule, DealingShoe


def new_deck() -> list[Card]:
    """A deck from the box: A-K of spades and diamonds, K-A of clubs and hearts."""
    rising = [Card(rank, suit) for suit in (Suit.SPADES, Suit.DIAMONDS) for rank in RANKS]
    falling = [Card(rank, suit) for suit in (Suit.CLUBS, Suit.HEARTS) for rank in reversed(RANKS)]
    return rising + falling


def shuffled(seed: int, decks: int = 8) -> list[Card]:
    """A properly shuffled shoe."""
    order = list(ALL_CARDS) * decks
    random.Random(seed).shuffle(order)
    return order


def dealing(
    order: Sequence[Card],
    *,
    decks: int = 8,
    key: str = "1",
    cut_depth: int = 52,
    card_matches: Sequence[StretchMatch] = (),
) -> Iterator[ShoeSeen]:
    """The shoe after each round, dealt from ``order`` to its cut card."""
    shoe = DealingShoe(order, cut_depth=cut_depth, rule=CutCardRule.PLAY_ONE_MORE)
    rounds: list[RoundSeen] = []
    while not shoe.finished:
        outcome = shoe.deal()
        rounds.append(RoundSeen(len(rounds) + 1, outcome.player_cards, outcome.banker_cards, outcome.winner))
        yield ShoeSeen(
            key,
            decks,
            tuple(rounds),
            burn_card=shoe.burn_card,
            ended=shoe.finished,
            card_matches=tuple(card_matches),
        )


def dealt(order: Sequence[Card], **options: object) -> ShoeSeen:
    """The shoe dealt to its end."""
    *_, last = dealing(order, **options)  # type: ignore[arg-type]
    return last


def results_only(winners: str, *, key: str = "1") -> ShoeSeen:
    """A shoe of rounds given by their winners alone (``"BBPT"``), no cards."""
    rounds = tuple(RoundSeen(i, (), (), Winner(w)) for i, w in enumerate(winners, start=1))
    return ShoeSeen(key, 8, rounds)
