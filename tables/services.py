"""Writes. Every writer (ingest API, admin, simulator, commands) calls these."""

from __future__ import annotations

import contextlib
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from . import live
from .game.bets import Paytable, results_to_data, settle_bets
from .game.cards import Card, pack_cards, unpack_cards
from .game.odds import Composition, CompositionError, ShoeOdds, shoe_odds
from .game.outcome import RoundOutcome
from .game.validation import check_name, check_shoe_counts, validate_round
from .live.jobs import enqueue
from .models import Round, RoundAudit, Shoe, Table, token_digest

ODDS_QUEUED_SECONDS = 60  # a queued odds task is taken as lost after this


class NoOpenShoeError(Exception):
    """The table has no open shoe to record a round into."""


class RoundConflictError(Exception):
    """The round number is not the next one, or it was recorded with other cards."""


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


def shoe_start(*, table: Table) -> Shoe:
    """End the table's open shoe, if any, and open the next one."""
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()  # serialise shoe changes
        now = timezone.now()
        Shoe.objects.filter(table=table, state=Shoe.State.OPEN).update(state=Shoe.State.CLOSED, ended_at=now)
        last = Shoe.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0
        shoe = Shoe.objects.create(table=table, number=last + 1, decks=table.decks, started_at=now)
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
) -> RecordedRound:
    """Validate a reported round and store it in the table's open shoe.

    ``number`` is the round's number in the shoe; without it the next one is used.
    Replaying an existing number with identical cards returns that round
    (``created=False``), with other cards raises :class:`RoundConflictError`.
    Raises :class:`~tables.game.validation.IllegalRoundError` for a round the rules
    or the shoe forbid, and :class:`NoOpenShoeError`.
    """
    outcome = validate_round(player, banker)  # before any lock: bad input changes nothing
    if dealer is not None:
        check_name("dealer", dealer)
    try:
        return _round_insert(table=table, outcome=outcome, number=number, dealer=dealer)
    except IntegrityError:
        # A concurrent writer stored this number first (or, once in an age, the same
        # round ID): look again, now that the other transaction has committed.
        return _round_insert(table=table, outcome=outcome, number=number, dealer=dealer)


def _round_insert(*, table: Table, outcome: RoundOutcome, number: int | None, dealer: str | None) -> RecordedRound:
    with transaction.atomic():
        try:
            shoe = Shoe.objects.select_for_update().get(table=table, state=Shoe.State.OPEN)
        except Shoe.DoesNotExist:
            raise NoOpenShoeError(f"table {table.slug} has no open shoe: start one first") from None
        last = shoe.last_number
        if number is not None and number <= last:  # a dealer's retry, or a conflict
            existing = shoe.rounds.filter(number=number).first()
            if existing is not None:
                return RecordedRound(_replayed(existing, outcome), created=False)
        expected = last + 1
        if number is not None and number != expected:
            raise RoundConflictError(f"round {number} is not the next round of shoe {shoe.number}: expected {expected}")
        check_shoe_counts(outcome, dealt=_dealt_counts(shoe.dealt, outcome), decks=shoe.decks)
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
        Shoe.objects.filter(pk=shoe.pk).update(last_number=expected, dealt=shoe.dealt + player_cards + banker_cards)
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
        transaction.on_commit(lambda: round_odds_queue(shoe_id=shoe.pk, round_pk=round_.pk))
    return RecordedRound(round_, created=True)


def _dealt_counts(dealt: str, outcome: RoundOutcome) -> dict[Card, int]:
    """How often each of the round's cards was dealt before, counted in the shoe's packed
    cards rather than unpacking them all. A code can only match on a card's boundary: no
    rank letter is a suit letter."""
    return {card: dealt.count(card.code) for card in (*outcome.player_cards, *outcome.banker_cards)}


