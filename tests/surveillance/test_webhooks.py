"""Alarms sent to the casino's systems (issue 35): a receiver verifies each delivery's
signature with the documented snippet, gets every alarm once even when it refused the
first attempts or was down for an hour, and the delivery log shows each attempt."""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import replace
from datetime import UTC, timedelta

import pytest
from django.conf import settings
from django.db import connections

from tables.background import runner as background
from tables.background import tasks
from tables.background.sweeps import webhook_sweep_forever
from tables.game.alarms import AlarmKind, Finding, Severity
from tables.models import Alarm, AlarmNote, WebhookAttempt, WebhookDelivery
from tables.surveillance import webhooks
from tables.surveillance.alarms import alarm_note
from tests.surveillance.findings import OUTCOMES, STREAK
from tests.surveillance.receiver import CLOSE, documented_verify

HOUR = 3600

pytestmark = pytest.mark.django_db


def log_of(delivery: WebhookDelivery) -> list[tuple[int, int | None]]:
    return list(delivery.attempt_log.order_by("number").values_list("number", "status_code"))


def test_every_alarm_arrives_once_signed_even_when_the_receiver_refused_the_first_attempts(
    clock, receiver, hook, raise_alarm
) -> None:
    # Each delivery: refused with a 500, then the connection closed unanswered, then taken.
    receiver.answer = lambda tries, request: [500, CLOSE, 200][min(tries, 2)]
    hook()
    streak, outcomes = raise_alarm(STREAK), raise_alarm(OUTCOMES)
    assert raise_alarm(STREAK) is None  # found again: the same alarm, not sent again
    assert webhooks.alarm_deliveries_queue(alarm_pk=streak.pk) == 0  # its deliveries are made once
    assert len(receiver.received) == 2 and not receiver.accepted()
    clock.advance(HOUR)

    assert all(request.verified for request in receiver.received)
    assert sorted(r.json["alarm"]["id"] for r in receiver.accepted()) == [streak.pk, outcomes.pk]
    assert len(receiver.received) == 6
    for alarm in (streak, outcomes):
        delivery = WebhookDelivery.objects.get(alarm=alarm)
        assert delivery.state == WebhookDelivery.State.DELIVERED and delivery.attempts == 3
        assert log_of(delivery) == [(1, 500), (2, None), (3, 200)]
        refused, closed, taken = delivery.attempt_log.order_by("number")
        # The answer's length, never its text (a receiver's answer may be an internal page).
        assert (refused.answer_bytes, refused.error, refused.response_excerpt) == (len(b'{"error": "not now"}'), "", "")
        assert "RemoteDisconnected" in closed.error
        assert taken.answer_bytes == len(b'{"ok": true}') and taken.at == delivery.delivered_at
    assert clock.waiting == 0, "nothing left to retry"


def test_a_receiver_down_for_an_hour_loses_nothing(clock, receiver, hook, raise_alarm) -> None:
    receiver.answer = lambda tries, request: 503 if clock.now < HOUR else 200
    hook()
    alarm = raise_alarm(STREAK)
    clock.advance(2 * HOUR)

    [taken] = receiver.accepted()
    assert taken.json["alarm"]["id"] == alarm.pk
    delivery = WebhookDelivery.objects.get(alarm=alarm)
    statuses = [status for _, status in log_of(delivery)]
    assert statuses[-1] == 200 and set(statuses[:-1]) == {503} and len(statuses) >= 10
    assert [number for number, _ in log_of(delivery)] == list(range(1, len(statuses) + 1))
    assert delivery.state == WebhookDelivery.State.DELIVERED
    # backed off: 10 s, doubling, at most 10 minutes apart (with jitter)
    times = list(delivery.attempt_log.order_by("number").values_list("at", flat=True))
    gaps = [(later - earlier).total_seconds() for earlier, later in itertools.pairwise(times)]
    # (the breaker's pause is at most ten minutes too; times are kept to the microsecond)
    assert 7.5 <= gaps[0] <= 10 and 15 <= gaps[1] <= 20 and max(gaps) <= 600.001
    assert (times[-1] - times[-2]).total_seconds() <= 600.001  # taken within ten minutes of coming back


