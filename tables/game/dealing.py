"""Dealing a round by the drawing rules: from a card source at once (:func:`deal_round`),
or card by card as a card-reading shoe reports them (:class:`Deal`)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .cards import Card, hand_score
from .outcome import RoundOutcome
from .rules import banker_draws, is_natural, player_draws


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


class Side(enum.Enum):
    """Whose card it is: the value is the API's word."""

    PLAYER = "player"
    BANKER = "banker"


class Call(enum.Enum):
    """What the rules decided at the latest point of a round: what a screen says beside
    the cards ("Player draws", "Banker stands"). The value is the key a template reads."""

    NATURAL = "natural"  # a natural on either side: both stand
    PLAYER_DRAWS = "player_draws"
    PLAYER_STANDS = "player_stands"
    BANKER_DRAWS = "banker_draws"
    BANKER_STANDS = "banker_stands"


class CardNotCalledError(ValueError):
    """A card the rules do not call for: the round is over, or the card is the other
    side's. The message says why, in the rules' words."""

    def __init__(self, message: str, *, field: str = "card") -> None:
        super().__init__(message)
        self.field = field


# Dealing order of the first four cards: P1, B1, P2, B2.
FIRST_FOUR = (Side.PLAYER, Side.BANKER, Side.PLAYER, Side.BANKER)
MOST_CARDS = 6


@dataclass(frozen=True, slots=True)
class Deal:
    """A round as far as it has been dealt, card by card from the shoe: its cards in
    dealing order (1 P1, 2 B1, 3 P2, 4 B2, 5 the first third card, 6 the second). The
    drawing rules say whose the next card is, and when the round is over."""

    cards: tuple[Card, ...] = ()

    @property
    def sides(self) -> tuple[Side, ...]:
        """Whose each card is, in dealing order."""
        sides = list(FIRST_FOUR[: len(self.cards)])
        if len(self.cards) >= 5:
            sides.append(self._fifth_side())
        if len(self.cards) == 6:
            sides.append(Side.BANKER)
        return tuple(sides)

    @property
    def player(self) -> tuple[Card, ...]:
        """The player's hand so far."""
        return tuple(card for card, side in zip(self.cards, self.sides, strict=True) if side is Side.PLAYER)

    @property
    def banker(self) -> tuple[Card, ...]:
        """The banker's hand so far."""
        return tuple(card for card, side in zip(self.cards, self.sides, strict=True) if side is Side.BANKER)

    @property
    def next_side(self) -> Side | None:
        """Whose the next card is; None once the rules say the round is over."""
        dealt = len(self.cards)
        if dealt < 4:
            return FIRST_FOUR[dealt]
        player_score, banker_score = self._two_card_scores()
        player_drew = player_draws(player_score, banker_score)
        if dealt == 4:
            if player_drew:
                return Side.PLAYER
            return Side.BANKER if banker_draws(player_score, banker_score, None) else None
        if dealt == 5 and player_drew and banker_draws(player_score, banker_score, self.cards[4].value):
            return Side.BANKER
        return None

    @property
    def complete(self) -> bool:
        """Whether the rules say the round is over."""
        return len(self.cards) >= 4 and self.next_side is None

    @property
    def calls(self) -> tuple[Call, ...]:
        """What the rules decided so far, once both hands have two cards: a natural, or
        the player's draw or stand, then the banker's."""
        if len(self.cards) < 4:
            return ()
        player_score, banker_score = self._two_card_scores()
        if is_natural(player_score) or is_natural(banker_score):
            return (Call.NATURAL,)
        if player_draws(player_score, banker_score):
            if len(self.cards) == 4:
                return (Call.PLAYER_DRAWS,)
            banker = banker_draws(player_score, banker_score, self.cards[4].value)
            return (Call.PLAYER_DRAWS, Call.BANKER_DRAWS if banker else Call.BANKER_STANDS)
        banker = banker_draws(player_score, banker_score, None)
        return (Call.PLAYER_STANDS, Call.BANKER_DRAWS if banker else Call.BANKER_STANDS)

    def add(self, card: Card, side: Side | None = None) -> Deal:
        """The round with ``card`` dealt next; ``side``, when given, is whose the dealer
        system says it is. Raises :class:`CardNotCalledError` for a card the rules do not
        call for."""
        expected = self.next_side
        if expected is None:
            raise CardNotCalledError(f"the round is over: {self.why_over()}")
        if side is not None and side is not expected:
            raise CardNotCalledError(f"the next card is the {expected.value}'s: {self._why_next()}", field="side")
        return Deal((*self.cards, card))

    def outcome(self) -> RoundOutcome:
        """The round's outcome, once complete."""
        if not self.complete:
            raise ValueError("the round is not complete")
        return RoundOutcome.of(self.player, self.banker)

    def upto(self, count: int) -> Deal:
        """The round as it was after its first ``count`` cards."""
        return Deal(self.cards[:count])

    def why_over(self) -> str:
        """Why no card comes after this complete round, in the rules' words."""
        player_score, banker_score = self._two_card_scores()
        if is_natural(player_score) or is_natural(banker_score):
            side, score = ("player", player_score) if is_natural(player_score) else ("banker", banker_score)
            return f"both stand, {side} has a natural {score}"
        if len(self.cards) == 6:
            return "both hands have three cards"
        if len(self.cards) == 5 and self.sides[4] is Side.BANKER:
            return f"player stood on {player_score} and banker drew"
        if len(self.cards) == 5:
            return f"banker stands on {banker_score} when the player's third card is {self.cards[4].value}"
        return f"player stands on {player_score} and banker stands on {banker_score}"

    def _why_next(self) -> str:
        dealt = len(self.cards)
        if dealt < 4:
            return f"cards are dealt player, banker, player, banker ({dealt} dealt)"
        player_score, banker_score = self._two_card_scores()
        if dealt == 4 and self.next_side is Side.PLAYER:
            return f"player draws on {player_score}"
        if dealt == 4:
            return f"player stands on {player_score}, banker draws on {banker_score}"
        return f"banker draws on {banker_score} when the player's third card is {self.cards[4].value}"

    def _two_card_scores(self) -> tuple[int, int]:
        return hand_score(self.cards[0:3:2]), hand_score(self.cards[1:4:2])

    def _fifth_side(self) -> Side:
        player_score, banker_score = self._two_card_scores()
        return Side.PLAYER if player_draws(player_score, banker_score) else Side.BANKER


def deal_of(outcome: RoundOutcome) -> Deal:
    """A complete round's cards in dealing order: P1, B1, P2, B2, then P3 and B3 as drawn."""
    player, banker = outcome.player_cards, outcome.banker_cards
    return Deal((player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]))