def _replayed(existing: Round, outcome: RoundOutcome) -> Round:
    if (existing.player_cards, existing.banker_cards) != (
        pack_cards(outcome.player_cards),
        pack_cards(outcome.banker_cards),
    ):
        raise RoundConflictError(
            f"round {existing.number} of shoe {existing.shoe.number} was already recorded with other cards "
            f"(player {' '.join(c.code for c in existing.player_hand)}, "
            f"banker {' '.join(c.code for c in existing.banker_hand)})"
        )
    return existing


class RoundAlreadyVoidedError(Exception):
    pass


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


def _odds_queued_key(shoe_id: int) -> str:
    return f"odds-queued:{shoe_id}"


def round_odds_queue(*, shoe_id: int, round_pk: int) -> None:
    """After a round commits: queue the task that computes its shoe's odds, unless one
    is already waiting (it will compute this round too), so a burst of rounds is one
    task. The mark expires, so a task lost with its broker is queued again later."""
    from . import tasks  # the Celery task seam: tasks call services, services queue tasks

    try:
        if not cache.add(_odds_queued_key(shoe_id), True, timeout=ODDS_QUEUED_SECONDS):
            return
    except Exception:
        pass  # no cache: queue it anyway, a second task is harmless
    enqueue(tasks.round_odds_compute, round_pk, runner=live.scheduler().runner)


def round_odds_compute(*, round_pk: int) -> int:
    """Store the odds of the shoe left after each round of this round's shoe still
    without them (this round, the ones recorded since it was queued, and any whose
    task was lost while the broker was down), then push. Rounds that have their odds
    already are left alone, so a retried task is harmless. Returns how many rounds got
    their odds. Burned cards are unknown, so they stay in the count: the odds are exact
    for what the table has shown."""
    round_ = Round.objects.select_related("shoe__table").filter(pk=round_pk).first()
    if round_ is None:
        return 0
    shoe, table = round_.shoe, round_.shoe.table
    with contextlib.suppress(Exception):
        cache.delete(_odds_queued_key(shoe.pk))  # rounds committed from now on queue a task again
    paytable = table.get_paytable()
    composition, stored = Composition.full(shoe.decks), 0
    for r in shoe.rounds.order_by("number"):
        composition = composition.without(unpack_cards(r.player_cards + r.banker_cards))
        if r.odds is None and Round.objects.filter(pk=r.pk, odds__isnull=True).update(
            odds=_odds_of(composition, paytable)
        ):
            stored += 1
    if stored:
        live.odds_changed(table.pk)
    return stored


def rounds_without_odds_compute(*, older_than: float = 0) -> int:
    """Find the rounds still without odds, recorded at least ``older_than`` seconds ago,
    and compute them, a shoe at a time, pushing each table's odds as they are stored.
    Their jobs were lost: the server that queued them was killed (the embedded default
    queues them in its own memory), or the broker lost its queue. Run at server start-up
    (everything is lost then) and periodically (with a grace period for jobs still
    queued). Returns how many rounds got their odds."""
    recorded_before = timezone.now() - timedelta(seconds=older_than)
    latest_per_shoe = (
        Round.objects.filter(odds__isnull=True, created_at__lte=recorded_before)
        .values("shoe_id")
        .annotate(last=Max("pk"))
        .values_list("last", flat=True)
    )
    return sum(round_odds_compute(round_pk=pk) for pk in list(latest_per_shoe))


def odds_to_stored(odds: ShoeOdds) -> dict[str, Any]:
    """What a round keeps of the odds after it: every bet's expected return."""
    return {
        "cards": odds.composition.size,
        "returns": {bet.value: round(float(o.expected_return), 8) for bet, o in odds.bets.items()},
        "no_commission_banker": round(float(odds.no_commission_banker.expected_return), 8),
    }


def _odds_of(composition: Composition, paytable: Paytable) -> dict[str, Any]:
    try:
        return odds_to_stored(shoe_odds(composition, paytable))
    except CompositionError:  # too few cards left to deal a round
        return {"cards": composition.size, "returns": {}, "no_commission_banker": None}