def test_a_delivery_is_abandoned_only_after_its_horizon(clock, receiver, hook, raise_alarm, settings) -> None:
    settings.WEBHOOK_GIVE_UP_SECONDS = 2 * HOUR
    receiver.answer = lambda tries, request: 500
    hook()
    alarm = raise_alarm(STREAK)
    clock.advance(HOUR)
    assert WebhookDelivery.objects.get(alarm=alarm).state == WebhookDelivery.State.PENDING
    clock.advance(2 * HOUR)
    delivery = WebhookDelivery.objects.get(alarm=alarm)
    assert delivery.state == WebhookDelivery.State.ABANDONED and delivery.next_attempt_at is None
    tries = len(receiver.received)
    clock.advance(HOUR)
    assert len(receiver.received) == tries == delivery.attempts and clock.waiting == 0


def test_the_payload_and_its_headers(clock, receiver, hook, raise_alarm, shoe) -> None:
    webhook = hook()
    alarm = raise_alarm(STREAK)
    [request] = receiver.received
    delivery = WebhookDelivery.objects.get(alarm=alarm, webhook=webhook)
    assert request.headers["X-Baccarat-Event"] == "alarm.raised"
    assert request.headers["X-Baccarat-Delivery"] == str(delivery.pk)
    assert request.headers["Content-Type"] == "application/json"
    timestamp, signature = request.headers["X-Baccarat-Signature"].split(",")
    assert timestamp == f"t={int(clock.time())}" and signature.startswith("v1=") and len(signature) == 3 + 64
    assert request.json == {
        "event": "alarm.raised",
        "delivery": delivery.pk,
        "alarm": {
            "id": alarm.pk,
            "kind": "streak",
            "severity": "warning",
            "state": "open",
            "table": {"slug": "baccarat-1", "name": "Baccarat 1"},
            "shoe": shoe.number,
            "round": 37,
            "dealer": "Anna",
            "evidence": {"test": "longest run", "statistic": 13, "p_value": 0.0004, "rounds": [25, 37]},
            "raised_at": alarm.raised_at.astimezone(UTC).isoformat(),
            "escalated_at": None,
            "count": 1,
            "link": f"/admin/tables/alarm/{alarm.pk}/change/",
        },
    }


def test_an_episode_is_sent_raised_escalated_and_resolved_once_each_whatever_it_gathers(
    clock, receiver, hook, raise_alarm, desk_reviewer, django_capture_on_commit_callbacks
) -> None:
    hook()
    warning = Finding(AlarmKind.STREAK, Severity.WARNING, "banker-run-13", 37, {"test": "streak_length"})
    alarm = raise_alarm(warning)
    for length in (14, 15):  # the same episode, a longer run each round: gathered, not sent
        assert raise_alarm(replace(warning, key=f"banker-run-{length}")) is None
    with django_capture_on_commit_callbacks(execute=True):
        alarm_note(alarm=alarm, action=AlarmNote.Action.ACKNOWLEDGE, note="Watching the table.", user=desk_reviewer)
    for length in (20, 21):  # critical now: escalated once, still acknowledged
        assert raise_alarm(replace(warning, key=f"banker-run-{length}", severity=Severity.CRITICAL)) is None
    alarm.refresh_from_db()
    assert (alarm.state, alarm.severity, alarm.count) == ("acknowledged", "critical", 5)
    with django_capture_on_commit_callbacks(execute=True):
        alarm_note(alarm=alarm, action=AlarmNote.Action.RESOLVE, note="Shoe changed.", user=desk_reviewer)
    events = [(r.headers["X-Baccarat-Event"], r.json["event"], r.json["alarm"]["id"]) for r in receiver.accepted()]
    assert events == [
        ("alarm.raised", "alarm.raised", alarm.pk),
        ("alarm.escalated", "alarm.escalated", alarm.pk),
        ("alarm.resolved", "alarm.resolved", alarm.pk),
    ]
    escalated = receiver.accepted()[1].json["alarm"]
    assert escalated["severity"] == "critical" and escalated["escalated_at"] is not None
    assert WebhookDelivery.objects.filter(alarm=alarm).count() == 3


def test_the_documented_verification_refuses_a_changed_body_another_secret_and_an_old_timestamp() -> None:
    verify, body = documented_verify(), json.dumps({"event": "alarm.raised", "delivery": 1}).encode()
    header = webhooks.signature(secret="s3cret", timestamp=1_800_000_000, body=body)
    assert verify("s3cret", header, body, now=1_800_000_100)
    assert not verify("s3cret", header, body + b" ", now=1_800_000_100)
    assert not verify("another", header, body, now=1_800_000_100)
    assert not verify("s3cret", header, body, now=1_800_000_301)  # past the five minutes' tolerance
    assert not verify("s3cret", "v1=abc", body, now=1_800_000_100)
    assert not verify("s3cret", "", body, now=1_800_000_100)


