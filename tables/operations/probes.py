"""``/healthz`` and ``/readyz``: what a load balancer or an orchestrator asks a server.

- ``/healthz``, liveness: the process answers. Nothing else is touched, so a database
  outage never gets every server restarted.
- ``/readyz``, readiness: the database (and every migration applied), the cache, the
  channel layer and, when configured, the Celery broker, checked at once, answered
  within ``READY_TIMEOUT`` seconds: 200 ``{"status": "ok", "checks": {...}}``, or 503
  naming what failed.

A middleware ahead of every other answers them: no login, no session, no redirect to
HTTPS, no ``ALLOWED_HOSTS`` check (a probe comes by the server's own address and port),
no throttle. Served by gunicorn and uvicorn alike.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse

from .. import live
from .checks import Check, Checks
from .logs import LIVENESS, READINESS


def database() -> None:
    """A query answered (on a connection of the probe's thread, closed after)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()


class Migrations:
    """Every migration applied; once they are, they stay so for the life of the process."""

    applied = False

    def __call__(self) -> None:
        if self.applied:
            return
        try:
            executor = MigrationExecutor(connection)
            plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        finally:
            connection.close()
        if plan:
            migration, _ = plan[0]
            raise RuntimeError(f"{len(plan)} migrations not applied, from {migration.app_label}.{migration.name}")
        self.applied = True


def cache_check() -> None:
    """A value written and read back."""
    key = f"readiness:{os.getpid()}"
    cache.set(key, 1, timeout=30)
    if cache.get(key) != 1:
        raise RuntimeError("the cache did not keep a value")


def broker() -> None:
    """A connection to the Celery broker opened."""
    with current_app.connection_for_write() as connection_:
        connection_.ensure_connection(max_retries=1)


def readiness_checks() -> Checks:
    checks: dict[str, Check] = {
        "database": database,
        "migrations": Migrations(),
        "cache": cache_check,
        "channel_layer": live.channel_layer_check,
    }
    if settings.CELERY_BROKER_URL:
        checks["broker"] = broker
    return Checks(checks)


_checks: Checks | None = None


def readiness() -> JsonResponse:
    global _checks
    if _checks is None:
        _checks = readiness_checks()
    outcomes = _checks.run(timeout=settings.READY_TIMEOUT)
    failed = [o.name for o in outcomes if not o.ok]
    checks = {
        o.name: {"ok": o.ok, "ms": round(o.seconds * 1000, 1), **({"error": o.error} if o.error else {})}
        for o in outcomes
    }
    body = (
        {"status": "unavailable", "failed": failed, "checks": checks} if failed else {"status": "ok", "checks": checks}
    )
    response = JsonResponse(body, status=503 if failed else 200)
    response["Cache-Control"] = "no-store"
    return response


def answer_probes(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Middleware, first of all: answers the probes before anything else looks at the
    request."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.path == LIVENESS and request.method in ("GET", "HEAD"):
            response = JsonResponse({"status": "ok"})
            response["Cache-Control"] = "no-store"
            return response
        if request.path == READINESS and request.method in ("GET", "HEAD"):
            return readiness()
        return get_response(request)

    return middleware
