"""The checks of a shoe, after each of its rounds, in the background.

A recorded round queues one job for its shoe (:func:`shoe_checks_queue`, after commit:
a burst of rounds is one job, as for the odds); the job reads the shoe's rounds (a few
dozen rows), its committed cards on an authenticated shoe, and the earlier shoes that
share a stretch of its cards or results (by fingerprint, in an index: never history),
runs every check of the pure core (:func:`tables.game.surveillance.shoe_findings`) and
raises what they find, each finding once. A card refused because the shoe no longer
holds it is checked too (:func:`refused_cards_queue`). Nothing here slows or fails the
recording: the job runs after the answer, and logs what fails.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max
from django.utils import timezone

from ..background.runner import enqueue
from ..game.alarms import Finding
from ..game.authentication import PlaintextError, plaintext_card
from ..game.card_accounting import overdealt_findings
from ..game.cards import Card, unpack_cards
from ..game.outcome import Winner
from ..game.seen import CommittedCard, RoundSeen, ShoeSeen, StretchMatch
from ..game.shuffle_checks import Stretch, shoe_card_stretches, shoe_result_stretches
from ..game.surveillance import shoe_findings
from ..game.thresholds import Thresholds
from ..models import Shoe, ShoeCard, ShoeStretch
from ..operations import context
from .advantage import advantage_windows_update
from .alarms import alarm_raise

log = logging.getLogger(__name__)

CHECKS_TASK = "tables.tasks.shoe_checks_run"  # the Celery task's name (tables/background/tasks.py)
REFUSED_TASK = "tables.tasks.refused_cards_check"
CHECKS_QUEUE = "surveillance"  # the embedded runner's thread of its own: checks never hold back a push
QUEUED_SECONDS = 60  # a queued job is taken as lost after this (the next round queues one again)


def _queued_key(shoe_id: int) -> str:
    return f"checks-queued:{shoe_id}"


def shoe_checks_queue(*, shoe_id: int) -> None:
    """After a round commits: queue its shoe's checks, unless a job is already waiting
    (it will see this round too)."""
    try:
        if not cache.add(_queued_key(shoe_id), True, timeout=QUEUED_SECONDS):
            return
    except Exception:
        pass  # no cache: queue it anyway, a second job raises nothing twice
    enqueue(CHECKS_TASK, shoe_checks_run, shoe_id, queue=CHECKS_QUEUE)


def shoe_ended_checks_queue(*, shoe_id: int, authenticated: bool) -> None:
    """After a shoe's end commits: its checks as an ended shoe (a plain shoe's composition
    at its end, an authenticated shoe's accounting), at once; and for an authenticated shoe
    once more when its reveal is due (``REVEAL_DUE_SECONDS`` later), when a card still
    unrevealed is a card not accounted for."""
    enqueue(CHECKS_TASK, shoe_checks_run, shoe_id, queue=CHECKS_QUEUE)
    if authenticated:
        enqueue(CHECKS_TASK, shoe_checks_run, shoe_id, queue=CHECKS_QUEUE, countdown=settings.REVEAL_DUE_SECONDS)


def refused_cards_queue(*, shoe_id: int, cards: list[str]) -> None:
    """A round (or a card) refused because the shoe no longer holds one of its cards:
    that is a card dealt more often than the shoe holds, an alarm as well as a refusal."""
    enqueue(REFUSED_TASK, refused_cards_check, shoe_id, cards, queue=CHECKS_QUEUE)


def thresholds() -> Thresholds:
    """The checks' limits, from the settings (``ALARM_*``)."""
    thresholds: Thresholds = settings.SURVEILLANCE_THRESHOLDS
    return thresholds


def shoe_checks_run(shoe_id: int) -> int:
    """Run every check of the shoe as it stands and raise what they find; returns how
    many alarms were raised (findings raised before are not raised again)."""
    with contextlib.suppress(Exception):
        cache.delete(_queued_key(shoe_id))  # rounds committed from now on queue a job again
    shoe = Shoe.objects.select_related("table").filter(pk=shoe_id).first()
    if shoe is None:
        return 0
    context.bind(table=shoe.table.slug, shoe=shoe.number)
    seen = shoe_seen(shoe)
    seen = replace(
        seen,
        card_matches=_matches(shoe, shoe_card_stretches(seen), ShoeStretch.Kind.CARDS),
        result_matches=_matches(shoe, shoe_result_stretches(seen), ShoeStretch.Kind.RESULTS),
    )
    dealer = shoe.rounds.order_by("-number").values_list("dealer_name", flat=True).first() or ""
    raised = _raise_all(shoe_findings(seen, thresholds()), shoe, dealer)
    if seen.ended:  # the shoe's end closes the advantage windows still open
        raised += advantage_windows_update(shoe_id=shoe.pk)
    return raised


