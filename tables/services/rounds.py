"""Rounds: recorded (the one service every writer calls), and voided."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import live
from ..authentication import services as authentication
from ..background.odds import round_odds_queue
from ..errors import RoundAlreadyVoidedError, RoundConflictError, ShoeConflictError
from ..game.bets import results_to_data, settle_bets
from ..game.cards import Card, pack_cards
from ..game.outcome import RoundOutcome
from ..game.validation import (
    FieldError,
    IllegalRoundError,
    ShoeCountError,
    check_name,
    check_shoe_counts,
    validate_round,
)
from ..models import Round, RoundAudit, Shoe, ShoeCard, Table, dealer_day_add
from ..operations import context
from ..operations.metrics import ROUNDS_RECORDED
from ..selectors import played_round
from ..surveillance import checks as surveillance
from . import dealer_days, shoe_days
from .shoes import open_shoe_locked, refuse_while_dealing

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
            recorded = _round_insert(table=table, outcome=outcome, number=number, dealer=dealer, plaintexts=plaintexts)
        except IntegrityError:
            # A concurrent writer stored this number first (or, once in an age, the same
            # round ID): look again, now that the other transaction has committed.
            recorded = _round_insert(table=table, outcome=outcome, number=number, dealer=dealer, plaintexts=plaintexts)
    except authentication.PlaintextRefusedError as refused:
        dealer_days.refusals_record(refused)
        raise
    except ShoeCountError:
        cards_overdealt(table=table, cards=[*outcome.player_cards, *outcome.banker_cards])
        raise
    context.bind(table=table.slug, shoe=recorded.round.shoe.number, round=recorded.round.number)
    if recorded.created:
        ROUNDS_RECORDED.labels(table.slug).inc()
    return recorded


def _round_insert(
    *, table: Table, outcome: RoundOutcome, number: int | None, dealer: str | None, plaintexts: list[object] | None
) -> RecordedRound:
    with transaction.atomic():
        shoe = open_shoe_locked(table)
        last = shoe.last_number
        if number is not None and number <= last:  # a dealer's retry, or a conflict
            existing = shoe.rounds.filter(number=number).first()
            if existing is not None:
                return RecordedRound(_replayed(existing, outcome, plaintexts), created=False)
        expected = last + 1
        refuse_while_dealing(shoe, "post a whole round")
        if number is not None and number != expected:
            raise RoundConflictError(f"round {number} is not the next round of shoe {shoe.number}: expected {expected}")
        if shoe.authenticated and not shoe.burn_card:
            raise ShoeConflictError(
                f"shoe {shoe.number} is authenticated: burn first (POST .../shoes/current/burn with card 1's plaintext)"
            )
        check_shoe_counts(outcome, dealt=_dealt_counts(shoe.dealt + shoe.burn_card, outcome), decks=shoe.decks)
        if shoe.authenticated:
            cards = authentication.round_cards(shoe, outcome, plaintexts, round_number=expected)
        elif plaintexts is not None:
            raise IllegalRoundError([FieldError("plaintexts", authentication.not_authenticated(shoe))])
        if dealer and dealer != table.dealer_name:
            Table.objects.filter(pk=table.pk).update(dealer_name=dealer)
            table.dealer_name = dealer
        round_ = round_row(shoe=shoe, number=expected, outcome=outcome, table=table, dealer=dealer)
        round_.save(force_insert=True)
        shoe_days.round_added(shoe=shoe, at=round_.created_at, played=played_round(round_), bets=round_.bets)
        dealer_day_add(
            table_id=table.pk,
            dealer_name=round_.dealer_name,
            day=shoe_days.day_of(round_.created_at),
            rounds=1,
            shoes=int(expected == 1),  # always passed: the same statement for every round
        )
        changes: dict[str, Any] = {
            "last_number": expected,
            "dealt": shoe.dealt + round_.player_cards + round_.banker_cards,
        }
        if shoe.authenticated:
            for card_row, plaintext in zip(cards, plaintexts or (), strict=True):
                card_row.plaintext, card_row.state, card_row.round = str(plaintext), ShoeCard.State.DEALT, round_
            ShoeCard.objects.bulk_update(cards, ["plaintext", "state", "round"])
            changes.update(next_card=shoe.next_card + len(cards), revealed=shoe.revealed + len(cards))
        Shoe.objects.filter(pk=shoe.pk).update(**changes)
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
        transaction.on_commit(lambda: round_odds_queue(shoe_id=shoe.pk, round_pk=round_.pk))
        transaction.on_commit(lambda: surveillance.shoe_checks_queue(shoe_id=shoe.pk))
    return RecordedRound(round_, created=True)


def cards_overdealt(*, table: Table, cards: list[Card]) -> None:
    """A round or a card refused because the table's shoe no longer holds one of its
    cards: surveillance raises it as an alarm too (in the background)."""
    shoe_id = Shoe.objects.filter(table=table, state=Shoe.State.OPEN).values_list("pk", flat=True).first()
    if shoe_id is not None:
        surveillance.refused_cards_queue(shoe_id=shoe_id, cards=[card.code for card in cards])


def round_row(*, shoe: Shoe, number: int, outcome: RoundOutcome, table: Table, dealer: str | None) -> Round:
    """The round's row as it is stored, not yet saved: its bets settled under the table's
    paytable. The one place a round's fields are filled (the history benchmark's bulk
    path writes these rows too)."""
    return Round(
        round_id=_new_round_id(),
        shoe=shoe,
        table_id=shoe.table_id,
        number=number,
        player_cards=pack_cards(outcome.player_cards),
        banker_cards=pack_cards(outcome.banker_cards),
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
        bets=results_to_data(settle_bets(outcome, table.get_paytable(), round_number=number)),
        dealer_name=dealer or table.dealer_name,
        created_at=timezone.now(),  # looked up now, not the field's default: a test's clock holds
    )


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


def round_void(*, round_: Round, reason: str, user: object) -> Round:
    """Void a round ("Malfunction voids all pays and plays"): kept for audit, left out
    of roads and statistics. Writes the append-only audit event (who, when, what, why)
    in the same transaction, so a void never happens without its record."""
    reason = reason.strip()
    if not reason:
        raise ValueError("a reason is required to void a round")
    with transaction.atomic():
        # Locks the round, its shoe and its table (every row joined): two voids in one
        # shoe day, or a void beside a round being recorded, count the day one at a time.
        locked = Round.objects.select_for_update().select_related("shoe__table").get(pk=round_.pk)
        if locked.voided:
            raise RoundAlreadyVoidedError(f"round {locked.round_id} is already voided")
        refuse_while_dealing(locked.shoe, "void a round")
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
        day = shoe_days.day_of(locked.created_at)
        shoe_days.day_recount(shoe=locked.shoe, day=day)
        table = locked.shoe.table
        # Counted on the round's day and dealer: its rate is of the rounds it was one of.
        dealer_day_add(table_id=table.pk, dealer_name=locked.dealer_name, day=day, voids=1)
        dealer_days.operations_check_soon(table_id=table.pk, dealer=locked.dealer_name, day=day)
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
    return locked
