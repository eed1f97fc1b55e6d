"""``GET /metrics``: the Prometheus text format, for the addresses and token configured.

The product's counters (:mod:`.metrics`) added up over every process of the host when
``PROMETHEUS_MULTIPROC_DIR`` is set (prometheus-client's multiprocess mode), the
process's own CPU and memory otherwise; each dependency's readiness; and a few numbers
read from the database at scrape time about the open shoes alone (so a scrape costs the
same after a year): when each open table's last round was recorded, and how many of
their rounds wait for odds.

Reachable from ``METRICS_ALLOWED_ADDRESSES`` (loopback by default; behind the proxy the
address it names) or with ``Authorization: Bearer <METRICS_TOKEN>``; anyone else 403.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

from ..access.throttles import client_address
from ..models import Round, Shoe
from .readiness import outcomes

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def allowed(request: HttpRequest) -> bool:
    """From a configured address, or with the configured token."""
    token = settings.METRICS_TOKEN
    sent = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return True
    try:
        address = ipaddress.ip_address(client_address(request))
    except ValueError:
        return False
    return any(address in network for network in settings.METRICS_ALLOWED_NETWORKS)


class OpenShoes(Collector):
    """Read at scrape time from the open shoes (a handful of rows, whatever the history)."""

    def collect(self) -> Iterator[Metric]:
        last_round = GaugeMetricFamily(
            "baccarat_table_last_activity_timestamp_seconds",
            "When an open table's last round was recorded (its shoe's start before the first)",
            labels=["table"],
        )
        waiting = GaugeMetricFamily(
            "baccarat_odds_backlog_rounds", "Rounds whose exact odds are not stored yet, in any shoe"
        )
        shoes = (
            Shoe.objects.filter(state=Shoe.State.OPEN).select_related("table").annotate(last=Max("rounds__created_at"))
        )
        try:
            open_shoes = list(shoes)
            # Every round without odds, old shoes' too (a bulk-loaded history, a sweep that
            # fell behind): read by the partial index that holds these rounds alone.
            backlog = Round.objects.filter(odds__isnull=True).count()
        except DatabaseError:
            return  # the database is down: baccarat_dependency_up says so
        for shoe in open_shoes:
            at = shoe.last or shoe.started_at
            last_round.add_metric([shoe.table.slug], at.timestamp())
        waiting.add_metric([], backlog)
        yield last_round
        yield waiting


class Dependencies(Collector):
    """What ``/readyz`` answers, as numbers: 1 for each dependency that answered."""

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily(
            "baccarat_dependency_up", "Whether the server reached each dependency (readiness)", labels=["dependency"]
        )
        for outcome in outcomes():
            up.add_metric([outcome.name], 1.0 if outcome.ok else 0.0)
        yield up


def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        errors = [{"field": "Authorization", "message": "metrics are for the configured addresses or token"}]
        return JsonResponse({"errors": errors}, status=403)
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        forget_ended_processes(Path(directory))
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        text = generate_latest(registry)
    else:
        text = generate_latest(REGISTRY)
    database = CollectorRegistry()
    database.register(Dependencies())
    database.register(OpenShoes())
    response = HttpResponse(text + generate_latest(database), content_type=CONTENT_TYPE)
    response["Cache-Control"] = "no-store"
    return response


def forget_ended_processes(directory: Path) -> None:
    """The live gauges (pages connected, odds jobs running) of processes that ended
    (a restarted worker, a killed uvicorn): not counted any more."""
    pids = {path.stem.rsplit("_", 1)[-1] for path in directory.glob("gauge_live*_*.db")}
    for pid in pids:
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            mark_process_dead(int(pid), str(directory))
