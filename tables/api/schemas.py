"""What the API reads and answers, as its OpenAPI schema documents it."""

from __future__ import annotations

from typing import Annotated

from ninja import Field, Schema
from pydantic import ConfigDict, StrictInt, StrictStr, StringConstraints

from ..game.authentication import PLAINTEXT_MAX
from ..game.cards import CODE_PATTERN
from .bodies import LARGEST_INTEGER

# --- Schemas ---------------------------------------------------------------------------


# A card code: validated by the rules core (its message names the card); the pattern
# tells clients and schema-driven tools what a code is.
CardCode = Annotated[StrictStr, StringConstraints(max_length=3), Field(json_schema_extra={"pattern": CODE_PATTERN})]
# Printable text: no control character (U+0000-U+001F, U+007F-U+009F); the rules core
# checks it (unpaired surrogates too), on every database alike.
PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
DealerName = Annotated[StrictStr, StringConstraints(max_length=80), Field(json_schema_extra={"pattern": PRINTABLE})]


# A card plaintext, checked by the rules core (its message says which part is wrong).
Plaintext = Annotated[
    StrictStr,
    StringConstraints(max_length=PLAINTEXT_MAX),
    Field(json_schema_extra={"pattern": "^[SHDC]-(1[0-3]|[1-9])-[A-Za-z0-9-]{16,}$"}),
]
PublicHash = Annotated[
    StrictStr, StringConstraints(max_length=128), Field(json_schema_extra={"pattern": "^[0-9a-fA-F]{128}$"})
]
MOST_CARDS = 16 * 52  # the largest shoe a table can have


class ShoeIn(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)

    commitments: list[PublicHash] | None = Field(
        None,
        max_length=MOST_CARDS,
        description=(
            "The Public Hash Value (SHA-512 hex of the card's plaintext) of every card, card 1 (the burn card "
            "turned over) first: exactly 52 x decks. Absent: a plain shoe."
        ),
    )


class BurnIn(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)

    plaintext: Plaintext | None = Field(None, description="Card 1's plaintext (an authenticated shoe).")
    card: CardCode | None = Field(None, description="Card 1 (a plain shoe), e.g. '3H'.")


class RevealIn(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)

    plaintexts: dict[str, Plaintext] = Field(
        max_length=MOST_CARDS, description='Card number -> plaintext, e.g. {"2": "S-12-..."}, for cards not revealed.'
    )


class RoundIn(Schema):
    """Strict: card codes are strings, the round number an integer (not ``true``, ``"9"``
    or ``9.0``), and nothing else is accepted."""

    model_config = ConfigDict(extra="forbid", strict=True)

    player: list[CardCode] = Field(
        min_length=2, max_length=3, description="Player's cards in dealing order, e.g. ['AH', '5S', 'KD']."
    )
    banker: list[CardCode] = Field(min_length=2, max_length=3, description="Banker's cards in dealing order.")
    round: StrictInt | None = Field(
        None, ge=1, le=LARGEST_INTEGER, description="Number of the round in the current shoe; the next when absent."
    )
    dealer: DealerName | None = Field(None, description="Dealer on the table now.")
    plaintexts: list[Plaintext] | None = Field(
        None,
        max_length=6,
        description=(
            "Authenticated shoe only (and required there): the plaintext of each card in dealing order "
            "(P1, B1, P2, B2, then P3, B3 when drawn)."
        ),
    )


class BetOut(Schema):
    result: str = Field(description="win, lose, push or unavailable")
    pays: float | None = Field(description="Net result per unit staked: odds on a win, -1 lost, 0 push.")


class NaturalOut(Schema):
    player: int | None
    banker: int | None


class RoundOut(Schema):
    id: str
    shoe: int
    number: int
    winner: str
    player_score: int
    banker_score: int
    player_cards: list[str]
    banker_cards: list[str]
    player_pair: bool
    banker_pair: bool
    perfect_pair: bool
    natural: NaturalOut
    bets: dict[str, BetOut]
    dealer: str
    created_at: str
    voided: bool
    void_reason: str


class RoundEnvelope(Schema):
    round: RoundOut


class ReceiptOut(RoundOut):
    table: str = Field(description="The slug of the table the round was played at.")


class ReceiptEnvelope(Schema):
    round: ReceiptOut


class BurnOut(Schema):
    card: str = Field(description="Card 1, turned over.")
    burned: int = Field(description="Cards burned after it: its baccarat value, 10 for a 0-value card.")
    next_card: int = Field(description="Number of the first card dealt to a round.")


class BurnEnvelope(Schema):
    burn: BurnOut


class ShoeOut(Schema):
    number: int
    state: str
    decks: int
    started_at: str
    ended_at: str | None
    authenticated: bool = Field(description="Every card committed by its SHA-512 before play.")
    cards: int
    commitment: str | None = Field(
        description="SHA-512 hex of the card hashes joined in card-number order, no separator; null for a plain shoe."
    )
    burn: BurnOut | None
    revealed: int = Field(description="Cards whose plaintext is revealed (authenticated shoes).")
    fully_verified: bool = Field(description="Every card revealed, each plaintext matching its public hash.")


class CardOut(Schema):
    number: int
    hash: str
    plaintext: str | None = Field(description="Null until the card is revealed.")
    state: str = Field(description="burn_card, burned, dealt or unused")
    round: int | None = Field(description="Number of the round the card was dealt to.")


class CardsOut(Schema):
    shoe: int
    authenticated: bool
    commitment: str | None = Field(description="Null for a plain shoe, which has no committed cards.")
    cards: list[CardOut]


class ShoeEnvelope(Schema):
    shoe: ShoeOut


class RoundsOut(Schema):
    table: str
    shoe: ShoeOut | None
    rounds: list[RoundOut]
