"""Alarms sent to the casino's systems: each to every active webhook that wants its kind,
as a signed JSON POST, retried with backoff until the receiver takes it.

An alarm's commit makes one outbox row per webhook (:func:`alarm_deliveries_queue`),
then queues its first attempt: a Celery task with a broker, else a job on this process's
``webhooks`` runner (its own thread: a slow receiver never holds back the odds). An
attempt (:func:`delivery_attempt`) claims its delivery with a conditional update, so no
delivery is ever sent twice at once, POSTs it, keeps the attempt in the log and, unless
it was taken, queues the next one. Retries lost with a restarted server or a broker's
queue are found by :func:`deliveries_due_queue` (Celery beat, or the ASGI server's sweep).
docs/webhooks.md is the receiver's side: the payload, the signature, the retries.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import time
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import NoReverseMatch, reverse

from ..background.runner import enqueue
from ..models import Alarm, Webhook, WebhookAttempt, WebhookDelivery
from ..models.webhooks import ERROR_CHARS, webhook_secret
from ..operations.metrics import WEBHOOK_ABANDONED, WEBHOOK_ATTEMPTS, WEBHOOK_DELIVERED, WEBHOOK_FAILED
from . import breaker, sending
from .breaker import LEASE_MARGIN
from .sending import Sent

log = logging.getLogger(__name__)

ATTEMPT_TASK = "tables.tasks.webhook_delivery_attempt"  # the Celery tasks' names (tables/background/tasks.py)
SWEEP_TASK = "tables.tasks.webhook_deliveries_due_queue"
QUEUE = settings.WEBHOOK_QUEUE  # Celery's queue of deliveries (its routes), and the embedded runner's thread
EVENT = WebhookDelivery.Event.RAISED.value  # an alarm's first event, and the one a webhook made without events got
SIGNATURE_HEADER = "X-Baccarat-Signature"
EVENT_HEADER = "X-Baccarat-Event"
DELIVERY_HEADER = "X-Baccarat-Delivery"
USER_AGENT = "baccarat-roads-webhooks/1"
DUE_SLACK = 1.0  # seconds: a retry's job woken this early still counts as due
SWEEP_BATCH = 500  # deliveries queued by one sweep at most (the next takes the rest)


class Clock(Protocol):
    def time(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    def time(self) -> float:
        return time.time()


_clock: Clock = SystemClock()


def install_clock(clock: Clock | None) -> None:
    """Read the time from ``clock`` (``None``: the system's). Tests install one they move,
    with the runner that runs the retries as it passes them."""
    global _clock
    _clock = clock or SystemClock()


def _now() -> datetime:
    return datetime.fromtimestamp(_clock.time(), tz=UTC)


def alarm_deliveries_queue(*, alarm_pk: int, event: str = EVENT) -> int:
    """After the commit of an alarm's ``event`` (raised, escalated, resolved): a delivery
    for each active webhook that wants its kind, then each one's first attempt queued.
    Each event of an alarm goes to a webhook once, however often this runs (the outbox
    row is unique). Returns how many deliveries it made; never raises (the alarm is
    stored; the sweep sends what this could not queue)."""
    try:
        kind = Alarm.objects.filter(pk=alarm_pk).values_list("kind", flat=True).first()
        if kind is None:
            return 0
        now, made = _now(), []
        for webhook in Webhook.objects.filter(active=True):
            if not webhook.wants(kind):
                continue
            try:
                with transaction.atomic():
                    delivery = WebhookDelivery.objects.create(
                        webhook=webhook, alarm_id=alarm_pk, event=event, next_attempt_at=now, created_at=now
                    )
            except IntegrityError:
                continue  # made already (the alarm queued twice): its own attempts are under way
            made.append(delivery.pk)
    except Exception:
        log.exception("could not make the webhook deliveries of alarm %s", alarm_pk)
        return 0
    for delivery_pk in made:
        _queue(delivery_pk)
    return len(made)


def _queue(delivery_pk: int, delay: float = 0) -> None:
    enqueue(ATTEMPT_TASK, delivery_attempt_job, delivery_pk, queue=QUEUE, countdown=delay)


def delivery_attempt_job(delivery_pk: int) -> None:
    """The job (on the embedded runner) or task body (on a Celery worker) of one attempt."""
    delivery_attempt(delivery_pk=delivery_pk)


def delivery_attempt(*, delivery_pk: int) -> WebhookAttempt | None:
    """One attempt at a delivery, if it is pending and due and its webhook active: POST,
    log the attempt, then mark it delivered (2xx), or abandoned (its horizon passed), or
    queue the next attempt after a backoff. Returns the attempt, or ``None`` when there
    was nothing to do (delivered already, not due yet, another attempt under way).
    Never raises: a failure is logged and the sweep tries again."""
    try:
        return _attempt(delivery_pk)
    except Exception:
        log.exception("webhook delivery %s: the attempt failed", delivery_pk)
        return None


def _attempt(delivery_pk: int) -> WebhookAttempt | None:
    now = _now()
    webhook_pk = WebhookDelivery.objects.filter(pk=delivery_pk).values_list("webhook_id", flat=True).first()
    if webhook_pk is None:
        return None
    paused_until = breaker.attempt_allowed(webhook_pk=webhook_pk, now=now)
    if paused_until is not None:
        _wait_for_trial(delivery_pk, paused_until, now)
        return None
    lease = now + timedelta(seconds=settings.WEBHOOK_TIMEOUT + LEASE_MARGIN)
    # The claim: one conditional update, so two jobs of one delivery (a retry and the
    # sweep's) never both send it; until the lease ends the delivery is not due.
    claimed = WebhookDelivery.objects.filter(
        pk=delivery_pk,
        state=WebhookDelivery.State.PENDING,
        next_attempt_at__lte=now + timedelta(seconds=DUE_SLACK),
        webhook__active=True,
    ).update(attempts=F("attempts") + 1, next_attempt_at=lease)
    if not claimed:
        breaker.trial_given_back(webhook_pk=webhook_pk, now=now)
        return None
    delivery = WebhookDelivery.objects.select_related("webhook", "alarm__table", "alarm__shoe").get(pk=delivery_pk)
    body = payload_body(delivery)
    sent = _post(delivery.webhook, body, delivery_id=delivery.pk, event=delivery.event)
    WEBHOOK_ATTEMPTS.inc()
    finished = _now()
    breaker.outcome_record(webhook_pk=webhook_pk, ok=sent.ok, now=finished)
    retry_in: float | None = None
    with transaction.atomic():
        attempt = WebhookAttempt.objects.create(
            delivery=delivery,
            number=delivery.attempts,
            at=finished,
            status_code=sent.status_code,
            error=sent.error[:ERROR_CHARS],
            duration_ms=sent.duration_ms,
            answer_bytes=sent.answer_bytes,
        )
        settled = WebhookDelivery.objects.filter(pk=delivery.pk, state=WebhookDelivery.State.PENDING)
        if attempt.succeeded:
            settled.update(state=WebhookDelivery.State.DELIVERED, delivered_at=finished, next_attempt_at=None)
        elif _past_horizon(delivery, finished):
            settled.update(state=WebhookDelivery.State.ABANDONED, next_attempt_at=None)
        else:
            retry_in = retry_delay(delivery.attempts)
            settled.update(next_attempt_at=finished + timedelta(seconds=retry_in))
    if attempt.succeeded:
        WEBHOOK_DELIVERED.inc()
    else:
        WEBHOOK_FAILED.labels(why="status" if sent.status_code is not None else "error").inc()
        if retry_in is None:
            WEBHOOK_ABANDONED.inc()
            log.warning("webhook delivery %s abandoned after %d attempts", delivery.pk, delivery.attempts)
        else:
            _queue(delivery.pk, retry_in)
    return attempt


def _past_horizon(delivery: WebhookDelivery, now: datetime) -> bool:
    return (now - delivery.created_at).total_seconds() >= settings.WEBHOOK_GIVE_UP_SECONDS


def _wait_for_trial(delivery_pk: int, paused_until: datetime, now: datetime) -> None:
    """The webhook is paused (its breaker open): the delivery waits for the trial, its
    next attempt due when the pause ends (no attempt counted, nothing sent), or is
    abandoned if its horizon has passed meanwhile."""
    due = WebhookDelivery.objects.filter(
        pk=delivery_pk, state=WebhookDelivery.State.PENDING, next_attempt_at__lte=now + timedelta(seconds=DUE_SLACK)
    )
    delivery = due.only("created_at").first()
    if delivery is None:
        return
    if _past_horizon(delivery, now):
        if due.update(state=WebhookDelivery.State.ABANDONED, next_attempt_at=None):
            WEBHOOK_ABANDONED.inc()
            log.warning("webhook delivery %s abandoned while its webhook was paused", delivery_pk)
        return
    if due.update(next_attempt_at=paused_until):
        _queue(delivery_pk, max(0.0, (paused_until - now).total_seconds()))


def retry_delay(attempts: int, *, jitter: float | None = None) -> float:
    """Seconds before the attempt after ``attempts`` failed ones: WEBHOOK_RETRY_SECONDS,
    doubling each time up to WEBHOOK_RETRY_MAX_SECONDS, of which the last quarter is
    random (``jitter`` in [0, 1), drawn when not given) so receivers coming back up are
    not hit by every delivery in the same second."""
    base = min(settings.WEBHOOK_RETRY_MAX_SECONDS, settings.WEBHOOK_RETRY_SECONDS * 2 ** max(0, attempts - 1))
    drawn = random.random() if jitter is None else jitter  # spreading retries, not a secret
    return base * (0.75 + 0.25 * drawn)


def deliveries_due_queue(*, older_than: float = 0) -> int:
    """Queue an attempt of each pending delivery (of an active webhook) that was due at
    least ``older_than`` seconds ago: its job was lost with a restarted server (the
    embedded runner keeps them in memory) or a broker's queue, or its attempt died
    mid-POST (its lease ran out). Run at server start-up and periodically. Returns how
    many it queued; a delivery whose own job runs meanwhile is claimed once."""
    due_before = _now() - timedelta(seconds=older_than)
    due = list(
        WebhookDelivery.objects.filter(
            state=WebhookDelivery.State.PENDING, next_attempt_at__lte=due_before, webhook__active=True
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    for delivery_pk in due:
        _queue(delivery_pk)
    return len(due)


def payload(delivery: WebhookDelivery) -> dict[str, Any]:
    """What a receiver is sent (docs/webhooks.md): what became of the alarm (its event),
    the alarm as it is now, and the delivery's id, the same on every retry, so a receiver
    can tell one it already has."""
    alarm = delivery.alarm
    return {
        "event": delivery.event,
        "delivery": delivery.pk,
        "alarm": {
            "id": alarm.pk,
            "kind": alarm.kind,
            "severity": alarm.severity,
            "state": alarm.state,
            "table": {"slug": alarm.table.slug, "name": alarm.table.name},
            "shoe": alarm.shoe.number if alarm.shoe else None,
            "round": alarm.round_number,
            "dealer": alarm.dealer_name,
            "evidence": alarm.evidence,
            "raised_at": alarm.raised_at.astimezone(UTC).isoformat(),
            "escalated_at": alarm.escalated_at.astimezone(UTC).isoformat() if alarm.escalated_at else None,
            "count": alarm.count,
            "link": alarm_link(alarm.pk),
        },
    }


def payload_body(delivery: WebhookDelivery) -> bytes:
    return json.dumps(payload(delivery), separators=(",", ":"), ensure_ascii=False).encode()


def alarm_link(alarm_pk: int) -> str:
    """The alarm's page in admin, as a path (the receiver knows the site's address)."""
    try:
        return reverse("admin:tables_alarm_change", args=[alarm_pk])
    except NoReverseMatch:  # the alarm's admin page not registered: its conventional address
        return f"{reverse('admin:index')}tables/alarm/{alarm_pk}/change/"


def signature(*, secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Baccarat-Signature`` header: ``t=<unix seconds>,v1=<hex HMAC-SHA256 of
    "<t>.<body>" keyed with the webhook's secret>`` (Stripe's scheme: the timestamp is
    signed too, so a receiver refuses a replay of an old delivery)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def _post(webhook: Webhook, body: bytes, *, delivery_id: int | None, event: str = EVENT) -> Sent:
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_HEADER: event,
        SIGNATURE_HEADER: signature(secret=webhook.secret, timestamp=int(_clock.time()), body=body),
    }
    if delivery_id is not None:
        headers[DELIVERY_HEADER] = str(delivery_id)
    return sending.post(
        webhook.url, body, headers, seconds=settings.WEBHOOK_TIMEOUT, private_allowed=webhook.private_address_allowed
    )


def webhook_ping(*, webhook: Webhook) -> Sent:
    """Send ``webhook`` a signed test event (``ping``) now, whatever its kinds and state:
    admin's check that the receiver answers and verifies the signature. Not an alarm,
    so not in the delivery log."""
    body = json.dumps({"event": "ping", "webhook": webhook.pk}, separators=(",", ":")).encode()
    return _post(webhook, body, delivery_id=None, event="ping")


def webhook_secret_rotate(*, webhook: Webhook) -> str:
    """A new signing secret for ``webhook``, in force from its next attempt on (the
    receiver must be given it: deliveries it cannot verify are refused and retried)."""
    webhook.secret = webhook_secret()
    webhook.save(update_fields=["secret"])
    return webhook.secret
