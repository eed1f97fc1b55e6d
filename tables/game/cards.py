"""Cards and their baccarat values.

A card code is rank then suit: ``AH``, ``TS`` (or ``10S``), ``KD``, ``9C``. Parsing
accepts ``10`` for ``T`` and any letter case of ASCII letters, and nothing else: no
surrounding spaces, and no letter that only upper-cases to one (``"9\\u017f"``: the
long s, upper-cases to ``S``); canonical codes always use ``T``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Suit(enum.Enum):
    """A card's suit; the value is the letter of its code (``"H"`` in ``"AH"``)."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The suit as printed on a card: ♠ ♥ ♦ ♣."""
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """Whether the suit is printed red: hearts and diamonds."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


class InvalidCardError(ValueError):
    """A card code that names no card."""

    def __init__(self, code: object) -> None:
        super().__init__(
            f"unknown card {code!r}: expected a rank (A, 2-9, T or 10, J, Q, K) "
            "followed by a suit (S, H, D, C), e.g. 'AH', 'TS', '10S'"
        )
        self.code = code


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card; ``rank`` is one of :data:`RANKS`."""

    rank: str
    suit: Suit

    @classmethod
    def parse(cls, code: object) -> Card:
        """Parse a card code such as ``"AH"``, ``"10s"`` or ``"kd"``."""
        if not isinstance(code, str) or not 2 <= len(code) <= 3 or not code.isascii():
            raise InvalidCardError(code)
        text = code.upper()
        rank, suit_letter = text[:-1], text[-1:]
        if rank == "10":
            rank = "T"
        if rank not in RANKS or suit_letter not in "SHDC" or not suit_letter:
            raise InvalidCardError(code)
        return cls(rank, Suit(suit_letter))

    @property
    def code(self) -> str:
        """Canonical two-character code, e.g. ``"TS"``."""
        return self.rank + self.suit.value

    @property
    def value(self) -> int:
        """Baccarat value: A=1, 2-9 pip, T/J/Q/K=0."""
        return _VALUES[self.rank]

    @property
    def label(self) -> str:
        """Human label with a suit symbol, e.g. ``"10♠"``."""
        return ("10" if self.rank == "T" else self.rank) + self.suit.symbol

    def __str__(self) -> str:
        return self.code


# The same rule for JSON Schema (the API's OpenAPI schema), which matches it in any case.
CODE_PATTERN = "^([2-9AaTtJjQqKk]|10)[SsHhDdCc]$"

_VALUES = {rank: min(index + 1, 10) % 10 for index, rank in enumerate(RANKS)}

ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in RANKS)


def hand_score(cards: tuple[Card, ...] | list[Card]) -> int:
    """The right digit of the total of the cards' values."""
    return sum(card.value for card in cards) % 10


def pack_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    """Packed canonical codes, e.g. ``"AH5SKD"``, as stored in the database."""
    return "".join(card.code for card in cards)


_BY_CODE: dict[str, Card] = {card.code: card for card in ALL_CARDS}


def unpack_cards(packed: str) -> tuple[Card, ...]:
    """The inverse of :func:`pack_cards`. Stored codes are canonical, so a lookup does
    (pages unpack every round of a shoe); anything else is parsed, and refused."""
    return tuple(_BY_CODE.get(packed[i : i + 2]) or Card.parse(packed[i : i + 2]) for i in range(0, len(packed), 2))
