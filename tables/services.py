"""Writes. Every writer (ingest API, admin, simulator, commands) calls these."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from . import live
from .background.odds import round_odds_queue
from .game.authentication import (
    Burn,
    CommitmentError,
    PlaintextError,
    card_hash,
    hash_mismatch,
    plaintext_card,
    plaintext_errors,
    shoe_commitment,
    validate_commitments,
)
from .game.bets import results_to_data, settle_bets
from .game.cards import Card, InvalidCardError, pack_cards
from .game.outcome import RoundOutcome
from .game.validation import FieldError, IllegalRoundError, check_name, check_shoe_counts, validate_round
from .models import PlaintextRefusal, Round, RoundAudit, Shoe, ShoeCard, Table, token_digest


class ServiceError(Exception):
    """A request a service refuses, and changes nothing for: the API answers it with
    ``status`` and an error naming ``field`` (the one place errors are mapped)."""

    status = 400
    default_field: str | None = None

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field if field is not None else self.default_field


class NoOpenShoeError(ServiceError):
    """The table has no open shoe to record a round into, or to end."""

    status = 409


class RoundConflictError(ServiceError):
    """The round number is not the next one, or it was recorded with other cards."""

    status, default_field = 409, "round"


class ShoeNotFoundError(ServiceError):
    """No shoe of the table has that number."""

    status = 404


class ShoeConflictError(ServiceError):
    """The shoe is not in the state the request needs (a round before the burn of an
    authenticated shoe, a second burn, a reveal while the shoe is open)."""

    status = 409


class RoundAlreadyVoidedError(ServiceError):
    """The round was voided already (by someone else, meanwhile)."""

    status = 409


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


_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _new_round_id() -> str:
    """16 characters: 10 of milliseconds since the epoch (so IDs sort by time) and 6
    random ones, in Crockford's base32 (no I, L, O, U to misread in a dispute)."""
    value = (time.time_ns() // 1_000_000) << 30 | secrets.randbits(30)
    chars = []
    for _ in range(16):
        value, digit = divmod(value, 32)
        chars.append(_CROCKFORD[digit])
    return "".join(reversed(chars))


def table_create(
    *,
    slug: str,
    name: str,
    variant: str = "standard",
    decks: int = 8,
    cut_card_rule: str = "play_one_more",
    dealer_name: str = "",
    simulated: bool = False,
) -> tuple[Table, str]:
    """Create a table; returns it with its ingest token (shown once, stored hashed)."""
    table = Table(
        slug=slug,
        name=name,
        variant=variant,
        decks=decks,
        cut_card_rule=cut_card_rule,
        dealer_name=dealer_name,
        simulated=simulated,
    )
    table.full_clean()
    token = secrets.token_urlsafe(32)
    table.token_hash = token_digest(token)
    table.save()
    return table, token


def table_token_rotate(*, table: Table) -> str:
    """Give the table a new ingest token; the old one stops working at once."""
    token = secrets.token_urlsafe(32)
    Table.objects.filter(pk=table.pk).update(token_hash=token_digest(token))
    table.token_hash = token_digest(token)
    return token


def shoe_start(*, table: Table, commitments: Sequence[object] | None = None) -> Shoe:
    """End the table's open shoe, if any, and open the next one.

    With ``commitments`` (the Public Hash Value of every card, card 1 first) the shoe is
    authenticated: exactly 52 x decks hashes, no two alike, or
    :class:`~tables.game.validation.IllegalRoundError` naming the first bad one
    (``commitments[17]``), and no shoe starts."""
    hashes = None
    if commitments is not None:
        try:
            hashes = validate_commitments(commitments, decks=table.decks)
        except CommitmentError as error:
            raise IllegalRoundError([error.error]) from None
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()  # serialise shoe changes
        now = timezone.now()
        Shoe.objects.filter(table=table, state=Shoe.State.OPEN).update(state=Shoe.State.CLOSED, ended_at=now)
        last = Shoe.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0
        shoe = Shoe.objects.create(
            table=table,
            number=last + 1,
            decks=table.decks,
            started_at=now,
            authenticated=hashes is not None,
            commitment=shoe_commitment(hashes) if hashes else "",
            card_count=len(hashes) if hashes else 0,
        )
        if hashes:
            ShoeCard.objects.bulk_create(
                [ShoeCard(shoe=shoe, number=i, hash=h) for i, h in enumerate(hashes, start=1)], batch_size=500
            )
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
    return shoe


def shoe_end(*, table: Table) -> Shoe:
    """End the table's open shoe (its last round is played), so its remaining cards can
    be revealed; the table has no open shoe until the next starts. Raises
    :class:`NoOpenShoeError`."""
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()  # serialise shoe changes
        shoe = Shoe.objects.filter(table=table, state=Shoe.State.OPEN).first()
        if shoe is None:
            raise NoOpenShoeError(f"table {table.slug} has no open shoe to end")
        shoe.state, shoe.ended_at = Shoe.State.CLOSED, timezone.now()
        shoe.save(update_fields=["state", "ended_at"])
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
    return shoe


@dataclass(frozen=True)
class BurnDone:
    shoe: Shoe
    burn: Burn
    created: bool  # False when an identical retry matched the burn already made


def shoe_burn(*, table: Table, plaintext: object = None, card: object = None) -> BurnDone:
    """Turn over card 1 of the open shoe and burn the next cards by its value (seeds
    000/001/002). An authenticated shoe takes card 1's ``plaintext`` (verified against
    its public hash); a plain shoe takes the ``card``. The burn comes before the first
    round, once; an identical retry answers the same burn (``created=False``)."""
    try:
        return _burn(table=table, plaintext=plaintext, card=card)
    except PlaintextRefusedError as refused:
        _record_refusals(refused)
        raise


def _burn(*, table: Table, plaintext: object, card: object) -> BurnDone:
    with transaction.atomic():
        shoe = _open_shoe_locked(table)
        if shoe.authenticated:
            turned = _burn_plaintext_card(shoe, plaintext, card)
        else:
            if plaintext is not None:
                raise IllegalRoundError([FieldError("plaintext", _not_authenticated(shoe))])
            try:
                turned = Card.parse(card)
            except InvalidCardError as error:
                raise IllegalRoundError([FieldError("card", str(error))]) from None
        burn = Burn.of(turned)
        if shoe.burn_card:
            if shoe.burn_card == turned.code:
                return BurnDone(shoe, burn, created=False)
            raise ShoeConflictError(f"shoe {shoe.number} burned already: card 1 was {shoe.burn_card}", "card")
        if shoe.last_number:
            raise ShoeConflictError(f"the burn comes before the first round: shoe {shoe.number} has rounds")
        if shoe.authenticated:
            if burn.next_card > shoe.card_count + 1:
                raise ShoeConflictError(f"shoe {shoe.number} has too few cards to burn {burn.burned}")
            cards = ShoeCard.objects.filter(shoe=shoe)
            cards.filter(number=1).update(state=ShoeCard.State.BURN_CARD, plaintext=plaintext)
            cards.filter(number__in=burn.burned_numbers).update(state=ShoeCard.State.BURNED)
            shoe.next_card, shoe.revealed = burn.next_card, shoe.revealed + 1
        shoe.burn_card, shoe.burned = turned.code, burn.burned
        shoe.save(update_fields=["burn_card", "burned", "next_card", "revealed"])
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
    return BurnDone(shoe, burn, created=True)


def _burn_plaintext_card(shoe: Shoe, plaintext: object, card: object) -> Card:
    """The card an authenticated shoe's burn plaintext names, once it matches card 1."""
    if plaintext is None:
        raise IllegalRoundError(
            [FieldError("plaintext", f"shoe {shoe.number} is authenticated: send card 1's plaintext")]
        )
    try:
        turned = plaintext_card(plaintext)
    except PlaintextError as error:
        _refuse([FieldError("plaintext", str(error))], shoe, [Refusal("plaintext", str(error), plaintext, 1)])
    if card is not None and _parsed(card) != turned:
        raise IllegalRoundError([FieldError("card", f"the plaintext names {turned.code}, not {card}")])
    first = ShoeCard.objects.get(shoe=shoe, number=1)
    if card_hash(str(plaintext)) != first.hash:
        mismatch = hash_mismatch("plaintext", 1)
        _refuse([mismatch], shoe, [Refusal("plaintext", mismatch.message, plaintext, 1)])
    return turned


def _parsed(card: object) -> Card | None:
    try:
        return Card.parse(card)
    except InvalidCardError:
        return None


def _not_authenticated(shoe: Shoe) -> str:
    return f"shoe {shoe.number} is not authenticated: it takes no plaintexts"


def _open_shoe_locked(table: Table) -> Shoe:
    try:
        return Shoe.objects.select_for_update().get(table=table, state=Shoe.State.OPEN)
    except Shoe.DoesNotExist:
        raise NoOpenShoeError(f"table {table.slug} has no open shoe: start one first") from None


def _refuse(errors: list[FieldError], shoe: Shoe, refusals: list[Refusal], round_number: int | None = None) -> NoReturn:
    raise PlaintextRefusedError(errors, refusals, shoe_pk=shoe.pk, round_number=round_number) from None


def _record_refusals(refused: PlaintextRefusedError) -> None:
    """Keep what a write refused, for reviewers, once its transaction has rolled back
    (the refusal is kept; the write is not)."""
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
        _record_refusals(refused)
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
            _refuse(errors, shoe, refusals)
        ShoeCard.objects.bulk_update(revealing, ["plaintext"], batch_size=500)
        shoe.revealed += len(revealing)
        shoe.save(update_fields=["revealed"])
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
    return shoe


@dataclass(frozen=True)
class RecordedRound:
    round: Round
    created: bool  # False when an identical retry matched an existing round


def round_record(
    *,
    table: Table,
    player: object,
    banker: object,
    number: int | None = None,
    dealer: str | None = None,
    plaintexts: list[object] | None = None,
) -> RecordedRound:
    """Validate a reported round and store it in the table's open shoe.

    ``number`` is the round's number in the shoe; without it the next one is used.
    Replaying an existing number with identical cards returns that round
    (``created=False``), with other cards raises :class:`RoundConflictError`.
    Raises :class:`~tables.game.validation.IllegalRoundError` for a round the rules
    or the shoe forbid, and :class:`NoOpenShoeError`.

    On an authenticated shoe the round carries ``plaintexts``, one per card in dealing
    order, which take the shoe's next card numbers: each must name the card reported
    at its place and hash to its card's public hash (refusals are kept for reviewers).
    A round before the burn of an authenticated shoe raises :class:`ShoeConflictError`.
    """
    outcome = validate_round(player, banker)  # before any lock: bad input changes nothing
    if dealer is not None:
        check_name("dealer", dealer)
    try:
        try:
            return _round_insert(table=table, outcome=outcome, number=number, dealer=dealer, plaintexts=plaintexts)
        except IntegrityError:
            # A concurrent writer stored this number first (or, once in an age, the same
            # round ID): look again, now that the other transaction has committed.
            return _round_insert(table=table, outcome=outcome, number=number, dealer=dealer, plaintexts=plaintexts)
    except PlaintextRefusedError as refused:
        _record_refusals(refused)
        raise


def _round_insert(
    *, table: Table, outcome: RoundOutcome, number: int | None, dealer: str | None, plaintexts: list[object] | None
) -> RecordedRound:
    with transaction.atomic():
        shoe = _open_shoe_locked(table)
        last = shoe.last_number
        if number is not None and number <= last:  # a dealer's retry, or a conflict
            existing = shoe.rounds.filter(number=number).first()
            if existing is not None:
                return RecordedRound(_replayed(existing, outcome, plaintexts), created=False)
        expected = last + 1
        if number is not None and number != expected:
            raise RoundConflictError(f"round {number} is not the next round of shoe {shoe.number}: expected {expected}")
        if shoe.authenticated and not shoe.burn_card:
            raise ShoeConflictError(
                f"shoe {shoe.number} is authenticated: burn first (POST .../shoes/current/burn with card 1's plaintext)"
            )
        check_shoe_counts(outcome, dealt=_dealt_counts(shoe.dealt + shoe.burn_card, outcome), decks=shoe.decks)
        if shoe.authenticated:
            cards = _round_cards(shoe, outcome, plaintexts, round_number=expected)
        elif plaintexts is not None:
            raise IllegalRoundError([FieldError("plaintexts", _not_authenticated(shoe))])
        if dealer and dealer != table.dealer_name:
            Table.objects.filter(pk=table.pk).update(dealer_name=dealer)
            table.dealer_name = dealer
        bets = settle_bets(outcome, table.get_paytable(), round_number=expected)
        player_cards, banker_cards = pack_cards(outcome.player_cards), pack_cards(outcome.banker_cards)
        round_ = Round.objects.create(
            round_id=_new_round_id(),
            shoe=shoe,
            number=expected,
            player_cards=player_cards,
            banker_cards=banker_cards,
            winner=outcome.winner.value,
            player_score=outcome.player_score,
            banker_score=outcome.banker_score,
            player_card_count=len(outcome.player_cards),
            banker_card_count=len(outcome.banker_cards),
            player_natural=outcome.player_natural,
            banker_natural=outcome.banker_natural,
            player_pair=outcome.player_pair,
            banker_pair=outcome.banker_pair,
            player_perfect_pair=outcome.player_perfect_pair,
            banker_perfect_pair=outcome.banker_perfect_pair,
            banker_wins_with_six=outcome.banker_wins_with_six,
            margin=outcome.margin,
            bets=results_to_data(bets),
            dealer_name=dealer or table.dealer_name,
        )
        changes: dict[str, Any] = {"last_number": expected, "dealt": shoe.dealt + player_cards + banker_cards}
        if shoe.authenticated:
            for card_row, plaintext in zip(cards, plaintexts or (), strict=True):
                card_row.plaintext, card_row.state, card_row.round = str(plaintext), ShoeCard.State.DEALT, round_
            ShoeCard.objects.bulk_update(cards, ["plaintext", "state", "round"])
            changes.update(next_card=shoe.next_card + len(cards), revealed=shoe.revealed + len(cards))
        Shoe.objects.filter(pk=shoe.pk).update(**changes)
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
        transaction.on_commit(lambda: round_odds_queue(shoe_id=shoe.pk, round_pk=round_.pk))
    return RecordedRound(round_, created=True)


def _dealt_counts(dealt: str, outcome: RoundOutcome) -> dict[Card, int]:
    """How often each of the round's cards was dealt before, counted in the shoe's packed
    cards rather than unpacking them all. A code can only match on a card's boundary: no
    rank letter is a suit letter."""
    return {card: dealt.count(card.code) for card in (*outcome.player_cards, *outcome.banker_cards)}


def _replayed(existing: Round, outcome: RoundOutcome, plaintexts: list[object] | None) -> Round:
    if (existing.player_cards, existing.banker_cards) != (
        pack_cards(outcome.player_cards),
        pack_cards(outcome.banker_cards),
    ):
        raise RoundConflictError(
            f"round {existing.number} of shoe {existing.shoe.number} was already recorded with other cards "
            f"(player {' '.join(c.code for c in existing.player_hand)}, "
            f"banker {' '.join(c.code for c in existing.banker_hand)})"
        )
    if plaintexts is not None:
        stored = list(existing.shoe_cards.order_by("number").values_list("plaintext", flat=True))
        if stored != plaintexts:
            raise RoundConflictError(
                f"round {existing.number} of shoe {existing.shoe.number} was already recorded with other plaintexts"
            )
    return existing


def _round_cards(
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
        _refuse([p.error for p in problems], shoe, refusals, round_number)
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
        _refuse(errors, shoe, refusals, round_number)
    return cards


def round_void(*, round_: Round, reason: str, user: object) -> Round:
    """Void a round ("Malfunction voids all pays and plays"): kept for audit, left out
    of roads and statistics. Writes the append-only audit event (who, when, what, why)
    in the same transaction, so a void never happens without its record."""
    reason = reason.strip()
    if not reason:
        raise ValueError("a reason is required to void a round")
    with transaction.atomic():
        locked = Round.objects.select_for_update().select_related("shoe__table").get(pk=round_.pk)
        if locked.voided:
            raise RoundAlreadyVoidedError(f"round {locked.round_id} is already voided")
        locked.voided = True
        locked.void_reason = reason
        locked.voided_by = user  # type: ignore[assignment]
        locked.voided_at = timezone.now()
        locked.save(update_fields=["voided", "void_reason", "voided_by", "voided_at"])
        RoundAudit.objects.create(
            round=locked,
            action=RoundAudit.Action.VOID,
            user=locked.voided_by,
            username=getattr(user, "username", "") or "",
            at=locked.voided_at,
            reason=reason,
        )
        table = locked.shoe.table
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
    return locked
