"""Shoes: started (plain, or authenticated by its cards' commitments), burned, ended."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from .. import live
from ..authentication import services as authentication
from ..errors import NoOpenShoeError, RoundInProgressError, ShoeConflictError
from ..game.alarms import AlarmKind, Finding, Severity
from ..game.authentication import Burn, CommitmentError, shoe_commitment, validate_commitments
from ..game.cards import Card, InvalidCardError
from ..game.validation import FieldError, IllegalRoundError
from ..models import RoundInProgress, Shoe, ShoeCard, Table
from ..surveillance import checks as surveillance
from ..surveillance.alarms import alarm_raise
from . import dealer_days


@dataclass(frozen=True)
class ShoeStarted:
    shoe: Shoe
    created: bool  # False when a retry found the shoe it started, still untouched


START_KEY = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def shoe_start(*, table: Table, commitments: Sequence[object] | None = None, key: str = "") -> ShoeStarted:
    """End the table's open shoe, if any, and open the next one.

    With ``commitments`` (the Public Hash Value of every card, card 1 first) the shoe is
    authenticated: exactly 52 x decks hashes, no two alike, or
    :class:`~tables.game.validation.IllegalRoundError` naming the first bad one
    (``commitments[17]``), and no shoe starts. A hash any earlier shoe committed (the same
    set, reordered, or mixed with new ones) is refused (:class:`~tables.errors.ShoeConflictError`
    naming ``commitments[i]``, the first) and raises a critical alarm: once that shoe's
    cards are revealed, a second shoe's order would be public from its start.

    Safe to retry: while the open shoe is untouched (no burn, no round) and was started
    with the same commitments (or none), a start answers that shoe (``created=False``)
    instead of ending it for an empty twin: a dealer system retrying a start that timed
    out, or several retries at once, make one shoe. With ``key`` (the request's
    ``Idempotency-Key``) a start is answered by the shoe it made whatever was dealt
    since: a retry that arrives after the first round never ends that shoe for a new
    one."""
    if key and not START_KEY.fullmatch(key):
        message = "Idempotency-Key is 1 to 64 letters, digits or . _ : - (a UUID will do)"
        raise IllegalRoundError([FieldError("Idempotency-Key", message)])
    hashes = None
    if commitments is not None:
        try:
            hashes = validate_commitments(commitments, decks=table.decks)
        except CommitmentError as error:
            raise IllegalRoundError([error.error]) from None
    commitment = shoe_commitment(hashes) if hashes else ""
    reused: Reuse | None = None
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()  # serialise shoe changes
        if key and (made := Shoe.objects.filter(table=table, start_key=key).first()) is not None:
            return ShoeStarted(made, created=False)
        open_shoe = Shoe.objects.filter(table=table, state=Shoe.State.OPEN).first()
        if open_shoe is not None:
            refuse_while_dealing(open_shoe, "start the next shoe")
        if (
            open_shoe is not None
            and open_shoe.last_number == 0
            and not open_shoe.burn_card
            and open_shoe.commitment == commitment
        ):
            return ShoeStarted(open_shoe, created=False)
        reused = _reuse_found(hashes) if hashes else None
        if reused is None:
            started = _open_next(table, hashes, commitment, key)
    if reused is not None:
        _reuse_refuse(table, hashes or (), reused)
    return ShoeStarted(started, created=True)


@dataclass(frozen=True)
class Reuse:
    """A card hash of a new shoe's that an earlier shoe committed."""

    index: int  # in the new shoe's commitments
    card: int  # its number in the earlier shoe
    shoe: int
    table: str
    count: int  # of the new shoe's hashes, how many an earlier shoe committed


def _reuse_found(hashes: Sequence[str]) -> Reuse | None:
    """The first of ``hashes`` any earlier shoe of the casino committed: once that shoe's
    cards are revealed (or its burn card turned over), a shoe committing one of its hashes
    again is dealt in an order partly public from its start; reordered or mixed with new
    ones, the same."""
    earlier = {
        card_hash: (number, shoe, table)
        for card_hash, number, shoe, table in ShoeCard.objects.filter(hash__in=hashes).values_list(
            "hash", "number", "shoe__number", "shoe__table__slug"
        )
    }
    if not earlier:
        return None
    index = next(i for i, card_hash in enumerate(hashes) if card_hash in earlier)
    number, shoe, table = earlier[hashes[index]]
    return Reuse(index=index, card=number, shoe=shoe, table=table, count=sum(h in earlier for h in hashes))


