"""A circuit breaker per webhook: a receiver that keeps failing is tried less often.

After ``WEBHOOK_BREAKER_FAILURES`` failed attempts in a row (of any of its deliveries)
a webhook is paused: one attempt is made when the pause ends (the trial, taken by one
conditional update, so however many deliveries wait, one POST goes), and the rest wait
for its outcome. A trial that fails pauses it again, twice as long each time up to
``WEBHOOK_RETRY_MAX_SECONDS``; one that succeeds closes the breaker, and every waiting
delivery goes at once. Its admin page says so (failing since, paused until).

The state lives on the webhook's row, so every worker and server process shares it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce

from ..models import Webhook

LEASE_MARGIN = 30.0  # seconds past the attempt's deadline after which a trial that never finished is taken as lost


def pause_seconds(failures_in_row: int) -> float | None:
    """How long a webhook with ``failures_in_row`` failed attempts is paused: ``None``
    under the threshold, then WEBHOOK_BREAKER_PAUSE_SECONDS doubling with each further
    failure, up to WEBHOOK_RETRY_MAX_SECONDS."""
    beyond = failures_in_row - settings.WEBHOOK_BREAKER_FAILURES
    if beyond < 0:
        return None
    return float(min(settings.WEBHOOK_RETRY_MAX_SECONDS, settings.WEBHOOK_BREAKER_PAUSE_SECONDS * 2 ** min(beyond, 30)))


def attempt_allowed(*, webhook_pk: int, now: datetime) -> datetime | None:
    """``None`` when an attempt at one of the webhook's deliveries may go now: its breaker
    is closed, or it is open, its pause is over and this caller took the trial (until the
    trial's lease ends nobody else does). Otherwise when the next trial is due."""
    paused = Webhook.objects.filter(pk=webhook_pk).values_list("failures_in_row", "paused_until").first()
    if paused is None:
        return None  # gone: the delivery's own query finds nothing to do
    failures, until = paused
    if pause_seconds(failures) is None:
        return None
    lease = now + timedelta(seconds=settings.WEBHOOK_TIMEOUT + LEASE_MARGIN)
    taken = (
        Webhook.objects.filter(pk=webhook_pk)
        .filter(Q(paused_until__isnull=True) | Q(paused_until__lte=now))
        .update(paused_until=lease)
    )
    if taken:
        return None
    return until if until is not None else lease


def trial_given_back(*, webhook_pk: int, now: datetime) -> None:
    """The trial was taken but no attempt made (its delivery was not due after all): the
    next one may go at once."""
    Webhook.objects.filter(pk=webhook_pk, failures_in_row__gte=settings.WEBHOOK_BREAKER_FAILURES).update(
        paused_until=now
    )


def outcome_record(*, webhook_pk: int, ok: bool, now: datetime) -> None:
    """An attempt's outcome: a success closes the breaker; a failure counts, and past
    the threshold pauses the webhook."""
    if ok:
        Webhook.objects.filter(pk=webhook_pk).exclude(failures_in_row=0, paused_until__isnull=True).update(
            failures_in_row=0, failing_since=None, paused_until=None
        )
        return
    counted = Webhook.objects.filter(pk=webhook_pk)
    counted.update(failures_in_row=F("failures_in_row") + 1, failing_since=Coalesce("failing_since", Value(now)))
    failures = counted.values_list("failures_in_row", flat=True).first()
    pause = None if failures is None else pause_seconds(failures)
    if pause is not None:
        counted.update(paused_until=now + timedelta(seconds=pause))
