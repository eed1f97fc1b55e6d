"""Rounds dealt card by card from a card-reading shoe: each card checked by the rules as
it comes, the round in progress kept in the database (a restart loses nothing),
recorded by :func:`~.rounds.round_record` (the one service that records a round) when
its last card comes, or cancelled (a misdeal)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from .. import live
from ..authentication import services as authentication
from ..errors import NoRoundInProgressError, RoundConflictError, ShoeConflictError
from ..game.authentication import PlaintextError, plaintext_card
from ..game.cards import Card, InvalidCardError
from ..game.dealing import CardNotCalledError, Deal, Side, deal_of
from ..game.validation import FieldError, IllegalRoundError, ShoeCountError, check_name
from ..models import Round, RoundCancel, RoundInProgress, Shoe, ShoeCard, Table, dealer_day_add
from ..operations import context
from ..operations.metrics import CARDS_DEALT, ROUNDS_CANCELLED
from . import dealer_days
from .rounds import cards_overdealt, round_record
from .shoe_days import day_of
from .shoes import open_shoe_locked


@dataclass(frozen=True)
class CardDealt:
    """Where a card left the round: ``deal`` is the round as far as it has gone (as it
    was after that card, for a retry), ``round`` the recorded round once complete."""

    shoe: Shoe
    number: int
    deal: Deal
    round: Round | None
    created: bool  # False: a retry of a card already taken
    dealer: str = ""


def card_deal(
    *,
    table: Table,
    card: object = None,
    plaintext: object = None,
    number: int | None = None,
    index: int | None = None,
    side: Side | None = None,
    dealer: str | None = None,
    deal: int | None = None,
) -> CardDealt:
    """Take the next card of the table's round in progress (starting one when none is).

    ``index`` is the card's place in the round's dealing order (1 P1, 2 B1, 3 P2, 4 B2,
    5 and 6 the third cards) and ``number`` the round's; without them the next place of
    the round being dealt. A card at a place already taken is a retry when it is the same
    card (``created=False``), and :class:`RoundConflictError` naming the card there
    otherwise. The rules refuse a card they do not call for
    (:class:`~tables.game.validation.IllegalRoundError`), and the card that completes the
    round records it through :func:`round_record`. On an authenticated shoe the card is
    its ``plaintext`` (``card``, if sent too, must be the card it names), checked against
    the next committed card's public hash. With ``deal`` (which deal of its round the
    card is: 1, then 2 once the round was cancelled and dealt again), a card of another
    deal is a :class:`RoundConflictError` naming ``deal``: a late retry of a cancelled
    deal's card never starts the new deal."""
    parsed = _parsed_card(card)
    if card is None and plaintext is None:
        raise IllegalRoundError(
            [FieldError("card", "send the card's code (or, on an authenticated shoe, its plaintext)")]
        )
    if dealer is not None:
        check_name("dealer", dealer)
    try:
        with transaction.atomic():
            dealt = _card_take(
                table=table,
                card=parsed,
                plaintext=plaintext,
                number=number,
                index=index,
                side=side,
                dealer=dealer,
                deal_number=deal,
            )
    except authentication.PlaintextRefusedError as refused:
        dealer_days.refusals_record(refused)
        raise
    except ShoeCountError:
        if parsed is not None:
            cards_overdealt(table=table, cards=[parsed])
        raise
    context.bind(table=table.slug, shoe=dealt.shoe.number, round=dealt.number)
    if dealt.created:
        CARDS_DEALT.inc()
    return dealt


