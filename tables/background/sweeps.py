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


async def odds_sweep_forever(interval: float, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
    older_than = 0.0  # at start-up every job of an earlier process is lost
    while True:
        try:
            stored = await sync_to_async(_sweep, thread_sensitive=False)(older_than)
            if stored:
                log.info("computed the odds of %d rounds whose job was lost", stored)
        except Exception:
            log.exception("the odds sweep failed; it runs again in %.0f s", interval)
        older_than = interval
        await sleep(interval)


def _sweep(older_than: float) -> int:
    try:
        return odds.rounds_without_odds_compute(older_than=older_than)
    finally:
        close_old_connections()  # a thread of the executor: give its connection back


async def webhook_sweep_forever(interval: float, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
    older_than = 0.0  # at start-up every retry queued by an earlier process is lost
    while True:
        try:
            queued = await sync_to_async(_webhook_sweep, thread_sensitive=False)(older_than)
            if queued:
                log.info("queued %d webhook deliveries whose retry was lost", queued)
        except Exception:
            log.exception("the webhook sweep failed; it runs again in %.0f s", interval)
        older_than = interval
        await sleep(interval)


def _webhook_sweep(older_than: float) -> int:
    try:
        return webhooks.deliveries_due_queue(older_than=older_than)
    finally:
        close_old_connections()
