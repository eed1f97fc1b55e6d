"""Which pages may open the live websockets: this site's own, and the origins trusted for
CSRF; nothing else.

An origin is scheme, host and port. The site's own origin is the one the connection
names: its scheme (``wss`` behind the TLS proxy, whose X-Forwarded-Proto uvicorn reads)
and its Host header, which must be one of ``ALLOWED_HOSTS``: the check Django's CSRF
protection makes of a form's Origin. Channels' AllowedHostsOriginValidator compared the
host alone, so a page served from any port of an allowed host (``http://127.0.0.1:9999``)
could open them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import validate_host

Scope = dict[str, Any]
Application = Callable[..., Awaitable[None]]
Origin = tuple[str, str, int]  # scheme, host (lower case), port

DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` as a browser sends it in Origin; ``None`` for anything else."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path or parts.query or parts.username:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def own_origin(scope: Scope) -> Origin | None:
    """The origin of this site as the connection names it, if its Host is allowed."""
    host = _header(scope, b"host")
    if host is None:
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    origin = parse_origin(f"{scheme}://{host}")
    if origin is None:
        return None
    name = f"[{origin[1]}]" if ":" in origin[1] else origin[1]  # ALLOWED_HOSTS brackets IPv6 addresses
    if not validate_host(name, settings.ALLOWED_HOSTS):
        return None
    return origin


def trusted(origin: Origin) -> bool:
    """One of ``CSRF_TRUSTED_ORIGINS``, where ``https://*.example.org`` stands for every
    subdomain, as in Django."""
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        pattern = parse_origin(entry.replace("://*.", "://", 1))
        if pattern is None or (pattern[0], pattern[2]) != (scheme, port):
            continue
        if host == pattern[1] if not wildcard else host.endswith("." + pattern[1]):
            return True
    return False


def origin_allowed(scope: Scope) -> bool:
    """A websocket opened by a page of this site (or of an origin trusted for CSRF)."""
    text = _header(scope, b"origin")
    origin = parse_origin(text) if text is not None else None
    if origin is None:
        return False
    return origin == own_origin(scope) or trusted(origin)


def _header(scope: Scope, name: bytes) -> str | None:
    """The header's value; ``None`` when it is missing or sent more than once."""
    values = [value for key, value in scope.get("headers", []) if key.lower() == name]
    return values[0].decode("latin-1") if len(values) == 1 else None


class SameOriginValidator:
    """ASGI middleware for the websockets: refuses the handshake (403) unless
    :func:`origin_allowed`.

    It hands back the application's coroutine instead of awaiting it in one of its own,
    so that an open socket keeps no frame of it (a few hundred bytes a page, thousands
    of pages); the middleware around it awaits that (asgiref's single-callable check
    would take it for an ASGI 2 application: it is not for Channels' routers)."""

    def __init__(self, application: Application) -> None:
        self.application = application

    def __call__(self, scope: Scope, receive: Callable[..., Any], send: Callable[..., Any]) -> Awaitable[None]:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return WebsocketDenier()(scope, receive, send)
        return self.application(scope, receive, send)