def _reuse_refuse(table: Table, hashes: Sequence[str], reused: Reuse) -> NoReturn:
    """Raise an alarm (once per set of commitments tried), then refuse with 409 naming
    the first reused hash."""
    finding = Finding(
        kind=AlarmKind.COMMITMENTS_REUSED,
        severity=Severity.CRITICAL,
        key=f"commitments-{shoe_commitment(hashes)[:32]}",
        evidence={
            "test": "commitments_seen",
            "field": f"commitments[{reused.index}]",
            "reused": reused.count,
            "earlier_shoe": reused.shoe,
            "earlier_table": reused.table,
            "earlier_card": reused.card,
        },
    )
    with transaction.atomic():
        alarm_raise(finding, table=table, dealer=table.dealer_name)
    raise ShoeConflictError(
        f"this card's hash was committed by shoe {reused.shoe} of table {reused.table} (card {reused.card}), "
        f"and {reused.count} of these commitments were: a shoe's cards are committed once, shuffled anew",
        f"commitments[{reused.index}]",
    )


def _open_next(table: Table, hashes: Sequence[str] | None, commitment: str, key: str) -> Shoe:
    """Inside the table's lock: its open shoe ended (its end checks queued) and the next opened."""
    now = timezone.now()
    ending = Shoe.objects.filter(table=table, state=Shoe.State.OPEN).values_list("pk", "authenticated").first()
    if ending is not None:
        ended, authenticated = ending  # at most one open shoe a table
        transaction.on_commit(lambda: surveillance.shoe_ended_checks_queue(shoe_id=ended, authenticated=authenticated))
    Shoe.objects.filter(table=table, state=Shoe.State.OPEN).update(state=Shoe.State.CLOSED, ended_at=now)
    last = Shoe.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0
    shoe = Shoe.objects.create(
        table=table,
        number=last + 1,
        decks=table.decks,
        started_at=now,
        authenticated=hashes is not None,
        commitment=commitment,
        card_count=len(hashes) if hashes else 0,
        start_key=key,
    )
    if hashes:
        ShoeCard.objects.bulk_create(
            [ShoeCard(shoe=shoe, number=i, hash=h) for i, h in enumerate(hashes, start=1)], batch_size=500
        )
    transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
    return shoe


def shoe_reveal(*, table: Table, number: int, plaintexts: dict[str, object]) -> Shoe:
    """Card authentication's reveal (:func:`tables.authentication.services.shoe_reveal`),
    the day's operations signals checked after a refusal it counted."""
    try:
        revealed = authentication.shoe_reveal(table=table, number=number, plaintexts=plaintexts)
    except authentication.PlaintextRefusedError:
        day = timezone.localdate(timezone.now(), timezone.get_default_timezone())
        dealer_days.operations_check_soon(table_id=table.pk, dealer=table.dealer_name, day=day)
        raise
    surveillance.shoe_checks_queue(shoe_id=revealed.pk)  # the plaintexts revealed name the cards dealt?
    return revealed


def shoe_end(*, table: Table) -> Shoe:
    """End the table's open shoe (its last round is played), so its remaining cards can
    be revealed; the table has no open shoe until the next starts. Raises
    :class:`NoOpenShoeError`."""
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()  # serialise shoe changes
        shoe = Shoe.objects.filter(table=table, state=Shoe.State.OPEN).first()
        if shoe is None:
            raise NoOpenShoeError(f"table {table.slug} has no open shoe to end")
        refuse_while_dealing(shoe, "end the shoe")
        shoe.state, shoe.ended_at = Shoe.State.CLOSED, timezone.now()
        shoe.save(update_fields=["state", "ended_at"])
        transaction.on_commit(lambda: live.table_changed(table.pk, table.slug))
        transaction.on_commit(
            lambda: surveillance.shoe_ended_checks_queue(shoe_id=shoe.pk, authenticated=shoe.authenticated)
        )
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
    except authentication.PlaintextRefusedError as refused:
        dealer_days.refusals_record(refused)
        raise


def _burn(*, table: Table, plaintext: object, card: object) -> BurnDone:
    with transaction.atomic():
        shoe = open_shoe_locked(table)
        if shoe.authenticated:
            turned = authentication.burn_plaintext_card(shoe, plaintext, card)
        else:
            if plaintext is not None:
                raise IllegalRoundError([FieldError("plaintext", authentication.not_authenticated(shoe))])
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
        refuse_while_dealing(shoe, "burn")
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


def open_shoe_locked(table: Table) -> Shoe:
    try:
        return Shoe.objects.select_for_update().get(table=table, state=Shoe.State.OPEN)
    except Shoe.DoesNotExist:
        raise NoOpenShoeError(f"table {table.slug} has no open shoe: start one first") from None


def refuse_while_dealing(shoe: Shoe, doing: str) -> None:
    """Raise :class:`RoundInProgressError` when the shoe is dealing a round card by card:
    nothing may ``doing`` until that round is complete or cancelled."""
    progress = RoundInProgress.objects.filter(shoe=shoe).only("number", "cards").first()
    if progress is not None:
        dealt = _cards(len(progress.cards) // 2)
        raise RoundInProgressError(
            f"round {progress.number} of shoe {shoe.number} is being dealt ({dealt} so far): deal it to the end "
            f"or cancel it (POST .../rounds/current/cancel, or on the shoe's admin page) before you {doing}"
        )


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"
