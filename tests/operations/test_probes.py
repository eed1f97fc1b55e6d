"""/healthz and /readyz as a load balancer asks them: no login, no redirect, no host
check; readiness names what failed, within its deadline."""

from __future__ import annotations

import json

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tables import live


def answer(response) -> dict:
    return json.loads(response.content)


def test_liveness_answers_without_touching_any_dependency(client: Client, db) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/healthz")
    assert response.status_code == 200 and answer(response) == {"status": "ok"} and len(queries) == 0


def test_readiness_checks_each_dependency(client: Client, db) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    body = answer(response)
    assert body["status"] == "ok"
    assert set(body["checks"]) >= {"database", "migrations", "cache", "channel_layer"}
    assert all(check["ok"] for check in body["checks"].values())


def test_a_probe_by_the_servers_address_over_http_is_answered_not_redirected(client: Client, db, settings) -> None:
    settings.ALLOWED_HOSTS, settings.SECURE_SSL_REDIRECT = ["baccarat.example.org"], True
    assert client.get("/", HTTP_HOST="10.0.0.5:8000").status_code == 400  # a page is refused so
    for path in ("/healthz", "/readyz"):
        assert client.get(path, HTTP_HOST="10.0.0.5:8000").status_code == 200


def test_readiness_answers_503_naming_the_cache_when_it_is_unreachable(client: Client, db, monkeypatch) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(type(caches["default"]), "set", refused)  # every thread's cache (the probe runs on its own)
    response = client.get("/readyz")
    body = answer(response)
    assert response.status_code == 503 and body["status"] == "unavailable" and body["failed"] == ["cache"]
    assert body["checks"]["cache"]["error"].startswith("ConnectionError")


def test_readiness_tells_the_public_only_what_failed_and_the_metrics_reader_why(
    client: Client, db, monkeypatch, settings
) -> None:
    """Issue 49, item 10: /readyz through the shipped proxy showed "Error 111 connecting
    to 127.0.0.1:...". From an address not allowed to read the metrics, each check's
    outcome alone; with the metrics token (or from loopback), its error and time too."""

    def refused(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(type(caches["default"]), "set", refused)
    settings.METRICS_TOKEN = "metrics-token-0123456789"
    public = client.get("/readyz", REMOTE_ADDR="203.0.113.5")
    body = answer(public)
    assert public.status_code == 503 and body["failed"] == ["cache"]
    assert body["checks"]["cache"] == {"ok": False} and body["checks"]["database"] == {"ok": True}
    assert b"127.0.0.1" not in public.content and b"Error" not in public.content
    told = answer(
        client.get("/readyz", REMOTE_ADDR="203.0.113.5", HTTP_AUTHORIZATION="Bearer metrics-token-0123456789")
    )
    assert told["checks"]["cache"]["error"].startswith("ConnectionError") and "ms" in told["checks"]["database"]


def test_readiness_names_the_channel_layer_when_pushes_could_not_be_sent(client: Client, db, monkeypatch) -> None:
    def refused() -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(live, "channel_layer_check", refused)
    monkeypatch.setattr("tables.operations.readiness._checks", None)  # made again with the check replaced
    assert answer(client.get("/readyz"))["failed"] == ["channel_layer"]


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_probes_take_only_get_and_head(client: Client, db, path: str) -> None:
    assert client.head(path).status_code == 200
    assert client.post(path).status_code != 200
