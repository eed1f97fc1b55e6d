"""Celery tasks: thin, idempotent wrappers around services (safe to run twice)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from . import odds, simulator


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def round_odds_compute(round_pk: int) -> None:
    """Exact odds of the shoe left after a round, stored on the round and pushed."""
    odds.round_odds_compute(round_pk=round_pk)


@shared_task(ignore_result=True)
def simulate_tables() -> None:
    """Beat's demo venue: one round on every simulated table."""
    simulator.deal_scheduled()
