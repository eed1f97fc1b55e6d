"""Card authentication's writes (seed 001): the plaintexts a burn, a round or a reveal
carries, each checked against its card's Public Hash Value, and what was refused, kept
for reviewers once the refusing transaction has rolled back."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from typing import NoReturn

from django.db import transaction
from django.utils import timezone

from .. import live
from ..errors import ShoeConflictError, ShoeNotFoundError
from ..game.authentication import PlaintextError, card_hash, hash_mismatch, plaintext_card, plaintext_errors
from ..game.cards import Card, InvalidCardError
from ..game.outcome import RoundOutcome
from ..game.validation import FieldError, IllegalRoundError
from ..models import PlaintextRefusal, Shoe, ShoeCard, Table, dealer_day_add
from ..operations.metrics import CARD_REFUSALS


@dataclass(frozen=True)
class Refusal:
    """A plaintext refused, as reviewers see it: never the text (it may be another
    card's plaintext, not yet revealed), nor the card it names."""

    field: str
    reason: str
    text: object
    card_number: int | None = None


class PlaintextRefusedError(IllegalRoundError):
    """An :class:`IllegalRoundError` about plaintexts: what it refused is recorded for
    reviewers once the refusing transaction has rolled back."""

    def __init__(
        self, errors: list[FieldError], refusals: list[Refusal], *, shoe_pk: int, round_number: int | None
    ) -> None:
        super().__init__(errors)
        self.refusals, self.shoe_pk, self.round_number = refusals, shoe_pk, round_number


def burn_plaintext_card(shoe: Shoe, plaintext: object, card: object) -> Card:
    """The card an authenticated shoe's burn plaintext names, once it matches card 1."""
    if plaintext is None:
        raise IllegalRoundError(
            [FieldError("plaintext", f"shoe {shoe.number} is authenticated: send card 1's plaintext")]
        )
    try:
        turned = plaintext_card(plaintext)
    except PlaintextError as error:
        refuse([FieldError("plaintext", str(error))], shoe, [Refusal("plaintext", str(error), plaintext, 1)])
    if card is not None and _parsed(card) != turned:
        raise IllegalRoundError([FieldError("card", f"the plaintext names {turned.code}, not {card}")])
    first = ShoeCard.objects.get(shoe=shoe, number=1)
    if card_hash(str(plaintext)) != first.hash:
        mismatch = hash_mismatch("plaintext", 1)
        refuse([mismatch], shoe, [Refusal("plaintext", mismatch.message, plaintext, 1)])
    return turned


def _parsed(card: object) -> Card | None:
    try:
        return Card.parse(card)
    except InvalidCardError:
        return None


def not_authenticated(shoe: Shoe) -> str:
    return f"shoe {shoe.number} is not authenticated: it takes no plaintexts"


def refuse(errors: list[FieldError], shoe: Shoe, refusals: list[Refusal], round_number: int | None = None) -> NoReturn:
    raise PlaintextRefusedError(errors, refusals, shoe_pk=shoe.pk, round_number=round_number) from None


@dataclass(frozen=True)
class RefusalsCounted:
    """Whose day the refusals were counted on (its table, its dealer as named now)."""

    table_id: int
    dealer: str
    day: date


def record_refusals(refused: PlaintextRefusedError) -> RefusalsCounted:
    """Keep what a write refused, for reviewers, once its transaction has rolled back
    (the refusal is kept; the write is not), and count it on the day of the table's
    dealer, in one transaction with the refusals kept."""
    CARD_REFUSALS.inc(len(refused.refusals))
    table_id, dealer = Shoe.objects.filter(pk=refused.shoe_pk).values_list("table_id", "table__dealer_name").get()
    day = timezone.localdate(timezone.now(), timezone.get_default_timezone())  # as shoe days count a day
    with transaction.atomic():
        dealer_day_add(table_id=table_id, dealer_name=dealer, day=day, auth_refusals=len(refused.refusals))
        _refusals_keep(refused)
    return RefusalsCounted(table_id, dealer, day)


def _refusals_keep(refused: PlaintextRefusedError) -> None:
    PlaintextRefusal.objects.bulk_create(
        [
            PlaintextRefusal(
                shoe_id=refused.shoe_pk,
                field=r.field[:40],
                round_number=refused.round_number,
                card_number=r.card_number,
                reason=r.reason[:300],
                digest=_digest(r.text),
            )
            for r in refused.refusals
        ]
    )


def _digest(text: object) -> str:
    if not isinstance(text, str):
        return ""
    return hashlib.sha512(text.encode("utf-8", "surrogatepass")).hexdigest()  # JSON can carry a lone surrogate


def shoe_reveal(*, table: Table, number: int, plaintexts: dict[str, object]) -> Shoe:
    """Reveal the cards of an ended authenticated shoe that no round revealed (the
    burned ones, and every card left after the last round): ``plaintexts`` maps card
    numbers ("2") to plaintexts, each verified against its card's public hash. All or
    nothing: one refused plaintext refuses the whole request (kept for reviewers). A card
    already revealed with the same plaintext is left as it is, so a retry is harmless.
    Once every card is revealed the shoe is fully verified."""
    try:
        return _reveal(table=table, number=number, plaintexts=plaintexts)
    except PlaintextRefusedError as refused:
        record_refusals(refused)
        raise


def _reveal(*, table: Table, number: int, plaintexts: dict[str, object]) -> Shoe:
    with transaction.atomic():
        shoe = Shoe.objects.select_for_update().filter(table=table, number=number).first()
        if shoe is None:
            raise ShoeNotFoundError(f"table {table.slug!r} has no shoe {number}")
        if not shoe.authenticated:
            raise ShoeConflictError(f"shoe {shoe.number} is not authenticated: it has no cards to reveal")
        if shoe.state == Shoe.State.OPEN:
            raise ShoeConflictError(
                f"shoe {shoe.number} is still open: end it first (POST .../shoes/current/end, or start the next shoe)"
            )
        if not plaintexts:
            raise IllegalRoundError([FieldError("plaintexts", 'name at least one card: {"2": "<plaintext>"}')])
        numbers: dict[int, str] = {}
        for key in plaintexts:
            if not (
                len(key) <= 5
                and key.isascii()
                and key.isdigit()
                and not key.startswith("0")
                and int(key) <= shoe.card_count
            ):
                message = (
                    f"{key[:20]!r} is not a card number of shoe {shoe.number}: they run from 1 to {shoe.card_count}"
                )
                raise IllegalRoundError([FieldError(f"plaintexts.{key[:20]}", message)])
            numbers[int(key)] = key
        cards = list(ShoeCard.objects.filter(shoe=shoe, number__in=numbers).order_by("number"))
        errors, refusals, revealing = [], [], []
        for card in cards:
            field, text = f"plaintexts.{numbers[card.number]}", plaintexts[numbers[card.number]]
            if card.plaintext and text == card.plaintext:
                continue  # revealed already, with this very plaintext
            try:
                plaintext_card(text)
                reason = None if card_hash(str(text)) == card.hash else hash_mismatch(field, card.number).message
            except PlaintextError as error:
                reason = str(error)
            if reason is not None:
                errors.append(FieldError(field, reason))
                refusals.append(Refusal(field, reason, text, card.number))
            else:
                card.plaintext = str(text)
                revealing.append(card)
        if errors:
            refuse(errors, shoe, refusals)
        ShoeCard.objects.bulk_update(revealing, ["plaintext"], batch_size=500)
        shoe.revealed += len(revealing)
        shoe.save(update_fields=["revealed"])
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
    return shoe


def round_cards(
    shoe: Shoe, outcome: RoundOutcome, plaintexts: list[object] | None, round_number: int
) -> list[ShoeCard]:
    """The committed cards a round of an authenticated shoe takes (the shoe's next ones,
    in dealing order), once each of its plaintexts names the card reported at its place
    and hashes to its card's public hash."""
    if plaintexts is None:
        message = (
            f"shoe {shoe.number} is authenticated: send the plaintext of every card of the round, in dealing order"
        )
        raise IllegalRoundError([FieldError("plaintexts", message)])
    problems = plaintext_errors(plaintexts, outcome)
    if problems:
        refusals = [
            Refusal(p.error.field, p.reviewer_reason, plaintexts[p.index] if p.index is not None else None)
            for p in problems
        ]
        refuse([p.error for p in problems], shoe, refusals, round_number)
    numbers = range(shoe.next_card, shoe.next_card + len(plaintexts))
    if numbers.stop - 1 > shoe.card_count:
        message = (
            f"the round needs cards {numbers.start}-{numbers.stop - 1}, and shoe {shoe.number} has {shoe.card_count}"
        )
        raise IllegalRoundError([FieldError("plaintexts", message)])
    cards = list(ShoeCard.objects.filter(shoe=shoe, number__in=numbers).order_by("number"))
    mismatched = [(index, card) for index, card in enumerate(cards) if card_hash(str(plaintexts[index])) != card.hash]
    if mismatched:
        errors = [hash_mismatch(f"plaintexts[{index}]", card.number) for index, card in mismatched]
        refusals = [
            Refusal(e.field, e.message, plaintexts[index], card.number)
            for e, (index, card) in zip(errors, mismatched, strict=True)
        ]
        refuse(errors, shoe, refusals, round_number)
    return cards


def dealt_plaintext_card(
    shoe: Shoe, plaintext: object, card: Card | None, *, card_number: int, round_number: int
) -> Card:
    """The card an authenticated shoe's next card is, dealt on its own (a card-reading
    shoe): its ``plaintext`` names it (and names ``card``, when the dealer system sent the
    code too) and hashes to card ``card_number``'s public hash."""
    if plaintext is None:
        raise IllegalRoundError(
            [FieldError("plaintext", f"shoe {shoe.number} is authenticated: send the card's plaintext")]
        )
    try:
        named = plaintext_card(plaintext)
    except PlaintextError as error:
        refuse([FieldError("plaintext", str(error))], shoe, [Refusal("plaintext", str(error), plaintext)], round_number)
    if card is not None and named != card:
        message = f"names {named.code} but the card sent is {card.code}"
        refusal = Refusal("plaintext", "does not name the card sent beside it", plaintext, card_number)
        refuse([FieldError("plaintext", message)], shoe, [refusal], round_number)
    if card_number > shoe.card_count:
        message = f"the round needs card {card_number}, and shoe {shoe.number} has {shoe.card_count}"
        raise IllegalRoundError([FieldError("plaintext", message)])
    if card_hash(str(plaintext)) != ShoeCard.objects.values_list("hash", flat=True).get(shoe=shoe, number=card_number):
        mismatch = hash_mismatch("plaintext", card_number)
        refuse([mismatch], shoe, [Refusal("plaintext", mismatch.message, plaintext, card_number)], round_number)
    return named


def cancelled_cards_burn(shoe: Shoe, plaintexts: list[str]) -> None:
    """The committed cards of a round cancelled on an authenticated shoe: they left the
    shoe (their plaintexts were checked as they came) and the committed order cannot go
    back, so they are kept as burned, revealed, and the shoe's next card moves past them."""
    numbers = range(shoe.next_card, shoe.next_card + len(plaintexts))
    cards = list(ShoeCard.objects.filter(shoe=shoe, number__in=numbers).order_by("number"))
    for card_row, plaintext in zip(cards, plaintexts, strict=True):
        card_row.plaintext, card_row.state = plaintext, ShoeCard.State.BURNED
    ShoeCard.objects.bulk_update(cards, ["plaintext", "state"])
    Shoe.objects.filter(pk=shoe.pk).update(next_card=numbers.stop, revealed=shoe.revealed + len(cards))
