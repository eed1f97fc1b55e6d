"""What the API reads and answers, as its OpenAPI schema documents it."""

from __future__ import annotations

from typing import Annotated, Literal

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


class CardIn(Schema):
    """One card as it leaves a card-reading shoe. Strict, as a whole round is."""

    model_config = ConfigDict(extra="forbid", strict=True)

    card: CardCode | None = Field(None, description="The card, e.g. '9H' (with `plaintext`, the card it names).")
    plaintext: Plaintext | None = Field(
        None,
        description="Authenticated shoe only (and required there): the card's plaintext, in place of or beside `card`.",
    )
    round: StrictInt | None = Field(
        None,
        ge=1,
        le=LARGEST_INTEGER,
        description="Number of the round in the current shoe; the round being dealt when absent.",
    )
    index: StrictInt | None = Field(
        None,
        ge=1,
        le=6,
        description=(
            "The card's place in the round's dealing order: 1 P1, 2 B1, 3 P2, 4 B2, 5 the first third card, "
            "6 the second; the next place when absent. Send it (with `round`) and a retry is always safe."
        ),
    )
    side: Literal["player", "banker"] | None = Field(
        None, description="Whose card the dealer system says it is: refused (422) when the rules say otherwise."
    )
    dealer: DealerName | None = Field(None, description="Dealer on the table now.")
    deal: StrictInt | None = Field(
        None,
        ge=1,
        le=LARGEST_INTEGER,
        description=(
            "Which deal of the round this card belongs to: 1, then 2 once the round was cancelled and dealt again "
            "(a cancel answers `next_deal`). Send it and a late retry of a cancelled deal's card is refused (409 "
            "naming `deal`) instead of starting the new deal with it."
        ),
    )


class CancelIn(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)

    reason: Annotated[StrictStr, StringConstraints(max_length=500), Field(json_schema_extra={"pattern": PRINTABLE})] = (
        Field(description="Why the round is cancelled (a misdeal, a card dropped): kept with the cancel.")
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


class ProgressOut(Schema):
    """A round being dealt, as far as it has gone."""

    shoe: int
    number: int
    complete: bool = Field(description="False: more cards to come.")
    next: str = Field(description="Whose the next card is: player or banker.")
    player: list[str] = Field(description="Player's cards so far, in dealing order.")
    banker: list[str]
    player_score: int | None = Field(description="The hand's running score; null before its first card.")
    banker_score: int | None
    cards: int = Field(description="Cards dealt so far: the next card's index is one more.")
    calls: list[str] = Field(
        description=(
            "What the rules decided once both hands have two cards: natural, player_draws or player_stands, "
            "then banker_draws or banker_stands."
        )
    )
    dealer: str


class CompleteOut(RoundOut):
    """The round its last card completed: the recorded round, as a whole-round post answers it."""

    complete: bool = Field(description="True: the round is recorded.")
    next: None = Field(description="No card comes after a complete round.")
    player: list[str]
    banker: list[str]


class DealEnvelope(Schema):
    round: CompleteOut | ProgressOut


class ProgressEnvelope(Schema):
    round: ProgressOut


class CancelOut(Schema):
    shoe: int
    number: int = Field(description="Number the round would have had: the next round takes it.")
    cards: list[str] = Field(description="The cards it had, in dealing order: they count as not dealt.")
    reason: str
    at: str
    next_deal: int = Field(description="The deal the round's number is dealt again as: send it as a card's `deal`.")


class CancelEnvelope(Schema):
    cancelled: CancelOut


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
