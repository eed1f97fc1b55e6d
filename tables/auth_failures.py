"""Failed authentications per client address: past a limit in a window, the API answers
429 with ``Retry-After`` instead of 401.

Only failures are counted, and only after the token was checked: a dealer system whose
token is right is never slowed, even behind the same address as one that keeps sending
a wrong one. Counts live in the cache (Redis when scaled out, so every process shares
them; this process's memory otherwise), one key per address and window.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str:
    """The client's address: behind the TLS proxy (``HTTPS=true``) the proxy names it in
    ``X-Real-IP``; otherwise the connection's own."""
    if settings.HTTPS:
        forwarded = request.META.get("HTTP_X_REAL_IP", "").strip()
        if forwarded:
            return forwarded[:64]
    return str(request.META.get("REMOTE_ADDR", ""))


class FailureThrottle:
    """At most ``limit`` failures per address in each ``window`` seconds (fixed windows)."""

    def __init__(self, *, limit: int, window: float, clock: Callable[[], float] = time.time) -> None:
        self.limit, self.window, self.clock = limit, window, clock

    def failed(self, address: str) -> float | None:
        """Count a failure from ``address``; the seconds to wait when it is over the
        limit, else ``None``. With the cache down, nothing is counted or refused."""
        now = self.clock()
        bucket = int(now // self.window)
        key = f"auth-failures:{address}:{bucket}"
        try:
            cache.add(key, 0, timeout=math.ceil(self.window) + 1)
            count = cache.incr(key)
        except Exception:
            log.warning("could not count a failed authentication", exc_info=True)
            return None
        if count <= self.limit:
            return None
        return (bucket + 1) * self.window - now


failures = FailureThrottle(limit=settings.AUTH_FAILURES_LIMIT, window=settings.AUTH_FAILURES_WINDOW)
