"""Exact odds after each round, computed in the background and stored on the round.

A recorded round queues one job for its shoe (:func:`round_odds_queue`, after commit):
on a Celery worker when there is a broker, else on this process's runner. The job
stores the odds of every round of the shoe still without them and pushes the odds
panel. Jobs lost with a killed process or a broker's queue are found by the sweep
(:func:`rounds_without_odds_compute`: Celery beat, or the ASGI server's loop in
:mod:`.sweeps`).
"""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db.models import BooleanField, ExpressionWrapper, Max, Q
from django.dispatch import Signal
from django.utils import timezone

from .. import live
from ..game.bets import Paytable
from ..game.cards import Card, unpack_cards
from ..game.odds import Composition, CompositionError, ShoeOdds, shoe_odds
from ..models import Round
from ..operations import context
from ..operations.metrics import ODDS_QUEUED, ODDS_RUNNING, ODDS_SECONDS, ODDS_SWEPT
from .runner import enqueue

log = logging.getLogger(__name__)

# Sent (``shoe_id``, ``table_id``) once a job has stored odds of a shoe's rounds: what
# listens to the odds (advantage windows, tables/surveillance/advantage.py) subscribes to
# it in its own room, and the job knows none of them.
odds_stored = Signal()

ODDS_TASK = "tables.tasks.round_odds_compute"  # the Celery task's name (tasks.py), kept since the first release
ODDS_QUEUED_SECONDS = 60  # a queued odds task is taken as lost after this


def _odds_queued_key(shoe_id: int) -> str:
    return f"odds-queued:{shoe_id}"


def round_odds_queue(*, shoe_id: int, round_pk: int) -> None:
    """After a round commits: queue the task that computes its shoe's odds, unless one
    is already waiting (it will compute this round too), so a burst of rounds is one
    task. The mark expires, so a task lost with its broker is queued again later."""
    try:
        if not cache.add(_odds_queued_key(shoe_id), True, timeout=ODDS_QUEUED_SECONDS):
            return
    except Exception:
        pass  # no cache: queue it anyway, a second task is harmless
    enqueue(ODDS_TASK, round_odds_compute_job, round_pk)
    ODDS_QUEUED.inc()


def round_odds_compute_job(round_pk: int) -> None:
    """The job (on the embedded runner) or task body (on a Celery worker) of one round."""
    with ODDS_RUNNING.track_inprogress(), ODDS_SECONDS.time():
        round_odds_compute(round_pk=round_pk)


def round_odds_compute(*, round_pk: int) -> int:
    """Store the odds of the shoe left after each round of this round's shoe still
    without them (this round, the ones recorded since it was queued, and any whose
    task was lost while the broker was down), then push. Rounds that have their odds
    already are left alone, so a retried task is harmless. Returns how many rounds got
    their odds. The shoe starts without its burn card, which was shown; the cards burned
    face down are unknown, so they stay in the count: the odds are exact for what the
    table has shown."""
    round_ = Round.objects.select_related("shoe__table").filter(pk=round_pk).first()
    if round_ is None:
        return 0
    shoe, table = round_.shoe, round_.shoe.table
    context.bind(table=table.slug, shoe=shoe.number, round=round_.number)
    with contextlib.suppress(Exception):
        cache.delete(_odds_queued_key(shoe.pk))  # rounds committed from now on queue a task again
    paytable = table.get_paytable()
    burn = Card.parse(shoe.burn_card) if shoe.burn_card else None
    composition, stored, owed = Composition.opening(shoe.decks, burn), 0, ""
    # Each round's cards and whether its odds are missing, not the rounds (their odds, a
    # JSON field each, are what this job writes); the shoe left is worked out at the
    # rounds without odds only, once for the cards dealt since the one before.
    pending = ExpressionWrapper(Q(odds__isnull=True), output_field=BooleanField())
    rows = (
        shoe.rounds.order_by("number")
        .annotate(pending=pending)
        .values_list("pk", "player_cards", "banker_cards", "pending")
    )
    for pk, player_cards, banker_cards, without_odds in rows:
        owed += player_cards + banker_cards
        if not without_odds:
            continue
        composition, owed = composition.without(unpack_cards(owed)), ""
        if Round.objects.filter(pk=pk, odds__isnull=True).update(odds=_odds_of(composition, paytable)):
            stored += 1
    if stored:
        live.odds_changed(table.pk)
        for receiver, failed in odds_stored.send_robust(sender=Round, shoe_id=shoe.pk, table_id=table.pk):
            if isinstance(failed, Exception):
                log.warning("%s failed on the odds of shoe %s", receiver, shoe.pk, exc_info=failed)
    return stored


SWEEP_SHOES = 20  # shoes a sweep computes at most (newest first); the next sweep takes the next ones
SWEEP_LOCK = "odds-sweep-running"
SWEEP_LOCK_SECONDS = 600  # a sweep whose process died frees the lock after this


def rounds_without_odds_compute(*, older_than: float = 0, shoes: int = SWEEP_SHOES) -> int:
    """Find the rounds still without odds, recorded at least ``older_than`` seconds ago,
    and compute them, a shoe at a time (the ``shoes`` newest shoes that have any, so the
    tables in play come first), pushing each table's odds as they are stored. Their jobs
    were lost: the server that queued them was killed (the embedded default queues them
    in its own memory), or the broker lost its queue. Run at server start-up
    (everything is lost then) and periodically (with a grace period for jobs still
    queued). One sweep at a time across every process (a lock in the cache): two sweeps
    over a bulk-loaded history held both workers for minutes. Returns how many rounds
    got their odds (0 when another sweep is under way)."""
    token = object().__repr__()
    try:
        if not cache.add(SWEEP_LOCK, token, timeout=SWEEP_LOCK_SECONDS):
            return 0
    except Exception:
        pass  # no cache: sweep anyway (the embedded default sweeps from one loop)
    try:
        recorded_before = timezone.now() - timedelta(seconds=older_than)
        latest_per_shoe = (
            Round.objects.filter(odds__isnull=True, created_at__lte=recorded_before)
            .values("shoe_id")
            .annotate(last=Max("pk"))
            .order_by("-last")
            .values_list("last", flat=True)[:shoes]
        )
        stored = sum(round_odds_compute(round_pk=pk) for pk in list(latest_per_shoe))
    finally:
        with contextlib.suppress(Exception):
            if cache.get(SWEEP_LOCK) == token:
                cache.delete(SWEEP_LOCK)
    ODDS_SWEPT.inc(stored)
    return stored


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
