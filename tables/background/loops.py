"""The loops an ASGI server of the embedded default runs beside its pages (with a
broker, Celery beat does their work instead): the odds and webhook sweeps, and the
demo tables dealing when asked to."""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any

from django.conf import settings

from ..demo.simulator import deal_forever
from .sweeps import odds_sweep_forever, webhook_sweep_forever

Loop = Callable[[], Coroutine[Any, Any, None]]


def embedded_loops(*, simulate_interval: float, card_interval: float | None = None) -> list[Loop]:
    """The server's loops: none with a broker; else the odds sweep, every
    ``ODDS_SWEEP_SECONDS`` (and at start-up), the webhook sweep, every
    ``WEBHOOK_SWEEP_SECONDS`` (and at start-up), and the demo tables dealing card by card
    when ``simulate_interval`` is positive: ``card_interval`` seconds between cards (a
    second by default), ``simulate_interval`` between rounds."""
    if settings.CELERY_BROKER_URL:
        return []
    loops: list[Loop] = [
        functools.partial(odds_sweep_forever, settings.ODDS_SWEEP_SECONDS),
        functools.partial(webhook_sweep_forever, settings.WEBHOOK_SWEEP_SECONDS),
    ]
    if simulate_interval > 0:
        loops.append(functools.partial(deal_forever, simulate_interval, card_interval=card_interval))
    return loops