def test_each_webhook_gets_the_kinds_it_chose_and_an_inactive_one_nothing(clock, receiver, hook, raise_alarm) -> None:
    hook("/streaks", kinds=[AlarmKind.STREAK.value])
    hook("/everything")
    hook("/switched-off", active=False)
    streak, outcomes = raise_alarm(STREAK), raise_alarm(OUTCOMES)
    clock.advance(HOUR)
    got = sorted((r.path, r.json["alarm"]["id"]) for r in receiver.accepted())
    assert got == sorted([("/streaks", streak.pk), ("/everything", streak.pk), ("/everything", outcomes.pk)])
    assert all(r.verified for r in receiver.received) and len(receiver.received) == 3
    assert not WebhookDelivery.objects.filter(webhook__name="switched-off").exists()


def test_a_deactivated_webhook_is_sent_nothing_until_it_is_active_again(clock, receiver, hook, raise_alarm) -> None:
    receiver.answer = lambda tries, request: 500
    webhook = hook()
    alarm = raise_alarm(STREAK)
    webhook.active = False
    webhook.save()
    clock.advance(HOUR)
    assert len(receiver.received) == 1  # its retry found it inactive
    receiver.answer = lambda tries, request: 200
    webhook.active = True
    webhook.save()
    assert webhooks.deliveries_due_queue(older_than=settings.WEBHOOK_SWEEP_SECONDS) == 1
    assert [r.json["alarm"]["id"] for r in receiver.accepted()] == [alarm.pk]


class LostJobs:
    """A runner whose jobs die with it: the server restarted before they ran."""

    def __init__(self) -> None:
        self.lost = 0

    def run_later(self, delay: float, job: object, *args: object) -> None:
        self.lost += 1

    def drain(self, timeout: float = 30) -> None:
        pass


def test_the_sweep_sends_a_pending_delivery_whose_job_was_lost(clock, receiver, hook, raise_alarm) -> None:
    hook()
    lost = LostJobs()
    background.install(lost, queue=webhooks.QUEUE)
    alarm = raise_alarm(STREAK)
    assert lost.lost == 1 and receiver.received == []
    background.install(clock, queue=webhooks.QUEUE)  # the next server's runner

    # A periodic sweep leaves a delivery due for less than its period to its own job...
    assert webhooks.deliveries_due_queue(older_than=60) == 0
    clock.advance(61)
    # ... and queues it once it has waited that long (beat's task: the same sweep).
    tasks.webhook_deliveries_due_queue()
    [taken] = receiver.accepted()
    assert taken.json["alarm"]["id"] == alarm.pk and taken.verified
    assert webhooks.deliveries_due_queue() == 0  # delivered: a second sweep sends nothing


def test_an_attempt_under_way_is_not_made_again_until_its_lease_runs_out(clock, receiver, hook, raise_alarm) -> None:
    receiver.answer = lambda tries, request: 500
    hook()
    alarm = raise_alarm(STREAK)
    delivery = WebhookDelivery.objects.get(alarm=alarm)
    # Another attempt claimed it: its POST under way, or its process killed mid-POST.
    lease = settings.WEBHOOK_TIMEOUT + webhooks.LEASE_MARGIN
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=webhooks._now() + timedelta(seconds=lease))
    assert webhooks.delivery_attempt(delivery_pk=delivery.pk) is None
    assert webhooks.deliveries_due_queue() == 0 and len(receiver.received) == 1
    clock.now += lease  # the lease ran out: the sweep takes it
    receiver.answer = lambda tries, request: 200
    assert webhooks.deliveries_due_queue() == 1
    assert len(receiver.accepted()) == 1 and WebhookDelivery.objects.get(pk=delivery.pk).attempts == 2


def test_a_delivered_alarm_is_never_sent_again(clock, receiver, hook, raise_alarm) -> None:
    hook()
    alarm = raise_alarm(STREAK)
    delivery = WebhookDelivery.objects.get(alarm=alarm)
    assert webhooks.delivery_attempt(delivery_pk=delivery.pk) is None
    webhooks.delivery_attempt_job(delivery.pk)
    assert len(receiver.received) == 1 and WebhookAttempt.objects.count() == 1


