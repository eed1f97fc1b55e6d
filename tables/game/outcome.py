"""What a round's cards decide: winner, scores, naturals, pairs, margin."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .cards import Card, hand_score
from .rules import is_natural


class Winner(enum.Enum):
    """Who won a round. The value is the one-letter code the API, the database and the
    roads' JSON use; this enum is the only place that spells the names out."""

    BANKER = "B"
    PLAYER = "P"
    TIE = "T"

    @property
    def label(self) -> str:
        """The name people read: ``"Banker"``, ``"Player"``, ``"Tie"``."""
        return self.name.capitalize()

    @property
    def verdict(self) -> str:
        """The round's result as a sentence: ``"Banker wins"``, ``"Player wins"``, ``"Tie"``."""
        return self.label if self is Winner.TIE else f"{self.label} wins"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayedRound:
    """A round as the statistics read it, once played (a voided round is none): who
    won, the pairs and whether either hand was a natural. Named fields only: the pairs
    come in no order anyone would remember."""

    winner: Winner
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """The result of one legal round. Build it with :meth:`of`."""

    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    player_score: int
    banker_score: int
    winner: Winner
    player_natural: bool
    banker_natural: bool
    player_pair: bool
    banker_pair: bool
    player_perfect_pair: bool
    banker_perfect_pair: bool

    @classmethod
    def of(cls, player: tuple[Card, ...], banker: tuple[Card, ...]) -> RoundOutcome:
        """Score two hands, given in dealing order (first two cards first)."""
        player_score, banker_score = hand_score(player), hand_score(banker)
        if player_score > banker_score:
            winner = Winner.PLAYER
        elif banker_score > player_score:
            winner = Winner.BANKER
        else:
            winner = Winner.TIE
        return cls(
            player_cards=player,
            banker_cards=banker,
            player_score=player_score,
            banker_score=banker_score,
            winner=winner,
            player_natural=is_natural(hand_score(player[:2])),
            banker_natural=is_natural(hand_score(banker[:2])),
            player_pair=player[0].rank == player[1].rank,
            banker_pair=banker[0].rank == banker[1].rank,
            player_perfect_pair=player[0] == player[1],
            banker_perfect_pair=banker[0] == banker[1],
        )

    @property
    def any_pair(self) -> bool:
        """Whether either hand's first two cards are a pair."""
        return self.player_pair or self.banker_pair

    @property
    def perfect_pair(self) -> bool:
        """Either side's first two cards are the same rank and suit."""
        return self.player_perfect_pair or self.banker_perfect_pair

    @property
    def margin(self) -> int:
        """Difference between the two final scores (0 on a tie)."""
        return abs(self.player_score - self.banker_score)

    @property
    def natural(self) -> bool:
        """Either side has a natural, so the round ended on four cards."""
        return self.player_natural or self.banker_natural

    @property
    def banker_wins_with_six(self) -> bool:
        """Whether Banker wins with a total of 6 (a No Commission table pays it half)."""
        return self.winner is Winner.BANKER and self.banker_score == 6

    @property
    def cards(self) -> tuple[Card, ...]:
        """All cards in dealing order: P, B, P, B, [P3], [B3]."""
        order = [self.player_cards[0], self.banker_cards[0], self.player_cards[1], self.banker_cards[1]]
        order.extend(self.player_cards[2:])
        order.extend(self.banker_cards[2:])
        return tuple(order)