def _card_take(
    *,
    table: Table,
    card: Card | None,
    plaintext: object,
    number: int | None,
    index: int | None,
    side: Side | None,
    dealer: str | None,
    deal_number: int | None,
) -> CardDealt:
    shoe = open_shoe_locked(table)
    progress = RoundInProgress.objects.filter(shoe=shoe).first()
    current = progress.number if progress is not None else shoe.last_number + 1
    if number is not None and number < current:
        return _retried_after_completion(shoe, number, index, card, plaintext)
    if number is not None and number > current:
        state = "being dealt" if progress is not None else "the next"
        raise RoundConflictError(f"round {number} is not the round being dealt: round {current} is {state}")
    if deal_number is not None:
        _check_deal(shoe, current, deal_number)
    deal = progress.deal if progress is not None else Deal()
    place = len(deal.cards) + 1
    if index is not None and index < place:
        return _retried(shoe, current, deal, progress, index, card, plaintext)
    if index is not None and index > place:
        whose = deal.next_side.value if deal.next_side else "none"
        raise RoundConflictError(
            f"card {index} came before card {place}: the next card of round {current} is card {place}, the {whose}'s",
            "index",
        )
    card = _card_sent(shoe, card, plaintext, card_number=shoe.next_card + len(deal.cards), round_number=current)
    try:
        dealt = deal.add(card, side)
    except CardNotCalledError as refused:
        raise IllegalRoundError([FieldError(refused.field, str(refused))]) from None
    _check_held(shoe, card, progress)
    plaintexts = [*(progress.plaintexts if progress else []), *([str(plaintext)] if shoe.authenticated else [])]
    dealer_name = dealer or (progress.dealer_name if progress else "") or table.dealer_name
    Shoe.objects.filter(pk=shoe.pk).update(deal_steps=shoe.deal_steps + 1)
    transaction.on_commit(lambda: live.round_dealt(table.pk, table.slug))
    if not dealt.complete:
        started = progress or RoundInProgress(shoe=shoe, number=current, started_at=timezone.now())
        _progress_keep(started, card, plaintexts, dealer_name)
        return CardDealt(shoe, current, dealt, None, created=True, dealer=dealer_name)
    if progress is not None:
        progress.delete()  # the round is recorded instead, in this transaction
    recorded = round_record(
        table=table,
        player=[c.code for c in dealt.player],
        banker=[c.code for c in dealt.banker],
        number=current,
        dealer=dealer_name or None,
        plaintexts=plaintexts if shoe.authenticated else None,
    )
    return CardDealt(shoe, current, dealt, recorded.round, created=True, dealer=dealer_name)


def _card_sent(shoe: Shoe, card: Card | None, plaintext: object, *, card_number: int, round_number: int) -> Card:
    """The card a post deals: its code on a plain shoe; on an authenticated one, the card
    its plaintext names once it hashes to card ``card_number``'s public hash."""
    if not shoe.authenticated:
        if plaintext is not None:
            raise IllegalRoundError([FieldError("plaintext", authentication.not_authenticated(shoe))])
        if card is None:
            raise IllegalRoundError([FieldError("card", "send the card's code: the shoe is not authenticated")])
        return card
    if not shoe.burn_card:
        raise ShoeConflictError(
            f"shoe {shoe.number} is authenticated: burn first (POST .../shoes/current/burn with card 1's plaintext)"
        )
    return authentication.dealt_plaintext_card(
        shoe, plaintext, card, card_number=card_number, round_number=round_number
    )


def _check_held(shoe: Shoe, card: Card, progress: RoundInProgress | None) -> None:
    """Refuse a card the shoe no longer holds: dealt ``decks`` times already (the burn
    card and the round in progress counted). A code matches only on a card's boundary."""
    held = (shoe.dealt + shoe.burn_card + (progress.cards if progress else "")).count(card.code)
    if held >= shoe.decks:
        times = f"{shoe.decks} time{'s' if shoe.decks != 1 else ''}"
        raise ShoeCountError([FieldError("card", f"{card.code} already dealt {times} in this shoe")])


def _progress_keep(progress: RoundInProgress, card: Card, plaintexts: list[str], dealer_name: str) -> None:
    """The round in progress with ``card`` added, saved."""
    progress.cards += card.code
    progress.plaintexts, progress.dealer_name, progress.updated_at = plaintexts, dealer_name, timezone.now()
    progress.save()


def _parsed_card(card: object) -> Card | None:
    if card is None:
        return None
    try:
        return Card.parse(card)
    except InvalidCardError as error:
        raise IllegalRoundError([FieldError("card", str(error))]) from None


def _retried(
    shoe: Shoe,
    number: int,
    deal: Deal,
    progress: RoundInProgress | None,
    index: int,
    card: Card | None,
    plaintext: object,
) -> CardDealt:
    """A card sent again at a place of the round in progress: the same card is a retry."""
    stored = progress.plaintexts[index - 1] if progress is not None and shoe.authenticated else None
    _same_or_conflict(number, index, deal.cards[index - 1], stored, card, plaintext)
    return CardDealt(
        shoe, number, deal.upto(index), None, created=False, dealer=progress.dealer_name if progress else ""
    )


