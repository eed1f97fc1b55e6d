"""Celery tasks: thin, idempotent wrappers around the work they name (safe to run twice).

Each keeps the name it had when it lived in ``tables/tasks.py`` (``tables.tasks.*``):
tasks already queued, and beat's schedule, name them so.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from .. import live
from ..demo import simulator
from ..pages import fragments
from ..surveillance import checks, webhooks
from . import odds

# Beat's periodic work: retried a few times while the database is unreachable, its
# result kept by nobody (beat runs it again next period anyway).
PERIODIC = {"ignore_result": True, "autoretry_for": (OperationalError,), "retry_backoff": True, "max_retries": 3}


@shared_task(name=odds.ODDS_TASK, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def round_odds_compute(round_pk: int) -> None:
    """Exact odds of the shoe left after a round, stored on the round and pushed."""
    odds.round_odds_compute_job(round_pk)


@shared_task(name="tables.tasks.rounds_without_odds_compute", **PERIODIC)
def rounds_without_odds_compute() -> None:
    """Beat's sweep: odds of rounds whose task was lost (with the broker's queue, or a
    process killed between its commit and queueing the task)."""
    odds.rounds_without_odds_compute(older_than=settings.ODDS_SWEEP_SECONDS)


@shared_task(name="tables.tasks.simulate_tables", ignore_result=True)
def simulate_tables() -> None:
    """Beat's demo venue: one round on every simulated table."""
    simulator.deal_scheduled()


@shared_task(name="tables.tasks.lobby_cards_render", ignore_result=True)
def lobby_cards_render() -> None:
    """Keep every table's lobby card rendered in the cache, in each language a lobby page
    shows (after a deploy or a cache flush the lobby pages would render them all)."""
    fragments.lobby_cards_keep(live.lobby_languages())


# A shoe's checks: retried while the database is unreachable (the next round queues them anyway).
CHECKS = {"ignore_result": True, "autoretry_for": (OperationalError,), "retry_backoff": True, "max_retries": 5}


@shared_task(name=checks.CHECKS_TASK, **CHECKS)
def shoe_checks_run(shoe_id: int) -> None:
    """Shoe surveillance: every check of the shoe after its latest rounds."""
    checks.shoe_checks_run(shoe_id)


@shared_task(name=checks.REFUSED_TASK, **CHECKS)
def refused_cards_check(shoe_id: int, cards: list[str]) -> None:
    """Shoe surveillance: a round refused for a card the shoe no longer holds."""
    checks.refused_cards_check(shoe_id, cards)


@shared_task(name=webhooks.ATTEMPT_TASK, ignore_result=True)
def webhook_delivery_attempt(delivery_pk: int) -> None:
    """One attempt at sending an alarm to a webhook; it queues its own retry (a failure
    to reach the database leaves the delivery to the sweep)."""
    webhooks.delivery_attempt_job(delivery_pk)


@shared_task(name=webhooks.SWEEP_TASK, **PERIODIC)
def webhook_deliveries_due_queue() -> None:
    """Beat's sweep: webhook deliveries whose retry was lost, queued again."""
    webhooks.deliveries_due_queue(older_than=settings.WEBHOOK_SWEEP_SECONDS)
