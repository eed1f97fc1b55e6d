"""One POST to a receiver, over by a deadline whatever the receiver does.

A socket timeout bounds each read, not the whole answer: a receiver that sends a byte
every few seconds kept a worker for minutes. Here a timer shuts the connection's socket
down when the attempt's time is up, which ends any read or write under way at once, so
an attempt takes at most ``seconds`` (plus the name lookup, which no socket bounds).

Redirects are answers, never followed: a signed POST is never re-sent elsewhere.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Sent:
    """What came of one POST: the receiver's status (``None``: no whole answer), the
    error, how long it took and how many bytes of body came back (never the body: a
    receiver's answer may be an internal page, and the log shows it to reviewers)."""

    status_code: int | None
    error: str
    duration_ms: int
    answer_bytes: int = 0

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class _Deadline:
    """Shuts ``connection``'s socket down when ``seconds`` have passed, unless cancelled."""

    def __init__(self, connection: http.client.HTTPConnection, seconds: float) -> None:
        self.connection, self.passed = connection, False
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def _cut(self) -> None:
        self.passed = True
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # closed meanwhile: the attempt ended on its own
                sock.shutdown(socket.SHUT_RDWR)


def private_addresses(host: str, port: int | None = None) -> list[str]:
    """The addresses ``host`` names (an address itself, or what the name resolves to now)
    that are not public: loopback, private ranges, link-local, multicast, reserved,
    unspecified. An empty list when all are public, or the name does not resolve."""
    try:
        found = {str(info[4][0]) for info in socket.getaddrinfo(host, port or 443, proto=socket.IPPROTO_TCP)}
    except (OSError, UnicodeError):
        return []
    return sorted(address for address in found if not ipaddress.ip_address(address.split("%")[0]).is_global)


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    *,
    seconds: float,
    read_at_most: int = 1 << 16,
    private_allowed: bool = True,
) -> Sent:
    """POST ``body`` to ``url``; the whole attempt (connect, send, the answer's status,
    headers and up to ``read_at_most`` bytes of its body) within ``seconds``. Unless
    ``private_allowed``, a URL whose host is, or resolves to, a private address is not
    sent to (a webhook pointed inside the casino's network, or at this server)."""
    started = time.monotonic()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return Sent(None, f"ValueError: not an http(s) URL: {url[:100]}", 0)
    if not private_allowed and (private := private_addresses(parts.hostname, parts.port)):
        return Sent(None, f"refused: {parts.hostname} is a private address ({', '.join(private)[:100]})", 0)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname, parts.port, timeout=seconds)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    status, error, answered = None, "", 0
    deadline = _Deadline(connection, seconds)
    try:
        with deadline:
            connection.connect()
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            answered = len(response.read(read_at_most))
            status = response.status
    except (OSError, http.client.HTTPException, ValueError) as failed:
        error = f"{type(failed).__name__}: {failed}"
    finally:
        connection.close()
    if deadline.passed and status is None:
        error = f"no whole answer within {seconds:g} s (the attempt's deadline)"
    duration_ms = round((time.monotonic() - started) * 1000)
    return Sent(status_code=status, error=error, duration_ms=duration_ms, answer_bytes=answered)
