"""What shoe surveillance is given about a shoe: its rounds as dealt, the committed cards
of an authenticated shoe, and the earlier shoes' stretches the shell found again.

Plain values the shell builds from its rows after each round; the checks read nothing
else, so a shoe's cost never depends on the history behind it (the shell looks the
history up by fingerprint, in an index).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property

from .cards import ALL_CARDS, RANKS, Card, Suit, hand_score
from .outcome import PlayedRound, Winner
from .rules import is_natural

_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}


def card_index(card: Card) -> int:
    """The card's place in ``ALL_CARDS``: suit x 13 + rank (spades, hearts, diamonds,
    clubs; A to K). Identity tests of the suit, no hashing of it: this runs for every
    card of the shoe after every round."""
    suit = card.suit
    base = 0 if suit is Suit.SPADES else 13 if suit is Suit.HEARTS else 26 if suit is Suit.DIAMONDS else 39
    return base + _RANK_INDEX[card.rank]


@dataclass(frozen=True, slots=True)
class RoundSeen:
    """One round of the shoe as it left the shoe: its number, both hands in dealing order
    (first two cards first), who won, and optionally the exact chances of Banker, Player
    and Tie before it was dealt (the shell's odds for the shoe as it stood; the full
    shoe's when absent)."""

    number: int
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    winner: Winner
    odds: tuple[float, float, float] | None = None  # banker, player, tie

    @property
    def cards(self) -> tuple[Card, ...]:
        """The round's cards in the order they left the shoe: P1, B1, P2, B2, [P3], [B3]."""
        if len(self.player) < 2 or len(self.banker) < 2:
            return (*self.player, *self.banker)
        return (self.player[0], self.banker[0], self.player[1], self.banker[1], *self.player[2:], *self.banker[2:])

    @property
    def played(self) -> PlayedRound:
        """The round as the per-shoe statistics read it (pairs and naturals from its cards)."""
        if len(self.player) < 2 or len(self.banker) < 2:
            return PlayedRound(winner=self.winner)
        p1, p2, b1, b2 = self.player[0], self.player[1], self.banker[0], self.banker[1]
        natural = is_natural((p1.value + p2.value) % 10) or is_natural((b1.value + b2.value) % 10)
        pairs = {"banker_pair": b1.rank == b2.rank, "player_pair": p1.rank == p2.rank}
        return PlayedRound(winner=self.winner, natural=natural, **pairs)

    @property
    def result(self) -> str:
        """The round's result as the results fingerprints read it: winner and both scores
        (``"B57"``: Banker 7 over Player 5). Two rounds' results match with chance 0.0117,
        which :data:`~tables.game.shuffle_checks.RESULT_STRETCH` is chosen for; the winner
        alone (a round given without cards) matches with chance 0.42, far too often for
        that stretch length, so such rounds are for the outcome checks, not fingerprints."""
        if not self.player or not self.banker:
            return self.winner.value
        return f"{self.winner.value}{hand_score(self.player)}{hand_score(self.banker)}"


class CardState(enum.StrEnum):
    """What became of a committed card (the shell's ``ShoeCard.State`` values)."""

    BURN_CARD = "burn_card"  # card 1, turned over
    BURNED = "burned"  # burned face down by the burn card's value
    DEALT = "dealt"  # dealt to a round
    UNUSED = "unused"  # left in the shoe behind the last round


@dataclass(frozen=True, slots=True)
class CommittedCard:
    """One committed card of an authenticated shoe, as the shell holds it: its number,
    its state as stored (a string, so a state the checks do not know is evidence too),
    the card its revealed plaintext names (None while unrevealed), and the card it was
    dealt or turned as (None for a card not dealt)."""

    number: int
    state: str
    plaintext_card: Card | None = None
    dealt_as: Card | None = None


@dataclass(frozen=True, slots=True)
class StretchMatch:
    """A fingerprint of this shoe the shell found in an earlier shoe's: which shoe (the
    shell's key for it), where the stretch starts here and there (positions in the
    dealt cards, or in the rounds for results)."""

    earlier_shoe: str
    position: int
    earlier_position: int


@dataclass(frozen=True)
class ShoeSeen:
    """A shoe as far as it has been dealt, and what the shell knows around it.

    ``shoe_key`` names the shoe in findings' keys (the shell's primary key, say).
    ``ended``: its last round is played. ``reveal_due``: an authenticated shoe's
    remaining cards were revealed, or should have been by now (its end's accounting
    then expects every plaintext). ``card_matches`` and ``result_matches``: this shoe's
    fingerprints found in earlier shoes, any table.
    """

    shoe_key: str
    decks: int
    rounds: tuple[RoundSeen, ...]
    burn_card: Card | None = None
    ended: bool = False
    committed: tuple[CommittedCard, ...] = ()
    reveal_due: bool = False
    card_matches: tuple[StretchMatch, ...] = ()
    result_matches: tuple[StretchMatch, ...] = ()

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """Every card dealt to a round, in the order it left the shoe (the burn card and
        the cards it burned are not in it)."""
        return tuple(card for r in self.rounds for card in r.cards)

    @cached_property
    def indexes(self) -> tuple[int, ...]:
        """:attr:`cards` as numbers 0-51, suit x 13 + rank (their places in ``ALL_CARDS``):
        the checks compare and count these, after every round, far faster than cards."""
        return tuple(card_index(card) for card in self.cards)

    @cached_property
    def card_counts(self) -> list[int]:
        """How many times each card was seen, by index: the burn card and the rounds' cards."""
        counts = [0] * len(ALL_CARDS)
        for i in self.indexes:
            counts[i] += 1
        if self.burn_card is not None:
            counts[card_index(self.burn_card)] += 1
        return counts

    @cached_property
    def card_rounds(self) -> tuple[int, ...]:
        """The round number of each card of :attr:`cards`."""
        return tuple(r.number for r in self.rounds for _ in r.cards)

    @property
    def round_number(self) -> int | None:
        """The latest round's number: when a finding is found."""
        return self.rounds[-1].number if self.rounds else None

    @property
    def authenticated(self) -> bool:
        """Whether the shoe's cards were committed to (card authentication)."""
        return bool(self.committed)

    def key(self, *parts: object) -> str:
        """A finding's key within this shoe: ``shoe:<shoe_key>:<part>:<part>...``."""
        return ":".join(("shoe", self.shoe_key, *(str(p) for p in parts)))
