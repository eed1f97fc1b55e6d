"""Card authentication (seed 001, "Card Authentication Rules").

Before a shoe is played, the dealer system commits to every card of it: card number
*n* (its place in the dealing order, card 1 being the burn card turned over) has a
**Card Plaintext**, ``<suit>-<points>-<random>`` (e.g. ``H-3-uee9JLvM...``), and a
**Public Hash Value**, the lowercase hex SHA-512 of the plaintext's UTF-8 bytes. The
public hashes are disclosed when the shoe starts; a card's plaintext when the card is
revealed, so anyone can hash it and compare.

The random part is at least :data:`RANDOM_MIN` characters of ``[A-Za-z0-9-]``: with a
short one, anyone could hash the 52 possible cards and read the shoe ahead.

A shoe's **commitment** is the SHA-512 (lowercase hex) of its card hashes concatenated
in card-number order with no separator: ``sha512(hash_1 + hash_2 + ... + hash_N)``,
each hash as 128 lowercase hex characters, the whole as ASCII bytes. One value names
the whole shoe, so a player can note it and check any card list against it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import RANKS, Card, Suit
from .outcome import RoundOutcome
from .shoe import DECK_SIZE, burn_count
from .validation import FieldError

RANDOM_MIN = 16  # characters of the random part: below this a shoe could be read ahead
PLAINTEXT_MAX = 256  # characters of a whole plaintext (the seed's sample has 153)
HASH_LENGTH = 128  # hex characters of a SHA-512

_PLAINTEXT = re.compile(r"([SHDC])-(1[0-3]|[1-9])-([A-Za-z0-9-]+)")
_HASH = re.compile(r"[0-9a-f]{128}")


class PlaintextError(ValueError):
    """A card plaintext that is not ``<suit>-<points>-<random>``."""


def plaintext_card(plaintext: object) -> Card:
    """The card a plaintext names: ``"H-3-<random>"`` is the Three of Hearts.

    Suit ``S``, ``H``, ``D`` or ``C`` (upper case); points ``1``-``13`` for A, 2-10, J,
    Q, K (no leading zero); then at least :data:`RANDOM_MIN` characters of
    ``[A-Za-z0-9-]``, and at most :data:`PLAINTEXT_MAX` characters in all. Raises
    :class:`PlaintextError` saying which part is wrong.
    """
    if not isinstance(plaintext, str):
        raise PlaintextError("a plaintext is a string")
    if len(plaintext) > PLAINTEXT_MAX:
        raise PlaintextError(f"a plaintext has at most {PLAINTEXT_MAX} characters, this one {len(plaintext)}")
    match = _PLAINTEXT.fullmatch(plaintext)
    if match is None:
        raise PlaintextError(
            "expected '<suit>-<points>-<random>': suit S, H, D or C, points 1-13 (A, 2-10, J, Q, K), "
            "random of letters, digits and '-'"
        )
    suit, points, random = match.groups()
    if len(random) < RANDOM_MIN:
        raise PlaintextError(
            f"the random part has {len(random)} characters, at least {RANDOM_MIN} are needed "
            "(a shorter one lets anyone hash the 52 cards and read the shoe ahead)"
        )
    return Card(RANKS[int(points) - 1], Suit(suit))


def new_plaintext(card: Card, random: str | None = None) -> str:
    """A plaintext for ``card``: ``<suit>-<points>-<random>``, the random part 32
    URL-safe characters from :mod:`secrets` unless given (dealer systems and the
    simulator make their shoes with this)."""
    if random is None:
        random = secrets.token_urlsafe(24).replace("_", "-")  # [A-Za-z0-9-] only
    plaintext = f"{card.suit.value}-{RANKS.index(card.rank) + 1}-{random}"
    plaintext_card(plaintext)  # a given random part is checked like any other
    return plaintext


def card_hash(plaintext: str) -> str:
    """The Public Hash Value of a plaintext: lowercase hex SHA-512 of its UTF-8 bytes."""
    return hashlib.sha512(plaintext.encode("utf-8")).hexdigest()


def shoe_commitment(hashes: Sequence[str]) -> str:
    """SHA-512 (lowercase hex) of the card hashes concatenated in card-number order, with
    no separator; each hash is 128 lowercase hex characters (see the module's notes)."""
    return hashlib.sha512("".join(hashes).encode("ascii")).hexdigest()


def normal_hash(value: object) -> str | None:
    """A Public Hash Value as stored (lower case), or None when it is not 128 hex
    characters. Upper case is accepted on input."""
    if not isinstance(value, str) or len(value) != HASH_LENGTH or not value.isascii():
        return None
    lowered = value.lower()
    return lowered if _HASH.fullmatch(lowered) else None


class CommitmentError(ValueError):
    """A list of card hashes that cannot start a shoe; ``error`` names the field."""

    def __init__(self, error: FieldError) -> None:
        super().__init__(f"{error.field}: {error.message}")
        self.error = error


def validate_commitments(values: Sequence[object], *, decks: int) -> tuple[str, ...]:
    """The card hashes of a new shoe of ``decks`` decks, lower-cased, in card-number
    order: exactly 52 x ``decks``, each 128 hex characters, no two alike. Raises
    :class:`CommitmentError` for the first one that is wrong (``commitments[17]``)."""
    expected = DECK_SIZE * decks
    if len(values) != expected:
        raise CommitmentError(
            FieldError(
                "commitments",
                f"a shoe of {decks} deck{'s' if decks != 1 else ''} has {expected} cards: "
                f"expected {expected} hashes, got {len(values)}",
            )
        )
    seen: dict[str, int] = {}
    hashes = []
    for index, value in enumerate(values):
        field = f"commitments[{index}]"
        hashed = normal_hash(value)
        if hashed is None:
            raise CommitmentError(FieldError(field, "expected a SHA-512 as 128 hexadecimal characters"))
        if hashed in seen:
            raise CommitmentError(FieldError(field, f"the same hash as commitments[{seen[hashed]}]"))
        seen[hashed] = index
        hashes.append(hashed)
    return tuple(hashes)


@dataclass(frozen=True, slots=True)
class Burn:
    """The start of a shoe (seeds 000/001/002): card 1 is turned over, and the next
    cards are burned by its baccarat value, 10 for a 10 or a face card."""

    card: Card
    burned: int
    next_card: int  # the number of the first card dealt to a round

    @classmethod
    def of(cls, card: Card) -> Burn:
        """The burn card 1 ``card`` calls for: it burns its value, 10 for a 0-value card."""
        burned = burn_count(card)
        return cls(card, burned, 2 + burned)

    @property
    def burned_numbers(self) -> range:
        """The numbers of the cards burned face down: 2 up to the first card of the first round."""
        return range(2, self.next_card)


def dealing_order(outcome: RoundOutcome) -> tuple[tuple[str, Card], ...]:
    """The round's cards in the order they left the shoe, each with its field: P1, B1,
    P2, B2, then P3 and B3 when drawn (``player[0]``, ``banker[0]``, ...)."""
    order = [("player", 0), ("banker", 0), ("player", 1), ("banker", 1), ("player", 2), ("banker", 2)]
    hands = {"player": outcome.player_cards, "banker": outcome.banker_cards}
    return tuple((f"{side}[{i}]", hands[side][i]) for side, i in order if i < len(hands[side]))


@dataclass(frozen=True, slots=True)
class PlaintextProblem:
    """A refused plaintext of a round: the error the dealer system gets, and the reason
    reviewers see, which never names a card (a refused plaintext may be another card's,
    not yet revealed)."""

    error: FieldError
    index: int | None  # the plaintext's place in the list; None when the count is wrong
    reviewer_reason: str


def plaintext_errors(plaintexts: Sequence[object], outcome: RoundOutcome) -> list[PlaintextProblem]:
    """What is wrong with a round's plaintexts before their hashes are looked at: one
    per card in dealing order, each well formed and naming the card reported there."""
    order = dealing_order(outcome)
    if len(plaintexts) != len(order):
        message = (
            f"expected {len(order)} plaintexts, one per card in dealing order (P1, B1, P2, B2, then P3, B3 "
            f"when drawn), got {len(plaintexts)}"
        )
        return [PlaintextProblem(FieldError("plaintexts", message), None, message)]
    problems = []
    for index, (plaintext, (field, card)) in enumerate(zip(plaintexts, order, strict=True)):
        try:
            named = plaintext_card(plaintext)
        except PlaintextError as error:
            problems.append(PlaintextProblem(FieldError(f"plaintexts[{index}]", str(error)), index, str(error)))
            continue
        if named != card:
            message = f"names {named.code} but {field} is {card.code}"
            reason = f"does not name the card reported at {field}"
            problems.append(PlaintextProblem(FieldError(f"plaintexts[{index}]", message), index, reason))
    return problems


def hash_mismatch(field: str, number: int) -> FieldError:
    """The error for a plaintext that does not hash to card ``number``'s Public Hash Value."""
    return FieldError(field, f"does not match the public hash of card {number}")
