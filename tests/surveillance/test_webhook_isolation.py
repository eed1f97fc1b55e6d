"""A slow or dead webhook receiver never stalls the odds or the shoe checks (issue 49,
item 1): an attempt is over by its deadline however slowly the receiver answers,
deliveries have a queue (and a worker) of their own on either backend, and a receiver
that keeps failing is tried once a pause (its circuit breaker), saying so on its page."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from config.celery import app
from tables.background import odds
from tables.background import runner as background
from tables.game.alarms import AlarmKind
from tables.models import Webhook, WebhookDelivery
from tables.surveillance import breaker, checks, sending, webhooks
from tests.fake_time import EPOCH
from tests.surveillance.findings import STREAK
from tests.surveillance.receiver import dripping

pytestmark = pytest.mark.django_db


def test_an_attempt_is_over_by_its_deadline_however_slowly_the_receiver_answers() -> None:
    # A byte every 0.2 s: each read succeeds long before a read timeout of 1 s would fire,
    # so only a deadline on the whole attempt ends it (the answer takes 16 s to drip).
    with dripping(every=0.2) as url:
        began = time.monotonic()
        sent = sending.post(url, b"{}", {"Content-Type": "application/json"}, seconds=1)
        took = time.monotonic() - began
    assert sent.status_code is None and not sent.ok
    assert sent.error == "no whole answer within 1 s (the attempt's deadline)"
    assert took < 4, f"the attempt took {took:.1f} s past its 1 s deadline"


def test_a_receiver_that_answers_in_time_is_read_whole_and_its_length_kept(receiver) -> None:
    sent = sending.post(receiver.url + "/x", b"{}", {}, seconds=5)
    assert (sent.status_code, sent.error, sent.answer_bytes) == (401, "", len(b'{"error": "not now"}'))


def test_with_a_broker_deliveries_go_to_their_own_queue_and_odds_and_shoe_checks_stay_on_celery() -> None:
    route = app.amqp.router.route
    queues = {name: route({}, name)["queue"].name for name in (webhooks.ATTEMPT_TASK, webhooks.SWEEP_TASK)}
    assert queues == {webhooks.ATTEMPT_TASK: "webhooks", webhooks.SWEEP_TASK: "webhooks"}
    for name in (odds.ODDS_TASK, checks.CHECKS_TASK, checks.REFUSED_TASK):
        assert route({}, name)["queue"].name == background.DEFAULT_QUEUE, name


def test_on_the_embedded_default_a_dripping_delivery_never_holds_the_odds_thread(settings) -> None:
    """The in-process runner: a delivery runs on the webhooks' thread, so a round's odds
    job queued while an attempt drips runs at once."""
    settings.TASKS_INLINE, settings.CELERY_BROKER_URL = False, None
    ran = threading.Event()
    for queue in (background.DEFAULT_QUEUE, webhooks.QUEUE):
        background.install(background.ThreadRunner(name=queue), queue=queue)
    try:
        with dripping(every=0.1) as url:
            attempting = threading.Event()

            def drip() -> None:
                attempting.set()
                sending.post(url, b"{}", {}, seconds=3)

            background.enqueue(webhooks.ATTEMPT_TASK, drip, queue=webhooks.QUEUE)
            assert attempting.wait(5)
            background.enqueue(odds.ODDS_TASK, ran.set)  # the odds' queue
            assert ran.wait(1.5), "the odds job waited for the delivery"
            background.runner(webhooks.QUEUE).drain(timeout=10)
    finally:
        for queue in (background.DEFAULT_QUEUE, webhooks.QUEUE):
            background.install(None, queue=queue)


def test_a_receiver_that_keeps_failing_is_paused_then_tried_once_a_pause_until_it_answers(
    clock, receiver, hook, raise_alarm, settings, client: Client, owner
) -> None:
    settings.WEBHOOK_BREAKER_FAILURES, settings.WEBHOOK_BREAKER_PAUSE_SECONDS = 3, 60
    receiver.answer = lambda tries, request: 500
    webhook = hook()
    # Ten alarms: ten kinds (findings of one kind on one shoe would be one alarm).
    alarms = [raise_alarm(replace(STREAK, kind=kind, key=f"run-{n}")) for n, kind in enumerate(list(AlarmKind)[:10])]
    # Three attempts fail and pause the webhook: the other seven deliveries wait, unsent.
    assert len(receiver.received) == 3
    webhook.refresh_from_db()
    started = datetime.fromtimestamp(EPOCH, tz=UTC)
    assert (webhook.failures_in_row, webhook.failing_since) == (3, started)
    assert webhook.paused_until == started + timedelta(seconds=60)
    client.force_login(owner)
    page = client.get(f"/admin/tables/webhook/{webhook.pk}/change/").content.decode()
    assert "paused: 3 attempts in a row failed since" in page and "tried again at" in page
    assert "paused until " in client.get("/admin/tables/webhook/").content.decode()
    assert WebhookDelivery.objects.filter(attempts=0).count() == 7

    clock.advance(59)  # the failed deliveries' own retries came due meanwhile: they wait too
    assert len(receiver.received) == 3
    clock.advance(2)  # the pause is over: one trial, which fails, and the pause doubles
    assert len(receiver.received) == 4
    webhook.refresh_from_db()
    assert webhook.failures_in_row == 4 and webhook.paused_until > started + timedelta(seconds=60 + 119)

    receiver.answer = lambda tries, request: 200
    clock.advance(120)  # the next trial is taken, and every waiting delivery goes after it
    assert len(receiver.received) == 4 + 10
    assert sorted(r.json["alarm"]["id"] for r in receiver.accepted()) == sorted(a.pk for a in alarms)
    assert set(WebhookDelivery.objects.values_list("state", flat=True)) == {WebhookDelivery.State.DELIVERED}
    webhook.refresh_from_db()
    assert (webhook.failures_in_row, webhook.failing_since, webhook.paused_until) == (0, None, None)
    assert "answering" in client.get("/admin/tables/webhook/").content.decode()
    Webhook.objects.filter(pk=webhook.pk).update(failures_in_row=6)
    assert "failing (6)" in client.get("/admin/tables/webhook/").content.decode()


def test_a_delivery_waiting_on_a_paused_webhook_is_abandoned_at_its_horizon(
    clock, receiver, hook, raise_alarm, settings
) -> None:
    settings.WEBHOOK_BREAKER_FAILURES, settings.WEBHOOK_GIVE_UP_SECONDS = 1, 3600
    receiver.answer = lambda tries, request: 500
    hook()
    raise_alarm(replace(STREAK, key="first"))  # fails: the webhook is paused
    clock.advance(30)
    waiting = raise_alarm(replace(STREAK, kind=AlarmKind.OUTCOMES, key="second"))
    clock.advance(2 * 3600)
    assert set(WebhookDelivery.objects.values_list("state", flat=True)) == {WebhookDelivery.State.ABANDONED}
    assert WebhookDelivery.objects.get(alarm=waiting).next_attempt_at is None
    # Two hours of a dead receiver: one trial a pause (60 s doubling to 600 s), not each
    # delivery's own backoff (about 17 attempts each over two hours).
    assert len(receiver.received) <= 16


def test_the_pause_doubles_up_to_the_longest_retry(settings) -> None:
    settings.WEBHOOK_BREAKER_FAILURES, settings.WEBHOOK_BREAKER_PAUSE_SECONDS = 5, 60
    settings.WEBHOOK_RETRY_MAX_SECONDS = 600
    assert [breaker.pause_seconds(n) for n in range(3, 11)] == [None, None, 60, 120, 240, 480, 600, 600]


def test_a_webhook_that_answers_again_is_tried_at_once(clock, receiver, hook, raise_alarm) -> None:
    webhook = hook()
    Webhook.objects.filter(pk=webhook.pk).update(failures_in_row=2)  # under the threshold: not paused
    raise_alarm(STREAK)
    webhook.refresh_from_db()
    assert len(receiver.accepted()) == 1 and webhook.failures_in_row == 0
