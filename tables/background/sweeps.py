"""The embedded default's sweeps for lost jobs (odds, webhook retries), run by the ASGI
server's lifespan.

With no broker, a round's odds job waits in the server's own memory: a server killed
mid-burst takes the queue with it. At start-up the server computes every round still
without odds, then looks again every ``ODDS_SWEEP_SECONDS`` for rounds that waited
that long. Webhook deliveries whose retry was lost are queued again the same way,
every ``WEBHOOK_SWEEP_SECONDS``. With a broker, Celery beat runs the same sweeps
(:mod:`.tasks`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from asgiref.sync import sync_to_async
from django.db import close_old_connections

from ..surveillance import webhooks
from . import odds

log = logging.getLogger(__name__)


Sleep = Callable[[float], Awaitable[None]]


async def odds_sweep_forever(interval: float, *, sleep: Sleep = asyncio.sleep) -> None:
    await _sweep_forever(interval, _odds_sweep, "computed the odds of %d rounds whose job was lost", "odds", sleep)


async def webhook_sweep_forever(interval: float, *, sleep: Sleep = asyncio.sleep) -> None:
    done = "queued %d webhook deliveries whose retry was lost"
    await _sweep_forever(interval, _webhook_sweep, done, "webhook", sleep)


async def _sweep_forever(interval: float, sweep: Callable[[float], int], done: str, name: str, sleep: Sleep) -> None:
    """Run ``sweep`` at once, for everything an earlier process left (at start-up every job
    it queued is lost), then every ``interval`` for what waited that long; log what it
    found (``done``), and a failure without stopping."""
    older_than = 0.0
    while True:
        try:
            found = await sync_to_async(_in_own_connection, thread_sensitive=False)(sweep, older_than)
            if found:
                log.info(done, found)
        except Exception:
            log.exception("the %s sweep failed; it runs again in %.0f s", name, interval)
        older_than = interval
        await sleep(interval)


def _in_own_connection(sweep: Callable[[float], int], older_than: float) -> int:
    try:
        return sweep(older_than)
    finally:
        close_old_connections()  # a thread of the executor: give its connection back


def _odds_sweep(older_than: float) -> int:
    return odds.rounds_without_odds_compute(older_than=older_than)


def _webhook_sweep(older_than: float) -> int:
    return webhooks.deliveries_due_queue(older_than=older_than)