def _retried_after_completion(
    shoe: Shoe, number: int, index: int | None, card: Card | None, plaintext: object
) -> CardDealt:
    """A card of a round already recorded (its last card's answer was lost): the same
    card at its place is a retry, answered as it was."""
    round_ = shoe.rounds.filter(number=number).first()
    if round_ is None or index is None:
        raise RoundConflictError(
            f"round {number} of shoe {shoe.number} is recorded already: a retry of one of its cards names its index"
        )
    deal = deal_of(round_.outcome())
    if index > len(deal.cards):
        message = f"round {number} is over after {len(deal.cards)} cards: {deal.why_over()}"
        raise IllegalRoundError([FieldError("index", message)])
    stored = None
    if shoe.authenticated:
        stored = list(ShoeCard.objects.filter(round=round_).order_by("number").values_list("plaintext", flat=True))[
            index - 1
        ]
    _same_or_conflict(number, index, deal.cards[index - 1], stored, card, plaintext)
    done = index == len(deal.cards)
    return CardDealt(shoe, number, deal.upto(index), round_ if done else None, created=False, dealer=round_.dealer_name)


def _same_or_conflict(
    number: int, index: int, there: Card, stored_plaintext: str | None, card: Card | None, plaintext: object
) -> None:
    sent = card
    if sent is None and plaintext is not None:
        try:
            sent = plaintext_card(plaintext)
        except PlaintextError:
            sent = None
    same_card = sent == there
    same_plaintext = plaintext is None or stored_plaintext is None or plaintext == stored_plaintext
    if not (same_card and same_plaintext):
        raise RoundConflictError(f"card {index} of round {number} is {there.code} already", "index")


def _check_deal(shoe: Shoe, number: int, deal: int) -> None:
    """A card of deal ``deal`` of round ``number`` belongs to the deal under way."""
    current = deal_number(shoe_id=shoe.pk, number=number)
    if deal < current:
        raise RoundConflictError(
            f"deal {deal} of round {number} was cancelled: round {number} is on deal {current}", "deal"
        )
    if deal > current:
        raise RoundConflictError(f"round {number} is on deal {current}: deal {deal} has not begun", "deal")


def deal_number(*, shoe_id: int, number: int) -> int:
    """Which deal of round ``number`` the shoe is on: 1, then 2 once it was cancelled and
    dealt again, and so on (after a cancel: the deal that follows it). A row id would not
    tell: SQLite gives a deleted row's id to the next."""
    return RoundCancel.objects.filter(shoe_id=shoe_id, number=number).count() + 1


def round_cancel(
    *,
    table: Table,
    reason: str,
    user: object = None,
    number: int | None = None,
    shoe_number: int | None = None,
    deal: int | None = None,
) -> RoundCancel:
    """Cancel the table's round in progress (a misdeal): nothing of it is recorded, its
    cards count as not dealt, and the cancel is kept (who, when, why: append-only, like a
    void). ``user`` is the reviewer; None for the table's dealer system. With ``number``
    (and ``shoe_number``), only that round of that shoe (the one a reviewer was shown):
    another round is a :class:`RoundConflictError`, another shoe has none to cancel. With
    ``deal`` (:func:`deal_number` of the round the reviewer was shown), only that deal: a round cancelled and
    dealt again under its number is another deal, so a stale confirm cancels nothing. On
    an authenticated shoe the cards' committed numbers are spent (kept as burned)."""
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise IllegalRoundError([FieldError("reason", "a reason is required to cancel a round")])
    with transaction.atomic():
        shoe = open_shoe_locked(table)
        progress = RoundInProgress.objects.filter(shoe=shoe).first()
        if progress is None or shoe_number not in (None, shoe.number):
            raise NoRoundInProgressError(f"no round is being dealt at table {table.slug}: nothing to cancel")
        if number is not None and number != progress.number:
            raise RoundConflictError(f"round {number} is no longer being dealt: round {progress.number} is")
        if deal is not None and deal != deal_number(shoe_id=progress.shoe_id, number=progress.number):
            raise RoundConflictError(f"round {progress.number} was cancelled and is being dealt again since")
        cancel = RoundCancel.objects.create(
            shoe=shoe,
            number=progress.number,
            cards=progress.cards,
            dealer_name=progress.dealer_name,
            source=RoundCancel.Source.ADMIN if user is not None else RoundCancel.Source.API,
            user=user,  # type: ignore[misc]
            username=getattr(user, "username", "") or "",
            reason=reason,
        )
        if shoe.authenticated and progress.plaintexts:
            authentication.cancelled_cards_burn(shoe, list(progress.plaintexts))
        progress.delete()
        Shoe.objects.filter(pk=shoe.pk).update(deal_steps=shoe.deal_steps + 1)
        day = day_of(cancel.at)
        dealer_day_add(table_id=table.pk, dealer_name=cancel.dealer_name, day=day, cancels=1)
        dealer_days.operations_check_soon(table_id=table.pk, dealer=cancel.dealer_name, day=day)
        transaction.on_commit(lambda: live.round_dealt(table.pk, table.slug))
    ROUNDS_CANCELLED.labels(cancel.source).inc()
    return cancel
