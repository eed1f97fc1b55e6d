"""Failed authentications per client address (and, for admin sign-ins, per username):
past a limit in a window, the API answers 429 with ``Retry-After`` instead of 401, and
the admin login refuses before it hashes a password.

For the API, only failures are counted, and only after the token was checked: a dealer
system whose token is right is never slowed, even behind the same address as one that
keeps sending a wrong one. Counts live in the cache (Redis when scaled out, so every
process shares them; this process's memory otherwise), one key per address and window.
"""

from __future__ import annotations

import hashlib
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
    """At most ``limit`` failures per key (an address, a username) in each ``window``
    seconds (fixed windows); ``name`` keeps one throttle's counts apart from another's."""

    def __init__(
        self, *, limit: int, window: float, name: str = "auth-failures", clock: Callable[[], float] = time.time
    ) -> None:
        self.limit, self.window, self.name, self.clock = limit, window, name, clock

    def _key(self, who: str, bucket: int) -> str:
        # Usernames are the client's text: hashed, so a key is short and plain whatever they send.
        digest = hashlib.sha256(who.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return f"{self.name}:{digest}:{bucket}"

    def count(self, who: str) -> float | None:
        """Count one more of ``who`` (a failure, or any try for a plain rate limit); the
        seconds to wait when it is over the limit, else ``None``. With the cache down,
        nothing is counted or refused."""
        now = self.clock()
        bucket = int(now // self.window)
        key = self._key(who, bucket)
        try:
            cache.add(key, 0, timeout=math.ceil(self.window) + 1)
            count = cache.incr(key)
        except Exception:
            log.warning("could not count for %s", self.name, exc_info=True)
            return None
        if count <= self.limit:
            return None
        return (bucket + 1) * self.window - now

    def waiting(self, who: str) -> float | None:
        """The seconds ``who`` must wait because they have already failed ``limit`` times
        in this window, else ``None``; counts nothing. A refusal before the work is done
        (hashing a password) costs the flood, not the server."""
        now = self.clock()
        bucket = int(now // self.window)
        try:
            count = cache.get(self._key(who, bucket), 0)
        except Exception:
            log.warning("could not read failed authentications", exc_info=True)
            return None
        if count < self.limit:
            return None
        return (bucket + 1) * self.window - now


failures = FailureThrottle(limit=settings.AUTH_FAILURES_LIMIT, window=settings.AUTH_FAILURES_WINDOW)
login_failures_by_address = FailureThrottle(
    name="login-failures-address", limit=settings.LOGIN_FAILURES_LIMIT, window=settings.LOGIN_FAILURES_WINDOW
)
login_failures_by_username = FailureThrottle(
    name="login-failures-username", limit=settings.LOGIN_FAILURES_PER_USERNAME, window=settings.LOGIN_FAILURES_WINDOW
)
# One username from one address: ``who`` is "<username> <address>".
login_failures_by_username_address = FailureThrottle(
    name="login-failures-username-address",
    limit=settings.LOGIN_FAILURES_PER_USERNAME_ADDRESS,
    window=settings.LOGIN_FAILURES_WINDOW,
)
# Every process together: password hashes a second, whoever asks (a flood from many
# addresses and usernames passes the two throttles above).
login_hashes = FailureThrottle(name="login-hashes", limit=settings.LOGIN_HASHES_PER_SECOND, window=1)