def test_attempts_are_append_only(clock, receiver, hook, raise_alarm) -> None:
    hook()
    raise_alarm(STREAK)
    attempt = WebhookAttempt.objects.get()
    attempt.status_code = 500
    with pytest.raises(Exception, match="never changed"):
        attempt.save()
    with pytest.raises(Exception, match="never deleted"):
        attempt.delete()


def test_a_receiver_that_does_not_exist_is_an_error_in_the_log_and_nothing_raises(clock, hook, raise_alarm) -> None:
    webhook = hook()
    webhook.url = "http://127.0.0.1:9/nobody-listens"  # discard: refused
    webhook.save()
    alarm = raise_alarm(STREAK)
    [attempt] = WebhookAttempt.objects.filter(delivery__alarm=alarm)
    assert attempt.status_code is None and "ConnectionRefusedError" in attempt.error
    assert Alarm.objects.filter(pk=alarm.pk).exists()


def test_retries_back_off_from_ten_seconds_doubling_up_to_ten_minutes() -> None:
    assert [webhooks.retry_delay(n, jitter=1) for n in range(1, 10)] == [10, 20, 40, 80, 160, 320, 600, 600, 600]
    assert webhooks.retry_delay(1, jitter=0) == 7.5


def test_celery_beat_runs_the_webhook_sweep_every_webhook_sweep_seconds() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["webhook-sweep"]
    assert entry == {"task": webhooks.SWEEP_TASK, "schedule": settings.WEBHOOK_SWEEP_SECONDS}
    assert tasks.webhook_deliveries_due_queue.name == entry["task"]
    assert tasks.webhook_delivery_attempt.name == webhooks.ATTEMPT_TASK


def test_with_a_broker_an_attempt_and_its_retry_are_celery_tasks_with_their_countdown(
    clock, receiver, hook, raise_alarm, monkeypatch, settings
) -> None:
    sent: list[tuple[str, dict]] = []
    settings.CELERY_BROKER_URL, settings.TASKS_INLINE = "redis://127.0.0.1:1/0", False
    monkeypatch.setattr(background.current_app, "send_task", lambda name, **options: sent.append((name, options)))
    receiver.answer = lambda tries, request: 500
    hook()
    alarm = raise_alarm(STREAK)
    delivery = WebhookDelivery.objects.get(alarm=alarm)
    [(name, first)] = sent
    assert name == webhooks.ATTEMPT_TASK and first["args"] == (delivery.pk,) and "countdown" not in first
    tasks.webhook_delivery_attempt(delivery.pk)  # the worker runs it: refused, its retry queued 10 s on
    [_, (name, retry)] = sent
    assert name == webhooks.ATTEMPT_TASK and retry["args"] == (delivery.pk,) and 7.5 <= retry["countdown"] <= 10
    assert log_of(delivery) == [(1, 500)]


@pytest.mark.asyncio
async def test_the_embedded_server_sweeps_webhooks_at_start_up_then_what_waited_a_period(monkeypatch) -> None:
    calls: list[float] = []
    slept: list[float] = []

    def sweep(*, older_than: float) -> int:
        calls.append(older_than)
        return 0

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            raise asyncio.CancelledError  # the server stops

    monkeypatch.setattr(webhooks, "deliveries_due_queue", sweep)
    with pytest.raises(asyncio.CancelledError):
        await webhook_sweep_forever(60, sleep=sleep)
    assert calls == [0, 60, 60] and slept == [60, 60, 60]


@pytest.mark.django_db(transaction=True)
def test_a_delivery_is_never_sent_twice_at_once(clock, receiver, hook, raise_alarm) -> None:
    """While its POST is under way (the receiver has not answered yet), another attempt
    at the same delivery (its retry's job, the sweep's, another worker's) sends nothing."""
    meanwhile: list[object] = []

    def answer(tries: int, request) -> int:
        if not meanwhile:  # the receiver's thread: another worker, mid-POST
            try:
                delivery_pk = int(request.headers["X-Baccarat-Delivery"])
                meanwhile.append(webhooks.delivery_attempt(delivery_pk=delivery_pk))
                meanwhile.append(webhooks.deliveries_due_queue())
            finally:
                connections.close_all()
        return 200

    receiver.answer = answer
    hook()
    alarm = raise_alarm(STREAK)
    assert meanwhile == [None, 0]
    assert len(receiver.received) == 1 and receiver.received[0].json["alarm"]["id"] == alarm.pk
    assert log_of(WebhookDelivery.objects.get(alarm=alarm)) == [(1, 200)]
