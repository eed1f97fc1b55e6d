"""Rounds whose odds job was lost get their odds, and their pages are pushed: at server
start-up and periodically on the embedded default, from Celery beat with a broker.

The probe killed the server mid-burst: 448 of 1,041 rounds kept no odds, their pages
showing "pending" for ever."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from config.asgi import build_application
from tables import services
from tables.background import odds, tasks
from tables.background.sweeps import odds_sweep_forever, webhook_sweep_forever
from tables.live import table_group
from tables.models import Round
from tests.html import find_all
from tests.pushes import Recorder, page_opens
from tests.rounds import SEED

OTHER = {"player": ["9H", "KS"], "banker": ["2C", "4C"]}


def rounds_whose_jobs_were_lost(table, count: int) -> list[Round]:
    services.shoe_start(table=table)
    recorded = [services.round_record(table=table, **(SEED if i % 2 else OTHER)).round for i in range(count)]
    Round.objects.filter(shoe__table=table).update(odds=None)  # the queue died with its server
    return recorded


@pytest.mark.django_db(transaction=True)
def test_rounds_without_odds_get_them_and_their_table_pages_are_pushed(training_room, pushes: Recorder) -> None:
    table, _ = training_room
    other, _ = services.table_create(slug="baccarat-2", name="Baccarat 2")
    rounds_whose_jobs_were_lost(table, 3)
    rounds_whose_jobs_were_lost(other, 2)
    page_opens(table_group(table.slug))
    assert odds.rounds_without_odds_compute() == 5
    assert not Round.objects.filter(odds__isnull=True).exists()
    [pushed] = pushes.to(table_group(table.slug))
    assert find_all(pushed, "section", id="odds") and "after round 3" in pushed
    assert odds.rounds_without_odds_compute() == 0  # nothing left: a second sweep is harmless


@pytest.mark.django_db
def test_a_periodic_sweep_leaves_shoes_whose_rounds_are_younger_than_its_period_to_their_queued_job(
    baccarat_1,
) -> None:
    table, _ = baccarat_1
    other, _ = services.table_create(slug="baccarat-2", name="Baccarat 2")
    [old] = rounds_whose_jobs_were_lost(table, 1)
    [young] = rounds_whose_jobs_were_lost(other, 1)
    Round.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(seconds=61))
    assert odds.rounds_without_odds_compute(older_than=60) == 1
    assert Round.objects.get(pk=old.pk).odds is not None
    assert Round.objects.get(pk=young.pk).odds is None


def test_celery_beat_runs_the_sweep_every_odds_sweep_seconds() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["odds-sweep"]
    assert entry == {"task": "tables.tasks.rounds_without_odds_compute", "schedule": settings.ODDS_SWEEP_SECONDS}
    assert tasks.rounds_without_odds_compute.name == entry["task"]


@pytest.mark.django_db
def test_the_beat_task_computes_lost_odds(baccarat_1) -> None:
    table, _ = baccarat_1
    rounds_whose_jobs_were_lost(table, 2)
    Round.objects.update(created_at=timezone.now() - timedelta(seconds=settings.ODDS_SWEEP_SECONDS + 1))
    tasks.rounds_without_odds_compute()
    assert not Round.objects.filter(odds__isnull=True).exists()


@pytest.mark.asyncio
async def test_the_embedded_server_sweeps_everything_at_start_up_then_what_waited_a_period(monkeypatch) -> None:
    calls: list[float] = []
    slept: list[float] = []

    def sweep(*, older_than: float) -> int:
        calls.append(older_than)
        return 0

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            raise asyncio.CancelledError  # the server stops

    monkeypatch.setattr(odds, "rounds_without_odds_compute", sweep)
    with pytest.raises(asyncio.CancelledError):
        await odds_sweep_forever(60, sleep=sleep)
    assert calls == [0, 60, 60] and slept == [60, 60, 60]


def test_the_embedded_server_runs_the_sweep_in_its_lifespan_and_a_broker_leaves_it_to_beat(settings) -> None:
    settings.CELERY_BROKER_URL = None  # the embedded default
    lifespan = build_application(simulate_interval=0).app
    assert [work.func for work in lifespan.background] == [odds_sweep_forever, webhook_sweep_forever]
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    assert build_application(simulate_interval=0).app.background == []


@pytest.mark.django_db
def test_one_sweep_at_a_time_and_each_a_bounded_batch_of_the_newest_shoes(baccarat_1) -> None:
    """Issue 49, item 10: two sweeps over a bulk-loaded history held both workers for
    8 minutes. A sweep under way elsewhere means this one does nothing; a sweep takes at
    most its batch of shoes, the newest first, and the next sweep the next ones."""
    table, _ = baccarat_1
    for _ in range(3):  # three shoes whose rounds lost their odds
        rounds_whose_jobs_were_lost(table, 2)
    newest = table.shoes.order_by("-number").first()
    assert cache.add(odds.SWEEP_LOCK, "another process", timeout=60)
    assert odds.rounds_without_odds_compute(shoes=1) == 0  # another sweep is under way
    cache.delete(odds.SWEEP_LOCK)
    assert odds.rounds_without_odds_compute(shoes=1) == 2
    assert not Round.objects.filter(shoe=newest, odds__isnull=True).exists()
    assert Round.objects.filter(odds__isnull=True).count() == 4  # the older shoes: the next sweeps
    assert cache.get(odds.SWEEP_LOCK) is None  # given back
    assert odds.rounds_without_odds_compute(shoes=1) == 2
    assert odds.rounds_without_odds_compute(shoes=1) == 2
    assert not Round.objects.filter(odds__isnull=True).exists()
