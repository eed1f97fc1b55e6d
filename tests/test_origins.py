"""The live websockets open only for pages of this site: scheme, host and port of the
Origin match the connection's own (an allowed Host), or an origin trusted for CSRF."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from config.origins import origin_allowed


def scope(origin: str | None, host: str | None = "127.0.0.1:8000", scheme: str = "ws") -> dict:
    headers = [(b"origin", origin.encode())] if origin is not None else []
    headers += [(b"host", host.encode())] if host is not None else []
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("origin", "opens"), [("http://127.0.0.1:8000", True), ("http://127.0.0.1:9999", False)])
async def test_a_page_on_another_port_of_the_same_host_cannot_open_the_lobby(origin: str, opens: bool) -> None:
    """The probe's Origin: http://127.0.0.1:9999 was accepted (the host alone was compared)."""
    headers = [(b"origin", origin.encode()), (b"host", b"127.0.0.1:8000")]
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected is opens
    await communicator.disconnect()


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:9999",  # another port
        "https://127.0.0.1:8000",  # another scheme
        "http://localhost:8000",  # another host, allowed too, but not this page's
        "http://127.0.0.1:8000/path",
        "null",
        "http://127.0.0.1:8000@evil.example",
        "",
    ],
)
def test_an_origin_that_differs_in_scheme_host_or_port_is_refused(origin: str) -> None:
    assert not origin_allowed(scope(origin))


def test_the_site_s_own_origin_is_allowed_with_or_without_its_default_port() -> None:
    assert origin_allowed(scope("http://127.0.0.1:8000"))
    assert origin_allowed(scope("HTTP://LOCALHOST", host="localhost:80"))
    assert origin_allowed(scope("http://[::1]:8000", host="[::1]:8000"))


def test_no_origin_a_doubled_one_or_a_host_that_is_not_allowed_is_refused() -> None:
    assert not origin_allowed(scope(None))
    assert not origin_allowed(scope("http://127.0.0.1:8000", host=None))
    assert not origin_allowed(scope("http://evil.example:8000", host="evil.example:8000"))
    doubled = scope("http://127.0.0.1:8000")
    doubled["headers"].append((b"origin", b"http://evil.example"))
    assert not origin_allowed(doubled)


def test_behind_the_tls_proxy_the_origin_is_https(settings) -> None:
    settings.ALLOWED_HOSTS = ["baccarat.example.org"]
    assert origin_allowed(scope("https://baccarat.example.org", host="baccarat.example.org", scheme="wss"))
    assert not origin_allowed(scope("http://baccarat.example.org", host="baccarat.example.org", scheme="wss"))


def test_origins_trusted_for_csrf_are_allowed_exactly_or_by_subdomain_wildcard(settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://dash.example.org:8443", "https://*.casino.example"]
    assert origin_allowed(scope("https://dash.example.org:8443"))
    assert not origin_allowed(scope("https://dash.example.org"))
    assert origin_allowed(scope("https://floor.casino.example"))
    assert not origin_allowed(scope("https://casino.example.evil"))
    assert not origin_allowed(scope("http://floor.casino.example"))
