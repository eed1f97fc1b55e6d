"""``/healthz``, ``/readyz`` and ``/metrics``: what a load balancer, an orchestrator and
Prometheus ask a server.

- ``/healthz``, liveness: the process answers. Nothing else is touched, so a database
  outage never gets every server restarted.
- ``/readyz``, readiness: the database (and every migration applied), the cache, the
  channel layer and, when configured, the Celery broker, checked at once, answered
  within ``READY_TIMEOUT`` seconds: 200 ``{"status": "ok", "checks": {...}}``, or 503
  naming what failed (:mod:`.readiness`); each failure's error and each check's time
  only for those who may read ``/metrics``;
- ``/metrics``, for Prometheus (:mod:`.exposition`).

A middleware ahead of every other answers them: no login, no session, no redirect to
HTTPS, no ``ALLOWED_HOSTS`` check (a probe comes by the server's own address and port),
no throttle. Served by gunicorn and uvicorn alike.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from . import exposition
from .logs import LIVENESS, METRICS, READINESS
from .readiness import outcomes


def readiness(request: HttpRequest) -> JsonResponse:
    """Each check's outcome; its error and timing only for whoever may read the metrics
    (the configured addresses, loopback by default, or the metrics token): an error
    names internal addresses ("Error 111 connecting to 127.0.0.1:6379"), and /readyz is
    reachable through the proxy."""
    found = outcomes()
    failed = [o.name for o in found if not o.ok]
    detailed = exposition.allowed(request)
    checks: dict[str, dict[str, object]] = {
        o.name: {"ok": o.ok, "ms": round(o.seconds * 1000, 1), **({"error": o.error} if o.error else {})}
        if detailed
        else {"ok": o.ok}
        for o in found
    }
    body: dict[str, object] = {"status": "unavailable", "failed": failed} if failed else {"status": "ok"}
    response = JsonResponse(body | {"checks": checks}, status=503 if failed else 200)
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
            return readiness(request)
        if request.path == METRICS and request.method in ("GET", "HEAD"):
            return exposition.metrics(request)
        return get_response(request)

    return middleware
