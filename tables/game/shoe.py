"""The shoe procedure used to simulate a table.

N decks are shuffled with a cryptographic generator. The first card is turned and
that many cards are burned by baccarat value (10 for a 0-value card). The cut card
goes about one deck from the bottom. What happens when it comes out is a per-table
rule, because the seeds disagree:

- ``PLAY_ONE_MORE`` (seeds 000/002): the dealer finishes that hand and plays one more;
  if the cut card comes out instead of a hand's first card, that hand is the last.
- ``LAST_ROUND`` (seed 001): the round in which the cut card is drawn is the last.
"""

from __future__ import annotations

import enum
import random
import secrets
from collections.abc import Sequence

from .cards import ALL_CARDS, Card
from .dealing import deal_round
from .outcome import RoundOutcome

DECK_SIZE = 52
DEFAULT_CUT_DEPTH = DECK_SIZE  # cards left behind the cut card
DEFAULT_CUT_JITTER = 6  # "approximately": the depth varies by up to this many cards


class CutCardRule(enum.Enum):
    """What the cut card means when it comes out (the seeds disagree: set per table)."""

    PLAY_ONE_MORE = "play_one_more"
    LAST_ROUND = "last_round"


class ShoeFinishedError(RuntimeError):
    """The shoe's last round has been dealt."""


def burn_count(card: Card) -> int:
    """How many cards the turned card burns: its value, or 10 for a 0-value card."""
    return card.value or 10


class DealingShoe:
    """A shuffled shoe being dealt round by round."""

    def __init__(self, order: Sequence[Card], *, cut_depth: int, rule: CutCardRule) -> None:
        """Build from the cards in shoe order: burns first, then places the cut card
        ``cut_depth`` cards from the bottom."""
        self.burn_card = order[0]
        burned_until = 1 + burn_count(self.burn_card)
        self.burned: tuple[Card, ...] = tuple(order[1:burned_until])
        self._cards: tuple[Card, ...] = tuple(order[burned_until:])
        if not 6 <= cut_depth <= len(self._cards) - 6:
            raise ValueError(f"cut card depth {cut_depth} leaves no room to play")
        self.cut_position = len(self._cards) - cut_depth  # cards in front of the cut card
        self.rule = rule
        self.position = 0
        self.rounds_dealt = 0
        self._rounds_left: int | None = None  # set when the cut card comes out

    @classmethod
    def shuffled(
        cls,
        *,
        decks: int = 8,
        rule: CutCardRule = CutCardRule.PLAY_ONE_MORE,
        rng: random.Random | None = None,
        cut_depth: int = DEFAULT_CUT_DEPTH,
        cut_jitter: int = DEFAULT_CUT_JITTER,
    ) -> DealingShoe:
        """A new shoe of ``decks`` decks; ``rng`` defaults to the system's CSPRNG."""
        if decks < 1:
            raise ValueError("a shoe needs at least one deck")
        rng = rng or secrets.SystemRandom()
        order = list(ALL_CARDS) * decks
        rng.shuffle(order)
        depth = cut_depth + rng.randint(-cut_jitter, cut_jitter)
        if decks == 1:
            depth = min(depth, 16)  # a single deck has no deck to leave behind
        return cls(order, cut_depth=depth, rule=rule)

    @property
    def cut_card_out(self) -> bool:
        """Whether the cut card has come out: the shoe ends after the rounds its rule allows."""
        return self._rounds_left is not None

    @property
    def finished(self) -> bool:
        """Whether the shoe's last round has been dealt."""
        return self._rounds_left == 0

    @property
    def remaining(self) -> tuple[Card, ...]:
        """Cards still in the shoe, cut card ignored."""
        return self._cards[self.position :]

    def _draw(self) -> Card:
        if self.position >= len(self._cards):
            raise ShoeFinishedError("the shoe ran out of cards")
        card = self._cards[self.position]
        self.position += 1
        return card

    def deal(self) -> RoundOutcome:
        """Deal the next round; raises :class:`ShoeFinishedError` after the last."""
        if self.finished:
            raise ShoeFinishedError("the shoe's last round has been dealt")
        start = self.position
        outcome = deal_round(self._draw)
        self.rounds_dealt += 1
        if self._rounds_left is not None:
            self._rounds_left -= 1
        elif start <= self.cut_position < self.position:
            # The cut card came out during this round, or instead of its first card.
            one_more = self.rule is CutCardRule.PLAY_ONE_MORE and self.cut_position != start
            self._rounds_left = 1 if one_more else 0
        return outcome