def refused_cards_check(shoe_id: int, cards: list[str]) -> int:
    """The overdealt-card check of the shoe with a refused round's (or card's) cards
    added as if dealt: which card the shoe did not hold, in its evidence."""
    shoe = Shoe.objects.select_related("table").filter(pk=shoe_id).first()
    if shoe is None:
        return 0
    seen = shoe_seen(shoe)
    # The refused cards as a round of their own (one hand holds them all: only which
    # cards left the shoe matters to this check).
    refused = RoundSeen(
        number=(seen.round_number or 0) + 1, player=tuple(Card.parse(c) for c in cards), banker=(), winner=Winner.TIE
    )
    with_refused = replace(seen, rounds=(*seen.rounds, refused))
    return _raise_all(overdealt_findings(with_refused), shoe, shoe.table.dealer_name)


def shoe_seen(shoe: Shoe) -> ShoeSeen:
    """The shoe as the checks read it: its rounds, its burn card and, on an authenticated
    shoe, what became of each committed card. A voided round is in it: a void takes back
    the pays, not the cards, and surveillance watches the cards (the order they came in,
    the shoe they came from)."""
    rows = shoe.rounds.order_by("number")
    rounds = tuple(
        RoundSeen(number=n, player=unpack_cards(p), banker=unpack_cards(b), winner=Winner(w))
        for n, p, b, w in rows.values_list("number", "player_cards", "banker_cards", "winner")
    )
    return ShoeSeen(
        shoe_key=str(shoe.pk),
        decks=shoe.decks,
        rounds=rounds,
        burn_card=Card.parse(shoe.burn_card) if shoe.burn_card else None,
        ended=shoe.state == Shoe.State.CLOSED,
        committed=_committed(shoe, rounds) if shoe.authenticated else (),
        reveal_due=shoe.authenticated and _reveal_due(shoe),
    )


def _reveal_due(shoe: Shoe) -> bool:
    """An ended authenticated shoe's remaining cards should be revealed by now."""
    if shoe.state != Shoe.State.CLOSED or shoe.ended_at is None:
        return False
    return (timezone.now() - shoe.ended_at).total_seconds() >= settings.REVEAL_DUE_SECONDS - 1


def _committed(shoe: Shoe, rounds: tuple[RoundSeen, ...]) -> tuple[CommittedCard, ...]:
    """Each committed card: its state, the card its plaintext names, and the card it was
    dealt as (the burn card, or the dealt cards in dealing order, card number by number)."""
    dealt = iter(card for r in rounds for card in r.cards)
    found = []
    for number, state, plaintext in shoe.card_rows.order_by("number").values_list("number", "state", "plaintext"):
        named = None
        if plaintext:
            with contextlib.suppress(PlaintextError):
                named = plaintext_card(plaintext)
        dealt_as = None
        if state == ShoeCard.State.BURN_CARD and shoe.burn_card:
            dealt_as = Card.parse(shoe.burn_card)
        elif state == ShoeCard.State.DEALT:
            dealt_as = next(dealt, None)
        found.append(CommittedCard(number=number, state=state, plaintext_card=named, dealt_as=dealt_as))
    return tuple(found)


def _matches(shoe: Shoe, stretches: list[Stretch], kind: str) -> tuple[StretchMatch, ...]:
    """Store the shoe's stretches not stored yet (those its latest rounds completed), then
    find every one of its stretches in other shoes, any table, by fingerprint: an index
    lookup of a few hundred values at most, whatever the history behind it."""
    stored = ShoeStretch.objects.filter(shoe=shoe, kind=kind).aggregate(last=Max("position"))["last"]
    new = [s for s in stretches if stored is None or s.position > stored]
    ShoeStretch.objects.bulk_create(
        [ShoeStretch(shoe=shoe, kind=kind, position=s.position, fingerprint=s.fingerprint) for s in new],
        ignore_conflicts=True,  # stored meanwhile by a job run twice at once: the same stretch, the same place
    )
    here: dict[int, list[int]] = {}
    for stretch in stretches:
        here.setdefault(stretch.fingerprint, []).append(stretch.position)
    if not here:
        return ()
    found = (
        ShoeStretch.objects.filter(kind=kind, fingerprint__in=list(here))
        .exclude(shoe=shoe)
        .values_list("shoe_id", "position", "fingerprint")
    )
    return tuple(
        StretchMatch(earlier_shoe=str(other), position=position, earlier_position=there)
        for other, there, fingerprint in found
        for position in here[fingerprint]
    )


def _raise_all(findings: list[Finding], shoe: Shoe, dealer: str) -> int:
    return sum(alarm_raise(finding, table=shoe.table, shoe=shoe, dealer=dealer) is not None for finding in findings)
